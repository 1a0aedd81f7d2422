"""Sending at most once, and no failed send kept silent: a POST is never repeated after an
unclear answer (the forum may have saved it), what was tried before is looked for on the forum
first, every failure is a GM alert with the forum's reason, and a failed announcement is
retried (``approve`` says when)."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest

from shenshi.adapters.errors import Rejected
from shenshi.bootstrap import bootstrap, config_from_args
from shenshi.cli import main
from shenshi.daemon.announce import Draft
from shenshi.daemon.cycle import Cycle
from shenshi.daemon.publisher import retry_note
from shenshi.daemon.referee import Effects
from shenshi.store.outbox import AnnouncementState
from tests.commands import test_daemon_cli
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import START, alerts, announcement, announcements

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode
cfg = test_daemon_cli.cfg  # the fixture: a configuration and players file on disk

S = AnnouncementState


class SavedThen502(httpx.BaseTransport):
    """A forum that saves the next POST and then answers 502 (a proxy that gave up waiting)."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.armed = 0
        self.posts = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.method == "POST":
            self.posts += 1
            if self.armed:
                self.armed -= 1
                response.read()
                return httpx.Response(502, text="<html>502 Bad Gateway</html>", request=request)
        return response


def _night_over(clock, service) -> None:
    """Night 1 passed with nobody acting: its result (无人死亡) is proposed (live mode)."""
    clock.set(START + timedelta(minutes=5))
    service.tick()
    clock.set(START + timedelta(hours=24, minutes=1))
    service.tick()


def test_a_reply_saved_then_answered_502_is_not_posted_twice(world) -> None:
    clock, forum, tid, service = world
    transport = SavedThen502()
    service.close()
    service = bootstrap(service.config, clock=clock, sleep=lambda s: clock.advance(seconds=s),
                        client=httpx.Client(transport=transport, follow_redirects=False))  # fmt: skip
    service.adapter.login()
    service.start()
    _night_over(clock, service)
    posts_before = transport.posts
    transport.armed = 1
    dawn = announcement(service, "g1:night1:public")
    assert announcements(service, [S.PROPOSED])[0].id == dawn.id  # the first to go
    sent = service.publish()  # the 502: an unclear answer
    assert transport.posts == posts_before + 1 + sent, "the POST was repeated by the transport"
    dawn = announcement(service, dawn.key)
    assert dawn.state is S.FAILED and "502" in dawn.last_error and "没有给出明确答复" in dawn.last_error
    [alert] = [a for a in alerts(service) if a.kind == "send_failed"]
    assert "502" in alert.message and "会自动重试" in alert.message
    clock.set(max(clock(), dawn.retry_at + timedelta(seconds=1)))
    Cycle(service, clock).run()  # the poll finds the post on the forum: not sent again
    titles = [p for p in forum.visible_posts(tid) if p.text.startswith("【第1夜结果】")]
    assert len(titles) == 1
    assert announcement(service, dawn.key).state in (S.SENT, S.PUBLISHED)
    service.close()


def test_a_full_mailbox_is_an_alert_with_the_forums_reason_and_is_retried(
    world, monkeypatch
) -> None:
    clock, forum, tid, service = world
    clock.set(START + timedelta(minutes=5))
    service.tick()
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    clock.advance(minutes=10)

    def full(*args, **kwargs):
        raise Rejected("对方的消息数已满")

    monkeypatch.setattr(service.adapter, "send_pm", full)
    cycle = Cycle(service, clock)
    cycle.run()
    [receipt] = announcements(service, [S.FAILED])
    assert receipt.last_error == "对方的消息数已满" and receipt.retry_at > clock()
    [alert] = [a for a in alerts(service) if a.kind == "send_failed"]
    assert "对方的消息数已满" in alert.message and f"#{receipt.id}" in alert.message
    assert service.status().failed == (
        (receipt.id, "receipt", "对方的消息数已满", 1, receipt.retry_at),
    )
    with service.store.transaction() as uow:  # `shenshi approve` on it: a no-op, explained
        again = uow.outbox.approve(receipt.id)
    note = retry_note(again, service.config.forum.tz)
    assert (
        "会自动重试" in note
        and receipt.retry_at.astimezone(service.config.forum.tz).strftime("%H:%M") in note
    )
    assert cycle.next_delay() <= (receipt.retry_at - clock()).total_seconds()
    monkeypatch.undo()
    clock.set(max(clock(), receipt.retry_at + timedelta(seconds=1)))
    cycle.run()
    assert announcement(service, receipt.key).state is S.SENT


def test_a_reject_during_the_flood_wait_is_not_sent_and_fails_nothing(world) -> None:
    """issue 11: ``shenshi reject`` while the daemon waits out the flood interval."""
    clock, forum, tid, service = world
    clock.set(START + timedelta(minutes=5))
    service.tick()
    for name in ("小明", "月光"):
        forum.send_pm(name, "神的使者", "占卜 老王" if name == "小明" else "束魂 老王", at=clock())
    clock.advance(minutes=10)
    service.poll()
    first, second = announcements(service, [S.PROPOSED])
    waited = []

    def gm_rejects_while_we_wait(seconds: float) -> None:
        waited.append(seconds)
        with service.store.transaction() as uow:
            uow.outbox.reject(second.id)
        clock.advance(seconds=seconds)

    service.publisher.sleep = gm_rejects_while_we_wait
    result = Cycle(service, clock).run()
    assert waited and not result.errors
    assert announcement(service, first.key).state is S.SENT
    assert announcement(service, second.key).state is S.REJECTED
    gm = forum.user("神的使者").uid
    assert not [m for m in forum.messages.values() if m.sender_uid == gm and m.text == second.text]


@pytest.mark.parametrize("state", [S.SENDING, S.FAILED])
def test_what_was_tried_is_looked_for_on_the_forum_first(world, state) -> None:
    """Whatever its state, an announcement tried before is looked for before it is sent."""
    clock, forum, tid, service = world
    _night_over(clock, service)
    dawn = announcement(service, "g1:night1:public")
    with service.store.transaction() as uow:
        uow.outbox.approve(dawn.id)
        uow.outbox.mark_sending(dawn.id, owner="a dead daemon")
        if state is S.FAILED:
            uow.outbox.mark_failed(dawn.id, "unclear answer (it may be on the forum): timeout")
    forum.post("神的使者", tid, dawn.text, at=clock())  # … it reached the forum all the same
    clock.advance(minutes=10)
    service.publish()
    titles = [p for p in forum.visible_posts(tid) if p.text.startswith("【第1夜结果】")]
    assert len(titles) == 1
    assert announcement(service, dawn.key).state in (S.SENT, S.PUBLISHED)


def _a_failed_receipt() -> None:
    """Receipt #1 to 小明, failed because his PM box is full, retried a day later."""
    service = bootstrap(config_from_args(None), forum=False)
    service.start()
    service._commit(Effects(drafts=[Draft("k1", "receipt", "pm", "小明", "已收到")]), "test", None)
    retry = START + timedelta(days=1, hours=3, minutes=7)
    with service.store.transaction() as uow:
        uow.outbox.approve(1)
        uow.outbox.mark_sending(1)
        uow.outbox.mark_failed(1, "对方的消息数已满", retry_at=retry)
    service.close()


def test_a_failed_send_shows_in_status_and_review_with_the_forums_reason(cfg, capsys) -> None:
    """issue 16: ``status`` said "0 waiting" for a receipt a full PM box refused."""
    _a_failed_receipt()
    assert main(["status"]) == 0
    status = capsys.readouterr().out
    assert "发送失败" in status and "对方的消息数已满" in status and "#1" in status
    assert main(["review"]) == 0
    review = capsys.readouterr().out
    assert "#1 [" in review and "论坛的原因：对方的消息数已满" in review


def test_approve_on_a_failed_announcement_says_it_is_retried_and_when(cfg, capsys) -> None:
    """issue 16: ``shenshi approve`` on a failed send explains, instead of refusing."""
    _a_failed_receipt()
    assert main(["approve", "1"]) == 0
    out = capsys.readouterr().out
    assert "上次发送失败（对方的消息数已满）" in out and "会自动重试" in out and "12-02 23:07" in out


def test_a_send_failing_for_days_is_retried_hourly_without_overflow() -> None:
    """Found on a real phpwind whose GM account hit its daily PM limit: after dozens of failed
    tries the doubling delay overflowed (OverflowError ended every cycle)."""
    from shenshi.daemon.publisher import RETRY_FIRST, RETRY_MAX, retry_delay

    assert retry_delay(1) == RETRY_FIRST and retry_delay(2) == 2 * RETRY_FIRST
    assert [retry_delay(n) for n in (6, 7, 60, 10_000)] == [RETRY_MAX] * 4
