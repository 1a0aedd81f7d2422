"""Games and players: creation, lookups, the deal, substitutions; every write safe to repeat."""

from __future__ import annotations

import pytest
from store_helpers import T0

from shenshi.store import Conflict, NotFound


def test_create_and_load_a_game(store, clock):
    game = store.create_game("游戏五", "game5", {"vote_thread": "100"})
    assert store.game(game.id) == game
    assert store.find_game("游戏五") == game
    assert store.find_game("nope") is None
    assert game.config == {"vote_thread": "100"}
    assert game.created_at == clock.now
    assert game.last_seq == 0


def test_a_game_name_is_taken_once(store):
    store.create_game("g", "game5")
    with pytest.raises(Conflict, match="already exists"):
        store.create_game("g", "game6-8")
    assert [g.ruleset for g in store.games()] == ["game5"]


def test_unknown_game(store):
    with pytest.raises(NotFound, match="#99"):
        store.game(99)


def test_update_config(store, game):
    assert store.update_config(game.id, {"poll": 120}).config == {"poll": 120}
    assert store.game(game.id).config == {"poll": 120}


def test_the_deal_is_kept_once(store, game):
    deal = {"甲": "killer", "乙": "civilian"}
    stored = store.set_deal(game.id, "seed-1", deal)
    assert (stored.deal_seed, stored.deal) == ("seed-1", deal)
    assert store.set_deal(game.id, "seed-1", deal) == stored  # repeat: no-op
    with pytest.raises(Conflict, match="different deal"):
        store.set_deal(game.id, "seed-2", deal)
    assert store.game(game.id).deal_seed == "seed-1"
    assert store.set_deal(game.id, "seed-2", {"甲": "seer"}, replace=True).deal == {"甲": "seer"}


def _seat(store, game, seat=0, name="甲", role="killer", team="killers", **kw):
    return store.add_player(game.id, seat, name, role, team, **kw)


def test_add_player_is_idempotent(store, game, clock):
    first = _seat(store, game, addons=["mayor"])
    clock.advance(hours=1)
    again = _seat(store, game, addons=["mayor"])
    assert again == first
    assert first.joined_at == T0
    assert store.players(game.id) == [first]
    assert first.addons == ("mayor",) and first.uid is None and first.current


def test_add_player_conflicts(store, game):
    _seat(store, game)
    with pytest.raises(Conflict, match="already plays seat 0"):
        _seat(store, game, seat=1)
    with pytest.raises(Conflict, match="held by '甲'"):
        _seat(store, game, name="乙")
    assert [p.name for p in store.players(game.id)] == ["甲"]


def test_players_in_seat_order(store, game):
    for seat, name in ((2, "丙"), (0, "甲"), (1, "乙")):
        _seat(store, game, seat=seat, name=name, role="civilian", team="civilians")
    assert [p.name for p in store.players(game.id)] == ["甲", "乙", "丙"]


def test_update_player(store, game):
    _seat(store, game)
    _seat(store, game, seat=1, name="乙")
    p = store.update_player(game.id, "甲", alive=False, uid="77")
    assert (p.alive, p.uid) == (False, "77")
    assert store.player_by_uid(game.id, "77") == p
    renamed = store.update_player(game.id, "甲", new_name="甲甲")
    assert renamed.name == "甲甲" and renamed.id == p.id
    with pytest.raises(NotFound):
        store.player(game.id, "甲")
    with pytest.raises(Conflict):
        store.update_player(game.id, "甲甲", new_name="乙")
    # repeating an update changes nothing
    assert store.update_player(game.id, "甲甲", alive=False, uid="77") == renamed


def test_substitution_keeps_the_seat(store, game, clock):
    old = _seat(store, game, seat=3, addons=["mayor"])
    clock.advance(hours=5)
    new = store.substitute(game.id, "甲", "丁", uid="44")
    assert (new.seat, new.role, new.team, new.addons, new.uid) == (
        3,
        "killer",
        "killers",
        ("mayor",),
        "44",
    )
    assert new.joined_at == clock.now
    gone = store.player(game.id, "甲")
    assert gone.left_at == clock.now and gone.replaced_by == new.id and not gone.current
    assert store.players(game.id) == [new]
    assert [p.name for p in store.players(game.id, current_only=False)] == ["甲", "丁"]
    assert old.id == gone.id


def test_substitution_is_idempotent_and_checked(store, game, clock):
    _seat(store, game)
    _seat(store, game, seat=1, name="乙")
    new = store.substitute(game.id, "甲", "丁")
    clock.advance(hours=1)
    assert store.substitute(game.id, "甲", "丁") == new
    with pytest.raises(Conflict, match="replaced by '丁'"):
        store.substitute(game.id, "甲", "戊")
    with pytest.raises(Conflict, match="already plays"):
        store.substitute(game.id, "乙", "丁")
    assert len(store.players(game.id, current_only=False)) == 3
