"""The games the console serves, each a started :class:`GameService` kept in step with the store.

The console opens each configured game offline (it never polls the forum: the daemon does) and
reads the same store the daemon writes. Before each page it compares the game's last event
with what its referee has replayed and rebuilds the referee when the daemon (or a CLI command)
has added events since, so the page shows what the store holds. One lock serialises the
console's requests: a game service is not shared between threads.

The game list is the store's own (:meth:`GameRepository.listing`): a game the store holds but
no configuration given to the console names is listed and cannot be opened (its players file,
forum and templates are in its configuration).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from shenshi.daemon.service import GameService
from shenshi.errors import UserError


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

    def __init__(self, services: Sequence[GameService]) -> None:
        if not services:
            raise UserError("the console needs at least one game configuration")
        self.lock = threading.RLock()
        self._services: dict[tuple[str, int], GameService] = {}
        for service in services:
            if service.referee is None:
                service.start()
            key = (_where(service), service.game_id)
            if key in self._services:
                raise UserError(f"the game {service.config.game.name!r} is configured twice")
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
        _, service = services[number - 1]
        with self.lock:
            service.read_corrections()  # what the daemon or the CLI wrote meanwhile
            yield service

    def close(self) -> None:
        """Close every game service."""
        for service in self._services.values():
            service.close()


def _where(service: GameService) -> str:
    """The store a service is in, as a name without its password."""
    from sqlalchemy.engine import make_url

    return make_url(service.config.daemon.database).render_as_string(hide_password=True)
