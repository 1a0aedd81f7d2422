"""The lease this daemon holds on its game: one daemon runs a game, another leaves it alone.

Each daemon process has an owner name, ``host:pid:token``. It takes its game's lease before
every cycle and renews it while it waits (:mod:`shenshi.store.leases`); a second daemon on the
same database (a second ``shenshi run``, another host on PostgreSQL) cannot take it and says
who holds it. A lease whose holder stops renewing expires after :data:`LEASE_TTL`; a holder on
this host whose process is gone (killed) is replaced at once, so a restart after a crash goes
on without waiting. The outbox refuses a second claimant of one send besides
(``mark_sending(owner=…)``).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import Callable
from datetime import datetime, timedelta

from shenshi.store.errors import LeaseHeld
from shenshi.store.records import Lease
from shenshi.store.unit_of_work import Store

log = logging.getLogger(__name__)

LEASE_TTL = timedelta(minutes=15)  # another daemon may take the game this long after a renewal
RENEW_EVERY = LEASE_TTL / 3  # a waiting daemon renews its lease at least this often
_OWNERS: set[str] = set()  # the owner names of this process's leases (one process, many games)


def owner_name() -> str:
    """This process's owner name: ``host:pid:token``."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def gone(owner: str) -> bool:
    """Whether ``owner`` is a process of this host that no longer runs (it cannot renew).

    An owner with this process's id that no lease of this process holds is a predecessor that
    died (a container restarted: the daemon is process 1 again)."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return owner not in _OWNERS
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # it runs, as another user
    return False


class GameLease:
    """This daemon's hold on one game's lease."""

    def __init__(
        self,
        store: Store,
        game_id: int,
        clock: Callable[[], datetime],
        owner: str | None = None,
        ttl: timedelta = LEASE_TTL,
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.clock = clock
        self.owner = owner or owner_name()
        _OWNERS.add(self.owner)
        self.ttl = ttl
        self.held: Lease | None = None

    def hold(self) -> Lease:
        """Take or renew the lease; :class:`LeaseHeld` if another daemon holds it."""
        try:
            self.held = self._take()
        except LeaseHeld as exc:
            self.held = None
            if not gone(exc.lease.owner):
                raise
            log.warning(
                "原来运行这局的守护进程 %s 已不在：接手它的租约", exc.lease.owner
            )
            self.held = self._take(replacing=exc.lease.owner)
        return self.held

    def keep(self) -> None:
        """Renew the lease while waiting between cycles; a failure is only logged (the next
        cycle tries again, and says who holds the game if another daemon took it)."""
        try:
            self.hold()
        except Exception as exc:  # noqa: BLE001 - waiting must go on
            log.warning("没能续约这局的租约：%s", exc)

    def _take(self, replacing: str | None = None) -> Lease:
        with self.store.transaction() as uow:
            return uow.leases.take(
                self.game_id, self.owner, ttl=self.ttl, at=self.clock(), replacing=replacing
            )

    def release(self) -> None:
        """Give the lease up (a clean stop: another daemon may take the game at once)."""
        if self.held is None:
            return
        with self.store.transaction() as uow:
            uow.leases.release(self.game_id, self.owner)
        self.held = None
