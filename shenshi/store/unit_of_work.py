"""The store and its units of work (cosmicpython's ``service_layer/unit_of_work.py``): one
transaction, and a small repository per aggregate working inside it.

::

    with store.transaction() as uow:        # one write transaction
        seqs = uow.events.append(game_id, payloads, evidence_id, key=f"evidence:{evidence_id}")
        uow.outbox.propose(game_id, ...)
        uow.evidence.mark_processed(evidence_id)
    # committed here; an exception inside the block rolls all of it back

    with store.snapshot() as uow:           # one consistent read, never a write
        players = uow.games.players(game_id)

Repositories (one module each)::

    uow.games      games and players          shenshi.store.games
    uow.evidence   posts, PMs, revisions,     shenshi.store.evidence
                   poll cursors, activity
    uow.events     the event log              shenshi.store.events
    uow.outbox     announcements              shenshi.store.announcements
    uow.alerts     GM alerts                  shenshi.store.alerts
    uow.leases     which daemon runs a game   shenshi.store.leases

A ``kill -9`` at any point loses nothing that was committed and leaves nothing half-written.
Writes the daemon may repeat after a crash are idempotent by construction: evidence by (kind,
source, forum id), events by batch key, announcements and alerts by their key, outbox
transitions by repeating as a no-op. Repositories hand back frozen records
(:mod:`shenshi.store.records`), never live ORM objects.

A write transaction starts ``BEGIN IMMEDIATE`` on SQLite (see :mod:`shenshi.store.engine`), so
writers queue instead of racing; on PostgreSQL each look-then-insert first locks the game's
row. One thread holds one unit of work at a time: a second one inside the first would wait on
the first's locks, so it is refused at once.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Collection, Iterator
from datetime import datetime
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from shenshi.clock import system_clock
from shenshi.store.alerts import AlertRepository
from shenshi.store.announcements import OutboxRepository
from shenshi.store.events import EventRepository
from shenshi.store.evidence import EvidenceRepository
from shenshi.store.games import GameRepository
from shenshi.store.leases import LeaseRepository
from shenshi.store.records import Evidence, EvidenceKind, StoredEvent

T = TypeVar("T")

WRITE_OPTION = "shenshi_write"
"""Execution option marking a write transaction (SQLite: ``BEGIN IMMEDIATE``)."""

PAGE = 1000  # rows per read transaction when streaming


class UnitOfWork:
    """One transaction and the repositories that work in it (see the module docstring).

    Build it with :meth:`Store.transaction` or :meth:`Store.snapshot` and use it once, in a
    ``with`` block.
    """

    games: GameRepository
    evidence: EvidenceRepository
    events: EventRepository
    outbox: OutboxRepository
    alerts: AlertRepository
    leases: LeaseRepository

    def __init__(
        self,
        sessions: sessionmaker[Session],
        clock: Callable[[], datetime],
        *,
        writable: bool,
        busy: threading.local,
        ended: Callable[[], None] | None = None,
    ) -> None:
        self._sessions = sessions
        self._clock = clock
        self.writable = writable
        self._busy = busy
        self._ended = ended
        self._session: Session | None = None

    def __enter__(self) -> UnitOfWork:
        if getattr(self._busy, "uow", None) is not None:
            raise RuntimeError("a unit of work is already open in this thread: finish it first")
        session = self._sessions()
        session.begin()
        self._session = session
        self._busy.uow = self
        self.games = GameRepository(session, self._clock)
        self.evidence = EvidenceRepository(session, self._clock)
        self.events = EventRepository(session, self._clock)
        self.outbox = OutboxRepository(session, self._clock)
        self.alerts = AlertRepository(session, self._clock)
        self.leases = LeaseRepository(session, self._clock)
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        session, self._session = self._session, None
        self._busy.uow = None
        if session is None:
            return
        try:
            if kind is None and self.writable:
                session.commit()
            else:
                session.rollback()
        finally:
            session.close()
        if self._ended is not None:
            self._ended()


class Store:
    """The persistence of one or many games: units of work on one database.

    Build it with :func:`shenshi.store.open_store`; ``clock`` returns aware datetimes and
    stamps ``first_seen_at``, ``recorded_at``… when the caller gives no time.
    """

    def __init__(self, engine: Engine, *, clock: Callable[[], datetime] | None = None) -> None:
        self.engine = engine
        self._clock = clock or system_clock
        self._reader = sessionmaker(engine, expire_on_commit=False, autobegin=False)
        self._writer = sessionmaker(
            engine.execution_options(**{WRITE_OPTION: True}),
            expire_on_commit=False,
            autobegin=False,
        )
        self._busy = threading.local()
        # Called as each write transaction ends (``shenshi run`` stops there on a signal).
        self.after_write: Callable[[], None] | None = None

    @property
    def writing(self) -> bool:
        """Whether this thread is inside a write transaction now."""
        uow = getattr(self._busy, "uow", None)
        return uow is not None and uow.writable

    def transaction(self) -> UnitOfWork:
        """A write transaction: committed when the ``with`` block ends, rolled back if it
        raises."""
        return UnitOfWork(self._writer, self._clock, writable=True, busy=self._busy, ended=self._write_ended)

    def _write_ended(self) -> None:
        if self.after_write is not None:
            self.after_write()

    def snapshot(self) -> UnitOfWork:
        """A read transaction (one consistent view); whatever it changes is rolled back."""
        return UnitOfWork(self._reader, self._clock, writable=False, busy=self._busy)

    def stream_events(self, game_id: int, after_seq: int = 0) -> Iterator[StoredEvent]:
        """The game's events after ``after_seq``, in order, a page per read transaction (so a
        long replay never holds the database; the log is append-only, so pages are
        consistent)."""
        while True:
            with self.snapshot() as uow:
                page = uow.events.raw_page(game_id, after_seq=after_seq, limit=PAGE)
            for seq, kind, raw, evidence_id, batch_key, recorded_at in page:  # parsed one by one
                yield StoredEvent(game_id, seq, kind, json.loads(raw), evidence_id, batch_key, recorded_at)
            if len(page) < PAGE:
                return
            after_seq = page[-1][0]

    def stream_evidence(
        self,
        game_id: int,
        *,
        kind: EvidenceKind | str | None = None,
        sources: Collection[str] | None = None,
        unprocessed: bool = False,
    ) -> Iterator[Evidence]:
        """The game's evidence in the order recorded, a page per read transaction (filters:
        :meth:`~shenshi.store.evidence.EvidenceRepository.page`)."""
        after = 0
        while True:
            with self.snapshot() as uow:
                page = uow.evidence.page(
                    game_id, after_id=after, limit=PAGE, kind=kind, sources=sources,
                    unprocessed=unprocessed,
                )  # fmt: skip
            yield from page
            if len(page) < PAGE:
                return
            after = page[-1].id

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
