"""GM alerts (idempotent by key) and poll cursors (one value per source)."""

from __future__ import annotations

import pytest
from store_helpers import post

from shenshi.store import NotFound


def test_an_alert_is_raised_once(store, game, clock):
    evidence = store.record_post(game.id, post(text="投票 某某")).evidence
    alert, created = store.add_alert(
        game.id,
        f"unknown-name:{evidence.id}",
        "unknown_name",
        "「某某」不是玩家",
        subject="甲",
        evidence_id=evidence.id,
    )
    assert created
    assert (alert.kind, alert.subject, alert.evidence_id, alert.created_at) == (
        "unknown_name",
        "甲",
        evidence.id,
        clock.now,
    )
    clock.advance(minutes=2)
    again, created = store.add_alert(
        game.id, f"unknown-name:{evidence.id}", "unknown_name", "other text"
    )
    assert not created and again == alert
    assert store.alerts(game.id) == [alert]


def test_resolving_keeps_the_first_time(store, game, clock):
    a, _ = store.add_alert(game.id, "a", "pm_from_stranger", "PM from 路人")
    b, _ = store.add_alert(game.id, "b", "outside_window", "late action")
    resolved = store.resolve_alert(a.id)
    assert resolved.resolved_at == clock.now
    clock.advance(hours=1)
    assert store.resolve_alert(a.id) == resolved
    assert store.alerts(game.id, open_only=True) == [b]
    assert [x.key for x in store.alerts(game.id)] == ["a", "b"]
    with pytest.raises(NotFound):
        store.resolve_alert(999)


def test_alert_with_unknown_evidence_is_refused(store, game):
    with pytest.raises(NotFound):
        store.add_alert(game.id, "k", "x", "y", evidence_id=999)
    assert store.alerts(game.id) == []


def test_cursor_is_set_and_replaced(store, game, clock):
    assert store.cursor(game.id, "thread:100") is None
    first = store.set_cursor(game.id, "thread:100", {"page": 3, "last_pid": "1001"})
    assert (first.value, first.updated_at) == ({"page": 3, "last_pid": "1001"}, clock.now)
    clock.advance(minutes=2)
    second = store.set_cursor(game.id, "thread:100", {"page": 4, "last_pid": "1040"})
    assert store.cursor(game.id, "thread:100") == second
    assert second.updated_at == clock.now
    store.set_cursor(game.id, "inbox", ["c11", "c12"])
    assert [(c.source, c.value) for c in store.cursors(game.id)] == [
        ("inbox", ["c11", "c12"]),
        ("thread:100", {"page": 4, "last_pid": "1040"}),
    ]


def test_cursors_belong_to_their_game(store, game):
    other = store.create_game("other", "game5")
    store.set_cursor(game.id, "inbox", 1)
    assert store.cursor(other.id, "inbox") is None
    with pytest.raises(NotFound):
        store.set_cursor(999, "inbox", 1)
