"""Stopping ``shenshi run`` at once, but never inside a write: Ctrl-C (SIGINT) and SIGTERM.

While :class:`StopSignal` is active, a signal interrupts whatever the daemon is doing (a
request to the forum, a flood wait, the wait for the next cycle) by raising :class:`Stopped`,
unless a write transaction is open: then the write is finished (committed or rolled back) and
:class:`Stopped` is raised as it ends. Every write the daemon makes is whole or absent, and an
announcement caught between ``sending`` and ``sent`` is looked for on the forum at the next
start, so stopping anywhere loses and repeats nothing.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from shenshi.store.unit_of_work import Store

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(BaseException):  # noqa: N818 - like KeyboardInterrupt, not an error
    """The daemon was asked to stop (``signal_name``: ``SIGINT`` or ``SIGTERM``)."""

    def __init__(self, signum: int) -> None:
        self.signal_name = signal.Signals(signum).name
        super().__init__(self.signal_name)


class StopSignal:
    """Ctrl-C and SIGTERM raise :class:`Stopped` in the main thread, after the current write."""

    def __init__(self, *stores: Store) -> None:
        self.stores = stores  # every database the daemon writes to (one per games' database)
        self.requested: int | None = None
        self._event = threading.Event()
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopSignal:
        self._previous = {sig: signal.signal(sig, self._handle) for sig in SIGNALS}
        for store in self.stores:
            store.after_write = self._after_write
        return self

    def __exit__(self, *exc: object) -> None:
        for store in self.stores:
            store.after_write = None
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def _handle(self, signum: int, frame: FrameType | None) -> None:  # noqa: ARG002
        self.requested = signum
        self._event.set()
        if not any(store.writing for store in self.stores):
            raise Stopped(signum)

    def _after_write(self) -> None:
        if self.requested is not None:
            raise Stopped(self.requested)

    def wait(
        self,
        seconds: float,
        *,
        every: float | None = None,
        between: Callable[[], object] | None = None,
    ) -> bool:
        """Wait ``seconds`` (a signal ends the wait by raising :class:`Stopped`); ``between``
        runs at least every ``every`` seconds meanwhile (renewing the game's lease). Returns
        whether a stop was asked."""
        remaining = seconds
        while remaining > 0:
            step = min(remaining, every) if every else remaining
            if self._event.wait(step):
                return True
            remaining -= step
            if between is not None and remaining > 0:
                between()
        return self.requested is not None
