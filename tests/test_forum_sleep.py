"""wolfadv W0: on a rehearsal clock X times faster, the daemon waited the flood interval in
real seconds (15 s between two PMs: half a forum hour at 120×, the forum unread meanwhile)."""

from __future__ import annotations

from datetime import UTC, datetime

from shenshi.adapters.sandbox.clock import AcceleratedClock
from shenshi.bootstrap import forum_sleep


def test_a_rehearsal_clock_waits_forum_seconds(monkeypatch) -> None:
    slept: list[float] = []
    monkeypatch.setattr("shenshi.bootstrap.time.sleep", slept.append)
    fast = AcceleratedClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC), factor=120)
    wait = forum_sleep(fast, None)
    assert wait is not None
    wait(15)
    assert slept == [15 / 120]
    given = slept.append
    assert forum_sleep(fast, given) is given  # (an injected sleep is kept)
    assert forum_sleep(lambda: datetime(2026, 12, 1), None) is None  # (real time: the adapter's own)
