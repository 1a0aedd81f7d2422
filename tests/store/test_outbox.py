"""The outbox: idempotent proposals, the state machine (every state x every action), repeats
that change nothing, and clear refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from store_helpers import OneByOne, post, record

from shenshi.store import (
    AnnouncementState,
    Conflict,
    DestinationKind,
    IllegalTransition,
    NotFound,
    SendClaimed,
)
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
    A.CONFIRM: lambda s, i: s.confirm(i),
    A.SUPERSEDE: lambda s, i: s.supersede(i, "路人甲 接替 kk_大侠"),
}

PATHS = {
    S.PROPOSED: [],
    S.APPROVED: [A.APPROVE],
    S.SENDING: [A.APPROVE, A.SEND],
    S.SENT: [A.APPROVE, A.SEND, A.SENT],
    S.FAILED: [A.APPROVE, A.SEND, A.FAIL],
    S.REJECTED: [A.REJECT],
    S.PUBLISHED: [A.PUBLISH],
    S.UNCONFIRMED: [],  # proposed unconfirmed
    S.SUPERSEDED: [A.SUPERSEDE],
}


@pytest.fixture
def outbox(store):
    """The outbox, one action per transaction."""
    return OneByOne(store, "outbox")


def _propose(outbox, game, key="night1:results", text="第一夜结果：无人死亡", **kw):
    return outbox.propose(game.id, key, "night_results", "thread", "100", text, **kw)


def _in_state(outbox, game, state):
    ann, _ = _propose(outbox, game, unconfirmed=state is S.UNCONFIRMED)
    for action in PATHS[state]:
        ann = ACTIONS[action](outbox, ann.id)
    assert ann.state is state
    return ann


def test_propose_then_load(store, game, clock, outbox):
    [recorded] = record(store, game.id, post())
    evidence = recorded.evidence
    ann, created = _propose(outbox, game, evidence_ids=[evidence.id])
    assert created
    assert (ann.state, ann.kind, ann.destination_kind, ann.destination) == (
        S.PROPOSED,
        "night_results",
        DestinationKind.THREAD,
        "100",
    )
    assert ann.evidence_ids == (evidence.id,) and ann.attempts == 0 and ann.created_at == clock.now
    assert outbox.get(ann.id) == ann
    assert outbox.by_key(game.id, "night1:results") == ann
    assert outbox.by_key(game.id, "nope") is None


def test_a_pm_announcement(outbox, game):
    ann, _ = outbox.propose(
        game.id, "seer:n1:乙", "seer_answer", DestinationKind.USER, "乙", "是", destination_uid="12"
    )
    assert (ann.destination_kind, ann.destination, ann.destination_uid) == (
        DestinationKind.USER,
        "乙",
        "12",
    )


def test_re_proposing_a_key_returns_it_unchanged(outbox, game, clock):
    ann, _ = _propose(outbox, game)
    outbox.edit(ann.id, "GM 的版本")
    clock.advance(hours=1)
    again, created = _propose(outbox, game, text="重新推导的文字")
    assert not created
    assert again.text == "GM 的版本" and again.id == ann.id
    assert len(outbox.announcements(game.id)) == 1


@pytest.mark.parametrize("state", list(S), ids=str)
@pytest.mark.parametrize("action", list(A), ids=str)
def test_every_state_and_action(outbox, game, state, action):
    ann = _in_state(outbox, game, state)
    allowed = TRANSITIONS[state]
    if action in allowed:
        after = ACTIONS[action](outbox, ann.id)
        assert after.state is allowed[action]
        return
    with pytest.raises(IllegalTransition) as excinfo:
        ACTIONS[action](outbox, ann.id)
    message = str(excinfo.value)
    assert f"#{ann.id} is {state.value}" in message and f"cannot {action.value}" in message
    assert outbox.get(ann.id) == ann  # untouched


def test_a_superseded_announcement_gives_its_key_up_and_names_its_replacement(outbox, game, clock):
    """Superseding keeps the old text and why; the replacement takes the key, so every lookup
    by key finds what stands now; withdrawn, it names nothing."""
    ann, _ = _propose(outbox, game, key="g1:signin:kk:1", text="kk 未签到", unconfirmed=True)
    assert ann.state is S.UNCONFIRMED
    old = outbox.supersede(ann.id, "路人甲 接替 kk（shenshi substitute）")
    new, created = _propose(outbox, game, key="g1:signin:kk:1", text="另一个版本")
    assert created and new.id != old.id and outbox.by_key(game.id, "g1:signin:kk:1") == new
    linked = outbox.link_superseded(old.id, new.id)
    assert (linked.state, linked.text, linked.superseded_by, linked.superseded_because) == (
        S.SUPERSEDED, "kk 未签到", new.id, "路人甲 接替 kk（shenshi substitute）"
    )
    assert linked.superseded_at == clock.now and outbox.replaced_by(old.id) == new
    withdrawn = outbox.supersede(new.id, "kk 退出")
    assert withdrawn.superseded_by is None and outbox.replaced_by(old.id) is None
    assert outbox.by_key(game.id, "g1:signin:kk:1") is None


def test_an_unconfirmed_announcement_is_confirmed_by_its_event(outbox, game):
    ann, _ = _propose(outbox, game, unconfirmed=True, notes={"missing": ["宣言"]})
    assert ann.notes == {"missing": ["宣言"]}
    with pytest.raises(IllegalTransition):
        outbox.approve(ann.id)  # the GM confirms with a correction, never by approving it
    assert outbox.confirm(ann.id).state is S.PROPOSED
    assert outbox.approve(ann.id).state is S.APPROVED


def test_repeats_change_nothing(outbox, game, clock):
    ann, _ = _propose(outbox, game)
    approved = outbox.approve(ann.id)
    clock.advance(minutes=5)
    assert outbox.approve(ann.id) == approved
    sending = outbox.mark_sending(ann.id)
    assert outbox.mark_sending(ann.id) == sending and sending.attempts == 1
    sent = outbox.mark_sent(ann.id, "9001")
    clock.advance(minutes=5)
    assert outbox.mark_sent(ann.id, "9001") == sent
    assert (sent.forum_id, sent.approved_at, sent.sent_at) == (
        "9001",
        approved.approved_at,
        clock.now - timedelta(minutes=5),
    )


def test_sent_under_another_forum_id_is_a_conflict(outbox, game):
    ann = _in_state(outbox, game, S.SENT)
    with pytest.raises(Conflict, match="already sent as '9001'"):
        outbox.mark_sent(ann.id, "9002")
    assert outbox.get(ann.id).forum_id == "9001"


def test_retry_after_failure_counts_attempts(outbox, game):
    ann = _in_state(outbox, game, S.FAILED)
    assert (ann.attempts, ann.last_error) == (1, "timeout")
    assert outbox.mark_failed(ann.id, "timeout") == ann  # the same failure again: no-op
    assert outbox.mark_failed(ann.id, "HTTP 502").last_error == "HTTP 502"
    retry = outbox.mark_sending(ann.id)
    assert (retry.state, retry.attempts) == (S.SENDING, 2)
    failed_again = outbox.mark_failed(ann.id, "HTTP 502")  # same text, but a new failure
    assert (failed_again.state, failed_again.last_error) == (S.FAILED, "HTTP 502")
    sent = outbox.mark_sending(ann.id)
    sent = outbox.mark_sent(ann.id, "9001")
    assert (sent.state, sent.attempts, sent.last_error) == (S.SENT, 3, None)


def test_crash_while_sending_then_not_on_the_forum(outbox, game):
    """The documented recovery: sending -> fail -> send (an attempt more)."""
    ann = _in_state(outbox, game, S.SENDING)
    outbox.mark_failed(ann.id, "interrupted: not found on the forum")
    assert outbox.mark_sending(ann.id).attempts == 2


def test_edit(outbox, game, clock):
    ann, _ = _propose(outbox, game)
    clock.advance(minutes=1)
    edited = outbox.edit(ann.id, "新文字")
    assert (edited.text, edited.state, edited.edited_at) == ("新文字", S.PROPOSED, clock.now)
    approved = outbox.approve(ann.id)
    assert outbox.edit(ann.id, "新文字") == approved  # the same text: still approved
    back = outbox.edit(ann.id, "再改")
    assert (back.state, back.text) == (S.PROPOSED, "再改")  # an edited text needs a new approval


def test_published_by_hand(outbox, game, clock):
    ann, _ = _propose(outbox, game)
    at = clock.now - timedelta(minutes=30)
    published = outbox.mark_published(ann.id, at, forum_id="8888")
    assert (published.state, published.published_at, published.forum_id) == (
        S.PUBLISHED,
        at,
        "8888",
    )
    assert outbox.mark_published(ann.id, clock.now) == published  # the first time is kept


def test_queries_by_state(outbox, game):
    a, _ = _propose(outbox, game, key="a")
    b, _ = _propose(outbox, game, key="b")
    c, _ = _propose(outbox, game, key="c")
    outbox.approve(b.id)
    outbox.reject(c.id)
    assert [x.key for x in outbox.announcements(game.id)] == ["a", "b", "c"]
    assert [x.key for x in outbox.announcements(game.id, [S.PROPOSED, "approved"])] == ["a", "b"]
    assert [x.key for x in outbox.announcements(game.id, ["rejected"])] == ["c"]
    with pytest.raises(ValueError):
        outbox.announcements(game.id, ["nonsense"])


def test_unknown_announcement(outbox, game):
    with pytest.raises(NotFound, match="#42"):
        outbox.approve(42)
    with pytest.raises(NotFound):
        outbox.get(42)


def test_destination_kind_is_checked(outbox, game):
    with pytest.raises(ValueError):
        outbox.propose(game.id, "k", "x", "forum", "100", "text")
    assert outbox.announcements(game.id) == []


def test_a_second_claimant_cannot_mark_an_announcement_sending(outbox, game):
    """issue 11: two daemons must not both send; the second claimant is refused, the first may
    repeat itself (a no-op)."""
    ann, _ = _propose(outbox, game)
    outbox.approve(ann.id)
    first = outbox.mark_sending(ann.id, owner="host-a:1")
    assert (first.state, first.sending_owner, first.attempts) == (S.SENDING, "host-a:1", 1)
    with pytest.raises(SendClaimed, match="being sent by host-a:1"):
        outbox.mark_sending(ann.id, owner="host-b:2")
    with pytest.raises(SendClaimed):
        outbox.mark_sending(ann.id)  # no owner is another claimant too
    assert outbox.mark_sending(ann.id, owner="host-a:1") == first
    # a daemon that took the game over: the forum does not have it, so fail, then send
    outbox.mark_failed(ann.id, "sending interrupted: not on the forum")
    taken = outbox.mark_sending(ann.id, owner="host-b:2")
    assert (taken.sending_owner, taken.attempts) == ("host-b:2", 2)


def test_a_failure_keeps_when_it_is_retried(outbox, game, clock):
    ann = _in_state(outbox, game, S.SENDING)
    later = clock.now + timedelta(minutes=5)
    failed = outbox.mark_failed(ann.id, "消息数已满", retry_at=later)
    assert (failed.last_error, failed.retry_at, failed.sending_owner) == ("消息数已满", later, None)
    assert outbox.counts(game.id) == {S.FAILED: 1}
    retry = outbox.mark_sending(ann.id)
    assert retry.retry_at is None and retry.attempted_at == clock.now
