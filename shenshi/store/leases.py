"""Leases: which daemon runs each game, so that two daemons on one database never both work it.

A daemon takes a game's lease (one row per game, :class:`~shenshi.store.models.Lease`) before
each cycle, in a write transaction that first locks the game's row, so two takers queue and
exactly one wins; it renews the lease every cycle. Another daemon may take the game over only
once ``expires_at`` has passed (its holder stopped renewing: killed, hung, cut off). Until then
:meth:`LeaseRepository.take` raises :class:`~shenshi.store.errors.LeaseHeld`, naming the
holder. Times are the takers' clocks (hosts sharing a PostgreSQL database keep theirs in step).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from shenshi.store import models as m
from shenshi.store.errors import LeaseHeld
from shenshi.store.records import Lease
from shenshi.store.rows import Repository, added, game_row, to_lease


class LeaseRepository(Repository):
    """The games' leases, in the unit of work's transaction."""

    def take(
        self,
        game_id: int,
        owner: str,
        *,
        ttl: timedelta,
        at: datetime | None = None,
        replacing: str | None = None,
    ) -> Lease:
        """Take or renew the game's lease for ``owner`` until ``at + ttl``. Raises
        :class:`LeaseHeld` while another owner holds it (the game is left alone), unless that
        owner is ``replacing``: a holder the caller knows is gone (a killed process on this
        host)."""
        now = self._now(at, "at")
        if ttl <= timedelta(0):
            raise ValueError(f"a lease lasts some time, not {ttl}")
        s = self.session
        game_row(s, game_id, lock=True)  # takers of one game queue here
        row = s.get(m.Lease, game_id)
        if row is None:
            row = added(
                s,
                m.Lease(
                    game_id=game_id, owner=owner, taken_at=now, renewed_at=now, expires_at=now + ttl
                ),
            )
            return to_lease(row)
        if row.owner != owner:
            if row.expires_at > now and row.owner != replacing:
                raise LeaseHeld(to_lease(row))
            row.owner, row.taken_at = owner, now  # the holder stopped renewing: taken over
        row.renewed_at, row.expires_at = now, now + ttl
        s.flush()
        return to_lease(row)

    def holder(self, game_id: int) -> Lease | None:
        """Who holds (or last held) the game's lease, if anyone."""
        row = self.session.get(m.Lease, game_id)
        return to_lease(row) if row else None

    def release(self, game_id: int, owner: str) -> bool:
        """Give the lease up (a daemon stopping cleanly), if ``owner`` holds it."""
        s = self.session
        game_row(s, game_id, lock=True)
        row = s.get(m.Lease, game_id)
        if row is None or row.owner != owner:
            return False
        s.delete(row)
        s.flush()
        return True
