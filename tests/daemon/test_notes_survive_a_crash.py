"""What the GM must be told of a post whatever it says (undecodable bytes, a forum time from
the future) survives a crash right after the post was stored: it is committed with the post's
processed mark, not raised apart after storing it."""

from __future__ import annotations

from contextlib import contextmanager

import httpx
import pytest

from shenshi.bootstrap import bootstrap
from shenshi.daemon.cycle import Cycle
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import alerts
from tests.daemon.test_reading import SPOILED, Rewriting, _through
from tests.daemon.test_service_polls import night_one

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode


class Killed(BaseException):
    """The daemon process dies here (nothing catches it, as nothing survives a SIGKILL)."""


def _dies_after_storing_a_post(service) -> None:
    """SIGKILL as soon as a transaction that recorded new evidence has committed."""
    real = service.store.transaction

    @contextmanager
    def transaction():
        recorded = []
        with real() as uow:
            record = uow.evidence.record

            def recording(*args, **kwargs):
                results = record(*args, **kwargs)
                recorded.extend(r for r in results if r.is_new)
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
    spoiled = forum.post("白色的猫", tid, "今天天气不错，投票：老王", at=clock())
    clock.advance(minutes=2)
    _dies_after_storing_a_post(service)
    with pytest.raises(Killed):
        Cycle(service, clock).run()
    service.close()
    again = bootstrap(service.config, clock=clock, sleep=lambda s: clock.advance(seconds=s),
                      client=httpx.Client(transport=Rewriting(spoil), follow_redirects=False))  # fmt: skip
    again.adapter.login()
    again.start()
    clock.advance(minutes=2)
    Cycle(again, clock).run()
    [alert] = [a for a in alerts(again) if a.kind == "undecodable_bytes"]
    assert str(spoiled.pid) in alert.message
    again.close()
