"""GM alerts (idempotent by key) and poll cursors (one value per source)."""

from __future__ import annotations

import pytest
from store_helpers import post

from shenshi.store import NotFound


def test_an_alert_is_raised_once(store, game, clock):
    with store.transaction() as uow:
        [recorded] = uow.evidence.record(game.id, [(post(text="投票 某某"), None)])
        evidence = recorded.evidence
        alert, created = uow.alerts.add(
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
    with store.transaction() as uow:
        again, created = uow.alerts.add(
            game.id, f"unknown-name:{evidence.id}", "unknown_name", "other text"
        )
    assert not created and again == alert
    with store.snapshot() as uow:
        assert uow.alerts.raised(game.id) == [alert]
        assert uow.alerts.raised(game.id, open_only=True) == [alert]


def test_alert_with_unknown_evidence_is_refused(store, game):
    with pytest.raises(NotFound), store.transaction() as uow:
        uow.alerts.add(game.id, "k", "x", "y", evidence_id=999)
    with store.snapshot() as uow:
        assert uow.alerts.raised(game.id) == []


def test_cursor_is_set_and_replaced(store, game, clock):
    with store.transaction() as uow:
        assert uow.evidence.cursor(game.id, "thread:100") is None
        first = uow.evidence.set_cursor(game.id, "thread:100", {"page": 3, "last_pid": "1001"})
    assert (first.value, first.updated_at) == ({"page": 3, "last_pid": "1001"}, clock.now)
    clock.advance(minutes=2)
    with store.transaction() as uow:
        second = uow.evidence.set_cursor(game.id, "thread:100", {"page": 4, "last_pid": "1040"})
    with store.transaction() as uow:
        assert uow.evidence.cursor(game.id, "thread:100") == second
        uow.evidence.set_cursor(game.id, "inbox", ["c11", "c12"])
    assert second.updated_at == clock.now
    with store.snapshot() as uow:
        assert [(c.source, c.value) for c in uow.evidence.cursors(game.id)] == [
            ("inbox", ["c11", "c12"]),
            ("thread:100", {"page": 4, "last_pid": "1040"}),
        ]


def test_cursors_belong_to_their_game(store, game):
    with store.transaction() as uow:
        other = uow.games.create("other", "game5")
        uow.evidence.set_cursor(game.id, "inbox", 1)
    with store.snapshot() as uow:
        assert uow.evidence.cursor(other.id, "inbox") is None
    with pytest.raises(NotFound), store.transaction() as uow:
        uow.evidence.set_cursor(999, "inbox", 1)


def test_alerts_are_acknowledged_once_and_by_id(store, game, clock):
    with store.transaction() as uow:
        first, _ = uow.alerts.add(game.id, "a", "unknown_name", "「某某」不是玩家")
        second, _ = uow.alerts.add(game.id, "b", "pm_window", "窗口外")
    acked_at = clock.now
    with store.transaction() as uow:
        [acked] = uow.alerts.acknowledge(game.id, [first.id])
    assert acked.acknowledged_at == acked_at
    clock.advance(minutes=5)
    with store.transaction() as uow:
        again = uow.alerts.acknowledge(game.id, [first.id, first.id])
    assert [a.acknowledged_at for a in again] == [acked_at]  # the first time stays
    with store.snapshot() as uow:
        assert [a.id for a in uow.alerts.raised(game.id, unacknowledged=True)] == [second.id]


def test_acknowledging_an_unknown_alert_changes_nothing(store, game):
    with store.transaction() as uow:
        alert, _ = uow.alerts.add(game.id, "a", "unknown_name", "「某某」不是玩家")
    with pytest.raises(NotFound, match="#99"), store.transaction() as uow:
        uow.alerts.acknowledge(game.id, [alert.id, 99])
    with store.snapshot() as uow:
        assert [a.id for a in uow.alerts.raised(game.id, unacknowledged=True)] == [alert.id]
