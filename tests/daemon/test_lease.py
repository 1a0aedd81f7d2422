"""The daemon's hold on its game's lease (shenshi.daemon.lease): a restart takes its dead
predecessor's lease at once, even when it runs under the same process id (a container
restarted: the daemon is process 1 again); a lease of this very process is never taken."""

from __future__ import annotations

import os
import socket
from datetime import timedelta

import pytest

from shenshi.daemon.lease import GameLease
from shenshi.store import LeaseHeld, open_store
from tests.daemon.helpers import START

ME = f"{socket.gethostname()}:{os.getpid()}"


@pytest.fixture
def store_and_game(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'g.sqlite3'}", clock=lambda: START)
    with store.transaction() as uow:
        game = uow.games.create("g", "game6-10", {})
    yield store, game.id
    store.close()


def _predecessor_held(store, game_id: int) -> None:
    """A row left by a daemon that ran as this process id (not a lease of this process)."""
    with store.transaction() as uow:
        uow.leases.take(game_id, f"{ME}:0ld0ne", ttl=timedelta(minutes=15), at=START)


def test_a_restart_under_the_same_process_id_takes_the_lease_at_once(store_and_game) -> None:
    store, game_id = store_and_game
    _predecessor_held(store, game_id)
    after = GameLease(store, game_id, lambda: START + timedelta(minutes=1), owner=f"{ME}:n3wone")
    assert after.hold().owner == f"{ME}:n3wone"


def test_a_lease_this_process_holds_is_not_taken(store_and_game) -> None:
    """One process running many games: a second hold on the same game is refused."""
    store, game_id = store_and_game
    first = GameLease(store, game_id, lambda: START, owner=f"{ME}:f1rst")
    first.hold()
    second = GameLease(store, game_id, lambda: START + timedelta(minutes=1), owner=f"{ME}:s3cond")
    with pytest.raises(LeaseHeld):
        second.hold()
