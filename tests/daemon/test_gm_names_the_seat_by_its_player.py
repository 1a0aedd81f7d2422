"""gmattack A1: after `substitute 白色的猫 路人甲` (its post out: 「白色的猫 退出，由替补 路人甲 接替。」),
`override exit 白色的猫` was accepted and proposed 「白色的猫 退出游戏。」: the players read that the
one who left went out, and nobody told 路人甲. A GM command naming a player who left his seat is
refused, naming who plays it now."""

from __future__ import annotations

import pytest

from shenshi.daemon import gm_commands
from shenshi.errors import UserError
from tests.daemon.helpers import UIDS, at, started
from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID


@pytest.mark.parametrize("command", [("exit", []), ("ballot", ["老王"]), ("void", ["祈祷"])])
def test_a_command_naming_the_player_who_left_names_his_substitute(tmp_path, monkeypatch, command) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(1))
    gm_commands.substitute(svc, "白色的猫", NEWCOMER, uid=NEWCOMER_UID)
    what, rest = command
    with pytest.raises(UserError) as refused:
        gm_commands.correct(svc, what, ["白色的猫", *rest])
    assert f"请写 {NEWCOMER}" in str(refused.value) and "没有改动" in str(refused.value), refused.value
    assert svc.referee.state.is_alive("白色的猫")  # the seat, still under its holder's name in the core


def test_rejecting_an_exit_post_says_the_exit_stands(tmp_path) -> None:
    """gmattack A1: `reject` of the exit post printed 「已放弃」 and nothing else; the exit stood,
    unannounced, and the GM believed he had taken it back."""
    from shenshi.daemon.gm_commands import outbox_action
    from tests.daemon.helpers import announcements

    svc, clock = started(tmp_path)
    clock.set(at(1))
    gm_commands.correct(svc, "exit", ["Rex"], reason="本人申请退出")
    [post] = [a for a in announcements(svc) if a.kind == "exit"]
    said = outbox_action(svc, "reject", [post.id])
    assert any("不会撤销这次退出" in line and f"--undo {post.id}" in line for line in said.lines), said.lines


def test_a_substitute_whose_seat_went_out_moves_no_later_clock(tmp_path, monkeypatch) -> None:
    """gmattack A6: night 1's substitute of a seat the GM then put out (he never entered) kept
    lengthening every later step: day 1's vote closed 12 h late."""

    from shenshi.daemon.gm_commands import mark_published
    from tests.daemon.helpers import announcements

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(1))
    gm_commands.substitute(svc, "白色的猫", NEWCOMER, uid=NEWCOMER_UID)
    gm_commands.correct(svc, "exit", [NEWCOMER], reason="本人申请退出")  # the seat he was taking
    clock.set(at(40))  # the night (24 h, +12 h for the substitution) is over
    svc.tick()
    mark_published(svc, [a.id for a in announcements(svc) if a.destination_kind.value == "thread" and a.published_at is None])
    svc.tick()
    state = svc.referee.state
    assert state.phase.value == "day" and state.pending_substitutions == ()
    times = svc.referee.times()
    plain = svc.referee.ruleset.phase_times(state, state.phase, state.number, state.params["opened_at"])
    assert times.closes == plain.closes and times.rounds[1] == plain.rounds[1]


def test_a_correction_names_the_seat_by_who_plays_it(tmp_path, monkeypatch) -> None:
    """gmattack A11: `override ballot 新人丙 新人丙` answered 「Lily99 的选票改记为 Lily99」."""
    from tests.daemon.helpers import vote_opened_by_the_daemon

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    vote_opened_by_the_daemon(svc, clock)
    gm_commands.substitute(svc, "Lily99", NEWCOMER, uid=NEWCOMER_UID)
    said = gm_commands.correct(svc, "ballot", [NEWCOMER, "老王"], reason="读不出")
    assert NEWCOMER in said.lines[0] and "Lily99 的选票" not in said.lines[0], said.lines


def test_a_seat_out_takes_no_role_pm_at_every_event(tmp_path, monkeypatch) -> None:
    """recheck2 N1: once a substitute's seat went out, his role PM was proposed anew and
    withdrawn at every later event (13 copies in `review --all`)."""
    from tests.daemon.helpers import announcements, pm
    from tests.daemon.test_status import feed

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(1))
    gm_commands.substitute(svc, "白色的猫", NEWCOMER, uid=NEWCOMER_UID)
    gm_commands.correct(svc, "exit", [NEWCOMER], reason="本人申请退出")
    for i, (who, text) in enumerate((("小明", "占卜 老王"), ("月光", "束魂 Rex"), ("Tom_2", "祈祷 Rex"))):
        feed(svc, pm(who, text, 1.1 + i / 10))
    roles = [a for a in announcements(svc) if a.kind == "role" and a.destination == NEWCOMER]
    assert len(roles) <= 1, [(a.id, a.state) for a in roles]


@pytest.mark.parametrize("kind", ["substitution", "exit"])
def test_rejecting_a_corrections_post_says_the_correction_stands(tmp_path, monkeypatch, kind) -> None:
    """recheck2 A5: `reject` of the substitution's post printed 「已放弃」; the substitute still
    took the seat (and his role PM went out), unannounced, and the GM believed it undone."""
    from shenshi.daemon.gm_commands import outbox_action
    from tests.daemon.helpers import announcements

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(1))
    if kind == "substitution":
        gm_commands.substitute(svc, "白色的猫", NEWCOMER, uid=NEWCOMER_UID)
    else:
        gm_commands.correct(svc, "exit", ["白色的猫"], reason="本人申请退出")
    [post] = [a for a in announcements(svc) if a.kind == kind]
    said = outbox_action(svc, "reject", [post.id])
    words = "替补" if kind == "substitution" else "退出"
    assert any(f"不会撤销这次{words}" in line and f"--undo {post.id}" in line for line in said.lines), said.lines
    assert not any("（（" in line or "）（" in line for line in said.lines), said.lines


def test_a_second_substitute_in_one_step_is_refused_in_words_that_agree(tmp_path, monkeypatch) -> None:
    """gmattack2 F1: the refusal said the substitute plays 「从现在起」 and only 「入座」 at the step's
    end, in one answer; 「substitute 路人甲 路人甲」 got the same refusal, not that he plays."""
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    monkeypatch.setitem(UIDS, "admin", "78")
    svc, clock = started(tmp_path)
    clock.set(at(1))
    gm_commands.substitute(svc, "老王", NEWCOMER, uid=NEWCOMER_UID)
    with pytest.raises(UserError) as again:
        gm_commands.substitute(svc, NEWCOMER, "admin", uid="78")
    assert "入座后" not in str(again.value) and "本阶段结束后" in str(again.value), again.value
    with pytest.raises(UserError) as himself:
        gm_commands.substitute(svc, NEWCOMER, NEWCOMER, uid="78")
    assert f"{NEWCOMER} 已经在本局中" in str(himself.value), himself.value


def test_a_substitute_for_a_seat_the_gm_put_out_says_why_not(tmp_path, monkeypatch) -> None:
    """gmattack2 F16: after `override exit Rex`, `substitute Rex 路人甲` was refused as 「Rex 已出局：
    替补只能接替存活的座位」, the exit post not out yet: the answer says the exit was recorded and
    stands, and the exit's own answer said so first."""
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(1))
    said = gm_commands.correct(svc, "exit", ["Rex"])
    assert "记录后不能撤销" in said.lines[0], said.lines
    with pytest.raises(UserError) as refused:
        gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    assert "已用 override exit 记为退出" in str(refused.value) and "不能撤销" in str(refused.value), refused.value


def test_an_exit_at_night_says_the_actions_it_voids(tmp_path) -> None:
    """newcomer2 F18: a curser's accepted 「诅咒 阿杰」 was dropped at dawn (an action of one out)
    and the GM was not told when he recorded the exit."""
    from tests.daemon.helpers import pm
    from tests.daemon.test_status import feed

    svc, clock = started(tmp_path)
    feed(svc, pm("Tom_2", "祈祷 Rex", 0.1))
    clock.set(at(1))
    said = gm_commands.correct(svc, "exit", ["Tom_2"], reason="本人申请退出")
    assert any("Tom_2 今晚已提交的行动（祈祷 Rex）随他出局不再计入" in line for line in said.lines), said.lines


def test_an_alerts_next_step_names_the_seat_by_who_plays_it_now(tmp_path, monkeypatch) -> None:
    """gmattack3 F1: after `substitute`, an alert raised before it still offered 「override void
    小红 占卜」, which the command then refused (「请写 admin」). Its steps name the substitute,
    in its pickers too, and run as offered."""
    from tests.daemon.helpers import alerts, pm
    from tests.daemon.test_status import feed

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    declaration = "杀人宣言：" + "月光下的小巷里，风吹过破旧的招牌，" * 8
    feed(svc, pm("夜行者", f"杀 Rex\n{declaration}", 0.5))
    feed(svc, pm("老王", f"杀 小明\n{declaration}", 0.6))  # the killers disagree
    clock.set(at(1))
    gm_commands.substitute(svc, "老王", NEWCOMER, uid=NEWCOMER_UID)
    [alert] = [a for a in alerts(svc) if a.kind == "joint_disagreement" and a.resolved_at is None]
    hints = svc.advice(alert).hints
    voids = [h for h in hints if h.args[:1] == ("void",)]
    assert {h.args[1] for h in voids} == {"夜行者", NEWCOMER}, [h.text() for h in hints]
    [theirs] = [h for h in voids if h.args[1] == NEWCOMER]
    said = gm_commands.run_hint(svc, theirs)
    assert said.refused == () and ("老王", "kill") not in {(s.actor, s.action) for s in svc.referee.state.submissions}

