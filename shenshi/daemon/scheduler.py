"""When the daemon works: polls, the phase clock and publishing, paced by the deadlines.

:class:`Cycle` is one round of work (poll the forum, run the phase clock, send what may be
sent), each part guarded: a failing part logs a WARNING, backs off with jitter and never stops
the daemon (errbot ``serve_forever`` style). :func:`next_delay` polls faster near a deadline.

``shenshi run`` drives cycles with APScheduler 3 (a job that reschedules itself after each
run); the demo and the end-to-end tests drive them with :func:`run_until` on an injected,
accelerated clock. Everything is restart-safe: all times come from the store.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from shenshi.adapters.errors import ForumError
from shenshi.daemon.service import GameService
from shenshi.daemon.status import record_poll

log = logging.getLogger(__name__)

MAX_BACKOFF = 3600.0  # seconds: the forum down for an hour is retried at least hourly


@dataclass
class Backoff:
    """Exponential back-off with jitter for a failing job."""

    base: float
    failures: int = 0
    rng: random.Random = field(default_factory=random.Random)

    def delay(self) -> float:
        """The next delay in seconds (grows with each failure, capped, jittered)."""
        if not self.failures:
            return self.base
        raw = min(MAX_BACKOFF, self.base * 2 ** min(self.failures, 12))
        return raw * (0.5 + self.rng.random() / 2)


@dataclass
class CycleResult:
    """What one cycle did."""

    polled: bool = False
    events: int = 0
    sent: int = 0
    errors: list[str] = field(default_factory=list)


class Cycle:
    """One round of the daemon's work, with each part guarded."""

    def __init__(self, service: GameService, clock: Callable[[], datetime]) -> None:
        self.service = service
        self.clock = clock
        self.poll_backoff = Backoff(service.config.daemon.poll_interval)

    def run(self) -> CycleResult:
        """Poll, tick, publish; a failure in one part does not stop the others."""
        result = CycleResult()
        if self.service.adapter is not None:
            try:
                self.service.poll()
                result.polled = True
                record_poll(self.service.store, self.service.game_id, self.clock())
                self.poll_backoff.failures = 0
            except ForumError as exc:
                self.poll_backoff.failures += 1
                result.errors.append(f"poll: {exc}")
                log.warning("poll failed (%s); retrying with back-off", exc)
        try:
            outcome = self.service.tick()
            result.events = len(outcome.events)
        except Exception as exc:  # a bug in one tick must not stop the daemon
            result.errors.append(f"tick: {exc}")
            log.exception("the phase clock failed")
        try:
            result.sent = self.service.publish()
        except ForumError as exc:
            result.errors.append(f"publish: {exc}")
            log.warning("publishing failed (%s); will retry", exc)
        return result

    def next_delay(self) -> float:
        """Seconds until the next cycle: back-off after failures, faster near a deadline."""
        if self.poll_backoff.failures:
            return self.poll_backoff.delay()
        return next_delay(self.service, self.clock())


def next_delay(service: GameService, now: datetime) -> float:
    """The poll interval, or the fast one within ``fast_poll_window`` of a deadline."""
    daemon = service.config.daemon
    deadline = service.next_deadline()
    if deadline is None:
        return daemon.poll_interval
    until = (deadline - now).total_seconds()
    if until <= 0:
        return min(daemon.fast_poll_interval, daemon.poll_interval)
    if until <= daemon.fast_poll_window:
        return min(daemon.fast_poll_interval, until + 1)
    return min(daemon.poll_interval, until + 1)


def run_until(
    cycle: Cycle,
    clock: Callable[[], datetime],
    advance: Callable[[float], None],
    stop: Callable[[], bool],
    *,
    limit: timedelta,
) -> int:
    """Drive cycles on an injected clock until ``stop()`` or ``limit`` of game time passes.

    ``advance(seconds)`` moves the clock (the demo's accelerated clock, the tests' manual one).
    Returns the number of cycles run.
    """
    end = clock() + limit
    cycles = 0
    while not stop() and clock() < end:
        cycle.run()
        cycles += 1
        advance(cycle.next_delay())
    return cycles


def serve_forever(cycle: Cycle) -> None:  # pragma: no cover - exercised by `shenshi run`
    """Run cycles under APScheduler until interrupted (Ctrl-C)."""
    from apscheduler.schedulers.blocking import BlockingScheduler

    scheduler = BlockingScheduler()

    speed = float(getattr(cycle.clock, "factor", 1.0))  # a rehearsal clock runs faster

    def job() -> None:
        cycle.run()
        delay = cycle.next_delay() / speed
        scheduler.add_job(job, "date", run_date=datetime.now() + timedelta(seconds=delay), id="cycle", replace_existing=True)
        log.info("next cycle in %.0f s", delay)

    scheduler.add_job(job, "date", run_date=datetime.now(), id="cycle")
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        scheduler.shutdown(wait=False)
