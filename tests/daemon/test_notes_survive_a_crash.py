"""What the GM must be told of a post survives a crash right after the post (or its edit) was
stored: undecodable bytes and a forum time from the future are committed with the post's
processed mark, an edited ballot's alert with the revision, not raised apart after storing."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta

import pytest

from shenshi.daemon.cycle import Cycle
from shenshi.store.outbox import AnnouncementState
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import START, alerts, announcement, open_vote_on_forum
from tests.daemon.test_found_on_forum import restarted
from tests.daemon.test_reading import SPOILED, Rewriting, _through
from tests.daemon.test_service_polls import ballot_then_edit, night_one

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode


class Killed(BaseException):
    """The daemon process dies here (nothing catches it, as nothing survives a SIGKILL)."""


def _dies_after_storing_a_post(service, which=lambda result: result.is_new) -> None:
    """SIGKILL as soon as a transaction that recorded new evidence (or, by ``which``, a new
    revision) has committed."""
    real = service.store.transaction

    @contextmanager
    def transaction():
        recorded = []
        with real() as uow:
            record = uow.evidence.record

            def recording(*args, **kwargs):
                results = record(*args, **kwargs)
                recorded.extend(r for r in results if which(r))
                return results

            uow.evidence.record = recording
            yield uow
        if recorded:
            raise Killed

    service.store.transaction = transaction


def test_the_undecodable_bytes_alert_survives_a_crash_after_storing(world) -> None:
    clock, forum, tid, service = world
    night_one(clock, forum, service)
    service.poll()
    spoil = lambda page: page.replace(SPOILED, SPOILED[:4] + b"\xff" + SPOILED[5:])  # noqa: E731
    service = _through(service, clock, spoil)
    clock.advance(hours=13, minutes=5)
    open_vote_on_forum(service, clock)  # ballots count from its opening post
    spoiled = forum.post("白色的猫", tid, "今天天气不错，投票：老王", at=clock())
    clock.advance(minutes=2)
    _dies_after_storing_a_post(service)
    with pytest.raises(Killed):
        Cycle(service, clock).run()
    again = restarted(service, clock, Rewriting(spoil))
    clock.advance(minutes=2)
    Cycle(again, clock).run()
    [alert] = [a for a in alerts(again) if a.kind == "undecodable_bytes"]
    assert str(spoiled.pid) in alert.message
    again.close()


def test_an_edited_ballots_alert_survives_a_crash_after_storing_the_edit(world) -> None:
    clock, forum, tid, service = world
    ballot_then_edit(clock, forum, tid, service)
    _dies_after_storing_a_post(service, lambda result: result.changed)
    with pytest.raises(Killed):
        service.poll()
    again = restarted(service, clock)
    clock.advance(minutes=30)
    again.poll()
    edited = [a for a in alerts(again) if a.kind == "edited_vote"]
    assert len(edited) == 1 and "投票：老王" in edited[0].message
    assert [(b.voter, b.target) for b in again.referee.state.ballots] == [("Tom_2", "阿杰")]
    again.close()


def test_the_gms_post_by_hand_publishes_its_draft_across_a_crash(world) -> None:
    """Dry-run: the GM posts the dawn post by hand; the daemon dies as soon as that post is
    processed. After the restart the draft is published all the same (the day opens)."""
    clock, forum, tid, service = world
    service = restarted(service, clock, mode="dry-run")
    clock.set(START + timedelta(minutes=5))
    service.tick()
    clock.set(START + timedelta(hours=24, minutes=1))
    service.tick()
    dawn = announcement(service, "g1:night1:public")
    forum.post("神的使者", tid, dawn.text, at=clock())
    clock.advance(minutes=2)
    real = service.store.transaction

    @contextmanager
    def dies_after_the_processed_mark():
        with real() as uow:
            marked = []
            mark = uow.evidence.mark_processed

            def marking(i):
                if uow.evidence.get(i).text.startswith("【第1夜结果】"):  # the GM's dawn post
                    marked.append(i)
                return mark(i)

            uow.evidence.mark_processed = marking
            yield uow
        if marked:
            raise Killed

    service.store.transaction = dies_after_the_processed_mark
    with pytest.raises(Killed):
        service.poll()
    again = restarted(service, clock)
    clock.advance(minutes=2)
    Cycle(again, clock).run()
    assert announcement(again, dawn.key).state is AnnouncementState.PUBLISHED
    again.close()
