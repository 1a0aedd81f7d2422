"""Public announcements go before receipts, and a deadline that passes while receipts are paced
out stops them until the clock has run (issue 22: 200 receipts paced 15 s apart delayed the
dawn post by 46 forum-minutes)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.adapters.sandbox.seed import PLAYERS
from shenshi.daemon.cycle import Cycle
from shenshi.rulesets.base import Phase
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import DestinationKind
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import START, announcements

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode

@pytest.mark.parametrize("receipts", [45, pytest.param(200, marks=pytest.mark.slow)])
def test_the_dawn_post_does_not_wait_behind_the_receipts(world, receipts: int) -> None:
    """``receipts`` PMs in the last ten minutes of the night: their receipts, 15 s apart,
    would take 11 or 50 minutes."""
    clock, forum, tid, service = world
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    deadline = START + timedelta(hours=24)
    clock.set(deadline - timedelta(minutes=10))
    for i in range(receipts):  # every player asks again and again (each PM gets its receipt)
        forum.send_pm(PLAYERS[i % len(PLAYERS)], "神的使者", f"占卜 老王 第{i}次", at=clock())
    clock.advance(minutes=1)
    cycle.run()  # the receipts, 15 s apart: the deadline passes in 9 minutes
    assert service.referee.state.phase is not Phase.NIGHT, "the night waited for the receipts"
    gm = forum.user("神的使者").uid
    [dawn] = [p for p in forum.visible_posts(tid) if p.author_uid == gm and "【第1夜结果】" in p.text]
    assert dawn.posted_at - deadline <= timedelta(minutes=2), dawn.posted_at - deadline
    sent_pms = sorted(m.sent_at for m in forum.messages.values() if m.sender_uid == gm)
    assert sent_pms[0] < deadline < sent_pms[-1]  # receipts went before and after it
    assert any(m > dawn.posted_at for m in sent_pms)
    for _ in range(5):
        clock.advance(minutes=1)
        cycle.run()
    # receipts still waiting when the night settled say so instead of 「天亮前可更改」 (F25):
    # what they replaced is never sent
    S = AnnouncementState  # noqa: N806
    answered = [a for a in announcements(service) if a.kind == "receipt" and a.state is not S.SUPERSEDED]
    assert len(answered) >= receipts and all(a.state is S.SENT for a in answered)
    late = [a for a in answered if "本阶段已结算，不能再更改" in a.text]
    assert late and all(m.sent_at > dawn.posted_at for m in forum.messages.values() if m.text in {a.text for a in late})
    assert not [a for a in announcements(service) if a.state is S.SUPERSEDED and a.sent_at]
    texts = [m.text for m in forum.messages.values() if m.sender_uid == gm]
    assert len(texts) == len([a for a in announcements(service)
                              if a.destination_kind is DestinationKind.USER and a.state is not S.SUPERSEDED])


def test_posts_go_before_pms_in_one_publish(world) -> None:
    """A receipt proposed before the dawn post still goes after it."""
    clock, forum, tid, service = world
    clock.set(START + timedelta(minutes=5))
    service.tick()
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    clock.advance(minutes=10)
    service.poller.read()
    service.process()
    clock.set(START + timedelta(hours=24, minutes=1))
    service.tick()
    receipt = next(a for a in announcements(service) if a.kind == "receipt")
    dawn = next(a for a in announcements(service) if a.key == "g1:night1:public")
    assert receipt.id < dawn.id
    service.publish()
    gm = forum.user("神的使者").uid
    [post] = [p for p in forum.visible_posts(tid) if p.author_uid == gm and "【第1夜结果】" in p.text]
    pms = [m for m in forum.messages.values() if m.sender_uid == gm]
    assert pms and all(post.posted_at < m.sent_at for m in pms)


def test_a_post_approved_while_pms_are_paced_goes_before_the_rest(world) -> None:
    """adversary6 C14: a public post the GM approved while receipts were paced out waited for
    the whole batch; the round stops after the PM in hand and the next round sends it first."""
    from shenshi.store.outbox import AnnouncementState as S

    clock, forum, tid, service = world
    clock.set(START + timedelta(minutes=5))
    service.tick()
    for i in range(4):
        forum.send_pm(PLAYERS[i], "神的使者", f"占卜 老王 第{i}次", at=clock())
    clock.advance(minutes=1)
    service.poller.read()
    service.process()
    publisher, added = service.publisher, []
    paced = publisher.sleep

    def sleep(seconds: float) -> None:  # the GM approves a post while the first PMs are paced
        if not added:
            with service.store.transaction() as uow:
                a, _ = uow.outbox.propose(service.game_id, key="g1:test:post", kind="ruling", destination_kind="thread",
                                          destination=tid, text="【天神公告】测试：这条公告应先于其余回执发出。",
                                          evidence_ids=[])  # fmt: skip
                uow.outbox.approve(a.id)
            added.append(a.id)
        paced(seconds)

    publisher.sleep = sleep
    service.publish()
    assert publisher.interrupted
    waiting = [a for a in announcements(service) if a.destination_kind is DestinationKind.USER and a.state is S.APPROVED]
    assert waiting, "the rest of the receipts wait for the next round"
    service.publish()
    gm = forum.user("神的使者").uid
    [post] = [p for p in forum.visible_posts(tid) if p.author_uid == gm and "测试：这条公告" in p.text]
    later = [m for m in forum.messages.values() if m.sender_uid == gm and m.sent_at > post.posted_at]
    assert later  # receipts went after the post


def test_a_receipt_rewritten_at_dawn_still_goes_before_the_answer(tmp_path, monkeypatch) -> None:
    """newcomer2 F12: the seer's receipt, rewritten once the night settled (「本阶段已结算」),
    went out after the answer to the PM it acknowledges; it keeps the place of the receipt it
    replaced."""
    from shenshi.daemon.gm_commands import outbox_action

    with test_service_sandbox.sandbox_game(tmp_path, monkeypatch, mode="review") as (clock, forum, tid, service):
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
        clock.advance(minutes=5)
        cycle.run()  # its receipt waits for the GM (review mode)
        clock.set(START + timedelta(hours=24, minutes=1))
        cycle.run()  # the night settles: the answer, and the receipt rewritten
        S = AnnouncementState  # noqa: N806
        waiting = [a for a in announcements(service, [S.PROPOSED])]
        [receipt] = [a for a in waiting if a.kind == "receipt" and a.destination == "小明"]
        [answer] = [a for a in waiting if a.destination == "小明" and a.kind != "receipt"]
        assert "已结算" in receipt.text and receipt.id > answer.id  # proposed after the answer
        outbox_action(service, "approve", [a.id for a in waiting])
        for _ in range(4):
            clock.advance(minutes=2)
            cycle.run()
        gm, seer = forum.user("神的使者").uid, forum.user("小明").uid
        told = [m.text for m in sorted(forum.messages.values(), key=lambda m: m.mid)
                if m.sender_uid == gm and m.recipient_uid == seer]  # fmt: skip
        assert told == [receipt.text, answer.text], told
