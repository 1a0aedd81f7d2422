"""A result post the GM rejected (gmattack3 F2): the game cannot move on until the players read
the day's result, and rejecting it undoes nothing. Status said nothing (no deadline, no 到时, no
等待你发布); it says what the game waits for and offers to take the drop back, as a step the
console runs too."""

from __future__ import annotations

from shenshi.commands.status import render
from shenshi.daemon.gm_commands import outbox_action, run_hint
from shenshi.daemon.status import build_status
from shenshi.rulesets.base import Phase
from shenshi.store.outbox import AnnouncementState as S
from tests.daemon.helpers import GAME6_10, announcement, at, post, started
from tests.daemon.test_hints_walk import deliver
from tests.daemon.test_status import feed


def day_one_voting(tmp_path):
    """A game6-10 in review mode whose day 1 vote has opened (its opening post out)."""
    svc, clock = started(tmp_path, mode="review")
    with svc.store.transaction() as uow:
        uow.evidence.record(svc.game_id, [(post(n, "签到", 1), None) for n, _ in GAME6_10])
    svc.process()
    clock.set(at(24.5))
    svc.tick()
    outbox_action(svc, "approve", [announcement(svc, svc.referee.gate_key()).id])
    deliver(svc)
    clock.set(at(37))
    svc.tick()
    outbox_action(svc, "approve", [announcement(svc, "g1:day1:vote_open").id])
    deliver(svc)
    svc.tick()
    return svc, clock


def day_one_voted(tmp_path):
    """A game6-10 in review mode whose day 1 vote has closed: its result waits for the GM."""
    svc, clock = day_one_voting(tmp_path)
    for i, (name, _) in enumerate(GAME6_10):
        feed(svc, post(name, "投票：老王" if name != "老王" else "投票：Rex", 37.1 + i / 100))
    clock.set(at(62))
    svc.tick()
    return svc, clock


def test_a_rejected_result_says_what_the_game_waits_for_and_how_to_go_on(tmp_path) -> None:
    svc, clock = day_one_voted(tmp_path)
    result = announcement(svc, svc.referee.gate_key())
    assert result.kind == "day_result" and result.state is S.PROPOSED
    said = outbox_action(svc, "reject", [result.id])
    assert said.ids == (result.id,)
    status = build_status(svc)
    [waiting] = [w for w in status.waiting if w.id == result.id]
    assert waiting.opens_next_step and waiting.state == "rejected"
    text = "\n".join(render(status, 200))
    assert f"等待你发布 #{result.id}" in text and "已放弃" in text and f"shenshi reject {result.id} --undo" in text, text
    [undo] = waiting.hints
    assert run_hint(svc, undo).refused == ()  # the console's button runs the same
    assert announcement(svc, svc.referee.gate_key()).state is S.PROPOSED
    outbox_action(svc, "approve", [result.id])
    deliver(svc)
    clock.advance(hours=1)
    svc.tick()
    assert svc.referee.state.phase is Phase.NIGHT and svc.referee.state.number == 2


def test_a_substitute_whose_seat_was_executed_before_he_entered_is_refused_as_it_is(tmp_path, monkeypatch) -> None:
    """gmattack3 F6: the seat a substitute was entering was executed; `substitute` on it promised
    「本阶段结束后可以…换下他」 (never possible), then named the two players the wrong way round
    (「路人甲 的座位已由 萧何 接替」)."""
    import pytest

    from shenshi.daemon.gm_commands import substitute
    from shenshi.errors import UserError
    from tests.daemon.helpers import UIDS
    from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    monkeypatch.setitem(UIDS, "替补乙", "78")
    svc, clock = day_one_voting(tmp_path)
    substitute(svc, "老王", NEWCOMER, uid=NEWCOMER_UID)  # entering at the day's end
    for i, (name, _) in enumerate(GAME6_10):
        voter = NEWCOMER if name == "老王" else name
        feed(svc, post(voter, "投票：老王" if name != "老王" else "投票：Rex", 37.1 + i / 100))
    clock.set(at(62))
    svc.tick()  # 老王's seat is executed
    with pytest.raises(UserError) as refused:
        substitute(svc, NEWCOMER, "替补乙", uid="78")
    assert "已出局" in str(refused.value) and "本阶段结束后" not in str(refused.value), refused.value
    outbox_action(svc, "approve", [announcement(svc, svc.referee.gate_key()).id])
    deliver(svc)
    clock.advance(hours=1)
    svc.tick()
    with pytest.raises(UserError) as refused:
        substitute(svc, NEWCOMER, "替补乙", uid="78")
    assert "在他入座前已出局" in str(refused.value) and "已由 老王 接替" not in str(refused.value), refused.value
