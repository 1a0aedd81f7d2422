"""PMs the GM sent by hand (dry-run): recognised like his posts, so that ``shenshi published``
is needed only for what the daemon cannot match.

A PM the GM sent shows in the inbox poll where the engine lists both directions of a
conversation (Discuz!); elsewhere (phpwind lists it only in the outbox until the player
answers) the daemon looks in the GM's outbox for the PMs it proposed, now and then. A PM
matches a proposed one to the same player with the same text (whitespace aside), oldest first,
that no other announcement already records.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from shenshi.adapters.errors import ForumError
from shenshi.daemon.forum_ids import ForumRef, claimed, pm_ref
from shenshi.records import PrivateMessage
from shenshi.sent_text import same_message
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import Announcement, DestinationKind
from shenshi.store.unit_of_work import Store

log = logging.getLogger(__name__)

WAITING = (AnnouncementState.PROPOSED, AnnouncementState.APPROVED, AnnouncementState.FAILED)
OUTBOX_SPACING = timedelta(minutes=10)  # the GM's outbox is read at most this often
OUTBOX_LOOK_BACK = timedelta(hours=48)  # … for PMs proposed this recently
OUTBOX_AT_MOST = 10  # … and at most this many each time


def _waiting_pms(store: Store, game_id: int) -> tuple[list[Announcement], set[ForumRef]]:
    """PM announcements not out yet, oldest first, and the messages already recorded (a PM's
    id means nothing among post ids: :mod:`shenshi.daemon.forum_ids`)."""
    with store.snapshot() as uow:
        every = uow.outbox.announcements(game_id)
    waiting = [
        a for a in every
        if a.state in WAITING and a.destination_kind is DestinationKind.USER
        and a.published_at is None and a.sent_at is None
    ]  # fmt: skip
    return waiting, claimed(every)


def sent_pm_match(store: Store, game_id: int, pm: PrivateMessage) -> Announcement | None:
    """The proposed PM that ``pm`` (sent by the GM) publishes, if one matches (nothing marked)."""
    waiting, taken = _waiting_pms(store, game_id)
    if pm_ref(pm.id) in taken:
        return None
    return next(
        (a for a in waiting if a.destination.casefold() == pm.recipient.casefold() and same_message(pm.text, a.text)),
        None,
    )


def holds_sent_pm(store: Store, game_id: int, pm: PrivateMessage) -> bool:
    """Whether this game's outbox holds ``pm`` (sent by the GM): an announcement records it
    (its forum id, among PMs: the daemon sent it, or it was recognised), or a proposed PM
    waits that it publishes (sent by hand)."""
    with store.snapshot() as uow:
        recorded = pm_ref(pm.id) in claimed(uow.outbox.announcements(game_id))
    return recorded or sent_pm_match(store, game_id, pm) is not None


def recognise_sent_pm(store: Store, game_id: int, pm: PrivateMessage) -> Announcement | None:
    """Mark the proposed PM that ``pm`` (sent by the GM) publishes, if one matches."""
    found = sent_pm_match(store, game_id, pm)
    if found is None:
        return None
    with store.transaction() as uow:
        return uow.outbox.mark_published(found.id, pm.sent_at, forum_id=pm.id)


class OutboxWatch:
    """Looks for proposed PMs in the GM's outbox (engines whose inbox does not list them)."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self.clock = clock
        self.last: datetime | None = None

    def look(
        self, store: Store, game_id: int, find_sent_pms: Callable[[str, str, datetime], list[str]]
    ) -> list[Announcement]:
        """Check up to :data:`OUTBOX_AT_MOST` waiting PMs (at most every
        :data:`OUTBOX_SPACING`); returns the ones found sent and marks them published.
        ``find_sent_pms``: the ids of the GM's PMs to a player with a text since a moment, oldest
        first (two identical receipts are two PMs: the first one not recorded is this one)."""
        now = self.clock()
        if self.last is not None and now - self.last < OUTBOX_SPACING:
            return []
        self.last = now
        waiting, taken = _waiting_pms(store, game_id)
        recent = [a for a in waiting if now - a.created_at <= OUTBOX_LOOK_BACK][:OUTBOX_AT_MOST]
        found = []
        for a in recent:
            try:
                sent = find_sent_pms(a.destination, a.text, a.created_at)
            except ForumError as exc:
                log.warning("读不到天神发件箱里的私信：%s", exc)
                break
            forum_id = next((i for i in sent if pm_ref(i) not in taken), None)
            if forum_id is None:
                continue
            taken.add(pm_ref(forum_id))
            with store.transaction() as uow:
                found.append(uow.outbox.mark_published(a.id, now, forum_id=forum_id))
        return found
