"""Injected clocks shared by the sandbox forum, the scripted players and the daemon.

A clock is any zero-argument callable returning an *aware* :class:`datetime`. Everything in the
sandbox that depends on time (flood control, relative times such as ``3&nbsp;分钟前``, session
expiry, post and PM timestamps) reads the clock it was given, never ``time.time()``.

* :class:`ManualClock` only moves when told to (``advance``/``set``): unit tests.
* :class:`AcceleratedClock` runs ``factor`` times faster than real time from a start instant and
  can also jump (``advance``): the demo plays a whole game in minutes with it. The daemon reuses
  the same instance so its phase deadlines agree with the forum's timestamps.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from shenshi.clock import Clock, system_clock

__all__ = ["AcceleratedClock", "Clock", "ManualClock", "system_clock"]


def _aware(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError(f"expected an aware datetime, got naive {moment!r}")
    return moment


class ManualClock:
    """A clock that stands still until moved; thread-safe."""

    def __init__(self, start: datetime) -> None:
        self._now = _aware(start)
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Move forward by ``delta`` (or ``timedelta(**kwargs)``); returns the new time."""
        step = delta if delta is not None else timedelta(**kwargs)
        if step < timedelta(0):
            raise ValueError(f"a clock never goes back (asked to move by {step})")
        with self._lock:
            self._now += step
            return self._now

    def set(self, moment: datetime) -> None:
        """Jump to ``moment`` (not earlier than now)."""
        with self._lock:
            if _aware(moment) < self._now:
                raise ValueError(f"a clock never goes back ({moment} < {self._now})")
            self._now = moment


class AcceleratedClock:
    """Real time sped up ``factor`` times from ``start``; ``advance`` adds a jump on top.

    ``AcceleratedClock(start, factor=600)`` makes one real second ten forum minutes.
    """

    def __init__(
        self,
        start: datetime,
        factor: float = 60.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if factor <= 0:
            raise ValueError(f"factor must be positive, got {factor}")
        self._start = _aware(start)
        self.factor = factor
        self._monotonic = monotonic
        self._t0 = monotonic()
        self._offset = timedelta(0)
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            elapsed = (self._monotonic() - self._t0) * self.factor
            return self._start + self._offset + timedelta(seconds=elapsed)

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Jump forward by ``delta`` (or ``timedelta(**kwargs)``) on top of the running time."""
        step = delta if delta is not None else timedelta(**kwargs)
        if step < timedelta(0):
            raise ValueError(f"a clock never goes back (asked to move by {step})")
        with self._lock:
            self._offset += step
        return self()

    def real_seconds(self, forum_delta: timedelta) -> float:
        """How many real seconds pass while this clock moves by ``forum_delta``."""
        return forum_delta.total_seconds() / self.factor
