"""The one real clock. Everything else takes a clock as an argument (tests pass their own)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The real time, aware UTC."""
    return datetime.now(UTC)
