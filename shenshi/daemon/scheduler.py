"""When the daemon works: cycles paced by the deadlines, backed off after failures.

A :class:`~shenshi.daemon.cycle.Cycle` is one round of work; :func:`next_delay` says when the
next one is due (faster near a deadline), :class:`Backoff` how long to wait after failures.
``shenshi run`` drives cycles with :func:`serve_forever`; the demo and the end-to-end tests
drive them with :func:`run_until` on an injected, accelerated clock. Everything is
restart-safe: all times come from the store.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from shenshi.daemon.service import GameService

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


class Cycling(Protocol):
    """What the scheduler drives: a cycle and when the next one is due."""

    def run(self) -> object: ...

    def next_delay(self) -> float: ...


def run_until(
    cycle: Cycling,
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


def serve_forever(cycle: Cycling, wait: Callable[[float], bool], speed: float = 1.0) -> None:
    """Run cycles until ``wait`` says to stop (``speed``: a rehearsal clock runs faster).

    ``wait(seconds)`` waits until the next cycle is due and returns ``True`` when the daemon
    was asked to stop meanwhile (:class:`~shenshi.daemon.stopping.StopSignal`). A cycle never
    raises (it guards itself), so scheduling never ends but by a stop.
    """
    while True:
        cycle.run()
        delay = cycle.next_delay() / speed
        log.debug("下一轮在 %.0f 秒后", delay)
        if wait(delay):
            return
