"""A GM correction beside the running daemon and the receipts it makes untrue (issue 20,
adversary3 A7): ``shenshi override void`` in another process while receipts are paced out
withdraws the voided action's receipt before its send; a receipt already out is followed by a
PM telling the player that the action is void. Live and review mode, over real HTTP."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.bootstrap import bootstrap
from shenshi.daemon import gm_commands
from shenshi.daemon.cycle import Cycle
from shenshi.store.outbox import AnnouncementState
from tests.daemon.helpers import START, announcements
from tests.daemon.test_service_sandbox import sandbox_game

PMS = [("小明", "占卜 老王"), ("月光", "束魂 小明"), ("夜行者", "诅咒 小明"), ("Lily99", "庇佑 老王")]


def gm_elsewhere(service):
    """The GM's own process (``shenshi override``) on the daemon's database."""
    other = bootstrap(service.config, clock=service.clock, forum=False)
    other.start()
    return other


def to(forum, name: str) -> list[str]:
    gm = forum.user("神的使者").uid
    uid = forum.user(name).uid
    return [m.text for m in forum.messages.values() if m.sender_uid == gm and m.recipient_uid == uid]


def night_pms(clock, forum) -> None:
    clock.set(START + timedelta(minutes=30))
    for sender, text in PMS:
        forum.send_pm(sender, "神的使者", text, at=clock())
        clock.advance(seconds=20)
    clock.advance(minutes=1)


def test_a_void_written_between_two_paced_sends_withdraws_the_receipt_still_queued(tmp_path, monkeypatch) -> None:
    with sandbox_game(tmp_path, monkeypatch) as (clock, forum, tid, service):
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        night_pms(clock, forum)
        paced = service.publisher.sleep
        voided = []

        def pace(seconds: float) -> None:  # the GM voids Lily99's prayer while the daemon paces
            if not voided:
                other = gm_elsewhere(service)
                voided.append(gm_commands.correct(other, "void", ["Lily99", "庇佑"], by="命令行"))
                other.close()
            paced(seconds)

        service.publisher.sleep = pace
        cycle.run()
        assert voided, "the receipts were not paced"
        assert not [t for t in to(forum, "Lily99") if "已收到" in t]  # never told 「已收到：今晚庇佑 老王」
        [receipt] = [a for a in announcements(service) if a.kind == "receipt" and a.destination == "Lily99"
                     and ":voided:" not in a.key]  # (the notice of the void is the other)
        assert receipt.state is AnnouncementState.SUPERSEDED and receipt.sent_at is None
        assert "作废" in receipt.superseded_because
        for name in ("小明", "月光", "夜行者"):  # the others' receipts went out, once each
            assert len([t for t in to(forum, name) if t.startswith("已收到")]) == 1, to(forum, name)
        assert ("Lily99", "bless") not in {(s.actor, s.action) for s in service.referee.state.submissions}
        clock.advance(minutes=2)
        cycle.run()
        # his PM is answered all the same: what became of it (gmattack3 F3), never 「已收到」
        assert to(forum, "Lily99") == ["天神已作废你本阶段的「庇佑 老王」，它不会计入结算。如仍要行动，请在截止前重新发私信。"]


@pytest.mark.parametrize("mode", ["live", "review"])
def test_a_player_whose_receipt_went_out_is_told_his_action_was_voided(tmp_path, monkeypatch, mode) -> None:
    with sandbox_game(tmp_path, monkeypatch, mode=mode) as (clock, forum, tid, service):
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        night_pms(clock, forum)
        cycle.run()
        if mode == "review":
            gm_commands.outbox_action(service, "approve", [a.id for a in announcements(service, [AnnouncementState.PROPOSED])])
            cycle.run()
        assert [t for t in to(forum, "Lily99") if t.startswith("已收到") and "庇佑" in t]
        other = gm_elsewhere(service)
        said = gm_commands.correct(other, "void", ["Lily99", "庇佑"], by="命令行")
        [told] = [a for a in announcements(other) if a.destination == "Lily99" and ":voided:" in a.key]
        assert f"#{told.id}" in " ".join(said.lines)  # the GM sees what it proposes
        other.close()
        clock.advance(minutes=2)
        cycle.run()
        if mode == "review":
            assert not [t for t in to(forum, "Lily99") if "作废" in t]  # waits for the GM
            gm_commands.outbox_action(service, "approve", [told.id])
            cycle.run()
        [notice] = [t for t in to(forum, "Lily99") if "作废" in t]
        assert "庇佑 老王" in notice and "不会计入" in notice
        assert "已收到" not in notice
        # told once, however often the proposals are derived again
        for _ in range(3):
            clock.advance(minutes=3)
            cycle.run()
        assert len([t for t in to(forum, "Lily99") if "作废" in t]) == 1
        assert [a.text for a in announcements(service) if a.destination == "Lily99" and a.state is AnnouncementState.SUPERSEDED] == []
