"""Games and players: creation, look-ups, the deal, substitutions; every write safe to repeat."""

from __future__ import annotations

import pytest
from store_helpers import T0

from shenshi.store import Conflict, NotFound


def test_create_and_find_a_game(store, clock):
    with store.transaction() as uow:
        game = uow.games.create("游戏五", "game5", {"vote_thread": "100"})
    with store.snapshot() as uow:
        assert uow.games.find("游戏五") == game
        assert uow.games.find("nope") is None
    assert game.config == {"vote_thread": "100"}
    assert game.created_at == clock.now
    assert game.last_seq == 0


def test_a_game_name_is_taken_once(store):
    with store.transaction() as uow:
        uow.games.create("g", "game5")
    with pytest.raises(Conflict, match="already exists"), store.transaction() as uow:
        uow.games.create("g", "game6-8")
    with store.snapshot() as uow:
        assert uow.games.find("g").ruleset == "game5"


def test_unknown_game(store):
    with pytest.raises(NotFound, match="#99"), store.transaction() as uow:
        uow.games.set_deal(99, "seed", {})


def test_the_deal_is_kept_once(store, game):
    deal = {"甲": "killer", "乙": "civilian"}
    with store.transaction() as uow:
        stored = uow.games.set_deal(game.id, "seed-1", deal)
    assert (stored.deal_seed, stored.deal) == ("seed-1", deal)
    with store.transaction() as uow:
        assert uow.games.set_deal(game.id, "seed-1", deal) == stored  # repeat: no-op
    with pytest.raises(Conflict, match="different deal"), store.transaction() as uow:
        uow.games.set_deal(game.id, "seed-2", deal)
    with store.transaction() as uow:
        assert uow.games.find(game.name).deal_seed == "seed-1"
        replaced = uow.games.set_deal(game.id, "seed-2", {"甲": "seer"}, replace=True)
    assert replaced.deal == {"甲": "seer"}


def _seat(store, game, seat=0, name="甲", role="killer", team="killers", **kw):
    with store.transaction() as uow:
        return uow.games.add_player(game.id, seat, name, role, team, **kw)


def _players(store, game, **kw):
    with store.snapshot() as uow:
        return uow.games.players(game.id, **kw)


def test_add_player_is_idempotent(store, game, clock):
    first = _seat(store, game, addons=["mayor"])
    clock.advance(hours=1)
    again = _seat(store, game, addons=["mayor"])
    assert again == first
    assert first.joined_at == T0
    assert _players(store, game) == [first]
    assert first.addons == ("mayor",) and first.uid is None and first.current


def test_add_player_conflicts(store, game):
    _seat(store, game)
    with pytest.raises(Conflict, match="already plays seat 0"):
        _seat(store, game, seat=1)
    with pytest.raises(Conflict, match="held by '甲'"):
        _seat(store, game, name="乙")
    assert [p.name for p in _players(store, game)] == ["甲"]


def test_players_in_seat_order(store, game):
    for seat, name in ((2, "丙"), (0, "甲"), (1, "乙")):
        _seat(store, game, seat=seat, name=name, role="civilian", team="civilians")
    assert [p.name for p in _players(store, game)] == ["甲", "乙", "丙"]


def test_update_player(store, game):
    _seat(store, game)
    _seat(store, game, seat=1, name="乙")
    with store.transaction() as uow:
        p = uow.games.update_player(game.id, "甲", alive=False, team="civilians", addons=["x"])
    assert (p.alive, p.team, p.addons, p.role) == (False, "civilians", ("x",), "killer")
    with store.transaction() as uow:
        # repeating an update changes nothing; None leaves a field as it is
        assert uow.games.update_player(game.id, "甲", alive=False) == p
    with pytest.raises(NotFound), store.transaction() as uow:
        uow.games.update_player(game.id, "丙", alive=False)
    assert [q.alive for q in _players(store, game)] == [False, True]


def test_substitution_keeps_the_seat(store, game, clock):
    old = _seat(store, game, seat=3, addons=["mayor"])
    clock.advance(hours=5)
    with store.transaction() as uow:
        new = uow.games.substitute(game.id, "甲", "丁", uid="44")
    assert (new.seat, new.role, new.team, new.addons, new.uid) == (
        3,
        "killer",
        "killers",
        ("mayor",),
        "44",
    )
    assert new.joined_at == clock.now
    assert _players(store, game) == [new]
    gone, newcomer = _players(store, game, current_only=False)
    assert (gone.name, newcomer) == ("甲", new)
    assert gone.left_at == clock.now and gone.replaced_by == new.id and not gone.current
    assert old.id == gone.id


def test_a_substitution_withdrawn_gives_the_seat_back(store, game, clock):
    """The seat died before the substitute entered (RES-A18): its holder holds it again."""
    _seat(store, game, seat=3)
    with store.transaction() as uow:
        new = uow.games.substitute(game.id, "甲", "丁")
    clock.advance(hours=1)
    with store.transaction() as uow:
        uow.games.withdraw_substitution(game.id, "甲", "丁")
        uow.games.withdraw_substitution(game.id, "甲", "丁")  # (again: a no-op)
    [back] = _players(store, game)
    assert (back.name, back.seat, back.current, back.replaced_by) == ("甲", 3, True, None)
    gone = [p for p in _players(store, game, current_only=False) if p.name == "丁"]
    assert gone[0].id == new.id and not gone[0].current


def test_substitution_is_idempotent_and_checked(store, game, clock):
    _seat(store, game)
    _seat(store, game, seat=1, name="乙")
    with store.transaction() as uow:
        new = uow.games.substitute(game.id, "甲", "丁")
    clock.advance(hours=1)
    with store.transaction() as uow:
        assert uow.games.substitute(game.id, "甲", "丁") == new
    with pytest.raises(Conflict, match="replaced by '丁'"), store.transaction() as uow:
        uow.games.substitute(game.id, "甲", "戊")
    with pytest.raises(Conflict, match="already plays"), store.transaction() as uow:
        uow.games.substitute(game.id, "乙", "丁")
    assert len(_players(store, game, current_only=False)) == 3
