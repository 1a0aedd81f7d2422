"""Faults the sandbox forum produces on demand: what a real forum does on a bad day.

Tests, the demo and the scripted players switch them on and off in-process::

    forum.faults.fail_next(3, status=502)   # the next 3 requests get a 502 page
    forum.faults.slow(2.5)                   # every response waits 2.5 real seconds
    forum.faults.slow_next(1, 2.5)           # only the next response does
    forum.faults.maintenance(True)           # the closed-site page (站点关闭)
    forum.faults.captcha(True, login=True, post=True)
    forum.faults.expire_sessions()           # every logged-in cookie stops working
    forum.faults.expire_before_next("POST")  # ... just before the next POST arrives
    forum.faults.header_charset = "UTF-8"    # HTML pages say charset=UTF-8 in the header
                                             # whatever they are (a misconfigured server)
    forum.faults.load_guard_next(3)          # phpwind's load guard answers the next 3 requests
                                             # ("Forbidden, Please Refresh", nothing done)
    forum.faults.drip(256, 0.2)              # answers trickle: 256 bytes every 0.2 real seconds

``slow`` waits in *real* seconds (it exists to exercise HTTP time-outs); everything else that
involves time reads the forum's injected clock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass
class Faults:
    """The fault switches of one sandbox forum (thread-safe)."""

    _failures: list[int] = field(default_factory=list)
    _delays: list[float] = field(default_factory=list)
    delay_seconds: float = 0.0
    closed: bool = False
    captcha_login: bool = False
    captcha_post: bool = False
    captcha_answer: str = "8R3K"
    header_charset: str | None = None  # the charset HTML pages claim in their HTTP header
    _guards: list[str] = field(default_factory=list)
    drip_bytes: int = 0  # answers are sent this many bytes at a time …
    drip_every: float = 0.0  # … this many real seconds apart (0: at once)
    _expire_hook: object = None
    _expire_before: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def fail_next(self, n: int = 1, status: int = 502) -> None:
        """Answer the next ``n`` requests with HTTP ``status`` (a 5xx burst)."""
        if not 500 <= status <= 599:
            raise ValueError(f"a failure burst is made of 5xx statuses, got {status}")
        with self._lock:
            self._failures.extend([status] * n)

    def take_failure(self) -> int | None:
        """The status the current request must fail with, if a burst is in progress."""
        with self._lock:
            return self._failures.pop(0) if self._failures else None

    @property
    def pending_failures(self) -> int:
        """How many requests of the current burst are still to fail."""
        with self._lock:
            return len(self._failures)

    def slow(self, seconds: float) -> None:
        """Delay every response by ``seconds`` real seconds (0 switches it off)."""
        if seconds < 0:
            raise ValueError(f"a delay cannot be negative, got {seconds}")
        self.delay_seconds = seconds

    def slow_next(self, n: int = 1, seconds: float = 1.0) -> None:
        """Delay only the next ``n`` responses by ``seconds`` real seconds (a passing hiccup)."""
        if seconds < 0 or n < 0:
            raise ValueError(f"a delay cannot be negative, got {n} × {seconds}")
        with self._lock:
            self._delays.extend([seconds] * n)

    def take_delay(self) -> float:
        """How long the current request must wait: a pending ``slow_next``, else ``slow``."""
        with self._lock:
            return self._delays.pop(0) if self._delays else self.delay_seconds

    def load_guard_next(self, n: int = 1, header: str = "text/html; charset=UTF-8") -> None:
        """Answer the next ``n`` requests with phpwind's load guard (``pwDefendCc``: the bare
        line "Forbidden, Please Refresh", before the forum does anything), under ``header``
        (PHP's default charset header: UTF-8 whatever the forum's pages are)."""
        with self._lock:
            self._guards.extend([header] * n)

    def take_guard(self) -> str | None:
        """The guard's Content-Type if the current request meets the load guard."""
        with self._lock:
            return self._guards.pop(0) if self._guards else None

    def drip(self, size: int, every: float) -> None:
        """Send every answer ``size`` bytes at a time, ``every`` real seconds apart (0, 0: off)."""
        if size < 0 or every < 0:
            raise ValueError(f"a drip cannot be negative, got {size} bytes every {every} s")
        self.drip_bytes, self.drip_every = size, every

    def maintenance(self, on: bool = True) -> None:
        """Close the site (the engine's 站点关闭 page) or open it again."""
        self.closed = on

    def captcha(self, on: bool = True, *, login: bool = True, post: bool = True) -> None:
        """Require a captcha (验证码) on login and/or on posting; off with ``on=False``."""
        self.captcha_login = on and login
        self.captcha_post = on and post

    def expire_sessions(self) -> int:
        """End every logged-in session now; returns how many ended."""
        hook = self._expire_hook
        return hook() if callable(hook) else 0

    def expire_before_next(self, method: str = "POST") -> None:
        """End every session just before the next ``method`` request is handled.

        A session that ends between loading a form and sending it: the form's token is stale.
        """
        with self._lock:
            self._expire_before.append(method.upper())

    def before_request(self, method: str) -> None:
        """Apply a pending ``expire_before_next`` (called by the server for every request)."""
        with self._lock:
            due = method.upper() in self._expire_before
            if due:
                self._expire_before.remove(method.upper())
        if due:
            self.expire_sessions()

    def clear(self) -> None:
        """Switch every fault off."""
        with self._lock:
            self._failures.clear()
            self._delays.clear()
            self._expire_before.clear()
            self._guards.clear()
        self.drip_bytes, self.drip_every = 0, 0.0
        self.delay_seconds = 0.0
        self.closed = False
        self.captcha_login = self.captcha_post = False
