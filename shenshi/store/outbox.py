"""The announcement state machine of the outbox: every transition in one table (h11 style).

::

    proposed ──approve──▶ approved ──send──▶ sending ──sent──▶ sent
       │  ▲                  │                  │  ▲              ▲
       │  └──────edit────────┘                  │  └──send (retry)──┐
       │                                        └──fail──▶ failed ──┘
       │                                                    └──sent (found on the forum)
       ├──reject──▶ rejected       (from proposed, approved, failed, unconfirmed)
       ├──publish─▶ published      (from proposed, approved, failed: the GM posted it by hand)
       └──supersede─▶ superseded   (from proposed, approved, failed, unconfirmed)

    unconfirmed ──confirm──▶ proposed

``unconfirmed``: a proposal the GM must confirm with a game correction before it can go out
(a missed sign-in is an exit only once ``shenshi override exit`` says so): it is never
approved, sent or listed to publish by hand; the event that confirms it confirms it (or
supersedes it). ``superseded``: a later event made it moot (a substitute, a confirmed exit, a
corrected ballot…): it is never sent, and it keeps what superseded it (the replacing
announcement, if any, and the event in the GM's words), as a review tool marks a comment
outdated.

``edit`` keeps a proposed or failed announcement in its state and sends an approved one back to
``proposed`` (an edited text needs a new approval). In ``live`` mode the daemon approves before
sending: there is no shortcut from ``proposed`` to ``sending``. After a crash, an announcement
left ``sending`` is checked on the forum: found → ``sent``; not found → ``fail`` then ``send``.
After an unclear answer (a timeout, a 5xx, a page it does not know) a ``failed`` announcement
is looked for on the forum too before it is sent again: found → ``sent``. A failed one is
approved already (it is retried): approving it again changes nothing.

Repeating the action that led to the current state is a no-op (approve twice, reject twice,
``sent`` with the same forum id…), so a re-run after a crash is safe. Anything else not in the
table raises :class:`~shenshi.store.errors.IllegalTransition` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from shenshi.store.errors import IllegalTransition


class AnnouncementState(StrEnum):
    """Where an announcement stands in the outbox."""

    PROPOSED = "proposed"
    APPROVED = "approved"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"
    REJECTED = "rejected"
    PUBLISHED = "published"  # the GM posted it by hand (dry-run)
    UNCONFIRMED = "unconfirmed"  # waits for the GM to confirm it with a correction
    SUPERSEDED = "superseded"  # a later event made it moot: never sent


class OutboxAction(StrEnum):
    """What can be done to an announcement."""

    APPROVE = "approve"
    REJECT = "reject"
    EDIT = "edit"
    SEND = "send"  # mark_sending
    SENT = "sent"  # mark_sent
    FAIL = "fail"  # mark_failed
    PUBLISH = "publish"  # mark_published
    CONFIRM = "confirm"  # the event the proposal waited for happened
    SUPERSEDE = "supersede"  # a later event made it moot (replaced or withdrawn)


S, A = AnnouncementState, OutboxAction

TRANSITIONS: Mapping[AnnouncementState, Mapping[OutboxAction, AnnouncementState]] = (
    MappingProxyType(
        {
            S.PROPOSED: MappingProxyType(
                {
                    A.APPROVE: S.APPROVED,
                    A.REJECT: S.REJECTED,
                    A.EDIT: S.PROPOSED,
                    A.PUBLISH: S.PUBLISHED,
                    A.CONFIRM: S.PROPOSED,
                    A.SUPERSEDE: S.SUPERSEDED,
                }
            ),
            S.APPROVED: MappingProxyType(
                {
                    A.APPROVE: S.APPROVED,
                    A.SEND: S.SENDING,
                    A.REJECT: S.REJECTED,
                    A.EDIT: S.PROPOSED,
                    A.PUBLISH: S.PUBLISHED,
                    A.SUPERSEDE: S.SUPERSEDED,
                }
            ),
            S.SENDING: MappingProxyType({A.SEND: S.SENDING, A.SENT: S.SENT, A.FAIL: S.FAILED}),
            S.FAILED: MappingProxyType(
                {
                    A.APPROVE: S.FAILED,
                    A.SEND: S.SENDING,
                    A.SENT: S.SENT,
                    A.FAIL: S.FAILED,
                    A.REJECT: S.REJECTED,
                    A.EDIT: S.FAILED,
                    A.PUBLISH: S.PUBLISHED,
                    A.SUPERSEDE: S.SUPERSEDED,
                }
            ),
            S.SENT: MappingProxyType({A.SENT: S.SENT}),
            S.REJECTED: MappingProxyType({A.REJECT: S.REJECTED}),
            S.PUBLISHED: MappingProxyType({A.PUBLISH: S.PUBLISHED}),
            S.UNCONFIRMED: MappingProxyType(
                {
                    A.CONFIRM: S.PROPOSED,
                    A.REJECT: S.REJECTED,
                    A.EDIT: S.UNCONFIRMED,
                    A.SUPERSEDE: S.SUPERSEDED,
                }
            ),
            S.SUPERSEDED: MappingProxyType({A.SUPERSEDE: S.SUPERSEDED}),
        }
    )
)
"""``TRANSITIONS[state][action]`` is the state after ``action``; a missing entry is illegal.

An entry that maps a state to itself is a repeat (a no-op) except for ``edit``, which
changes the text, and ``fail``, which records the latest error.
"""

# Proposals still waiting to go out (or to be confirmed): what the current state re-derives
# (:mod:`shenshi.daemon.superseding`).
PENDING = (
    AnnouncementState.UNCONFIRMED,
    AnnouncementState.PROPOSED,
    AnnouncementState.APPROVED,
    AnnouncementState.FAILED,
)


def next_state(state: AnnouncementState, action: OutboxAction, what: str) -> AnnouncementState:
    """The state after ``action``, or :class:`IllegalTransition` naming ``what`` (e.g. "#12")."""
    try:
        return TRANSITIONS[state][action]
    except KeyError:
        allowed = ", ".join(a.value for a in TRANSITIONS[state]) or "nothing"
        raise IllegalTransition(
            f"announcement {what} is {state.value}: cannot {action.value} it (allowed: {allowed})"
        ) from None
