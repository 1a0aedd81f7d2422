"""What the store hands back: plain frozen dataclasses, never live ORM objects.

Nothing here lazy-loads outside a session: every field is read inside the transaction that
produced the record. Datetimes are aware, in UTC. JSON columns come back as plain JSON values
(dicts, lists, strings, numbers); ``quotes`` and ``edited`` come back as the adapters' own
:class:`~shenshi.records.Quote` and :class:`~shenshi.records.EditMark`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from shenshi.records import EditMark, Post, PrivateMessage, Quote
from shenshi.store.outbox import AnnouncementState


class EvidenceKind(StrEnum):
    """What a piece of evidence is."""

    POST = "post"  # a post in a thread (帖子)
    PM = "pm"  # a private message (短消息)


class DestinationKind(StrEnum):
    """Where an announcement goes."""

    THREAD = "thread"  # a reply in a thread (tid)
    USER = "user"  # a PM to a user (name)


@dataclass(frozen=True)
class Game:
    """A game. ``deal_seed``/``deal`` are the random role assignment (secret, never logged)."""

    id: int
    name: str
    ruleset: str
    config: Any
    created_at: datetime
    deal_seed: str | None
    deal: Any
    last_seq: int


@dataclass(frozen=True)
class Player:
    """A person at a seat. ``left_at`` is set when a substitute (替补) took the seat over;
    ``replaced_by`` is the substitute's player id."""

    id: int
    game_id: int
    seat: int
    uid: str | None
    name: str
    role: str
    team: str
    alive: bool
    addons: tuple[str, ...]
    joined_at: datetime
    left_at: datetime | None
    replaced_by: int | None

    @property
    def current(self) -> bool:
        """Whether this person still holds the seat."""
        return self.left_at is None


@dataclass(frozen=True)
class Evidence:
    """A post or PM as first seen (later edits: :class:`Revision`, ``revisions`` counts them)."""

    id: int
    game_id: int
    kind: EvidenceKind
    source: str  # thread id (posts) or conversation id (PMs)
    forum_id: str  # pid or PM id
    floor: int | None
    author: str
    author_uid: str
    recipient: str | None
    recipient_uid: str | None
    posted_at: datetime
    text: str
    quotes: tuple[Quote, ...]
    edited: EditMark | None
    url: str | None
    first_seen_at: datetime
    deleted_at: datetime | None
    processed_at: datetime | None
    revisions: int

    def as_post(self) -> Post:
        """The post as first seen (for re-running intake)."""
        if self.kind is not EvidenceKind.POST:
            raise ValueError(f"evidence #{self.id} is a {self.kind.value}, not a post")
        return Post(
            tid=self.source,
            pid=self.forum_id,
            floor=self.floor or 0,
            author=self.author,
            author_uid=self.author_uid,
            posted_at=self.posted_at,
            text=self.text,
            quotes=self.quotes,
            edited=self.edited,
        )

    def as_pm(self) -> PrivateMessage:
        """The private message as first seen (for re-running intake)."""
        if self.kind is not EvidenceKind.PM:
            raise ValueError(f"evidence #{self.id} is a {self.kind.value}, not a PM")
        return PrivateMessage(
            id=self.forum_id,
            conversation=self.source,
            sender=self.author,
            sender_uid=self.author_uid,
            recipient=self.recipient or "",
            recipient_uid=self.recipient_uid,
            sent_at=self.posted_at,
            text=self.text,
        )


@dataclass(frozen=True)
class Revision:
    """A later version of a piece of evidence, numbered from 1 in the order seen."""

    id: int
    evidence_id: int
    number: int
    text: str
    quotes: tuple[Quote, ...]
    edited: EditMark | None
    seen_at: datetime


@dataclass(frozen=True)
class RecordResult:
    """What recording a post or PM found: new, already known, or changed (a new revision)."""

    evidence: Evidence
    is_new: bool
    revision: Revision | None = None

    @property
    def changed(self) -> bool:
        """A known post or PM whose text, quotes or edit mark changed since last seen."""
        return self.revision is not None


@dataclass(frozen=True)
class StoredEvent:
    """One event of the log. ``payload`` is the codec's JSON (:mod:`shenshi.store.codec`)."""

    game_id: int
    seq: int
    type: str
    payload: Any
    evidence_id: int | None
    batch_key: str | None
    recorded_at: datetime


@dataclass(frozen=True)
class Announcement:
    """An announcement of the outbox."""

    id: int
    game_id: int
    key: str
    kind: str
    destination_kind: DestinationKind
    destination: str  # tid, or the user's name
    destination_uid: str | None
    text: str
    evidence_ids: tuple[int, ...]
    state: AnnouncementState
    forum_id: str | None
    created_at: datetime
    approved_at: datetime | None
    edited_at: datetime | None
    sent_at: datetime | None
    attempts: int
    last_error: str | None
    rejected_at: datetime | None
    published_at: datetime | None
    sending_owner: str | None = None  # the daemon that marked it ``sending``
    attempted_at: datetime | None = None  # when the last attempt to send it began
    retry_at: datetime | None = None  # a failed announcement is not tried again before


@dataclass(frozen=True)
class Lease:
    """Which daemon runs a game, until when (:mod:`shenshi.store.leases`)."""

    game_id: int
    owner: str
    taken_at: datetime
    renewed_at: datetime
    expires_at: datetime


@dataclass(frozen=True)
class Alert:
    """A GM alert; open until ``resolved_at`` is set (its ``cause`` happened: ``resolution``
    says what), new to the GM until he acknowledges it (``acknowledged_at``, ``shenshi ack``).
    ``cause`` is what the alert is about, as :class:`shenshi.daemon.hints.Cause` stores it."""

    id: int
    game_id: int
    key: str
    kind: str
    message: str
    subject: str | None
    evidence_id: int | None
    created_at: datetime
    resolved_at: datetime | None
    acknowledged_at: datetime | None = None
    cause: Mapping[str, Any] | None = None
    resolution: str | None = None


@dataclass(frozen=True)
class Cursor:
    """Where a poll of one source stopped (the value is the poller's own JSON)."""

    game_id: int
    source: str
    value: Any
    updated_at: datetime


@dataclass(frozen=True)
class Activity:
    """Posts of one author (by forum uid) in a time window: the lurking counts."""

    author_uid: str
    author: str  # the latest name seen in the window
    posts: int
    first_at: datetime
    last_at: datetime
