"""The event log: append-only, seq gap-free per game and assigned atomically, idempotent
batches, streamed back in order."""

from __future__ import annotations

import threading

import pytest
from store_helpers import post

from shenshi.store import NotFound, open_store


def _events(n, tag="e"):
    return [{"type": "tick", "tag": tag, "i": i} for i in range(n)]


def test_seqs_are_gap_free_from_one(store, game):
    assert store.append_events(game.id, _events(3)) == [1, 2, 3]
    assert store.append_events(game.id, _events(2)) == [4, 5]
    assert store.append_events(game.id, []) == []
    assert store.last_seq(game.id) == 5
    assert [e.seq for e in store.events(game.id)] == [1, 2, 3, 4, 5]


def test_each_game_counts_its_own(store, game):
    other = store.create_game("other", "game5")
    store.append_events(game.id, _events(2))
    assert store.append_events(other.id, _events(1)) == [1]


def test_events_stream_in_order_across_pages(store, game, clock):
    store.append_events(game.id, _events(10))
    streamed = list(store.events(game.id, page=3))
    assert [e.payload["i"] for e in streamed] == list(range(10))
    assert [e.seq for e in store.events(game.id, after_seq=7, page=2)] == [8, 9, 10]
    assert list(store.events(game.id, after_seq=10)) == []
    assert streamed[0].recorded_at == clock.now and streamed[0].type == "tick"


def test_payload_and_evidence_are_kept(store, game):
    evidence = store.record_post(game.id, post()).evidence
    payload = {
        "$type": "shenshi.rulesets.base:BallotCast",
        "ballot": {"voter": "甲"},
        "list": [1, [2]],
    }
    (seq,) = store.append_events(game.id, [payload], evidence.id)
    (event,) = store.events(game.id)
    assert (event.seq, event.type, event.payload, event.evidence_id) == (
        seq,
        "BallotCast",
        payload,
        evidence.id,
    )


def test_an_event_needs_a_type(store, game):
    with pytest.raises(ValueError, match="type"):
        store.append_events(game.id, [{"no": "type"}])
    assert store.last_seq(game.id) == 0


def test_unknown_game_or_evidence_appends_nothing(store, game):
    with pytest.raises(NotFound):
        store.append_events(999, _events(1))
    with pytest.raises(NotFound):
        store.append_events(game.id, _events(1), evidence_id=999)
    assert store.last_seq(game.id) == 0


def test_a_keyed_batch_is_stored_once(store, game):
    first = store.append_events(game.id, _events(3), key="post:1001")
    store.append_events(game.id, _events(1, "other"))
    again = store.append_events(game.id, _events(3), key="post:1001")
    assert again == first == [1, 2, 3]
    assert store.last_seq(game.id) == 4
    assert [e.batch_key for e in store.events(game.id)] == ["post:1001"] * 3 + [None]
    # the first batch stored under a key wins
    assert store.append_events(game.id, _events(5, "different"), key="post:1001") == [1, 2, 3]
    assert store.last_seq(game.id) == 4


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
            got[w].append(stores[w].append_events(game.id, _events(size, f"{w}-{b}")))

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
        stream = list(reader.events(game.id))
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
        results.append(s.append_events(game.id, _events(2), key="close-night:1"))

    threads = [threading.Thread(target=write, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [[1, 2]] * writers
    assert stores[0].last_seq(game.id) == 2
    for s in stores:
        s.close()
