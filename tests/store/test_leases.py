"""Leases: one daemon runs a game; another takes it only after the lease expired; takers race
in a transaction and exactly one wins (threads on PostgreSQL, processes on SQLite)."""

from __future__ import annotations

import subprocess
import sys
import threading
from datetime import timedelta

import pytest
from store_helpers import T0

from shenshi.store import LeaseHeld, open_store

TTL = timedelta(minutes=10)


def test_taken_renewed_held_and_taken_over(store, game, clock):
    with store.transaction() as uow:
        first = uow.leases.take(game.id, "host-a:1", ttl=TTL)
    assert (first.owner, first.taken_at, first.expires_at) == ("host-a:1", T0, T0 + TTL)
    clock.advance(minutes=3)
    with store.transaction() as uow:
        renewed = uow.leases.take(game.id, "host-a:1", ttl=TTL)
    assert (renewed.taken_at, renewed.renewed_at, renewed.expires_at) == (
        T0,
        clock.now,
        clock.now + TTL,
    )
    with pytest.raises(LeaseHeld, match="run by host-a:1") as held, store.transaction() as uow:
        uow.leases.take(game.id, "host-b:2", ttl=TTL)
    assert held.value.lease.owner == "host-a:1"
    clock.advance(minutes=10)  # host-a stopped renewing: the lease runs out
    with store.transaction() as uow:
        taken = uow.leases.take(game.id, "host-b:2", ttl=TTL)
    assert (taken.owner, taken.taken_at) == ("host-b:2", clock.now)
    with store.snapshot() as uow:
        assert uow.leases.holder(game.id).owner == "host-b:2"


def test_released_on_a_clean_stop(store, game):
    with store.transaction() as uow:
        uow.leases.take(game.id, "host-a:1", ttl=TTL)
        assert not uow.leases.release(game.id, "host-b:2")  # not the holder: nothing happens
        assert uow.leases.release(game.id, "host-a:1")
    with store.transaction() as uow:
        assert uow.leases.take(game.id, "host-b:2", ttl=TTL).owner == "host-b:2"


def test_one_of_many_racing_threads_wins(store_url, game):
    """On PostgreSQL too: the game row's lock makes takers queue; the first one wins."""
    stores = [open_store(store_url, clock=lambda: T0) for _ in range(6)]  # (alembic: one thread)
    barrier = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def take(s, owner: str) -> None:
        barrier.wait(timeout=60)
        try:
            with s.transaction() as uow:
                uow.leases.take(game.id, owner, ttl=TTL)
            outcomes.append("won")
        except LeaseHeld:
            outcomes.append("held")

    threads = [threading.Thread(target=take, args=(s, f"taker-{i}")) for i, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in stores:
        s.close()
    assert sorted(outcomes) == ["held"] * 5 + ["won"]


TAKE = """
import sys
from datetime import UTC, datetime, timedelta
from shenshi.store import LeaseHeld, open_store
store = open_store(sys.argv[1], clock=lambda: datetime(2024, 3, 1, 12, tzinfo=UTC))
try:
    with store.transaction() as uow:
        uow.leases.take(int(sys.argv[2]), sys.argv[3], ttl=timedelta(minutes=10))
    print("won")
except LeaseHeld as exc:
    print("held:", exc.lease.owner)
"""


def test_one_of_two_processes_wins(store_url, game):
    procs = [
        subprocess.Popen([sys.executable, "-c", TAKE, store_url, str(game.id), f"process-{i}"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for i in range(2)
    ]  # fmt: skip
    answers = sorted(p.communicate()[0].strip() for p in procs)
    assert [p.returncode for p in procs] == [0, 0], [p.stderr for p in procs]
    assert answers[0].startswith("held: process-") and answers[1] == "won"
