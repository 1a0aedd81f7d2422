"""A clock kept in a file, so that two processes share it: the test process (sandbox forum,
scripted players) and a daemon subprocess that may be killed at any moment.

The file holds one ISO time. Reading it is cheap; moving it writes a new file and renames it
over the old one, so a reader (or a process killed mid-write) never sees half a time.
"""

from __future__ import annotations

import os
import threading
from datetime import datetime, timedelta
from pathlib import Path


class FileClock:
    """A manual clock (``advance``/``set``) whose time lives in ``path``."""

    def __init__(self, path: Path | str, start: datetime | None = None) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        if start is not None:
            if start.tzinfo is None:
                raise ValueError(f"expected an aware datetime, got naive {start!r}")
            self._write(start)

    def __call__(self) -> datetime:
        return datetime.fromisoformat(self.path.read_text(encoding="ascii").strip())

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Move forward by ``delta`` (or ``timedelta(**kwargs)``); returns the new time."""
        step = delta if delta is not None else timedelta(**kwargs)
        if step < timedelta(0):
            raise ValueError(f"a clock never goes back (asked to move by {step})")
        with self._lock:
            moment = self() + step
            self._write(moment)
            return moment

    def set(self, moment: datetime) -> None:
        """Jump to ``moment`` (not earlier than now)."""
        with self._lock:
            if moment < self():
                raise ValueError(f"a clock never goes back ({moment} < {self()})")
            self._write(moment)

    def _write(self, moment: datetime) -> None:
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.write_text(moment.isoformat(), encoding="ascii")
        os.replace(tmp, self.path)
