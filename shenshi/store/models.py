"""The database tables, as SQLAlchemy 2.x declarative models (one module, typed ``Mapped``).

Portable SQL only: ``JSON`` (PostgreSQL ``json``, which keeps key order; SQLite text) and
:class:`UTCDateTime`, an aware datetime stored as UTC. Nothing here holds game logic: the game
state is derived by replaying ``events`` through the rules core.

Tables::

    games ─┬─ players              seats and who holds them (substitutions: left_at, replaced_by)
           ├─ evidence ── evidence_revisions   every post and PM as first seen, later edits
           ├─ events               append-only, seq gap-free per game, optional evidence
           ├─ announcements        the outbox (key unique per game)
           ├─ alerts               GM alerts (key unique per game)
           ├─ cursors              poll positions per source
           └─ leases               which daemon runs the game (one row, renewed each cycle)

The database holds secrets (roles, the deal, night actions): the SQLite file is created 0600
(:mod:`shenshi.store.engine`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Named constraints, so later migrations can alter them (SQLite batch mode needs names)."""


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware datetime, stored as UTC; read back aware in UTC on every backend.

    SQLite keeps no offset, so the value is stored as naive UTC text (which sorts and compares
    correctly); PostgreSQL gets ``timestamp with time zone``. A naive datetime is refused.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(
                f"naive datetime {value.isoformat()} given: the store keeps aware UTC times"
            )
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    """Declarative base; its ``metadata`` is what the migrations describe."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def _fk(target: str) -> ForeignKey:
    return ForeignKey(target, ondelete="CASCADE")


class Game(Base):
    """One game: its ruleset, configuration and the deal (seed and result, which are secret)."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    ruleset: Mapped[str] = mapped_column(String(40))
    config: Mapped[Any] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deal_seed: Mapped[str | None] = mapped_column(String(200))
    deal_result: Mapped[Any | None] = mapped_column(JSON(none_as_null=True))
    # The last event seq handed out; bumped in the same transaction as the inserted events,
    # so seqs stay gap-free and concurrent appenders serialise on this row.
    last_seq: Mapped[int] = mapped_column(Integer, default=0)


class Player(Base):
    """A person holding a seat. A substitute (替补) is a new row with the same seat number."""

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("game_id", "name"),
        Index("ix_players_game_seat", "game_id", "seat"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(_fk("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    uid: Mapped[str | None] = mapped_column(String(40))  # forum uid, None until looked up
    name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(60))
    team: Mapped[str] = mapped_column(String(60))
    alive: Mapped[bool] = mapped_column(Boolean, default=True)
    addons: Mapped[Any] = mapped_column(JSON)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime)
    left_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    replaced_by: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))


class Evidence(Base):
    """A post or PM as first seen. Later changes go to :class:`EvidenceRevision`."""

    __tablename__ = "evidence"
    __table_args__ = (
        UniqueConstraint("game_id", "kind", "source", "forum_id"),
        Index("ix_evidence_game_posted", "game_id", "kind", "posted_at"),
        Index("ix_evidence_game_author", "game_id", "author_uid"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(_fk("games.id"))
    kind: Mapped[str] = mapped_column(String(8))  # post | pm
    source: Mapped[str] = mapped_column(String(40))  # thread id or conversation id
    forum_id: Mapped[str] = mapped_column(String(40))  # pid or PM id
    floor: Mapped[int | None] = mapped_column(Integer)  # posts only
    author: Mapped[str] = mapped_column(String(200))
    author_uid: Mapped[str] = mapped_column(String(40))
    recipient: Mapped[str | None] = mapped_column(String(200))  # PMs only
    recipient_uid: Mapped[str | None] = mapped_column(String(40))
    posted_at: Mapped[datetime] = mapped_column(UTCDateTime)
    text: Mapped[str] = mapped_column(Text)
    quotes: Mapped[Any] = mapped_column(JSON)
    edited: Mapped[Any | None] = mapped_column(JSON(none_as_null=True))
    url: Mapped[str | None] = mapped_column(Text)
    first_seen_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revisions: Mapped[int] = mapped_column(Integer, default=0)  # count of EvidenceRevision rows


class EvidenceRevision(Base):
    """A later version of a post or PM (an edit), numbered from 1."""

    __tablename__ = "evidence_revisions"
    __table_args__ = (UniqueConstraint("evidence_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    evidence_id: Mapped[int] = mapped_column(_fk("evidence.id"))
    number: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    quotes: Mapped[Any] = mapped_column(JSON)
    edited: Mapped[Any | None] = mapped_column(JSON(none_as_null=True))
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Event(Base):
    """One event of a game's log: append-only, ``seq`` gap-free from 1 per game.

    ``batch_key``/``batch_index`` make an append idempotent: events appended under one key are
    stored once, however often the append is re-run.
    """

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("game_id", "seq"),
        UniqueConstraint("game_id", "batch_key", "batch_index"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(_fk("games.id"))
    seq: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(80))
    payload: Mapped[Any] = mapped_column(JSON)
    evidence_id: Mapped[int | None] = mapped_column(ForeignKey("evidence.id", ondelete="SET NULL"))
    batch_key: Mapped[str | None] = mapped_column(String(200))
    batch_index: Mapped[int | None] = mapped_column(Integer)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Announcement(Base):
    """An announcement in the outbox (state machine in :mod:`shenshi.store.outbox`)."""

    __tablename__ = "announcements"
    __table_args__ = (
        UniqueConstraint("game_id", "key"),
        Index("ix_announcements_game_state", "game_id", "state"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(_fk("games.id"))
    key: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(60))
    destination_kind: Mapped[str] = mapped_column(String(8))  # thread | user
    destination: Mapped[str] = mapped_column(String(200))  # tid or user name
    destination_uid: Mapped[str | None] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    evidence_ids: Mapped[Any] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(String(12))
    forum_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    approved_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    edited_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    rejected_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    published_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    sending_owner: Mapped[str | None] = mapped_column(String(200))  # the daemon sending it
    attempted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # the last attempt began
    retry_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # a failed one is retried then


class Alert(Base):
    """A GM alert (ambiguous name, PM from a non-player, an edit that changes a vote…)."""

    __tablename__ = "alerts"
    __table_args__ = (UniqueConstraint("game_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(_fk("games.id"))
    key: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(60))
    message: Mapped[str] = mapped_column(Text)
    subject: Mapped[str | None] = mapped_column(String(200))
    evidence_id: Mapped[int | None] = mapped_column(ForeignKey("evidence.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    acknowledged_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # `shenshi ack`
    cause: Mapped[Any | None] = mapped_column(JSON(none_as_null=True))  # what resolves it
    resolution: Mapped[str | None] = mapped_column(String(200))  # what resolved it


class Cursor(Base):
    """Where a poll stopped, per game and source (``thread:123``, ``inbox``…)."""

    __tablename__ = "cursors"

    game_id: Mapped[int] = mapped_column(_fk("games.id"), primary_key=True)
    source: Mapped[str] = mapped_column(String(200), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Lease(Base):
    """Which daemon runs a game (:mod:`shenshi.store.leases`): taken in a transaction, renewed
    each cycle, free for another daemon once ``expires_at`` has passed."""

    __tablename__ = "leases"

    game_id: Mapped[int] = mapped_column(_fk("games.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(200))
    taken_at: Mapped[datetime] = mapped_column(UTCDateTime)
    renewed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
