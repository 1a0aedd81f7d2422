"""The publisher: the outbox sent to the forum (store → forum), paced, never twice.

What the mode allows goes out (review: what the GM approved; live: everything proposed),
oldest first. The adapter says how the forum must be treated: its flood interval
(``adapter.flood_interval``) paces the sends, and ``adapter.fit_min_length`` pads a post
shorter than the forum accepts.

Sending is at most once: the announcement is marked ``sending`` before the request, so a crash
or an unclear answer leaves a trace; before anything that was already tried is sent again, the
publisher looks on the forum for it (:meth:`Publisher.already_on_forum`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from shenshi.adapters.base import ForumAdapter
from shenshi.adapters.errors import FloodControl, ForumError
from shenshi.config import Config
from shenshi.daemon.drylog import DryRunLog, LogEntry
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import Announcement, DestinationKind, EvidenceKind
from shenshi.store.unit_of_work import Store

log = logging.getLogger(__name__)


class Publisher:
    """Sends one game's announcements through the forum adapter."""

    def __init__(
        self,
        config: Config,
        store: Store,
        adapter: ForumAdapter,
        game_id: int,
        clock: Callable[[], datetime],
        *,
        drylog: DryRunLog,
        sleep: Callable[[float], None] | None,
        refresh: Callable[[], object],
        sent: Callable[[str], None],
    ) -> None:
        self.config = config
        self.store = store
        self.adapter = adapter
        self.game_id = game_id
        self.clock = clock
        self.drylog = drylog
        self.sleep = sleep
        self.refresh = refresh  # read the forum (and process what is new) before looking on it
        self.sent = sent  # an announcement's key, once it is on the forum
        self._last_sent: datetime | None = None

    def publish(self) -> int:
        """Send what the mode allows (review: approved; live: everything proposed). Returns
        how many went out."""
        mode = self.config.daemon.mode
        if mode == "dry-run":
            return 0
        with self.store.transaction() as uow:
            if mode == "live":
                for a in uow.outbox.announcements(self.game_id, [AnnouncementState.PROPOSED]):
                    uow.outbox.approve(a.id)
            pending = uow.outbox.announcements(
                self.game_id, [AnnouncementState.APPROVED, AnnouncementState.SENDING, AnnouncementState.FAILED]
            )
        return sum(1 for a in pending if self._send(a))

    def _send(self, a: Announcement) -> bool:
        if a.state is AnnouncementState.SENDING and self.already_on_forum(a):
            return True  # a crash came between sending and recording: never post twice
        self._pace()
        with self.store.transaction() as uow:
            a = uow.outbox.mark_sending(a.id)
        try:
            if a.destination_kind is DestinationKind.THREAD:
                forum_id = self.adapter.post_reply(a.destination, self.adapter.fit_min_length(a.text))
            else:
                forum_id = self.adapter.send_pm(a.destination, a.text) or f"pm:{a.key}"
        except FloodControl as exc:
            with self.store.transaction() as uow:
                uow.outbox.mark_failed(a.id, f"flood control: wait {exc.wait_seconds:g} s")
            return False
        except ForumError as exc:
            with self.store.transaction() as uow:
                uow.outbox.mark_failed(a.id, str(exc))
            log.warning("could not send announcement #%s: %s", a.id, exc)
            return False
        now = self.clock()
        with self.store.transaction() as uow:
            uow.outbox.mark_sent(a.id, str(forum_id), at=now)
        self._last_sent = now
        self.sent(a.key)
        self.drylog.write(LogEntry(now, a.kind, where(a), a.text, "sent", str(a.id)))
        return True

    def already_on_forum(self, a: Announcement) -> bool:
        """After a crash mid-send: did the forum get it? A poll records what the forum shows,
        our own posts (and our own PMs, where the engine lists them) included; look there for
        our message with this text to this thread or player that is not already the record of
        another announcement (the same answer may go to the same player twice in a game)."""
        self.refresh()  # also processes what else is new, in order
        own = {getattr(self.adapter, "own_uid", None), self.config.forum.username}
        with self.store.snapshot() as uow:
            claimed = {x.forum_id for x in uow.outbox.announcements(self.game_id) if x.id != a.id and x.forum_id}
        thread = a.destination_kind is DestinationKind.THREAD
        kind = EvidenceKind.POST if thread else EvidenceKind.PM
        for e in self.store.stream_evidence(self.game_id, kind=kind, sources=[a.destination] if thread else None):
            if not (e.author_uid in own or e.author in own) or e.forum_id in claimed:
                continue
            if not thread and (e.recipient or "").casefold() != a.destination.casefold():
                continue
            if same_text(e.text, a.text):
                with self.store.transaction() as uow:
                    uow.outbox.mark_sent(a.id, e.forum_id, at=e.posted_at)
                self.sent(a.key)
                return True
        if not thread and hasattr(self.adapter, "find_sent_pm"):
            # phpwind shows a PM the GM sent only in the outbox until the player answers.
            since = a.approved_at or a.created_at
            found = self.adapter.find_sent_pm(a.destination, a.text, since)
            if found is not None and found not in claimed:
                with self.store.transaction() as uow:
                    uow.outbox.mark_sent(a.id, found, at=self.clock())
                return True
        return False

    def _pace(self) -> None:
        """Posts and PMs are paced to the forum's flood interval (the adapter's engine fact).

        ``_last_sent`` is read after the forum answered, so the forum, which stamped the post
        before answering, always sees at least the interval between two sends.
        """
        if self._last_sent is None or self.sleep is None:
            return
        gap = timedelta(seconds=self.adapter.flood_interval)
        wait = (self._last_sent + gap - self.clock()).total_seconds()
        if wait > 0:
            self.sleep(wait)


def where(a: Announcement) -> str:
    """Where an announcement goes, for the log: ``thread 12`` or ``PM to 小明``."""
    return f"thread {a.destination}" if a.destination_kind is DestinationKind.THREAD else f"PM to {a.destination}"


def same_text(a: str, b: str) -> bool:
    """Whether two texts are the same message (whitespace aside: forums reflow it)."""
    return "".join(a.split()) == "".join(b.split())
