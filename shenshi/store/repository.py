"""The repository the daemon uses: short transactions, idempotent writes, plain records back.

Every public method runs in its own transaction and commits before it returns, so a ``kill -9``
at any point loses nothing that was acknowledged. Writes that the daemon may repeat after a
crash are idempotent by construction: evidence by (kind, source, forum id), events by batch
key, announcements and alerts by their key, outbox transitions by repeating as a no-op. What
comes back is a frozen record of :mod:`shenshi.store.records`, never a live ORM object.

Map of this module::

    Store                    engine, clock, the two session factories (read / write)
      games, players         create_game, game, find_game, set_deal, add_player, substitute…
      evidence               record_post(s), record_pm(s), mark_deleted, mark_processed, revisions
      events                 append_events (seq assigned atomically), events (streamed), last_seq
      outbox                 propose, approve, reject, edit, mark_sending/sent/failed/published
      alerts, cursors        add_alert, resolve_alert, alerts; cursor, set_cursor
      activity               posts per author in a window (lurking counts)
    _to_* converters         ORM row -> record, inside the session

Write transactions start ``BEGIN IMMEDIATE`` on SQLite (see :mod:`shenshi.store.engine`), so
writers queue instead of racing; on PostgreSQL the event counter row is locked ``FOR UPDATE``
and a unique-key race is retried.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import Engine, Row, Select, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute, Session, sessionmaker

from shenshi.clock import system_clock
from shenshi.records import EditMark, Post, PrivateMessage, Quote
from shenshi.store import models as m
from shenshi.store.errors import Conflict, NotFound
from shenshi.store.outbox import AnnouncementState, OutboxAction, next_state
from shenshi.store.records import (
    Activity,
    Alert,
    Announcement,
    Cursor,
    DestinationKind,
    Evidence,
    EvidenceKind,
    Game,
    Player,
    RecordResult,
    Revision,
    StoredEvent,
)

T = TypeVar("T")
R = TypeVar("R", bound=m.Base)

WRITE_OPTION = "shenshi_write"
"""Execution option marking a write transaction (SQLite: ``BEGIN IMMEDIATE``)."""


def dumps_json(value: Any) -> str:
    """JSON as stored: compact, UTF-8 kept readable, no NaN (PostgreSQL refuses it)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _json_copy(value: Any) -> Any:
    """``value`` as it will read back from a JSON column (tuples become lists…)."""
    return json.loads(dumps_json(value))


WRITE_ATTEMPTS = 3  # a unique-key race (PostgreSQL) is retried; the re-run finds the row
PAGE = 1000  # rows per read transaction when streaming



def aware(value: datetime, what: str) -> datetime:
    """``value`` in UTC; a naive datetime is a caller's bug and raises ``ValueError``."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware, got {value.isoformat()}")
    return value.astimezone(UTC)


class Store:
    """The persistence of one or many games (see the module docstring).

    Build it with :func:`shenshi.store.open_store`; ``clock`` returns aware datetimes.
    """

    def __init__(self, engine: Engine, *, clock: Callable[[], datetime] | None = None) -> None:
        self.engine = engine
        self._clock = clock or system_clock
        self._reader = sessionmaker(engine, expire_on_commit=False)
        self._writer = sessionmaker(
            engine.execution_options(**{WRITE_OPTION: True}), expire_on_commit=False
        )

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing ------------------------------------------------------------------------------

    def _now(self, at: datetime | None = None, what: str = "time") -> datetime:
        return aware(at if at is not None else self._clock(), what)

    def _write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in one write transaction and commit; retry a unique-key race."""
        for attempt in range(WRITE_ATTEMPTS):
            try:
                with self._writer.begin() as session:
                    return work(session)
            except IntegrityError:
                if attempt == WRITE_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _read(self, work: Callable[[Session], T]) -> T:
        with self._reader.begin() as session:
            return work(session)

    def _pages(
        self,
        q: Select[Any],
        key: InstrumentedAttribute[int],
        after: int,
        page: int,
        convert: Callable[[Row[Any]], T],
    ) -> Iterator[T]:
        """The rows of ``q`` past ``after`` in ``key`` order, converted, a page per read
        transaction (so a long replay never holds the database)."""
        while True:
            paged = q.where(key > after).order_by(key).limit(page)
            rows = self._read(partial(_fetch, paged, convert))
            yield from rows
            if len(rows) < page:
                return
            after = getattr(rows[-1], key.key)

    # -- games ---------------------------------------------------------------------------------

    def create_game(
        self,
        name: str,
        ruleset: str,
        config: Mapping[str, Any] | None = None,
        *,
        created_at: datetime | None = None,
    ) -> Game:
        """A new game. A name already used raises :class:`Conflict` (look it up first with
        :meth:`find_game` to resume)."""
        when = self._now(created_at, "created_at")

        def work(s: Session) -> Game:
            if s.scalar(select(m.Game.id).where(m.Game.name == name)) is not None:
                raise Conflict(f"a game called {name!r} already exists")
            row = _added(
                s,
                m.Game(
                    name=name,
                    ruleset=ruleset,
                    config=dict(config or {}),
                    created_at=when,
                    last_seq=0,
                ),
            )
            return _to_game(row)

        return self._write(work)

    def game(self, game_id: int) -> Game:
        """The game with this id (:class:`NotFound` if none)."""
        return self._read(lambda s: _to_game(_game_row(s, game_id)))

    def find_game(self, name: str) -> Game | None:
        """The game called ``name``, if any."""

        def work(s: Session) -> Game | None:
            row = s.scalar(select(m.Game).where(m.Game.name == name))
            return _to_game(row) if row else None

        return self._read(work)

    def games(self) -> list[Game]:
        """Every game, oldest first."""
        return self._read(
            lambda s: [_to_game(r) for r in s.scalars(select(m.Game).order_by(m.Game.id))]
        )

    def update_config(self, game_id: int, config: Mapping[str, Any]) -> Game:
        """Replace the game's configuration."""

        def work(s: Session) -> Game:
            row = _game_row(s, game_id)
            row.config = dict(config)
            return _to_game(row)

        return self._write(work)

    def set_deal(self, game_id: int, seed: str, result: Any, *, replace: bool = False) -> Game:
        """Keep the deal (random role assignment): its seed and result. Secret: never logged.

        The same deal again is a no-op; a different one raises :class:`Conflict` unless
        ``replace`` (a GM who deliberately re-deals before the game starts).
        """
        stored = _json_copy(result)

        def work(s: Session) -> Game:
            row = _game_row(s, game_id)
            if (
                row.deal_seed is not None
                and not replace
                and (row.deal_seed, row.deal_result) != (seed, stored)
            ):
                raise Conflict(
                    f"game #{game_id} already has a different deal (re-deal with replace)"
                )
            row.deal_seed, row.deal_result = seed, stored
            return _to_game(row)

        return self._write(work)

    # -- players -------------------------------------------------------------------------------

    def add_player(
        self,
        game_id: int,
        seat: int,
        name: str,
        role: str,
        team: str,
        *,
        uid: str | None = None,
        alive: bool = True,
        addons: Iterable[str] = (),
        joined_at: datetime | None = None,
    ) -> Player:
        """Seat a player. Adding the same player to the same seat again returns the stored one;
        a name already in the game elsewhere, or a seat already held, raises :class:`Conflict`."""
        when = self._now(joined_at, "joined_at")
        addons = list(addons)

        def work(s: Session) -> Player:
            _game_row(s, game_id)
            same = _player_row(s, game_id, name, required=False)
            if same is not None:
                if (same.seat, same.role, same.team) == (seat, role, team):
                    return _to_player(same)
                raise Conflict(
                    f"{name!r} already plays seat {same.seat} ({same.role}, {same.team}) "
                    f"in game #{game_id}"
                )
            holder = s.scalar(
                select(m.Player).where(
                    m.Player.game_id == game_id, m.Player.seat == seat, m.Player.left_at.is_(None)
                )
            )
            if holder is not None:
                raise Conflict(f"seat {seat} of game #{game_id} is held by {holder.name!r}")
            row = _added(
                s,
                m.Player(
                    game_id=game_id,
                    seat=seat,
                    uid=uid,
                    name=name,
                    role=role,
                    team=team,
                    alive=alive,
                    addons=addons,
                    joined_at=when,
                ),
            )
            return _to_player(row)

        return self._write(work)

    def players(self, game_id: int, *, current_only: bool = True) -> list[Player]:
        """Players in seat order (with ``current_only=False``, those replaced too, by seat then
        arrival)."""

        def work(s: Session) -> list[Player]:
            q = select(m.Player).where(m.Player.game_id == game_id)
            if current_only:
                q = q.where(m.Player.left_at.is_(None))
            return [_to_player(r) for r in s.scalars(q.order_by(m.Player.seat, m.Player.id))]

        return self._read(work)

    def player(self, game_id: int, name: str) -> Player:
        """The player called ``name`` in this game (:class:`NotFound` if none)."""
        return self._read(lambda s: _to_player(_player_row(s, game_id, name)))

    def player_by_uid(self, game_id: int, uid: str) -> Player | None:
        """The current player with this forum uid, if any."""

        def work(s: Session) -> Player | None:
            row = s.scalar(
                select(m.Player).where(
                    m.Player.game_id == game_id, m.Player.uid == uid, m.Player.left_at.is_(None)
                )
            )
            return _to_player(row) if row else None

        return self._read(work)

    def update_player(
        self,
        game_id: int,
        name: str,
        *,
        alive: bool | None = None,
        uid: str | None = None,
        new_name: str | None = None,
        role: str | None = None,
        team: str | None = None,
        addons: Iterable[str] | None = None,
    ) -> Player:
        """Change what is given (``None`` leaves a field as it is). Renaming to a name already
        in the game raises :class:`Conflict`."""

        def work(s: Session) -> Player:
            row = _player_row(s, game_id, name)
            if new_name is not None and new_name != name:
                if _player_row(s, game_id, new_name, required=False) is not None:
                    raise Conflict(f"{new_name!r} already plays in game #{game_id}")
                row.name = new_name
            for field, value in (("alive", alive), ("uid", uid), ("role", role), ("team", team)):
                if value is not None:
                    setattr(row, field, value)
            if addons is not None:
                row.addons = list(addons)
            return _to_player(row)

        return self._write(work)

    def substitute(
        self,
        game_id: int,
        old: str,
        new: str,
        *,
        uid: str | None = None,
        at: datetime | None = None,
    ) -> Player:
        """替补: ``new`` takes over ``old``'s seat (role, team, life and add-ons stay with the seat).

        Returns the newcomer. Repeating it is a no-op; ``old`` already replaced by someone
        else, or ``new`` already in the game, raises :class:`Conflict`.
        """
        when = self._now(at, "at")

        def work(s: Session) -> Player:
            out = _player_row(s, game_id, old)
            if out.left_at is not None:
                successor = s.get(m.Player, out.replaced_by) if out.replaced_by else None
                if successor is not None and successor.name == new:
                    return _to_player(successor)
                taken_by = successor.name if successor else "someone"
                raise Conflict(f"{old!r} already left seat {out.seat} (replaced by {taken_by!r})")
            if _player_row(s, game_id, new, required=False) is not None:
                raise Conflict(f"{new!r} already plays in game #{game_id}")
            row = _added(
                s,
                m.Player(
                    game_id=game_id,
                    seat=out.seat,
                    uid=uid,
                    name=new,
                    role=out.role,
                    team=out.team,
                    alive=out.alive,
                    addons=list(out.addons),
                    joined_at=when,
                ),
            )
            out.left_at, out.replaced_by = when, row.id
            return _to_player(row)

        return self._write(work)

    # -- evidence ------------------------------------------------------------------------------

    def record_post(
        self, game_id: int, post: Post, url: str | None = None, *, seen_at: datetime | None = None
    ) -> RecordResult:
        """Keep a post as first seen; a change since last seen becomes a revision.

        Seeing the same post again is not new; a changed text, quotes or edit mark is stored as
        the next :class:`~shenshi.store.records.Revision` and returned in the result.
        """
        return self.record_posts(game_id, [(post, url)], seen_at=seen_at)[0]

    def record_posts(
        self,
        game_id: int,
        posts: Iterable[tuple[Post, str | None]],
        *,
        seen_at: datetime | None = None,
    ) -> list[RecordResult]:
        """:meth:`record_post` for many posts (a page) in one transaction, in order."""
        when = self._now(seen_at, "seen_at")
        items = [(_post_fields(p, url), _content(p.text, p.quotes, p.edited)) for p, url in posts]
        return self._write(lambda s: [_record(s, game_id, f, c, when) for f, c in items])

    def record_pm(
        self,
        game_id: int,
        pm: PrivateMessage,
        url: str | None = None,
        *,
        seen_at: datetime | None = None,
    ) -> RecordResult:
        """Keep a private message as first seen (same rules as :meth:`record_post`)."""
        return self.record_pms(game_id, [(pm, url)], seen_at=seen_at)[0]

    def record_pms(
        self,
        game_id: int,
        pms: Iterable[tuple[PrivateMessage, str | None]],
        *,
        seen_at: datetime | None = None,
    ) -> list[RecordResult]:
        """:meth:`record_pm` for many messages (a conversation) in one transaction."""
        when = self._now(seen_at, "seen_at")
        items = [(_pm_fields(pm, url), _content(pm.text, (), None)) for pm, url in pms]
        return self._write(lambda s: [_record(s, game_id, f, c, when) for f, c in items])

    def evidence(self, evidence_id: int) -> Evidence:
        """The evidence with this id (:class:`NotFound` if none)."""
        return self._read(lambda s: _to_evidence(_evidence_row(s, evidence_id)))

    def find_evidence(
        self, game_id: int, kind: EvidenceKind | str, source: str, forum_id: str
    ) -> Evidence | None:
        """The post (thread id, pid) or PM (conversation id, PM id), if recorded."""

        def work(s: Session) -> Evidence | None:
            row = _find_evidence(s, game_id, EvidenceKind(kind).value, source, forum_id)
            return _to_evidence(row) if row else None

        return self._read(work)

    def iter_evidence(
        self,
        game_id: int,
        *,
        kind: EvidenceKind | str | None = None,
        sources: Collection[str] | None = None,
        unprocessed: bool = False,
        after_id: int = 0,
        page: int = PAGE,
    ) -> Iterator[Evidence]:
        """Evidence in the order recorded, streamed in short read transactions.

        ``unprocessed`` keeps what :meth:`mark_processed` has not marked: after a restart the
        daemon re-runs intake over those (the event batch keys make that safe).
        """
        q = select(m.Evidence).where(m.Evidence.game_id == game_id)
        if kind is not None:
            q = q.where(m.Evidence.kind == EvidenceKind(kind).value)
        if sources is not None:
            q = q.where(m.Evidence.source.in_(list(sources)))
        if unprocessed:
            q = q.where(m.Evidence.processed_at.is_(None))
        return self._pages(q, m.Evidence.id, after_id, page, lambda row: _to_evidence(row[0]))

    def revisions(self, evidence_id: int) -> list[Revision]:
        """Every later version of this evidence, oldest first."""

        def work(s: Session) -> list[Revision]:
            _evidence_row(s, evidence_id)
            q = select(m.EvidenceRevision).where(m.EvidenceRevision.evidence_id == evidence_id)
            return [_to_revision(r) for r in s.scalars(q.order_by(m.EvidenceRevision.number))]

        return self._read(work)

    def mark_deleted(self, evidence_id: int, at: datetime | None = None) -> Evidence:
        """The post or PM is gone from the forum (the first time noticed is kept)."""
        return self._stamp_evidence(evidence_id, "deleted_at", self._now(at, "at"))

    def mark_processed(self, evidence_id: int, at: datetime | None = None) -> Evidence:
        """Intake has turned this evidence into events or alerts (the first time is kept)."""
        return self._stamp_evidence(evidence_id, "processed_at", self._now(at, "at"))

    def _stamp_evidence(self, evidence_id: int, column: str, when: datetime) -> Evidence:
        def work(s: Session) -> Evidence:
            row = _evidence_row(s, evidence_id)
            if getattr(row, column) is None:
                setattr(row, column, when)
            return _to_evidence(row)

        return self._write(work)

    # -- events --------------------------------------------------------------------------------

    def append_events(
        self,
        game_id: int,
        events: Sequence[Mapping[str, Any]],
        evidence_id: int | None = None,
        *,
        key: str | None = None,
        recorded_at: datetime | None = None,
    ) -> list[int]:
        """Append events (JSON payloads, usually :func:`shenshi.store.codec.encode` of core
        events) and return their seqs, assigned atomically and gap-free.

        ``key`` makes the append idempotent: a batch already stored under ``key`` is not
        stored again and its seqs are returned (the first batch stored under a key wins).
        Each payload's type is its codec ``$type`` or, failing that, its ``"type"`` entry.
        """
        when = self._now(recorded_at, "recorded_at")
        payloads = [(_event_type(e), _json_copy(e)) for e in events]

        return self._write(lambda s: _append(s, game_id, payloads, evidence_id, key, when))

    def events(
        self, game_id: int, after_seq: int = 0, *, page: int = PAGE
    ) -> Iterator[StoredEvent]:
        """The game's events after ``after_seq``, in order, streamed a page per transaction
        (the log is append-only, so pages by seq are consistent)."""
        cols = (
            m.Event.seq,
            m.Event.type,
            m.Event.payload,
            m.Event.evidence_id,
            m.Event.batch_key,
            m.Event.recorded_at,
        )
        q = select(*cols).where(m.Event.game_id == game_id)
        return self._pages(q, m.Event.seq, after_seq, page, partial(_stored_event, game_id))

    def last_seq(self, game_id: int) -> int:
        """The seq of the game's latest event (0 before the first)."""
        return self._read(lambda s: _game_row(s, game_id).last_seq)

    # -- outbox --------------------------------------------------------------------------------

    def propose(
        self,
        game_id: int,
        key: str,
        kind: str,
        destination_kind: DestinationKind | str,
        destination: str,
        text: str,
        evidence_ids: Iterable[int] = (),
        *,
        destination_uid: str | None = None,
        created_at: datetime | None = None,
    ) -> tuple[Announcement, bool]:
        """Put an announcement in the outbox as ``proposed``; ``(announcement, created)``.

        Idempotent by ``key`` (deterministic, e.g. ``"night3:results"``): re-proposing an
        existing key returns the stored announcement unchanged (it may have been edited or
        sent since) with ``created=False``.
        """
        dest_kind = DestinationKind(destination_kind).value
        ids = [int(i) for i in evidence_ids]
        when = self._now(created_at, "created_at")

        fields = dict(
            key=key, kind=kind, destination_kind=dest_kind, destination=destination,
            destination_uid=destination_uid, text=text, evidence_ids=ids,
        )  # fmt: skip
        return self._write(lambda s: _propose(s, game_id, fields, when))

    def announcement(self, announcement_id: int) -> Announcement:
        """The announcement with this id (:class:`NotFound` if none)."""
        return self._read(lambda s: _to_announcement(_announcement_row(s, announcement_id)))

    def announcement_by_key(self, game_id: int, key: str) -> Announcement | None:
        """The announcement proposed under ``key``, if any."""

        def work(s: Session) -> Announcement | None:
            row = _announcement_by_key(s, game_id, key)
            return _to_announcement(row) if row else None

        return self._read(work)

    def announcements(
        self, game_id: int, states: Iterable[AnnouncementState | str] | None = None
    ) -> list[Announcement]:
        """The game's announcements (in the given states, if any), oldest first."""
        wanted = None if states is None else [AnnouncementState(s).value for s in states]

        def work(s: Session) -> list[Announcement]:
            q = select(m.Announcement).where(m.Announcement.game_id == game_id)
            if wanted is not None:
                q = q.where(m.Announcement.state.in_(wanted))
            return [_to_announcement(r) for r in s.scalars(q.order_by(m.Announcement.id))]

        return self._read(work)

    def approve(self, announcement_id: int, *, at: datetime | None = None) -> Announcement:
        """The GM approved it (``shenshi approve ID``); live mode approves before sending."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.approved_at = when

        return self._transition(announcement_id, OutboxAction.APPROVE, apply)

    def reject(self, announcement_id: int, *, at: datetime | None = None) -> Announcement:
        """The GM rejected it: it will never be sent."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.rejected_at = when

        return self._transition(announcement_id, OutboxAction.REJECT, apply)

    def edit(self, announcement_id: int, text: str, *, at: datetime | None = None) -> Announcement:
        """The GM changed the text. An approved announcement goes back to ``proposed``; the
        same text again changes nothing."""
        when = self._now(at, "at")
        return self._transition(
            announcement_id,
            OutboxAction.EDIT,
            lambda row: _set_text(row, text, when),
            unchanged=lambda row: row.text == text,
        )

    def mark_sending(self, announcement_id: int) -> Announcement:
        """About to send it: counts an attempt. Call before the request, so a crash leaves it
        ``sending`` and the daemon checks the forum before any resend."""

        def apply(row: m.Announcement) -> None:
            row.attempts += 1

        return self._transition(announcement_id, OutboxAction.SEND, apply)

    def mark_sent(
        self, announcement_id: int, forum_id: str, *, at: datetime | None = None
    ) -> Announcement:
        """The forum accepted it as ``forum_id`` (pid or PM id). Repeating it with the same id
        is a no-op; another id raises :class:`Conflict`."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.forum_id, row.sent_at, row.last_error = forum_id, when, None

        def unchanged(row: m.Announcement) -> bool:
            if row.state == AnnouncementState.SENT and row.forum_id != forum_id:
                raise Conflict(
                    f"announcement #{announcement_id} was already sent as {row.forum_id!r}, "
                    f"not {forum_id!r}"
                )
            return False

        return self._transition(announcement_id, OutboxAction.SENT, apply, unchanged=unchanged)

    def mark_failed(self, announcement_id: int, error: str) -> Announcement:
        """Sending failed (the error is kept); ``mark_sending`` retries it."""

        def apply(row: m.Announcement) -> None:
            row.last_error = error

        def unchanged(row: m.Announcement) -> bool:
            return row.state == AnnouncementState.FAILED and row.last_error == error

        return self._transition(announcement_id, OutboxAction.FAIL, apply, unchanged=unchanged)

    def mark_published(
        self, announcement_id: int, at: datetime | None = None, *, forum_id: str | None = None
    ) -> Announcement:
        """The GM posted it by hand (dry-run): ``shenshi published ID [--at TIME]``, or the
        daemon recognised the GM's own post (``forum_id``). The first time recorded is kept."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.published_at = when
            if forum_id is not None:
                row.forum_id = forum_id

        return self._transition(announcement_id, OutboxAction.PUBLISH, apply)

    def _transition(
        self,
        announcement_id: int,
        action: OutboxAction,
        apply: Callable[[m.Announcement], None],
        *,
        unchanged: Callable[[m.Announcement], bool] | None = None,
    ) -> Announcement:
        """Apply one outbox action; the state table decides, a repeat is a no-op."""

        def work(s: Session) -> Announcement:
            row = _announcement_row(s, announcement_id, lock=True)
            state = AnnouncementState(row.state)
            after = next_state(state, action, f"#{announcement_id}")
            if unchanged is not None and unchanged(row):
                return _to_announcement(row)
            if after is state and action not in (OutboxAction.EDIT, OutboxAction.FAIL):
                return _to_announcement(row)  # a repeat: approve twice, sent twice…
            apply(row)
            row.state = after.value
            return _to_announcement(row)

        return self._write(work)

    # -- one outcome, one transaction ---------------------------------------------------------

    def commit_outcome(
        self,
        game_id: int,
        key: str,
        events: Sequence[Mapping[str, Any]],
        *,
        drafts: Sequence[Mapping[str, Any]] = (),
        alerts: Sequence[Mapping[str, Any]] = (),
        evidence_id: int | None = None,
        at: datetime | None = None,
    ) -> list[int]:
        """Store what one input produced in a single transaction: the events (under ``key``,
        idempotent), the proposed announcements and alerts (idempotent by their own keys),
        and, for evidence, the "processed" mark. A crash leaves all of it or none of it.

        ``drafts`` hold :meth:`propose`'s fields (``key, kind, destination_kind, destination,
        text, evidence_ids``, optional ``destination_uid``); ``alerts`` hold :meth:`add_alert`'s.
        """
        when = self._now(at, "at")
        payloads = [(_event_type(e), _json_copy(e)) for e in events]
        proposals = [
            {**d, "destination_kind": DestinationKind(d["destination_kind"]).value,
             "evidence_ids": [int(i) for i in d.get("evidence_ids", ())],
             "destination_uid": d.get("destination_uid")}
            for d in drafts
        ]  # fmt: skip

        def work(s: Session) -> list[int]:
            seqs = _append(s, game_id, payloads, evidence_id, key, when)
            for proposal in proposals:
                _propose(s, game_id, proposal, when)
            for alert in alerts:
                _raise_alert(s, game_id, dict(alert), when)
            if evidence_id is not None:
                row = _evidence_row(s, evidence_id)
                if row.processed_at is None:
                    row.processed_at = when
            return seqs

        return self._write(work)

    # -- alerts --------------------------------------------------------------------------------

    def add_alert(
        self,
        game_id: int,
        key: str,
        kind: str,
        message: str,
        *,
        subject: str | None = None,
        evidence_id: int | None = None,
        at: datetime | None = None,
    ) -> tuple[Alert, bool]:
        """Raise a GM alert; idempotent by ``key``: ``(alert, created)``."""
        when = self._now(at, "at")

        fields = dict(key=key, kind=kind, message=message, subject=subject, evidence_id=evidence_id)
        return self._write(lambda s: _raise_alert(s, game_id, fields, when))

    def resolve_alert(self, alert_id: int, *, at: datetime | None = None) -> Alert:
        """The GM dealt with the alert (the first time is kept)."""
        when = self._now(at, "at")

        def work(s: Session) -> Alert:
            row = s.get(m.Alert, alert_id)
            if row is None:
                raise NotFound(f"no alert #{alert_id}")
            if row.resolved_at is None:
                row.resolved_at = when
            return _to_alert(row)

        return self._write(work)

    def alerts(self, game_id: int, *, open_only: bool = False) -> list[Alert]:
        """The game's alerts, oldest first (``open_only``: not resolved yet)."""

        def work(s: Session) -> list[Alert]:
            q = select(m.Alert).where(m.Alert.game_id == game_id)
            if open_only:
                q = q.where(m.Alert.resolved_at.is_(None))
            return [_to_alert(r) for r in s.scalars(q.order_by(m.Alert.id))]

        return self._read(work)

    # -- cursors -------------------------------------------------------------------------------

    def cursor(self, game_id: int, source: str) -> Cursor | None:
        """Where the poll of ``source`` stopped, if it ever ran."""

        def work(s: Session) -> Cursor | None:
            row = s.get(m.Cursor, (game_id, source))
            return _to_cursor(row) if row else None

        return self._read(work)

    def cursors(self, game_id: int) -> list[Cursor]:
        """Every poll cursor of the game, by source."""
        return self._read(
            lambda s: [
                _to_cursor(r)
                for r in s.scalars(
                    select(m.Cursor).where(m.Cursor.game_id == game_id).order_by(m.Cursor.source)
                )
            ]
        )

    def set_cursor(
        self, game_id: int, source: str, value: Any, *, at: datetime | None = None
    ) -> Cursor:
        """Record where the poll of ``source`` stopped (any JSON value)."""
        when = self._now(at, "at")
        stored = _json_copy(value)

        def work(s: Session) -> Cursor:
            _game_row(s, game_id)
            row = s.get(m.Cursor, (game_id, source))
            if row is None:
                row = _added(
                    s, m.Cursor(game_id=game_id, source=source, value=stored, updated_at=when)
                )
            else:
                row.value, row.updated_at = stored, when
            return _to_cursor(row)

        return self._write(work)

    # -- activity ------------------------------------------------------------------------------

    def activity(
        self,
        game_id: int,
        start: datetime,
        end: datetime,
        *,
        sources: Collection[str] | None = None,
        exclude_sources: Collection[str] = (),
        kind: EvidenceKind | str = EvidenceKind.POST,
        include_deleted: bool = False,
    ) -> list[Activity]:
        """Posts per author (forum uid) posted in ``[start, end)``, most active first.

        ``sources`` keeps only the counted threads (None: every thread), ``exclude_sources``
        drops uncounted ones (灌水 threads). Deleted posts are left out unless asked for.
        """
        lo, hi = aware(start, "start"), aware(end, "end")
        e = m.Evidence
        q = (
            select(
                e.author_uid,
                e.author,
                func.count(e.id),
                func.min(e.posted_at),
                func.max(e.posted_at),
            )
            .where(
                e.game_id == game_id,
                e.kind == EvidenceKind(kind).value,
                e.posted_at >= lo,
                e.posted_at < hi,
            )
            .group_by(e.author_uid, e.author)
        )
        if sources is not None:
            q = q.where(e.source.in_(list(sources)))
        if exclude_sources:
            q = q.where(e.source.not_in(list(exclude_sources)))
        if not include_deleted:
            q = q.where(e.deleted_at.is_(None))
        rows = self._read(lambda s: s.execute(q).all())
        merged: dict[str, Activity] = {}
        for uid, name, posts, first, last in rows:
            seen = merged.get(uid)
            if seen is None:
                merged[uid] = Activity(uid, name, posts, first, last)
                continue
            merged[uid] = Activity(
                uid,
                name if last > seen.last_at else seen.author,
                seen.posts + posts,
                min(first, seen.first_at),
                max(last, seen.last_at),
            )
        return sorted(merged.values(), key=lambda a: (-a.posts, a.author_uid))


# -- lookups inside a session ----------------------------------------------------------------


def _append(
    s: Session,
    game_id: int,
    payloads: Sequence[tuple[str, Any]],
    evidence_id: int | None,
    key: str | None,
    when: datetime,
) -> list[int]:
    """Append a batch of events in the open transaction; a batch already under ``key`` wins."""
    game = _game_row(s, game_id, lock=True)  # appenders of one game queue here
    if key is not None:
        stored = s.scalars(
            select(m.Event.seq)
            .where(m.Event.game_id == game_id, m.Event.batch_key == key)
            .order_by(m.Event.batch_index)
        ).all()
        if stored:
            return list(stored)
    if evidence_id is not None:
        _evidence_row(s, evidence_id)
    if not payloads:
        return []
    first = game.last_seq + 1
    game.last_seq += len(payloads)
    s.add_all(
        m.Event(
            game_id=game_id, seq=first + i, type=kind, payload=payload, evidence_id=evidence_id,
            batch_key=key, batch_index=i if key else None, recorded_at=when,
        )  # fmt: skip
        for i, (kind, payload) in enumerate(payloads)
    )
    return list(range(first, first + len(payloads)))


def _propose(s: Session, game_id: int, fields: Mapping[str, Any], when: datetime) -> tuple[Announcement, bool]:
    """Propose in the open transaction; an existing key is returned unchanged."""
    _game_row(s, game_id)
    row = _announcement_by_key(s, game_id, fields["key"])
    if row is not None:
        return _to_announcement(row), False
    row = _added(
        s,
        m.Announcement(
            game_id=game_id, **fields, state=AnnouncementState.PROPOSED.value, created_at=when,
            attempts=0,
        ),
    )
    return _to_announcement(row), True


def _raise_alert(s: Session, game_id: int, fields: Mapping[str, Any], when: datetime) -> tuple[Alert, bool]:
    """Raise an alert in the open transaction; an existing key is returned unchanged."""
    _game_row(s, game_id)
    row = s.scalar(select(m.Alert).where(m.Alert.game_id == game_id, m.Alert.key == fields["key"]))
    if row is not None:
        return _to_alert(row), False
    if fields.get("evidence_id") is not None:
        _evidence_row(s, fields["evidence_id"])
    row = _added(s, m.Alert(game_id=game_id, **fields, created_at=when))
    return _to_alert(row), True


def _stored_event(game_id: int, row: Row[Any]) -> StoredEvent:
    return StoredEvent(game_id, *tuple(row))


def _fetch(q: Select[Any], convert: Callable[[Row[Any]], T], s: Session) -> list[T]:
    return [convert(row) for row in s.execute(q)]


def _added(s: Session, row: R) -> R:
    """``row`` inserted now (its id assigned), so a record can be made of it."""
    s.add(row)
    s.flush()
    return row


def _game_row(s: Session, game_id: int, *, lock: bool = False) -> m.Game:
    row = s.get(m.Game, game_id, with_for_update=lock or None)
    if row is None:
        raise NotFound(f"no game #{game_id}")
    return row


def _player_row(s: Session, game_id: int, name: str, *, required: bool = True) -> m.Player:
    row = s.scalar(select(m.Player).where(m.Player.game_id == game_id, m.Player.name == name))
    if row is None and required:
        raise NotFound(f"no player {name!r} in game #{game_id}")
    return row  # type: ignore[return-value]


def _evidence_row(s: Session, evidence_id: int) -> m.Evidence:
    row = s.get(m.Evidence, evidence_id)
    if row is None:
        raise NotFound(f"no evidence #{evidence_id}")
    return row


def _find_evidence(
    s: Session, game_id: int, kind: str, source: str, forum_id: str
) -> m.Evidence | None:
    return s.scalar(
        select(m.Evidence).where(
            m.Evidence.game_id == game_id,
            m.Evidence.kind == kind,
            m.Evidence.source == source,
            m.Evidence.forum_id == forum_id,
        )
    )


def _announcement_row(s: Session, announcement_id: int, *, lock: bool = False) -> m.Announcement:
    row = s.get(m.Announcement, announcement_id, with_for_update=lock or None)
    if row is None:
        raise NotFound(f"no announcement #{announcement_id}")
    return row


def _announcement_by_key(s: Session, game_id: int, key: str) -> m.Announcement | None:
    return s.scalar(
        select(m.Announcement).where(m.Announcement.game_id == game_id, m.Announcement.key == key)
    )


def _set_text(row: m.Announcement, text: str, when: datetime) -> None:
    row.text, row.edited_at = text, when


def _event_type(payload: Mapping[str, Any]) -> str:
    """The class name of a codec payload (``"$type": "module:Qualname"``), or its ``type``."""
    name = payload.get("$type") or payload.get("type") if isinstance(payload, Mapping) else None
    if not isinstance(name, str) or not name:
        raise ValueError(
            f"an event payload needs a codec '$type' or a 'type' entry: {payload!r:.80}"
        )
    return name.rpartition(":")[2]


# -- evidence content ----------------------------------------------------------------------------

Content = tuple[str, list[dict[str, Any]], dict[str, str] | None]


def _content(text: str, quotes: Iterable[Quote], edited: EditMark | None) -> Content:
    """The parts of a post whose change makes a revision, as stored (JSON-ready)."""
    q = [{"author": x.author, "pid": x.pid, "text": x.text} for x in quotes]
    e = (
        None
        if edited is None
        else {"by": edited.by, "at": aware(edited.at, "edited.at").isoformat()}
    )
    return text, q, e


def _post_fields(post: Post, url: str | None) -> dict[str, Any]:
    return {
        "kind": EvidenceKind.POST.value,
        "source": str(post.tid),
        "forum_id": str(post.pid),
        "floor": post.floor,
        "author": post.author,
        "author_uid": str(post.author_uid),
        "posted_at": aware(post.posted_at, "post.posted_at"),
        "url": url,
    }


def _pm_fields(pm: PrivateMessage, url: str | None) -> dict[str, Any]:
    return {
        "kind": EvidenceKind.PM.value,
        "source": str(pm.conversation),
        "forum_id": str(pm.id),
        "author": pm.sender,
        "author_uid": str(pm.sender_uid),
        "recipient": pm.recipient,
        "recipient_uid": pm.recipient_uid,
        "posted_at": aware(pm.sent_at, "pm.sent_at"),
        "url": url,
    }


def _record(
    s: Session, game_id: int, fields: dict[str, Any], content: Content, when: datetime
) -> RecordResult:
    text, quotes, edited = content
    row = _find_evidence(s, game_id, fields["kind"], fields["source"], fields["forum_id"])
    if row is None:
        _game_row(s, game_id)
        row = _added(
            s,
            m.Evidence(
                game_id=game_id,
                **fields,
                text=text,
                quotes=quotes,
                edited=edited,
                first_seen_at=when,
                revisions=0,
            ),
        )
        return RecordResult(_to_evidence(row), is_new=True)
    latest: Any = row
    if row.revisions:
        latest = s.scalar(
            select(m.EvidenceRevision).where(
                m.EvidenceRevision.evidence_id == row.id, m.EvidenceRevision.number == row.revisions
            )
        )
    if (latest.text, latest.quotes, latest.edited) == (text, quotes, edited):
        return RecordResult(_to_evidence(row), is_new=False)
    row.revisions += 1
    revision = _added(
        s,
        m.EvidenceRevision(
            evidence_id=row.id,
            number=row.revisions,
            text=text,
            quotes=quotes,
            edited=edited,
            seen_at=when,
        ),
    )
    return RecordResult(_to_evidence(row), is_new=False, revision=_to_revision(revision))


def _quotes(data: Any) -> tuple[Quote, ...]:
    return tuple(Quote(q.get("author"), q.get("pid"), q.get("text", "")) for q in data or ())


def _edited(data: Any) -> EditMark | None:
    if not data:
        return None
    return EditMark(data["by"], datetime.fromisoformat(data["at"]).astimezone(UTC))


# -- rows to records (inside the session) --------------------------------------------------------


def _copy(cls: type[T], row: m.Base, **converted: Any) -> T:
    """The record ``cls`` of ``row``: every field read from the column of the same name,
    unless ``converted`` gives it."""
    values = {f.name: getattr(row, f.name) for f in fields(cls) if f.name not in converted}  # type: ignore[arg-type]
    return cls(**values, **converted)


def _to_game(r: m.Game) -> Game:
    return _copy(Game, r, deal=r.deal_result)


def _to_player(r: m.Player) -> Player:
    return _copy(Player, r, alive=bool(r.alive), addons=tuple(r.addons or ()))


def _to_evidence(r: m.Evidence) -> Evidence:
    return _copy(
        Evidence, r, kind=EvidenceKind(r.kind), quotes=_quotes(r.quotes), edited=_edited(r.edited)
    )


def _to_revision(r: m.EvidenceRevision) -> Revision:
    return _copy(Revision, r, quotes=_quotes(r.quotes), edited=_edited(r.edited))


def _to_announcement(r: m.Announcement) -> Announcement:
    return _copy(
        Announcement,
        r,
        destination_kind=DestinationKind(r.destination_kind),
        evidence_ids=tuple(r.evidence_ids or ()),
        state=AnnouncementState(r.state),
    )


def _to_alert(r: m.Alert) -> Alert:
    return _copy(Alert, r)


def _to_cursor(r: m.Cursor) -> Cursor:
    return _copy(Cursor, r)
