"""The outbox: idempotent proposals, the state machine (every state x every action), repeats
that change nothing, and clear refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from store_helpers import post

from shenshi.store import AnnouncementState, Conflict, DestinationKind, IllegalTransition, NotFound
from shenshi.store.outbox import TRANSITIONS, OutboxAction

S, A = AnnouncementState, OutboxAction

ACTIONS = {
    A.APPROVE: lambda s, i: s.approve(i),
    A.REJECT: lambda s, i: s.reject(i),
    A.EDIT: lambda s, i: s.edit(i, "改过的文字"),
    A.SEND: lambda s, i: s.mark_sending(i),
    A.SENT: lambda s, i: s.mark_sent(i, "9001"),
    A.FAIL: lambda s, i: s.mark_failed(i, "timeout"),
    A.PUBLISH: lambda s, i: s.mark_published(i),
}

PATHS = {
    S.PROPOSED: [],
    S.APPROVED: [A.APPROVE],
    S.SENDING: [A.APPROVE, A.SEND],
    S.SENT: [A.APPROVE, A.SEND, A.SENT],
    S.FAILED: [A.APPROVE, A.SEND, A.FAIL],
    S.REJECTED: [A.REJECT],
    S.PUBLISHED: [A.PUBLISH],
}


def _propose(store, game, key="night1:results", text="第一夜结果：无人死亡", **kw):
    return store.propose(game.id, key, "night_results", "thread", "100", text, **kw)


def _in_state(store, game, state):
    ann, _ = _propose(store, game)
    for action in PATHS[state]:
        ann = ACTIONS[action](store, ann.id)
    assert ann.state is state
    return ann


def test_propose_then_load(store, game, clock):
    evidence = store.record_post(game.id, post()).evidence
    ann, created = _propose(store, game, evidence_ids=[evidence.id])
    assert created
    assert (ann.state, ann.kind, ann.destination_kind, ann.destination) == (
        S.PROPOSED,
        "night_results",
        DestinationKind.THREAD,
        "100",
    )
    assert ann.evidence_ids == (evidence.id,) and ann.attempts == 0 and ann.created_at == clock.now
    assert store.announcement(ann.id) == ann
    assert store.announcement_by_key(game.id, "night1:results") == ann
    assert store.announcement_by_key(game.id, "nope") is None


def test_a_pm_announcement(store, game):
    ann, _ = store.propose(
        game.id, "seer:n1:乙", "seer_answer", DestinationKind.USER, "乙", "是", destination_uid="12"
    )
    assert (ann.destination_kind, ann.destination, ann.destination_uid) == (
        DestinationKind.USER,
        "乙",
        "12",
    )


def test_re_proposing_a_key_returns_it_unchanged(store, game, clock):
    ann, _ = _propose(store, game)
    store.edit(ann.id, "GM 的版本")
    clock.advance(hours=1)
    again, created = _propose(store, game, text="重新推导的文字")
    assert not created
    assert again.text == "GM 的版本" and again.id == ann.id
    assert len(store.announcements(game.id)) == 1


@pytest.mark.parametrize("state", list(S), ids=str)
@pytest.mark.parametrize("action", list(A), ids=str)
def test_every_state_and_action(store, game, state, action):
    ann = _in_state(store, game, state)
    allowed = TRANSITIONS[state]
    if action in allowed:
        after = ACTIONS[action](store, ann.id)
        assert after.state is allowed[action]
        return
    with pytest.raises(IllegalTransition) as excinfo:
        ACTIONS[action](store, ann.id)
    message = str(excinfo.value)
    assert f"#{ann.id} is {state.value}" in message and f"cannot {action.value}" in message
    assert store.announcement(ann.id) == ann  # untouched


def test_repeats_change_nothing(store, game, clock):
    ann, _ = _propose(store, game)
    approved = store.approve(ann.id)
    clock.advance(minutes=5)
    assert store.approve(ann.id) == approved
    sending = store.mark_sending(ann.id)
    assert store.mark_sending(ann.id) == sending and sending.attempts == 1
    sent = store.mark_sent(ann.id, "9001")
    clock.advance(minutes=5)
    assert store.mark_sent(ann.id, "9001") == sent
    assert (sent.forum_id, sent.approved_at, sent.sent_at) == (
        "9001",
        approved.approved_at,
        clock.now - timedelta(minutes=5),
    )


def test_sent_under_another_forum_id_is_a_conflict(store, game):
    ann = _in_state(store, game, S.SENT)
    with pytest.raises(Conflict, match="already sent as '9001'"):
        store.mark_sent(ann.id, "9002")
    assert store.announcement(ann.id).forum_id == "9001"


def test_retry_after_failure_counts_attempts(store, game):
    ann = _in_state(store, game, S.FAILED)
    assert (ann.attempts, ann.last_error) == (1, "timeout")
    assert store.mark_failed(ann.id, "timeout") == ann  # the same failure again: no-op
    assert store.mark_failed(ann.id, "HTTP 502").last_error == "HTTP 502"
    retry = store.mark_sending(ann.id)
    assert (retry.state, retry.attempts) == (S.SENDING, 2)
    failed_again = store.mark_failed(ann.id, "HTTP 502")  # same text, but a new failure
    assert (failed_again.state, failed_again.last_error) == (S.FAILED, "HTTP 502")
    sent = store.mark_sending(ann.id)
    sent = store.mark_sent(ann.id, "9001")
    assert (sent.state, sent.attempts, sent.last_error) == (S.SENT, 3, None)


def test_crash_while_sending_then_not_on_the_forum(store, game):
    """The documented recovery: sending -> fail -> send (an attempt more)."""
    ann = _in_state(store, game, S.SENDING)
    store.mark_failed(ann.id, "interrupted: not found on the forum")
    assert store.mark_sending(ann.id).attempts == 2


def test_edit(store, game, clock):
    ann, _ = _propose(store, game)
    clock.advance(minutes=1)
    edited = store.edit(ann.id, "新文字")
    assert (edited.text, edited.state, edited.edited_at) == ("新文字", S.PROPOSED, clock.now)
    approved = store.approve(ann.id)
    assert store.edit(ann.id, "新文字") == approved  # the same text: still approved
    back = store.edit(ann.id, "再改")
    assert (back.state, back.text) == (S.PROPOSED, "再改")  # an edited text needs a new approval


def test_published_by_hand(store, game, clock):
    ann, _ = _propose(store, game)
    at = clock.now - timedelta(minutes=30)
    published = store.mark_published(ann.id, at, forum_id="8888")
    assert (published.state, published.published_at, published.forum_id) == (
        S.PUBLISHED,
        at,
        "8888",
    )
    assert store.mark_published(ann.id, clock.now) == published  # the first time is kept


def test_queries_by_state(store, game):
    a, _ = _propose(store, game, key="a")
    b, _ = _propose(store, game, key="b")
    c, _ = _propose(store, game, key="c")
    store.approve(b.id)
    store.reject(c.id)
    assert [x.key for x in store.announcements(game.id)] == ["a", "b", "c"]
    assert [x.key for x in store.announcements(game.id, [S.PROPOSED, "approved"])] == ["a", "b"]
    assert [x.key for x in store.announcements(game.id, ["rejected"])] == ["c"]
    with pytest.raises(ValueError):
        store.announcements(game.id, ["nonsense"])


def test_unknown_announcement(store, game):
    with pytest.raises(NotFound, match="#42"):
        store.approve(42)
    with pytest.raises(NotFound):
        store.announcement(42)


def test_destination_kind_is_checked(store, game):
    with pytest.raises(ValueError):
        store.propose(game.id, "k", "x", "forum", "100", "text")
    assert store.announcements(game.id) == []
