"""A poll that could not read a source (a page the adapter cannot parse: a half page, an error
page it does not know) is incomplete: the phase clock does not run past the start of the last
complete poll, so a deadline is never passed without the PMs and posts written before it."""

from __future__ import annotations

from datetime import timedelta

from shenshi.adapters.errors import UnexpectedPage
from shenshi.daemon.cycle import Cycle
from shenshi.rulesets.base import Phase
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import START, alerts

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode


def test_an_unreadable_inbox_at_the_deadline_does_not_resolve_the_night_without_its_pms(
    world, monkeypatch
) -> None:
    clock, forum, tid, service = world
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    assert service.referee.state.phase is Phase.NIGHT
    clock.set(START + timedelta(hours=23, minutes=50))
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())  # in time
    clock.set(START + timedelta(hours=24, minutes=1))  # the night's deadline has passed

    def half_page(*args, **kwargs):
        raise UnexpectedPage("the inbox page ends before its list", url="http://forum/pm")

    monkeypatch.setattr(service.adapter, "read_pms", half_page)
    forum.post("Tom_2", tid, "天亮了吗？", at=clock())  # a post after the deadline, read now
    clock.advance(minutes=1)
    cycle.run()
    assert service.referee.state.phase is Phase.NIGHT, "the night resolved without the inbox"
    assert [a for a in alerts(service) if a.kind == "unparsable_page"]
    monkeypatch.undo()
    clock.advance(minutes=2)
    cycle.run()
    assert service.referee.state.phase is not Phase.NIGHT
    assert any(a.kind == "divination" for a in _announcements(service))


def _announcements(service):
    with service.store.snapshot() as uow:
        return uow.outbox.announcements(service.game_id)


def test_an_unreadable_thread_is_no_proof_that_a_post_is_not_there(world, monkeypatch) -> None:
    """The dawn post went out and the forum's answer was unclear; the next reads cannot parse
    the thread's page. Not found there is not "not on the forum": it is not posted again until
    the thread is read."""
    clock, forum, tid, service = world
    clock.set(START + timedelta(minutes=5))
    service.tick()
    clock.set(START + timedelta(hours=24, minutes=1))
    service.tick()
    dawn = next(a for a in _announcements(service) if a.key == "g1:night1:public")
    with service.store.transaction() as uow:
        uow.outbox.approve(dawn.id)
        uow.outbox.mark_sending(dawn.id, owner="a dead daemon")
        uow.outbox.mark_failed(dawn.id, "unclear answer (it may be on the forum): timeout")
    forum.post("神的使者", tid, dawn.text, at=clock())  # … it reached the forum all the same
    clock.advance(minutes=10)

    def half_page(*args, **kwargs):
        raise UnexpectedPage("the thread page ends before its last post", url="http://forum/t")

    monkeypatch.setattr(service.adapter, "poll_board", half_page)
    Cycle(service, clock).run()
    titles = [p for p in forum.visible_posts(tid) if p.text.startswith("【第1夜结果】")]
    assert len(titles) == 1, "posted again although the thread could not be read"
    monkeypatch.undo()
    clock.advance(minutes=10)
    Cycle(service, clock).run()
    titles = [p for p in forum.visible_posts(tid) if p.text.startswith("【第1夜结果】")]
    assert len(titles) == 1
    dawn = next(a for a in _announcements(service) if a.key == dawn.key)
    assert dawn.state.value in ("sent", "published")
