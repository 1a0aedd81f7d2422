"""What the repositories share: row lookups inside a session, rows to records, stored JSON.

Every repository reads and writes through the session of its unit of work; these helpers never
commit. A record is made of a row inside the session that read it (nothing lazy-loads later).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from shenshi.records import EditMark, Quote
from shenshi.store import models as m
from shenshi.store import records as rec
from shenshi.store.errors import NotFound
from shenshi.store.outbox import AnnouncementState

T = TypeVar("T")
R = TypeVar("R", bound=m.Base)


def dumps_json(value: Any) -> str:
    """JSON as stored: compact, UTF-8 kept readable, no NaN (PostgreSQL refuses it)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def json_copy(value: Any) -> Any:
    """``value`` as it will read back from a JSON column (tuples become lists…)."""
    return json.loads(dumps_json(value))


def aware(value: datetime, what: str) -> datetime:
    """``value`` in UTC; a naive datetime is a caller's bug and raises ``ValueError``."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware, got {value.isoformat()}")
    return value.astimezone(UTC)


class Repository:
    """Base of the repositories: the unit of work's session and clock."""

    def __init__(self, session: Session, clock: Callable[[], datetime]) -> None:
        self.session = session
        self._clock = clock

    def _now(self, at: datetime | None = None, what: str = "time") -> datetime:
        return aware(at if at is not None else self._clock(), what)


# -- lookups inside a session ----------------------------------------------------------------


def added(s: Session, row: R) -> R:
    """``row`` inserted now (its id assigned), so a record can be made of it."""
    s.add(row)
    s.flush()
    return row


def game_row(s: Session, game_id: int, *, lock: bool = False) -> m.Game:
    """The game's row (:class:`NotFound` if none). ``lock`` makes the writers of one game
    queue on it (PostgreSQL ``FOR NO KEY UPDATE``; SQLite writers queue on ``BEGIN
    IMMEDIATE``), so that a look-then-insert never races another writer."""
    row = s.get(m.Game, game_id, with_for_update={"key_share": True} if lock else None)
    if row is None:
        raise NotFound(f"no game #{game_id}")
    return row


def evidence_row(s: Session, evidence_id: int) -> m.Evidence:
    """The evidence's row (:class:`NotFound` if none)."""
    row = s.get(m.Evidence, evidence_id)
    if row is None:
        raise NotFound(f"no evidence #{evidence_id}")
    return row


def player_row(s: Session, game_id: int, name: str) -> m.Player | None:
    """The row of the player called ``name`` in the game (current or replaced), if any."""
    return s.scalar(select(m.Player).where(m.Player.game_id == game_id, m.Player.name == name))


# -- rows to records (inside the session) --------------------------------------------------------


def _copy(cls: type[T], row: m.Base, **converted: Any) -> T:
    """The record ``cls`` of ``row``: every field read from the column of the same name,
    unless ``converted`` gives it."""
    values = {f.name: getattr(row, f.name) for f in fields(cls) if f.name not in converted}  # type: ignore[arg-type]
    return cls(**values, **converted)


def to_game(r: m.Game) -> rec.Game:
    """The record of a game row."""
    return _copy(rec.Game, r, deal=r.deal_result)


def to_player(r: m.Player) -> rec.Player:
    """The record of a player row."""
    return _copy(rec.Player, r, alive=bool(r.alive), addons=tuple(r.addons or ()))


def to_evidence(r: m.Evidence) -> rec.Evidence:
    """The record of an evidence row."""
    return _copy(
        rec.Evidence,
        r,
        kind=rec.EvidenceKind(r.kind),
        quotes=quotes(r.quotes),
        edited=edited(r.edited),
    )


def to_revision(r: m.EvidenceRevision) -> rec.Revision:
    """The record of a revision row."""
    return _copy(rec.Revision, r, quotes=quotes(r.quotes), edited=edited(r.edited))


def to_announcement(r: m.Announcement) -> rec.Announcement:
    """The record of an announcement row."""
    return _copy(
        rec.Announcement,
        r,
        destination_kind=rec.DestinationKind(r.destination_kind),
        evidence_ids=tuple(r.evidence_ids or ()),
        state=AnnouncementState(r.state),
    )


def to_alert(r: m.Alert) -> rec.Alert:
    """The record of an alert row."""
    return _copy(rec.Alert, r)


def to_cursor(r: m.Cursor) -> rec.Cursor:
    """The record of a cursor row."""
    return _copy(rec.Cursor, r)


def to_lease(r: m.Lease) -> rec.Lease:
    """The record of a lease row."""
    return _copy(rec.Lease, r)


def quotes(data: Any) -> tuple[Quote, ...]:
    """Stored quotes as the forum records' :class:`Quote`."""
    return tuple(Quote(q.get("author"), q.get("pid"), q.get("text", "")) for q in data or ())


def edited(data: Any) -> EditMark | None:
    """A stored edit mark as the forum records' :class:`EditMark`."""
    if not data:
        return None
    return EditMark(data["by"], datetime.fromisoformat(data["at"]).astimezone(UTC))
