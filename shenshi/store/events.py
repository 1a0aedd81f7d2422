"""The event log of each game: append-only, ``seq`` gap-free from 1, batches idempotent by key.

The game row's ``last_seq`` is the counter: an append locks the game row, bumps the counter
and inserts the batch in the same transaction, so appenders of one game queue and seqs never
skip. Payloads are the codec's JSON (:mod:`shenshi.store.codec`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, Text, cast, select

from shenshi.store import models as m
from shenshi.store.records import StoredEvent
from shenshi.store.rows import Repository, evidence_row, game_row, json_copy


class EventRepository(Repository):
    """The games' event logs, in the unit of work's transaction."""

    def append(
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
        payloads = [(_event_type(e), json_copy(e)) for e in events]
        s = self.session
        game = game_row(s, game_id, lock=True)  # appenders of one game queue here
        if key is not None:
            stored = s.scalars(
                select(m.Event.seq)
                .where(m.Event.game_id == game_id, m.Event.batch_key == key)
                .order_by(m.Event.batch_index)
            ).all()
            if stored:
                return list(stored)
        if evidence_id is not None:
            evidence_row(s, evidence_id)
        if not payloads:
            return []
        first = game.last_seq + 1
        game.last_seq += len(payloads)
        s.add_all(
            m.Event(
                game_id=game_id, seq=first + i, type=kind, payload=payload,
                evidence_id=evidence_id, batch_key=key, batch_index=i if key else None,
                recorded_at=when,
            )  # fmt: skip
            for i, (kind, payload) in enumerate(payloads)
        )
        s.flush()
        return list(range(first, first + len(payloads)))

    def page(self, game_id: int, *, after_seq: int = 0, limit: int) -> list[StoredEvent]:
        """Up to ``limit`` events of the game after ``after_seq``, in order."""
        q = _selected().where(m.Event.game_id == game_id, m.Event.seq > after_seq)
        return self._stored(game_id, q.order_by(m.Event.seq).limit(limit))

    def raw_page(self, game_id: int, *, after_seq: int = 0, limit: int) -> list[tuple[Any, ...]]:
        """Like :meth:`page`, each payload the stored JSON text, for the caller to parse one
        at a time (``Store.stream_events``): a replay then never holds a page of parsed
        payloads, which halves its time (memory reused, the collector not walking them)."""
        q = select(
            m.Event.seq, m.Event.type, cast(m.Event.payload, Text), m.Event.evidence_id,
            m.Event.batch_key, m.Event.recorded_at,
        ).where(m.Event.game_id == game_id, m.Event.seq > after_seq)  # fmt: skip
        return [tuple(row) for row in self.session.execute(q.order_by(m.Event.seq).limit(limit))]

    def of_evidence(self, game_id: int, evidence_ids: Iterable[int]) -> list[StoredEvent]:
        """The events that came from these posts and PMs, in order (the dry-run log labels
        each piece of evidence with what it did: a ballot, an action)."""
        wanted = sorted(set(evidence_ids))
        if not wanted:
            return []
        q = _selected().where(m.Event.game_id == game_id, m.Event.evidence_id.in_(wanted))
        return self._stored(game_id, q.order_by(m.Event.seq))

    def _stored(self, game_id: int, query: Select[Any]) -> list[StoredEvent]:
        return [StoredEvent(game_id, *tuple(row)) for row in self.session.execute(query)]

    def last_seq(self, game_id: int) -> int:
        """The seq of the game's latest event (0 before the first)."""
        return game_row(self.session, game_id).last_seq


def _selected() -> Select[Any]:
    """The columns of a :class:`StoredEvent`."""
    return select(
        m.Event.seq, m.Event.type, m.Event.payload, m.Event.evidence_id,
        m.Event.batch_key, m.Event.recorded_at,
    )  # fmt: skip


def _event_type(payload: Mapping[str, Any]) -> str:
    """The type of a codec payload (its ``$type`` tag), or its ``type`` entry."""
    name = payload.get("$type") or payload.get("type") if isinstance(payload, Mapping) else None
    if not isinstance(name, str) or not name:
        raise ValueError(
            f"an event payload needs a codec '$type' or a 'type' entry: {payload!r:.80}"
        )
    return name.rpartition(":")[2]
