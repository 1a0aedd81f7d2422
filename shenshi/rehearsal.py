"""A rehearsal clock (演练时钟): the forum's time running ``factor`` times faster than real time,
kept in a small file so that every process of a rehearsal reads the same time.

``shenshi sandbox --clock-factor 60`` writes the file (``rehearsal-clock.json`` by default) and
serves the sandbox forum on that clock; ``[daemon] clock_file`` in the game's configuration
makes ``shenshi run``, ``status``, ``published``… read it too, so post times, deadlines and
``--at`` all agree. ``shenshi run --clock-factor X`` writes the file itself when no sandbox did.

The file holds where the clock started (forum time and the real time then) and the factor;
the time is computed from the real clock on each read, so nothing has to keep it running::

    {"forum_start": "2026-12-07T19:58:00+08:00", "real_start": 1764800000.0, "factor": 60}
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from shenshi.errors import UserError

DEFAULT_FILE = Path("rehearsal-clock.json")


class RehearsalClock:
    """Forum time = ``forum_start`` + (real seconds since ``real_start``) × ``factor``.

    A clock opened from a file follows it: when another process jumps the clock (``advance``
    rewrites the file), the next reading here sees it.
    """

    def __init__(
        self,
        forum_start: datetime,
        real_start: float,
        factor: float,
        path: Path | None = None,
        real: Callable[[], float] = time.time,
    ) -> None:
        self.forum_start = forum_start
        self.real_start = real_start
        self.factor = factor
        self.path = path
        self.real = real
        self._seen = self._stamp()

    def __call__(self) -> datetime:
        if self.path is not None and self._stamp() != self._seen:
            self._load()
        elapsed = (self.real() - self.real_start) * self.factor
        return (self.forum_start + timedelta(seconds=elapsed)).astimezone(UTC)

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Jump forward; the file is rewritten, so every process of the rehearsal jumps too."""
        step = delta if delta is not None else timedelta(**kwargs)
        if step < timedelta(0):
            raise ValueError(f"a clock never goes back (asked to move by {step})")
        self.forum_start, self.real_start = self() + step, self.real()
        if self.path is not None:
            self.save(self.path)
        return self()

    @classmethod
    def start(
        cls,
        path: Path,
        factor: float,
        at: datetime | None = None,
        real: Callable[[], float] = time.time,
    ) -> RehearsalClock:
        """A new clock from ``at`` (default: now), written to ``path`` (mode 0600)."""
        if factor <= 0:
            raise UserError(f"--clock-factor must be positive, got {factor:g}")
        now = real()
        begin = at if at is not None else datetime.fromtimestamp(now, UTC)
        if begin.tzinfo is None:
            raise UserError(
                f"the rehearsal clock needs a time with its zone, got {begin.isoformat()}"
            )
        clock = cls(begin, now, float(factor), None, real)
        clock.save(Path(path))
        clock.path = Path(path)
        clock._seen = clock._stamp()
        return clock

    @classmethod
    def open(cls, path: Path | str, real: Callable[[], float] = time.time) -> RehearsalClock:
        """The clock kept in ``path`` (written by ``shenshi sandbox --clock-factor``)."""
        clock = cls(datetime.now(UTC), 0.0, 1.0, Path(path), real)
        clock._load()
        return clock

    def _stamp(self) -> int | None:
        try:
            return os.stat(self.path).st_mtime_ns if self.path is not None else None
        except OSError:
            return None

    def _load(self) -> None:
        assert self.path is not None
        try:
            stamp = self._stamp()
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.forum_start = datetime.fromisoformat(data["forum_start"])
            self.real_start, self.factor = float(data["real_start"]), float(data["factor"])
            self._seen = stamp
        except FileNotFoundError:
            raise UserError(
                f"no rehearsal clock at {self.path}: start the sandbox with --clock-factor X "
                f"--clock-file {self.path}, or run shenshi run --clock-factor X"
            ) from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UserError(f"{self.path} is not a rehearsal clock file ({exc})") from None

    def save(self, path: Path) -> None:
        """Write the clock to ``path`` atomically (a reader never sees half a file), mode 0600."""
        data = {
            "forum_start": self.forum_start.isoformat(),
            "real_start": self.real_start,
            "factor": self.factor,
        }
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
        os.replace(tmp, path)
        self._seen = self._stamp() if self.path == path else self._seen

    def describe(self) -> str:
        """One line for the GM: how fast, and what an hour of the game takes."""
        hour = 3600 / self.factor
        took = f"{hour:.0f} 秒" if hour < 120 else f"{hour / 60:.0f} 分钟"
        return f"演练时钟：论坛时间以 {self.factor:g} 倍速运行（游戏里 1 小时 = 现实 {took}）"
