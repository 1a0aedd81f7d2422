"""Units of work: one transaction across the repositories (all of it or none of it), read-only
snapshots, one at a time per thread, and writers of one game that queue instead of racing."""

from __future__ import annotations

import threading

import pytest
from store_helpers import last_seq, post, record

from shenshi.store import Conflict, open_store


class Crash(Exception):
    """Stands for anything that stops a unit of work half-way (a bug, a kill)."""


def test_an_exception_keeps_nothing_of_the_unit(store, game):
    [recorded] = record(store, game.id, post())
    evidence = recorded.evidence
    with pytest.raises(Crash), store.transaction() as uow:
        uow.events.append(game.id, [{"type": "tick"}], evidence.id, key="evidence:1")
        uow.outbox.propose(game.id, "receipt:1", "receipt", "thread", "100", "收到")
        uow.alerts.add(game.id, "alert:1", "unknown_name", "「某某」不是玩家")
        uow.evidence.mark_processed(evidence.id)
        uow.evidence.set_cursor(game.id, "inbox", {"last": 1})
        raise Crash
    with store.snapshot() as uow:
        assert uow.events.last_seq(game.id) == 0
        assert uow.outbox.announcements(game.id) == []
        assert uow.alerts.raised(game.id) == []
        assert uow.evidence.get(evidence.id).processed_at is None
        assert uow.evidence.cursors(game.id) == []


def test_a_finished_unit_keeps_all_of_it(store, game):
    [recorded] = record(store, game.id, post())
    with store.transaction() as uow:
        seqs = uow.events.append(game.id, [{"type": "tick"}] * 2, recorded.evidence.id, key="k")
        uow.outbox.propose(game.id, "receipt:1", "receipt", "thread", "100", "收到")
        uow.evidence.mark_processed(recorded.evidence.id)
    with store.snapshot() as uow:
        assert uow.events.last_seq(game.id) == seqs[-1] == 2
        assert [a.key for a in uow.outbox.announcements(game.id)] == ["receipt:1"]
        assert uow.evidence.get(recorded.evidence.id).processed_at is not None


def test_a_snapshot_never_writes(store, game):
    with store.snapshot() as uow:
        assert uow.events.append(game.id, [{"type": "tick"}]) == [1]
    assert last_seq(store, game.id) == 0


def test_one_unit_of_work_at_a_time_per_thread(store, game):
    refused = pytest.raises(RuntimeError, match="already open")
    with store.snapshot(), refused, store.transaction():
        pass
    with store.transaction() as uow:  # the refused one left nothing behind
        uow.events.append(game.id, [{"type": "tick"}])
    assert last_seq(store, game.id) == 1


def _at_once(work, n: int = 4) -> list:
    """Run ``work(i)`` in ``n`` threads released together; what each returned or raised."""
    results: list = [None] * n
    start = threading.Barrier(n)

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = work(i)
        except Exception as exc:  # noqa: BLE001  (the test inspects it)
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_writers_of_one_game_recording_the_same_page_store_it_once(store_url, game):
    page = [(post(pid=str(i), floor=i), None) for i in range(1, 11)]
    stores = [open_store(store_url) for _ in range(4)]

    def work(i: int):
        with stores[i].transaction() as uow:
            return uow.evidence.record(game.id, page)

    try:
        results = _at_once(work)
    finally:
        for s in stores:
            s.close()
    assert not [r for r in results if isinstance(r, Exception)], results
    assert [sum(r[k].is_new for r in results) for k in range(len(page))] == [1] * len(page)
    assert len({r[0].evidence.id for r in results}) == 1


def test_a_game_created_at_the_same_moment_twice_exists_once(store_url):
    stores = [open_store(store_url) for _ in range(4)]

    def work(i: int):
        with stores[i].transaction() as uow:
            return uow.games.create("同时", "game5")

    try:
        results = _at_once(work)
    finally:
        for s in stores:
            s.close()
    created = [r for r in results if not isinstance(r, Exception)]
    assert len(created) == 1
    assert all(isinstance(r, Conflict) for r in results if r not in created), results
