"""The games and their players: who holds each seat (substitutions: ``left_at``, ``replaced_by``).

Players are part of the game's aggregate: every write looks the game up first, locked, so two
writers of one game queue instead of racing on a name or a seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from shenshi.store import models as m
from shenshi.store.errors import Conflict, NotFound
from shenshi.store.records import Game, Player
from shenshi.store.rows import (
    Repository,
    added,
    game_row,
    json_copy,
    player_row,
    to_game,
    to_player,
)


class GameRepository(Repository):
    """Games and their players, in the unit of work's transaction."""

    # -- games ---------------------------------------------------------------------------------

    def create(
        self,
        name: str,
        ruleset: str,
        config: Mapping[str, Any] | None = None,
        *,
        created_at: datetime | None = None,
    ) -> Game:
        """A new game. A name already used raises :class:`Conflict` (look it up first with
        :meth:`find` to resume)."""
        when = self._now(created_at, "created_at")
        s = self.session
        if s.scalar(select(m.Game.id).where(m.Game.name == name)) is not None:
            raise Conflict(f"a game called {name!r} already exists")
        try:
            row = added(
                s,
                m.Game(
                    name=name, ruleset=ruleset, config=dict(config or {}), created_at=when,
                    last_seq=0,
                ),
            )  # fmt: skip
        except IntegrityError:  # another process created it since the look-up
            raise Conflict(f"a game called {name!r} already exists") from None
        return to_game(row)

    def find(self, name: str) -> Game | None:
        """The game called ``name``, if any."""
        row = self.session.scalar(select(m.Game).where(m.Game.name == name))
        return to_game(row) if row else None

    def listing(self) -> list[Game]:
        """Every game of the store, oldest first."""
        return [to_game(r) for r in self.session.scalars(select(m.Game).order_by(m.Game.id))]

    def set_deal(self, game_id: int, seed: str, result: Any, *, replace: bool = False) -> Game:
        """Keep the deal (random role assignment): its seed and result. Secret: never logged.

        The same deal again is a no-op; a different one raises :class:`Conflict` unless
        ``replace`` (a GM who deliberately re-deals before the game starts).
        """
        stored = json_copy(result)
        row = game_row(self.session, game_id, lock=True)
        if (
            row.deal_seed is not None
            and not replace
            and (row.deal_seed, row.deal_result) != (seed, stored)
        ):
            raise Conflict(f"game #{game_id} already has a different deal (re-deal with replace)")
        row.deal_seed, row.deal_result = seed, stored
        return to_game(row)

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
        s = self.session
        game_row(s, game_id, lock=True)
        same = player_row(s, game_id, name)
        if same is not None:
            if (same.seat, same.role, same.team) == (seat, role, team):
                return to_player(same)
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
        row = added(
            s,
            m.Player(
                game_id=game_id, seat=seat, uid=uid, name=name, role=role, team=team,
                alive=alive, addons=list(addons), joined_at=when,
            ),
        )  # fmt: skip
        return to_player(row)

    def players(self, game_id: int, *, current_only: bool = True) -> list[Player]:
        """Players in seat order (with ``current_only=False``, those replaced too, by seat then
        arrival)."""
        q = select(m.Player).where(m.Player.game_id == game_id)
        if current_only:
            q = q.where(m.Player.left_at.is_(None))
        return [to_player(r) for r in self.session.scalars(q.order_by(m.Player.seat, m.Player.id))]

    def update_player(
        self,
        game_id: int,
        name: str,
        *,
        alive: bool | None = None,
        team: str | None = None,
        addons: Iterable[str] | None = None,
    ) -> Player:
        """Change what is given (``None`` leaves a field as it is): the players table follows
        the replayed state."""
        row = _required_player(self.session, game_id, name)
        if alive is not None:
            row.alive = alive
        if team is not None:
            row.team = team
        if addons is not None:
            row.addons = list(addons)
        return to_player(row)

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
        s = self.session
        game_row(s, game_id, lock=True)
        out = _required_player(s, game_id, old)
        if out.left_at is not None:
            successor = s.get(m.Player, out.replaced_by) if out.replaced_by else None
            if successor is not None and successor.name == new:
                return to_player(successor)
            taken_by = successor.name if successor else "someone"
            raise Conflict(f"{old!r} already left seat {out.seat} (replaced by {taken_by!r})")
        if player_row(s, game_id, new) is not None:
            raise Conflict(f"{new!r} already plays in game #{game_id}")
        row = added(
            s,
            m.Player(
                game_id=game_id, seat=out.seat, uid=uid, name=new, role=out.role, team=out.team,
                alive=out.alive, addons=list(out.addons), joined_at=when,
            ),
        )  # fmt: skip
        out.left_at, out.replaced_by = when, row.id
        return to_player(row)


    def withdraw_substitution(self, game_id: int, old: str, new: str, *, at: datetime | None = None) -> None:
        """A substitution that never took effect (``old``'s seat died before ``new`` entered,
        RES-A18): ``old`` holds his seat again (dead or alive as the seat is) and ``new`` is no
        longer in the game. A no-op unless ``new`` replaced ``old``."""
        when = self._now(at, "at")
        s = self.session
        game_row(s, game_id, lock=True)
        out = _required_player(s, game_id, old)
        row = player_row(s, game_id, new)
        if row is None or out.replaced_by != row.id:
            return
        out.left_at, out.replaced_by = None, None
        row.left_at = when


    def reinstate_substitution(self, game_id: int, old: str, new: str, *, at: datetime | None = None) -> None:
        """A withdrawn substitution that takes effect after all (the GM's correction spared the
        seat that had died first): ``new`` holds ``old``'s seat again. A no-op unless ``new``
        sat in that seat and ``old`` holds it now."""
        when = self._now(at, "at")
        s = self.session
        game_row(s, game_id, lock=True)
        out = _required_player(s, game_id, old)
        row = player_row(s, game_id, new)
        if row is None or row.seat != out.seat or out.left_at is not None or row.left_at is None:
            return
        out.left_at, out.replaced_by = when, row.id
        row.left_at = None


def _required_player(s: Session, game_id: int, name: str) -> m.Player:
    row = player_row(s, game_id, name)
    if row is None:
        raise NotFound(f"no player {name!r} in game #{game_id}")
    return row
