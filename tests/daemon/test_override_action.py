"""``shenshi override action`` (issue 20): the GM enters a night action intake could not read,
by id or in Chinese, for any ruleset (a kill with its declaration, a cannon and its platform,
a werewolf skill), validated as the player's own PM would be; it is an event like every
correction (a restarted service rebuilds it), and the alert it answers closes itself."""

from __future__ import annotations

import shlex
from dataclasses import replace

import pytest

from shenshi.daemon.gm_commands import enter_action, run_hint
from shenshi.daemon.status import build_status
from shenshi.demo.script import load_script
from shenshi.errors import UserError
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import START, alerts, announcements, at, pm, started
from tests.daemon.test_status import feed

DECLARATION = "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6


def service(tmp_path, ruleset: str = "game6-10", script=None):
    return started(tmp_path, ruleset, script=script)


def test_the_hint_of_a_misspelt_kill_enters_it_and_closes_the_alert(tmp_path) -> None:
    svc, clock = service(tmp_path)
    feed(svc, pm("夜行者", f"杀 夜行着\n杀人宣言：{DECLARATION}", 0.05))
    [view] = build_status(svc).alerts
    [hint] = view.advice.hints
    assert hint.args == ("action", "夜行者", "杀", "夜行者")  # the one close name, filled in
    assert dict(hint.options) == {"--pm": str(alerts(svc)[0].evidence_id)}  # its time and declaration
    clock.set(at(2))
    said = run_hint(svc, replace(hint, args=(*hint.args[:3], "Rex")))  # the GM reads it otherwise
    assert said.lines[0] == "已记录：补录 夜行者 的行动：杀 Rex（代替读不出的私信）"
    assert not any("没有杀人宣言" in line for line in said.lines)  # the PM's declaration came with it
    [sub] = svc.referee.state.submissions
    assert (sub.actor, sub.action, sub.target, sub.extra["gm"]) == ("夜行者", "kill", "Rex", True)
    assert sub.extra["declaration_chars"] >= 100
    assert sub.t == START.replace(minute=3)  # when the PM was sent (to the minute), not now
    [alert] = alerts(svc)
    assert alert.resolved_at is not None and alert.resolution == "天神补记：夜行者 杀 Rex"


def test_a_misspelt_kill_with_its_declaration_is_entered_as_the_player_wrote_it(tmp_path) -> None:
    """The rehearsal's case: 老王 writes 杀 夜行着 with a 157-character declaration; following the
    hint as it stands records the kill on the name that came close, with that declaration (a
    kill without one would be void), and the CLI line can be typed as shown."""
    svc, clock = service(tmp_path)
    declaration = "月黑风高，他提着灯笼走过长街。 " + "那一夜风雨交加，雷声在远处的山谷里回荡。" * 7
    feed(svc, pm("老王", f"杀 夜行着\n杀人宣言：\n{declaration}", 0.05))
    [view] = build_status(svc).alerts
    [hint] = view.advice.hints
    assert hint.args == ("action", "老王", "杀", "夜行者") and not hint.blanks
    typed = shlex.split(hint.text())  # what the GM copies from ``shenshi status``: short (newcomer2 F1)
    number = str(alerts(svc)[0].evidence_id)
    assert typed == ["shenshi", "override", "action", "老王", "杀", "夜行者", "--pm", number], typed
    said = run_hint(svc, hint)
    assert not any("没有杀人宣言" in line for line in said.lines), said.lines
    [sub] = svc.referee.state.submissions
    assert (sub.actor, sub.target) == ("老王", "夜行者") and not sub.extra.get("declaration_missing")
    assert sub.extra["declaration_chars"] >= 150
    assert all(a.resolved_at is not None for a in alerts(svc))


def test_an_entered_action_is_an_event_that_a_restart_rebuilds(tmp_path) -> None:
    svc, _ = service(tmp_path)
    enter_action(svc, ["小明", "divine", "老王"])  # by its id
    enter_action(svc, ["夜行者", "杀", "Rex"], declaration=DECLARATION)  # in Chinese
    before = svc.referee.state.submissions
    svc.rebuild()
    assert svc.referee.state.submissions == before
    assert [(s.actor, s.action, s.target) for s in before] == [("小明", "divine", "老王"), ("夜行者", "kill", "Rex")]
    assert before[1].extra["declaration_chars"] >= 100


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["小明", "杀", "老王"], "没有「杀」的能力"),  # a power his role does not have
        (["夜行者", "杀", "老五"], "不是本局玩家"),  # a name that fits nobody
        (["夜行者", "杀"], "没写对象"),
        (["小明", "砍", "老王"], "不是本局的行动"),
    ],
)
def test_what_a_players_pm_could_not_do_the_gm_cannot_enter(tmp_path, args, says) -> None:
    svc, _ = service(tmp_path)
    with pytest.raises(UserError) as refused:
        enter_action(svc, args)
    assert "没有改动" in str(refused.value)
    if says != "没写对象":
        assert says in str(refused.value)
    assert svc.referee.state.submissions == ()


def test_a_chess_cannon_is_entered_with_its_platform(tmp_path) -> None:
    from shenshi.daemon.gm_commands import mark_published
    from tests.daemon.helpers import announcement

    svc, clock = service(tmp_path, "chess32", load_script("chess32"))
    clock.set(at(48))
    svc.tick()  # day 1 closes (nobody voted)
    mark_published(svc, [announcement(svc, svc.referee.gate_key()).id])
    clock.set(at(48.5))
    svc.tick()
    assert svc.referee.state.phase.value == "night"
    enter_action(svc, ["老王", "炮打", "刘邦", "炮架子", "韩信"])
    [sub] = svc.referee.state.submissions
    assert (sub.action, sub.target, sub.extra["platform"]) == ("cannon_kill", "刘邦", "韩信")


def test_a_werewolf_skill_is_entered_as_its_tree_hole_reply_would_be(tmp_path) -> None:
    svc, clock = service(tmp_path, "werewolf", load_script("werewolf"))
    enter_action(svc, ["白色的猫", "pair_lovers", "月光", "Rex"])
    [sub] = svc.referee.state.submissions
    assert (sub.action, sub.target, sub.extra["target2"]) == ("pair_lovers", "月光", "Rex")


def test_an_entered_kill_supersedes_the_refusal_receipt_of_its_pm(tmp_path) -> None:
    """The refusal ("未受理：杀 夜行着——没有找到玩家…请写对名字后重新发送") must not reach the
    player once the GM recorded the kill: it is superseded by a receipt of what was recorded,
    and the GM is told so."""
    from tests.daemon.helpers import announcements

    svc, clock = service(tmp_path)
    feed(svc, pm("老王", f"杀 夜行着\n杀人宣言：{DECLARATION}", 0.05))
    [refusal] = [a for a in announcements(svc) if a.kind == "receipt"]
    assert refusal.text.startswith("未受理：杀 夜行着") and refusal.destination == "老王"
    [view] = build_status(svc).alerts
    said = run_hint(svc, view.advice.hints[0])
    receipts = {a.id: a for a in announcements(svc) if a.kind == "receipt"}
    assert receipts[refusal.id].state.value == "superseded"
    [standing] = [a for a in receipts.values() if a.state.value in ("proposed", "approved")]
    assert standing.destination == "老王" and standing.text.startswith("天神已按你的私信「杀 夜行着」代为记录——已收到：今晚杀 夜行者")
    assert "杀 夜行着" in standing.text and "未受理" not in standing.text
    assert receipts[refusal.id].superseded_by == standing.id
    assert any(f"#{refusal.id}" in line and f"#{standing.id}" in line for line in said.lines), said.lines


def test_an_entered_kill_after_its_refusal_went_out_tells_the_player_what_was_recorded(tmp_path) -> None:
    from shenshi.daemon.gm_commands import mark_published
    from tests.daemon.helpers import announcements

    svc, clock = service(tmp_path)
    feed(svc, pm("老王", f"杀 夜行着\n杀人宣言：{DECLARATION}", 0.05))
    [refusal] = [a for a in announcements(svc) if a.kind == "receipt"]
    mark_published(svc, [refusal.id])  # the player read "未受理"
    [view] = build_status(svc).alerts
    run_hint(svc, view.advice.hints[0])
    after = [a for a in announcements(svc) if a.kind == "receipt" and a.id != refusal.id]
    assert [(a.destination, a.state.value) for a in after] == [("老王", "proposed")]
    assert "已收到：今晚杀 夜行者" in after[0].text


def test_an_entered_kill_that_disagrees_with_the_partner_promises_no_early_close(tmp_path) -> None:
    """newcomer N4: the entered kill's receipt said 「行动全部到齐后会提前结算」 while the unit
    disagreed (his partner's receipt and the disagreement PM said the opposite)."""
    from tests.daemon.helpers import announcements

    svc, clock = service(tmp_path)
    feed(svc, pm("夜行者", f"杀 夜行着\n杀人宣言：{DECLARATION}", 0.05))
    feed(svc, pm("老王", f"杀 Rex\n杀人宣言：{DECLARATION}", 0.06))
    [view] = [v for v in build_status(svc).alerts if v.subject == "夜行者"]
    run_hint(svc, view.advice.hints[0])
    [entered] = [a for a in announcements(svc) if a.kind == "receipt" and a.destination == "夜行者"
                 and a.state.value == "proposed"]
    assert "代为记录" in entered.text and "统一之前不会提前结算" in entered.text
    assert "行动全部到齐后会提前结算" not in entered.text


def test_one_entry_answers_every_pm_it_settles_with_one_receipt(tmp_path) -> None:
    """newcomer (2026-12-02) N-3: a killer's first PM had no declaration (its receipt out), his
    second misspelt the name; the GM's one entry settled both alerts and proposed two receipts,
    one quoting a PM 「杀」 he never wrote. One entry is one receipt: it replaces the pending
    refusal and quotes the PM that was entered."""
    from shenshi.daemon.gm_commands import mark_published
    from tests.daemon.helpers import announcements

    svc, clock = service(tmp_path)
    feed(svc, pm("老王", "杀 Rex", 0.05))
    [first] = [a for a in announcements(svc) if a.kind == "receipt"]
    mark_published(svc, [first.id])
    feed(svc, pm("老王", f"改杀 夜行着\n杀人宣言：{DECLARATION}", 0.06))
    [refusal] = [a for a in announcements(svc) if a.kind == "receipt" and a.id != first.id]
    assert refusal.text.startswith("未受理") and "夜行着" in refusal.text
    [view] = [v for v in build_status(svc).alerts if "夜行着" in v.message]
    run_hint(svc, view.advice.hints[0])
    pending = [a for a in announcements(svc) if a.kind == "receipt" and a.state.value in ("proposed", "approved")]
    assert [(a.destination, a.superseded_by) for a in pending] == [("老王", None)], [a.text for a in pending]
    assert "「改杀 夜行着」" in pending[0].text or "「杀 夜行着」" in pending[0].text, pending[0].text


def test_marking_an_exit_that_waits_for_confirmation_published_is_refused_cleanly(tmp_path) -> None:
    """(found by the console fix's helper) `shenshi published ID` on a missed sign-in's exit,
    which waits for the GM's confirmation, died with 'a unit of work is already open'."""
    from shenshi.daemon.gm_commands import mark_published
    from tests.daemon.helpers import announcements

    svc, clock = service(tmp_path)
    clock.set(at(25))
    svc.tick()
    waiting = [a for a in announcements(svc) if a.state.value == "unconfirmed"]
    assert waiting
    said = mark_published(svc, [waiting[0].id])
    assert not said.ids and said.refused and "确认" in said.refused[0], said


def test_the_pm_option_is_refused_for_a_pm_no_alert_is_about(tmp_path) -> None:
    from shenshi.errors import UserError

    svc, clock = service(tmp_path)
    with pytest.raises(UserError, match="没有 夜行者 第 99 条私信的提醒"):
        enter_action(svc, ["夜行者", "杀", "Rex"], pm="99")
    with pytest.raises(UserError, match="--pm 要写私信的编号"):
        enter_action(svc, ["夜行者", "杀", "Rex"], pm="x")
    assert svc.referee.state.submissions == ()


def test_the_pm_option_takes_the_number_the_alert_shows(tmp_path) -> None:
    """recheck3 F9: the alert's evidence said 「→ PM 44」 (the forum's number) and the hint
    `--pm 71` (the stored one); typing 44 was refused. Either is the PM."""
    svc, clock = service(tmp_path)
    feed(svc, pm("夜行者", f"杀 夜行着\n杀人宣言：{DECLARATION}", 0.05))
    [alert] = alerts(svc)
    with svc.store.snapshot() as uow:
        shown = uow.evidence.get(alert.evidence_id).forum_id
    enter_action(svc, ["夜行者", "杀", "Rex"], pm=shown)
    [sub] = svc.referee.state.submissions
    assert sub.extra["declaration_chars"] >= 100 and sub.t == START.replace(minute=3)


def test_the_receipt_of_an_entry_the_gm_then_voids_is_withdrawn(tmp_path) -> None:
    """recheck3 F10: after `override void 小明 杀`, his pending 「天神已按你的私信…代为记录——已收到：
    今晚杀 夜行者」 still waited to be sent."""
    from shenshi.daemon.gm_commands import correct, run_hint

    svc, clock = service(tmp_path)
    feed(svc, pm("夜行者", f"杀 夜行着\n杀人宣言：{DECLARATION}", 0.05))
    [view] = build_status(svc).alerts
    run_hint(svc, view.advice.hints[0])
    assert [a for a in announcements(svc, PENDING) if a.destination == "夜行者" and "代为记录" in a.text]
    correct(svc, "void", ["夜行者", "杀"])
    assert not [a for a in announcements(svc, PENDING) if a.destination == "夜行者" and "代为记录" in a.text]


def test_an_action_entered_for_a_pm_that_was_no_command_is_told_to_its_player(tmp_path) -> None:
    """newcomer4 C3: 「今晚我想把魂绑在坐我左边那位身上…」, no command, entered by the GM from its
    alert: the player got no receipt at all (only a PM refused with a receipt was answered)."""
    from shenshi.daemon.gm_commands import run_hint
    from shenshi.store.outbox import PENDING
    from tests.daemon.helpers import alerts, announcements, pm, started
    from tests.daemon.test_status import feed

    svc, clock = started(tmp_path)
    feed(svc, pm("月光", "今晚我想把魂绑在坐我左边那位身上", 0.5))
    [alert] = [a for a in alerts(svc) if a.subject == "月光" and a.resolved_at is None]
    [entry] = [h for h in svc.advice(alert).hints if h.args[:1] == ("action",)]
    filled = entry.fill(*[("束魂" if b.what == "行动" else "阿杰") for b in entry.blanks])
    assert run_hint(svc, filled).refused == ()
    [told] = [a for a in announcements(svc, PENDING) if a.destination == "月光" and a.kind == "receipt"]
    assert "束魂 阿杰" in told.text and "代为记录" in told.text, told.text
