"""The event log: append-only, seq gap-free per game and assigned atomically, idempotent
batches, streamed back in order."""

from __future__ import annotations

import threading

import pytest
from store_helpers import append, last_seq, post, record

from shenshi.store import NotFound, open_store
from shenshi.store import unit_of_work as uow_module


def _events(n, tag="e"):
    return [{"type": "tick", "tag": tag, "i": i} for i in range(n)]


def test_seqs_are_gap_free_from_one(store, game):
    assert append(store, game.id, _events(3)) == [1, 2, 3]
    assert append(store, game.id, _events(2)) == [4, 5]
    assert append(store, game.id, []) == []
    assert last_seq(store, game.id) == 5
    assert [e.seq for e in store.stream_events(game.id)] == [1, 2, 3, 4, 5]


def test_each_game_counts_its_own(store, game):
    with store.transaction() as uow:
        other = uow.games.create("other", "game5")
    append(store, game.id, _events(2))
    assert append(store, other.id, _events(1)) == [1]


def test_events_stream_in_order_across_pages(store, game, clock, monkeypatch):
    append(store, game.id, _events(10))
    monkeypatch.setattr(uow_module, "PAGE", 3)
    streamed = list(store.stream_events(game.id))
    assert [e.payload["i"] for e in streamed] == list(range(10))
    assert [e.seq for e in store.stream_events(game.id, after_seq=7)] == [8, 9, 10]
    assert list(store.stream_events(game.id, after_seq=10)) == []
    assert streamed[0].recorded_at == clock.now and streamed[0].type == "tick"
    with store.snapshot() as uow:
        assert [e.seq for e in uow.events.page(game.id, after_seq=2, limit=2)] == [3, 4]


def test_payload_and_evidence_are_kept(store, game):
    [recorded] = record(store, game.id, post())
    evidence = recorded.evidence
    payload = {"$type": "BallotCast", "ballot": {"voter": "甲"}, "list": [1, [2]]}
    (seq,) = append(store, game.id, [payload], evidence.id)
    (event,) = store.stream_events(game.id)
    assert (event.seq, event.type, event.payload, event.evidence_id) == (
        seq,
        "BallotCast",
        payload,
        evidence.id,
    )


def test_an_event_needs_a_type(store, game):
    with pytest.raises(ValueError, match="type"):
        append(store, game.id, [{"no": "type"}])
    assert last_seq(store, game.id) == 0


def test_unknown_game_or_evidence_appends_nothing(store, game):
    with pytest.raises(NotFound):
        append(store, 999, _events(1))
    with pytest.raises(NotFound):
        append(store, game.id, _events(1), evidence_id=999)
    assert last_seq(store, game.id) == 0


def test_a_keyed_batch_is_stored_once(store, game):
    first = append(store, game.id, _events(3), key="post:1001")
    append(store, game.id, _events(1, "other"))
    again = append(store, game.id, _events(3), key="post:1001")
    assert again == first == [1, 2, 3]
    assert last_seq(store, game.id) == 4
    assert [e.batch_key for e in store.stream_events(game.id)] == ["post:1001"] * 3 + [None]
    # the first batch stored under a key wins
    assert append(store, game.id, _events(5, "different"), key="post:1001") == [1, 2, 3]
    assert last_seq(store, game.id) == 4


@pytest.mark.parametrize("shared", [False, True], ids=["engine-each", "one-store"])
def test_concurrent_appenders_get_distinct_gap_free_seqs(store, store_url, game, shared):
    """Writers in threads, each with its own engine (as separate processes would have), or
    sharing one store (as the scheduler's job threads do)."""
    writers, batches, size = 4, 15, 3
    stores = [store if shared else open_store(store_url) for _ in range(writers)]
    got: dict[int, list[list[int]]] = {w: [] for w in range(writers)}
    start = threading.Barrier(writers)

    def write(w: int) -> None:
        start.wait()
        for b in range(batches):
            got[w].append(append(stores[w], game.id, _events(size, f"{w}-{b}")))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if not shared:
        for s in stores:
            s.close()
    seqs = sorted(seq for batches_ in got.values() for batch in batches_ for seq in batch)
    assert seqs == list(range(1, writers * batches * size + 1))
    for batches_ in got.values():
        for batch in batches_:
            assert batch == list(range(batch[0], batch[0] + size))  # a batch is contiguous
    with open_store(store_url) as reader:
        stream = list(reader.stream_events(game.id))
    assert [e.seq for e in stream] == seqs
    for batch in (b for bs in got.values() for b in bs):
        assert len({stream[seq - 1].payload["tag"] for seq in batch}) == 1


def test_concurrent_appends_of_one_key_store_one_batch(store_url, game):
    writers = 4
    stores = [open_store(store_url) for _ in range(writers)]
    results: list[list[int]] = []
    start = threading.Barrier(writers)

    def write(s) -> None:
        start.wait()
        results.append(append(s, game.id, _events(2), key="close-night:1"))

    threads = [threading.Thread(target=write, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [[1, 2]] * writers
    assert last_seq(stores[0], game.id) == 2
    for s in stores:
        s.close()
