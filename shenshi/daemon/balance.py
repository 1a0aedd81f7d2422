"""Several daemons on one database share its games out (the per-game lease decides who serves
each game; this decides who should).

Every round each daemon notes that it is alive (a ``daemon:<owner>`` cursor on the first of its
games, the *roll*). A daemon always takes a game nobody holds (serving comes first); but one that
holds more than its share, ``ceil(games / daemons alive)``, while another live daemon holds fewer,
gives the surplus up (its lease released between two cycles, never mid-cycle) and leaves those
games alone for :data:`HANDOVER` so that the other one takes them. A daemon that stops or is
killed no longer counts once its note is older than the lease's time to live, or at once when it
was a process of this host that is gone: its games are free (its leases expired or replaced), and
the others take them.

Every daemon is expected to serve the same games (the same configurations); one given fewer
simply takes its share of those.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from shenshi.daemon.lease import LEASE_TTL, gone
from shenshi.store.unit_of_work import Store

log = logging.getLogger(__name__)

PRESENCE = "daemon:"  # the roll's cursors: one per daemon, its last round
HANDOVER = timedelta(minutes=5)  # a game given up is left alone this long for another daemon


class Balance:
    """This daemon's view of the daemons serving one database's games."""

    def __init__(
        self, store: Store, games: Sequence[int], owner: str, clock: Callable[[], datetime]
    ) -> None:
        self.store = store
        self.games = sorted(games)
        self.owner = owner
        self.clock = clock
        self.given: dict[int, datetime] = {}  # games given up, and when

    @property
    def roll(self) -> int:
        """The game whose cursors hold the daemons' notes (the first game: the same for all)."""
        return self.games[0]

    def beat(self) -> None:
        """Note that this daemon is alive (once a round)."""
        with self.store.transaction() as uow:
            uow.evidence.set_cursor(self.roll, PRESENCE + self.owner, {"games": len(self.games)}, at=self.clock())

    def waiting(self, game_id: int) -> bool:
        """Whether ``game_id`` was given up lately and is left for another daemon to take."""
        since = self.given.get(game_id)
        if since is None:
            return False
        if self.clock() - since >= HANDOVER:
            del self.given[game_id]  # nobody took it: serve it again
            return False
        return True

    def surplus(self) -> list[int]:
        """The games this daemon should give up now (the highest ids first), given who is alive
        and who holds what."""
        now = self.clock()
        with self.store.snapshot() as uow:
            notes = [c for c in uow.evidence.cursors(self.roll) if c.source.startswith(PRESENCE)]
            holders = [uow.leases.holder(g) for g in self.games]
        alive = {self.owner} | {
            n.source.removeprefix(PRESENCE) for n in notes
            if now - n.updated_at < LEASE_TTL and not gone(n.source.removeprefix(PRESENCE))
        }  # fmt: skip
        held = Counter(h.owner for h in holders if h is not None and h.expires_at > now)
        share = math.ceil(len(self.games) / len(alive))
        mine = [g for g, h in zip(self.games, holders, strict=True) if h is not None and h.owner == self.owner]
        room = sum(max(0, share - held.get(d, 0)) for d in alive if d != self.owner)
        count = min(len(mine) - share, room)
        if count <= 0:
            return []
        log.info("%d 个守护进程分担 %d 局：交出 %d 局给其他进程", len(alive), len(self.games), count)
        return mine[-count:]

    def give_up(self, game_id: int) -> None:
        """Note that ``game_id`` was given up now."""
        self.given[game_id] = self.clock()
