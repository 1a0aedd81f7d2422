"""GM alerts: what the GM must look at (an ambiguous name, a PM from a non-player, an edit that
changes a vote…), each raised once per key."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select

from shenshi.store import models as m
from shenshi.store.errors import NotFound
from shenshi.store.records import Alert
from shenshi.store.rows import Repository, added, evidence_row, game_row, json_copy, to_alert


class AlertRepository(Repository):
    """The games' alerts, in the unit of work's transaction."""

    def add(
        self,
        game_id: int,
        key: str,
        kind: str,
        message: str,
        *,
        subject: str | None = None,
        evidence_id: int | None = None,
        at: datetime | None = None,
        cause: Mapping[str, Any] | None = None,
    ) -> tuple[Alert, bool]:
        """Raise a GM alert; idempotent by ``key``: ``(alert, created)`` (an existing key is
        returned unchanged). ``cause``: what the alert is about (JSON), which resolves it."""
        when = self._now(at, "at")
        s = self.session
        game_row(s, game_id, lock=True)
        row = s.scalar(select(m.Alert).where(m.Alert.game_id == game_id, m.Alert.key == key))
        if row is not None:
            return to_alert(row), False
        if evidence_id is not None:
            evidence_row(s, evidence_id)
        row = added(
            s,
            m.Alert(
                game_id=game_id, key=key, kind=kind, message=message, subject=subject,
                evidence_id=evidence_id, created_at=when, cause=json_copy(cause) if cause else None,
            ),
        )  # fmt: skip
        return to_alert(row), True

    def by_key(self, game_id: int, key: str) -> Alert | None:
        """The alert raised under ``key``, if any."""
        row = self.session.scalar(select(m.Alert).where(m.Alert.game_id == game_id, m.Alert.key == key))
        return to_alert(row) if row is not None else None

    def raised(
        self, game_id: int, *, open_only: bool = False, unacknowledged: bool = False
    ) -> list[Alert]:
        """The game's alerts, oldest first (``open_only``: not resolved yet;
        ``unacknowledged``: not acknowledged by the GM yet)."""
        q = select(m.Alert).where(m.Alert.game_id == game_id)
        if open_only:
            q = q.where(m.Alert.resolved_at.is_(None))
        if unacknowledged:
            q = q.where(m.Alert.acknowledged_at.is_(None))
        return [to_alert(r) for r in self.session.scalars(q.order_by(m.Alert.id))]

    def acknowledge(
        self, game_id: int, ids: Iterable[int], *, at: datetime | None = None
    ) -> list[Alert]:
        """The GM has seen these alerts (``shenshi ack``). Acknowledging twice keeps the first
        time; an id that is not one of this game's alerts raises :class:`NotFound` and
        acknowledges nothing."""
        when = self._now(at, "at")
        wanted, rows = self._rows(game_id, ids)
        for row in rows.values():
            if row.acknowledged_at is None:
                row.acknowledged_at = when
        return [to_alert(rows[i]) for i in wanted]

    def _rows(self, game_id: int, ids: Iterable[int]) -> tuple[list[int], dict[int, m.Alert]]:
        """The ids asked for (once each, in order) and their rows; an id that is not one of
        this game's alerts raises :class:`NotFound`."""
        wanted = list(dict.fromkeys(ids))
        q = select(m.Alert).where(m.Alert.game_id == game_id, m.Alert.id.in_(wanted))
        rows = {r.id: r for r in self.session.scalars(q)}
        missing = [i for i in wanted if i not in rows]
        if missing:
            raise NotFound(f"no alert {', '.join(f'#{i}' for i in missing)} in this game")
        return wanted, rows

    def unacknowledge(self, game_id: int, ids: Iterable[int]) -> list[Alert]:
        """The GM takes an acknowledgement back (``shenshi ack --undo``): shown again. An id
        that is not one of this game's alerts raises :class:`NotFound` and changes nothing."""
        wanted, rows = self._rows(game_id, ids)
        for row in rows.values():
            row.acknowledged_at = None
        return [to_alert(rows[i]) for i in wanted]

    def resolve(
        self,
        game_id: int,
        resolution: Callable[[Alert], str | None],
        *,
        at: datetime | None = None,
    ) -> list[Alert]:
        """Close the game's open alerts whose cause has happened: ``resolution(alert)`` says
        what resolved it (``None``: nothing did, it stays open). Closed alerts stay viewable in
        :meth:`raised`, with ``resolved_at`` and ``resolution``."""
        when = self._now(at, "at")
        q = select(m.Alert).where(m.Alert.game_id == game_id, m.Alert.resolved_at.is_(None))
        done = []
        for row in self.session.scalars(q.order_by(m.Alert.id)):
            words = resolution(to_alert(row))
            if words is not None:
                row.resolved_at = when
                row.resolution = words[:200]
                done.append(to_alert(row))
        return done
