"""Many games in one daemon: every game of a store, served in rounds that share the forum reads.

``shenshi run`` builds one :class:`~shenshi.daemon.service.GameService` per game (each with its
own configuration, mode, dry-run log and phase clock) and drives them as one :class:`Fleet`:
a round runs every game's :class:`~shenshi.daemon.cycle.Cycle` (lease, poll, clock, publish),
with the board listings and the GM's inbox read once per forum account for all of them
(:mod:`shenshi.daemon.sharing`). The next round is due when the soonest game wants its next
cycle (faster near that game's deadline, backed off after its failures). Each cycle guards
itself, so a game that fails never stops the others. A game another daemon holds (its lease)
is left alone, round after round, and taken over when that daemon is gone.

Map::

    bootstrap_fleet(configs)   one store per database, one adapter per forum account (one login,
                               one flood control), the shared reads, one owner for every lease
    Fleet.run()                one round: every game's cycle, the reads shared
    Fleet.next_delay()         seconds until the soonest game's next cycle
    Fleet.keep()               renew the leases this daemon holds (while waiting)
    Fleet.notices              the GM's notifications after each round (:mod:`.notify`)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime

from shenshi.daemon.balance import Balance
from shenshi.daemon.cycle import Cycle, CycleResult
from shenshi.daemon.notify import Notices
from shenshi.daemon.service import GameService
from shenshi.logs import game_context
from shenshi.store.errors import LeaseHeld
from shenshi.store.unit_of_work import Store

log = logging.getLogger(__name__)

HANDED_OVER = "another daemon (handed over to it)"


class Fleet:
    """Every game one daemon serves, run in rounds (the :class:`~shenshi.daemon.scheduler.Cycling`
    protocol: ``run`` and ``next_delay``)."""

    def __init__(
        self,
        services: Sequence[GameService],
        clock: Callable[[], datetime],
        *,
        forum_warnings: bool = True,
    ) -> None:
        self.services = list(services)
        self.clock = clock
        self.cycles = [Cycle(s, clock, forum_warnings=forum_warnings) for s in self.services]
        self.reads = list({id(s.reads): s.reads for s in self.services if s.reads is not None}.values())
        self.results: dict[str, CycleResult] = {}
        self.balances: list[Balance] = []  # per database: the games shared with other daemons
        # Called after every round with each game's result (a console watching the daemon).
        self.after_round: Callable[[Fleet, dict[str, CycleResult]], None] | None = None
        self.notices: Notices | None = None  # the GM's channels ([notify]), told after each round

    def forum_warnings(self, shown: bool) -> None:
        """Whether a forum failure is logged at WARNING (``run --once`` says it in one line)."""
        for cycle in self.cycles:
            cycle.forum_warnings = shown

    @property
    def names(self) -> list[str]:
        """The games' names, in the order served."""
        return [s.config.game.name for s in self.services]

    @property
    def stores(self) -> list[Store]:
        """The databases the games live in (each once)."""
        return list({id(s.store): s.store for s in self.services}.values())

    def start(self) -> None:
        """Load or create every game (each from its stored events)."""
        for service in self.services:
            with game_context(service.config.game.name):
                service.start()
        owners = {s.owner for s in self.services}
        if len(owners) != 1:
            return  # games built one by one, each its own owner: no sharing out
        owner = owners.pop()
        for store in self.stores:
            games = [s.game_id for s in self.services if s.store is store]
            self.balances.append(Balance(store, games, owner, self.clock))

    def run(self) -> dict[str, CycleResult]:
        """One round: the leases first (the shared inbox read serves the games held; a surplus
        given up to another daemon, :mod:`shenshi.daemon.balance`), then every game's cycle.
        Returns each game's result by name."""
        for reads in self.reads:
            reads.begin()
        left = self._share_out()
        results = {}
        for service, cycle in zip(self.services, self.cycles, strict=True):
            with game_context(service.config.game.name):
                if service.game_id in left:
                    results[service.config.game.name] = CycleResult(held_by=HANDED_OVER)
                else:
                    results[service.config.game.name] = cycle.run()
        self.results = results
        if self.notices is not None:
            self.notices.after_round(results)
        if self.after_round is not None:
            self.after_round(self, results)
        return results

    def _share_out(self) -> set[int]:
        """Note this daemon alive, take the leases, give a surplus up: the games left alone."""
        left: set[int] = set()
        for balance in self.balances:
            try:
                balance.beat()
            except Exception as exc:  # noqa: BLE001 - the database: the cycles meet it and alert
                log.warning("没能在数据库里登记本守护进程：%s", exc)
            left |= {g for g in balance.games if balance.waiting(g)}
        for service in self.services:
            if service.game_id not in left:
                self._hold(service)
        for balance in self.balances:
            try:
                surplus = balance.surplus()
            except Exception as exc:  # noqa: BLE001 - serve what is held; try again next round
                log.warning("看不到哪个守护进程在服务哪局：%s", exc)
                continue
            for service in self.services:
                if service.game_id in surplus and service.store is balance.store and service.lease is not None:
                    with game_context(service.config.game.name):
                        log.info("这局交给另一个守护进程")
                        service.lease.release()
                    balance.give_up(service.game_id)
                    left.add(service.game_id)
        return left

    def _hold(self, service: GameService) -> None:
        if service.lease is None:
            return
        try:
            service.lease.hold()
        except LeaseHeld:
            pass  # the cycle says who holds it
        except Exception as exc:  # noqa: BLE001 - the cycle meets it again and alerts
            log.debug("没能拿到 %s 的租约：%s", service.config.game.name, exc)

    def next_delay(self) -> float:
        """Seconds until the soonest game's next cycle."""
        return min(cycle.next_delay() for cycle in self.cycles)

    def keep(self) -> None:
        """Renew the leases this daemon holds (between rounds)."""
        for service in self.services:
            if service.lease is not None and service.lease.held is not None:
                with game_context(service.config.game.name):
                    service.lease.keep()

    def close(self) -> None:
        """Give every lease up, then close the shared forum sessions and databases, each once
        (the last notifications delivered first)."""
        if self.notices is not None:
            self.notices.close()
        for service in self.services:
            if service.lease is not None and service.lease.held is not None:
                with game_context(service.config.game.name):
                    try:
                        service.lease.release()
                    except Exception as exc:  # noqa: BLE001 - the lease then expires on its own
                        log.warning("没能交出这局的租约（它会自行过期）：%s", exc)
        adapters = {id(s.adapter): s.adapter for s in self.services if s.adapter is not None}
        for adapter in adapters.values():
            if hasattr(adapter, "close"):
                adapter.close()
        for store in self.stores:
            store.close()
