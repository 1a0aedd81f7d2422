"""Builders shared by the store tests (imported by name: tests/store is on sys.path)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from shenshi.records import EditMark, Post, PrivateMessage, Quote

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves by hand (aware UTC)."""

    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


def post(
    pid: str = "1001",
    text: str = "投票 乙",
    *,
    tid: str = "100",
    floor: int = 2,
    author: str = "甲",
    uid: str = "11",
    at: datetime = T0,
    quotes: tuple[Quote, ...] = (),
    edited: EditMark | None = None,
) -> Post:
    """A post of the vote thread."""
    return Post(tid, pid, floor, author, uid, at, text, quotes, edited)


def pm(
    id: str = "5001",
    text: str = "查验 乙",
    *,
    conversation: str = "c11",
    sender: str = "甲",
    uid: str = "11",
    at: datetime = T0,
) -> PrivateMessage:
    """A PM from a player to the GM account."""
    return PrivateMessage(id, conversation, sender, uid, "天神", "1", at, text)
