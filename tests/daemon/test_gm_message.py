"""The GM's own PM to a player, written in shenshi (``shenshi message``; newcomer2 F19: the
console said 「私信回复 月光」 and sent the GM to the forum): a player's question is answered
from its alert, through to the player's inbox on the sandbox over real HTTP; it closes the
alert, changes nothing in the game, stays with the one written to when a substitute takes his
seat, and in dry-run mode is sent by hand and recognised. Bad input is refused, nothing
proposed."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.daemon.cycle import Cycle
from shenshi.daemon.gm_commands import run_hint, substitute
from shenshi.daemon.gm_message import LONGEST, message
from shenshi.daemon.hints import advise
from shenshi.daemon.situation import facts_of, situation_of
from shenshi.errors import UserError
from shenshi.store.outbox import AnnouncementState as S
from tests.daemon.helpers import START, alerts, announcements
from tests.daemon.test_service_sandbox import sandbox_game

QUESTION = "请问今晚几点截止？我明天要出差"
ANSWER = "今晚 24:00 截止（论坛时间）。\n出差时可以用手机私信。"


def gm_pms_to(forum, name: str) -> list[str]:
    """What the GM account sent ``name``, as the forum stores it."""
    gm = forum.find_user("神的使者").uid
    to = forum.find_user(name).uid
    return [m.text for m in forum.messages.values() if m.sender_uid == gm and m.recipient_uid == to]


def night_with_a_question(world):
    clock, forum, _, service = world
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    forum.send_pm("月光", "神的使者", QUESTION, at=clock())
    clock.advance(minutes=5)
    cycle.run()
    [alert] = [a for a in alerts(service) if a.subject == "月光" and a.resolved_at is None]
    return cycle, alert


@pytest.mark.parametrize("mode", ["review", "live"])
def test_a_question_answered_from_its_alert_reaches_the_player(tmp_path, monkeypatch, mode) -> None:
    with sandbox_game(tmp_path, monkeypatch, mode=mode) as world:
        clock, forum, _, service = world
        cycle, alert = night_with_a_question(world)
        before = service.referee.state
        [hint] = [h for h in advise(facts_of(alert), situation_of(service)).hints if h.command == "message"]
        assert hint.label == "私信回复" and hint.args[0] == "月光" and hint.blanks[0].long
        said = run_hint(service, hint.fill(ANSWER))
        assert said.refused == () and "已写好给 月光 的私信" in said.lines[0], said
        [a] = [a for a in announcements(service) if a.kind == "gm_message"]
        assert a.destination == "月光" and a.text == ANSWER.strip() and a.state is S.APPROVED
        [after] = [x for x in alerts(service) if x.id == alert.id]
        assert after.resolved_at is not None and after.resolution == f"已私信回复（#{a.id}）"
        clock.advance(minutes=1)
        cycle.run()
        assert gm_pms_to(forum, "月光")[-1] == ANSWER.strip()  # what the player reads
        [a] = [a for a in announcements(service) if a.kind == "gm_message"]
        assert a.state is S.SENT
        # it is no game event: the night stands as it was, and the GM's own PM raised nothing
        assert service.referee.state.submissions == before.submissions
        assert not [x for x in alerts(service) if x.resolved_at is None and x.id != alert.id]
        assert not service.replay_differences()


def test_in_dry_run_it_is_sent_by_hand_and_recognised(tmp_path, monkeypatch) -> None:
    with sandbox_game(tmp_path, monkeypatch, mode="dry-run") as world:
        clock, forum, _, service = world
        cycle, _ = night_with_a_question(world)
        said = message(service, "@月光 ", ANSWER)
        assert any("手动" in line for line in said.lines), said.lines
        clock.advance(minutes=1)
        cycle.run()
        assert gm_pms_to(forum, "月光") == []  # dry-run sends nothing
        forum.send_pm("神的使者", "月光", ANSWER.strip(), at=clock())  # the GM, by hand
        clock.advance(minutes=20)
        cycle.run()
        [a] = [a for a in announcements(service) if a.kind == "gm_message"]
        assert a.state is S.PUBLISHED and a.forum_id, a


def test_a_message_stays_with_whom_it_was_written_to(tmp_path, monkeypatch) -> None:
    with sandbox_game(tmp_path, monkeypatch, mode="review") as world:
        clock, forum, _, service = world
        cycle, _ = night_with_a_question(world)
        forum.add_user("路人甲", "pw")
        message(service, "月光", "你明天出差的话，可以请替补。")
        substitute(service, "月光", "路人甲", offline=True)  # his seat is someone else's now
        clock.advance(minutes=1)
        cycle.run()
        [a] = [a for a in announcements(service) if a.kind == "gm_message"]
        assert a.destination == "月光" and a.state is S.SENT
        assert gm_pms_to(forum, "月光")[-1] == "你明天出差的话，可以请替补。"
        assert "你明天出差的话，可以请替补。" not in gm_pms_to(forum, "路人甲")
        # one who left can still be written to, and his substitute too
        message(service, "月光", "谢谢你玩到今天。")
        message(service, "路人甲", "欢迎接替月光。")
        assert {a.destination for a in announcements(service) if a.kind == "gm_message"} == {"月光", "路人甲"}


@pytest.mark.parametrize(
    ("to", "text", "said"),
    [
        ("路人乙", "你好", "不是本局玩家"),
        ("月光", "  \n ", "是空的"),
        ("月光", "长" * (LONGEST + 1), "太长"),
        ("", "你好", "不是本局玩家"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_proposed(tmp_path, monkeypatch, to, text, said) -> None:
    with sandbox_game(tmp_path, monkeypatch, mode="review") as world:
        _, _, _, service = world
        with pytest.raises(UserError) as refused:
            message(service, to, text)
        assert said in str(refused.value) and "没有发出" in str(refused.value)
        assert not [a for a in announcements(service) if a.kind == "gm_message"]


def test_a_name_is_read_as_the_gms_other_commands_read_it(tmp_path, monkeypatch) -> None:
    with sandbox_game(tmp_path, monkeypatch, mode="review") as world:
        _, _, _, service = world
        message(service, "ｒｅｘ", "你好")  # full width, lower case
        message(service, "rex", "你好")  # the same text in the same second: one proposal
        [a] = [a for a in announcements(service) if a.kind == "gm_message"]
        assert a.destination == "Rex"


def test_a_question_in_a_tree_hole_is_answered_by_message_too(tmp_path) -> None:
    """newcomer4 W5: a werewolf's question replied in his 功能树洞 stayed open after the GM
    answered it with 私信回复 (only a PM's question closed)."""
    from tests.daemon.helpers import post, werewolf_with_tree_holes
    from tests.daemon.test_status import feed

    svc, clock = werewolf_with_tree_holes(tmp_path, {"cupid": "31"})
    svc.tick()
    cupid = next(s.name for s in svc.referee.state.seats if s.role == "cupid")
    feed(svc, post(cupid, "请问天神，爱神今晚还需要做什么吗？", 0.3, tid="31"))
    [alert] = [a for a in alerts(svc) if a.subject == cupid and a.resolved_at is None]
    [reply] = [h for h in svc.advice(alert).hints if h.command == "message"]
    run_hint(svc, reply.fill("爱神只在第0夜射金箭。"))
    [after] = [a for a in alerts(svc) if a.id == alert.id]
    assert after.resolved_at is not None and after.resolution.startswith("已私信回复")


def test_a_misspelt_golden_arrow_is_entered_with_both_lovers_and_its_refusal_withdrawn(tmp_path) -> None:
    """newcomer4 W1 W2: the fix of 「【金箭】 老汪 Lily99」 offered one target and failed (金箭需要两个
    对象); once entered, the refusal 「…请写对名字后重新发送」 stayed to approve beside the receipt
    of the entry (its 【】 hid the quoted action)."""
    from shenshi.store.outbox import PENDING
    from tests.daemon.helpers import post, werewolf_with_tree_holes
    from tests.daemon.test_status import feed

    svc, clock = werewolf_with_tree_holes(tmp_path, {"cupid": "31"})
    svc.tick()
    feed(svc, post("白色的猫", "【金箭】 老汪 Lily99 今晚射出金箭", 0.3, tid="31"))
    [alert] = [a for a in alerts(svc) if a.subject == "白色的猫" and a.resolved_at is None]
    [entry] = [h for h in svc.advice(alert).hints if h.args[:1] == ("action",)]
    assert [b.what for b in entry.blanks][-1] == "第二个对象", entry.text()
    filled = entry.fill(*(["老王"] if len(entry.blanks) == 2 else []), "Lily99")
    assert run_hint(svc, filled).refused == ()
    told = [a.text for a in announcements(svc, PENDING) if a.destination == "白色的猫"]
    assert not [t for t in told if t.startswith("未受理")], told
    assert any("老王" in t and "Lily99" in t for t in told), told
