"""The games the console serves, each a started :class:`GameService` kept in step with the store.

The console opens each configured game offline (it never polls the forum: the daemon does) and
reads the same store the daemon writes. Before each page it compares the game's last event
with what its referee has replayed and rebuilds the referee when the daemon (or a CLI command)
has added events since, so the page shows what the store holds. One lock serialises the
console's requests: a game service is not shared between threads.

The mode (``[daemon] mode``: dry-run, review, live) is the configuration file's as it is now:
a GM who changes it restarts ``shenshi run`` (the daemon sends in the new mode), not always the
console, so before each page and action the file is looked at again (its modification time and
size; read again only when they changed) and the game takes the mode it says. The mode alone:
the rest of the configuration (players, forum, templates) is the daemon's too but is read at
its start. A file that cannot be read or is wrong now (the GM is editing it) leaves the mode as
it was. A console beside the daemon (``shenshi run --console``) does not look: it shows the
mode its daemon runs in, which is the one it started with.

The game list is the store's own (:meth:`GameRepository.listing`): a game the store holds but
no configuration given to the console names is listed and cannot be opened (its players file,
forum and templates are in its configuration).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from shenshi.daemon.service import GameService
from shenshi.errors import UserError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameEntry:
    """A game of the store, as the list of games shows it."""

    id: int
    name: str
    ruleset: str
    configured: bool  # the console was given its configuration (it can be opened)
    database: str  # the store it is in (without a password)


class UnknownGame(LookupError):
    """A game id the console does not serve."""


class Desk:
    """The configured games (started services) and the stores they are in."""

    def __init__(self, services: Sequence[GameService], *, follow_mode: bool = True) -> None:
        """``follow_mode``: take each game's mode from its configuration file as it is before
        each page and action (``False``: keep the one the services have, as the daemon beside
        the console does)."""
        if not services:
            raise UserError("控制台至少需要一局的配置：--config 配置文件")
        self.lock = threading.RLock()
        self.follow_mode = follow_mode
        self._seen: dict[tuple[str, int], tuple[int, int] | None] = {}  # each file's (mtime, size) last read
        self._services: dict[tuple[str, int], GameService] = {}
        for service in services:
            if service.referee is None:
                service.start()
            key = (_where(service), service.game_id)
            if key in self._services:
                raise UserError(f"本局「{service.config.game.name}」在配置里出现了两次：每局只写一次")
            self._services[key] = service

    @property
    def services(self) -> list[GameService]:
        """The configured games, in the order given."""
        return list(self._services.values())

    def games(self) -> list[GameEntry]:
        """Every game of every store the configured games are in (the store's listing)."""
        entries: list[GameEntry] = []
        stores: dict[str, GameService] = {}
        for service in self._services.values():
            stores.setdefault(_where(service), service)
        for where, service in stores.items():
            with service.store.snapshot() as uow:
                listed = uow.games.listing()
            for game in listed:
                entries.append(GameEntry(game.id, game.name, game.ruleset,
                                         (where, game.id) in self._services, where))  # fmt: skip
        return entries

    def number(self, entry: GameEntry) -> int | None:
        """The console's number of a listed game (its place among the configured, from 1);
        ``None`` for a game the console has no configuration of."""
        keys = list(self._services)
        key = (entry.database, entry.id)
        return keys.index(key) + 1 if key in keys else None

    @contextmanager
    def game(self, number: int) -> Iterator[GameService]:
        """The configured game ``number`` (from 1), its referee caught up with the store, held
        under the console's lock."""
        services = list(self._services.items())
        if not 1 <= number <= len(services):
            raise UnknownGame(f"no game #{number} in this console")
        key, service = services[number - 1]
        with self.lock:
            self._read_mode(key, service)  # the GM changed the mode and restarted the daemon
            service.read_corrections()  # what the daemon or the CLI wrote meanwhile
            yield service

    def _read_mode(self, key: tuple[str, int], service: GameService) -> None:
        """Give ``service`` the mode its configuration file says now (see the module's doc):
        the file is read again only when its modification time or size changed."""
        path = service.config.path
        if not self.follow_mode or path is None:
            return
        stamp = _stamp(path)
        if key in self._seen and stamp == self._seen[key]:
            return
        self._seen[key] = stamp
        if stamp is None:
            return  # (moved away or being replaced: the mode stays)
        from dataclasses import replace

        from shenshi.config import load_config

        try:
            mode = load_config(path).daemon.mode
        except UserError as exc:
            log.warning("配置文件 %s 现在读不了，模式仍按 %s：%s", path, service.config.daemon.mode, exc)
            return
        if mode != service.config.daemon.mode:
            log.info("配置文件 %s 的模式改为 %s（原为 %s）", path, mode, service.config.daemon.mode)
            service.config = replace(service.config, daemon=replace(service.config.daemon, mode=mode))

    def close(self) -> None:
        """Close every game service."""
        for service in self._services.values():
            service.close()


def _stamp(path: os.PathLike[str]) -> tuple[int, int] | None:
    """A file's modification time and size (``None``: it cannot be looked at now)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_mtime_ns, found.st_size


def _where(service: GameService) -> str:
    """The store a service is in, as a name without its password."""
    from sqlalchemy.engine import make_url

    return make_url(service.config.daemon.database).render_as_string(hide_password=True)
