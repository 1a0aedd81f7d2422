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


def append(store, game_id: int, events, evidence_id: int | None = None, *, key=None) -> list[int]:
    """Append a batch of events in a transaction of its own; their seqs."""
    with store.transaction() as uow:
        return uow.events.append(game_id, events, evidence_id, key=key)


def last_seq(store, game_id: int) -> int:
    """The game's latest seq, read in a snapshot."""
    with store.snapshot() as uow:
        return uow.events.last_seq(game_id)


def record(store, game_id: int, *records: Post | PrivateMessage):
    """Record posts or PMs (no URL) in one transaction; their results."""
    with store.transaction() as uow:
        return uow.evidence.record(game_id, [(r, None) for r in records])


class OneByOne:
    """A repository of the store (``"outbox"``, ``"games"``…) whose every call runs in a
    transaction of its own, as the daemon and the CLI use them one action at a time."""

    def __init__(self, store, repository: str) -> None:
        self.store, self.repository = store, repository

    def __getattr__(self, name: str):
        def call(*args, **kwargs):
            with self.store.transaction() as uow:
                return getattr(getattr(uow, self.repository), name)(*args, **kwargs)

        return call
