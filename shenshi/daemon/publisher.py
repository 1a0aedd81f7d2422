"""The publisher: the outbox sent to the forum (store → forum), paced, at most once.

What the mode allows goes out (review: what the GM approved; live: everything proposed):
public posts first, then PMs, each in the order first proposed (a rewritten one keeps the place
of what it replaced), so that a night's result never waits behind its receipts. The adapter
says how the forum must be treated: its flood interval
(``adapter.flood_interval``) paces the sends, and ``adapter.fit_min_length`` pads a post
shorter than the forum accepts. Sends paced 15 s apart take time: between two sends the
publisher checks the phase clock's next deadline, and once it passes it stops
(:attr:`Publisher.interrupted`): the cycle reads the forum and runs the clock first, so that
what the deadline brings (the dawn post) goes out before the PMs still waiting. A GM correction
written by another process meanwhile (``shenshi override`` beside the running daemon) stops it
the same way: the cycle reads the correction first, and each send claims its row afresh
(``mark_sending`` refuses one the correction superseded), so nothing it made untrue goes out.

Sending is at most once:

* the announcement is marked ``sending`` (by this daemon: a second claimant is refused) before
  the request, so a crash leaves a trace;
* the transport never repeats a POST that creates content (:mod:`shenshi.adapters.http`): a
  timeout, a 5xx or a page it does not know is an unclear answer, and the send is ``failed``;
* before anything that was tried before is sent again, whatever its state, the publisher looks
  on the forum for it (:meth:`Publisher.already_on_forum`), after a poll newer than the try.

Every failed send is a GM alert with the forum's reason, and is tried again at ``retry_at``
(:func:`retry_note` says when, for ``status``, ``review`` and ``approve``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta, tzinfo
from typing import Any

from shenshi.adapters.errors import (
    CaptchaRequired,
    FloodControl,
    ForumBusy,
    ForumError,
    NoPermission,
    NotFound,
    NotLoggedIn,
    OtherSite,
    OwnBoxFull,
    Rejected,
)
from shenshi.daemon.announce import Templates, kind_words
from shenshi.daemon.drylog import DryRunLog, LogEntry, where_to
from shenshi.daemon.forum_ids import ForumRef, claimed, evidence_ref, pm_ref
from shenshi.daemon.forum_trouble import send_trouble
from shenshi.daemon.gameio import GameIO
from shenshi.daemon.hints import Cause
from shenshi.daemon.referee import GmAlert
from shenshi.daemon.timeline import FORUM_CLOCK_SKEW
from shenshi.sent_text import same_message
from shenshi.store.errors import IllegalTransition
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import Announcement, DestinationKind, Evidence, EvidenceKind

log = logging.getLogger(__name__)

RETRY_FIRST = timedelta(minutes=2)  # a failed send is tried again after this, then twice as late
RETRY_MAX = timedelta(hours=1)


def retry_delay(attempts: int) -> timedelta:
    """How long after its ``attempts``-th failed try an announcement is tried again: twice as
    long each time, never more than :data:`RETRY_MAX` (a PM box full for days is tried hourly)."""
    doublings = min(max(0, attempts - 1), 16)  # (2**16 × RETRY_FIRST is far past RETRY_MAX)
    return min(RETRY_MAX, RETRY_FIRST * 2**doublings)
# What the forum clearly refused (nothing was created): every other failure is an unclear answer.
REFUSED = (FloodControl, Rejected, NotLoggedIn, NoPermission, NotFound, CaptchaRequired, ForumBusy, OtherSite)
WAITING = (AnnouncementState.APPROVED, AnnouncementState.SENDING, AnnouncementState.FAILED)


class Publisher(GameIO):
    """Sends one game's announcements through the forum adapter."""

    def __init__(
        self,
        *args: Any,
        drylog: DryRunLog,
        templates: Templates,
        sleep: Callable[[float], None] | None,
        owner: str,
        hold: Callable[[], object],
        refresh: Callable[[], object],
        polled_at: Callable[[], datetime | None],
        sent: Callable[[str], None],
        deadline: Callable[[], datetime | None] = lambda: None,
        corrected: Callable[[], bool] = lambda: False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.drylog = drylog
        self.templates = templates
        self.sleep = sleep
        self.owner = owner  # this daemon, as it marks what it sends
        self.hold = hold  # renew the game's lease (LeaseHeld: another daemon took it over)
        self.refresh = refresh  # read the forum (and process what is new) before looking on it
        self.polled_at = polled_at  # when the last poll began
        self.sent = sent  # an announcement's key, once it is on the forum
        self.deadline = deadline  # the phase clock's next deadline
        self.corrected = corrected  # events were written beside this daemon (a GM correction)
        self.interrupted = False  # the last publish stopped at a deadline: the clock runs first
        self._box_full = False  # this round found the GM's own PM box full
        self._last_sent: datetime | None = None
        self._fresh_at: datetime | None = None  # when the last read of our own began

    def publish(self) -> int:
        """Send what the mode allows (review: approved; live: everything proposed): public
        posts first, then PMs, oldest first; a failed one once its ``retry_at`` has come. Stops
        when the phase clock's next deadline passes between two sends (:attr:`interrupted`).
        Returns how many went out."""
        self.interrupted = False
        mode = self.config.daemon.mode
        if mode == "dry-run":
            return 0
        with self.store.transaction() as uow:
            if mode == "live":
                for a in uow.outbox.announcements(self.game_id, [AnnouncementState.PROPOSED]):
                    uow.outbox.approve(a.id)
            pending = uow.outbox.announcements(self.game_id, WAITING)
            order = sending_order(uow.outbox.announcements(self.game_id, [AnnouncementState.SUPERSEDED]))
        now = self.clock()
        upcoming = self.deadline()
        if upcoming is not None and upcoming <= now:
            upcoming = None  # passed already: the clock's own business (a read held it)
        sent = 0
        self._box_full = False
        for a in sorted(pending, key=order):
            if a.retry_at is not None and a.retry_at > now:
                continue
            if self._box_full and a.destination_kind is DestinationKind.USER:
                continue  # the GM's own PM box is full: every PM would fail (its alert says so)
            if upcoming is not None and self.clock() >= upcoming:
                self.interrupted = True
                log.info("a deadline of the phase clock passed while sending: reading the forum first")
                break
            if sent and self.corrected():
                self.interrupted = True  # what it made moot is superseded: its row is read again
                log.info("a GM correction was written while sending: reading it first")
                break
            if sent and a.destination_kind is DestinationKind.USER and self._new_public({p.id for p in pending}):
                self.interrupted = True  # approved while PMs were paced: public posts go first
                log.info("a public post was approved while sending PMs: sending it first")
                break
            self.hold()
            sent += self._send(a)
        return sent

    def _new_public(self, known: set[int]) -> bool:
        """Whether a public post became due since this round began (the GM approved it while
        PMs were being paced: adversary6 C14)."""
        with self.store.snapshot() as uow:
            due = uow.outbox.announcements(self.game_id, WAITING)
        return any(a.id not in known and a.destination_kind is DestinationKind.THREAD for a in due)

    def next_retry(self) -> datetime | None:
        """When the next failed announcement is due to be tried again, if any."""
        with self.store.snapshot() as uow:
            failed = uow.outbox.announcements(self.game_id, [AnnouncementState.FAILED])
        return min((a.retry_at for a in failed if a.retry_at is not None), default=None)

    def _send(self, a: Announcement) -> bool:
        if a.attempts and self.already_on_forum(a):
            return True  # tried before (a crash, an unclear answer): the forum has it
        if a.attempts and not self._read_since(a):
            log.info("announcement #%s: the forum was not read whole since it was tried", a.id)
            return False  # not found, but where it would show could not be read: next cycle
        if a.attempts and self._earlier_version_held(a):
            return False  # the text tried before may be on the forum: the GM decides
        if a.state is AnnouncementState.SENDING:  # a crash mid-send, and the forum does not have it
            with self.store.transaction() as uow:
                uow.outbox.mark_failed(a.id, "sending was interrupted; not found on the forum")
        self._pace()
        try:
            with self.store.transaction() as uow:
                a = uow.outbox.mark_sending(a.id, owner=self.owner)
        except IllegalTransition as exc:  # the GM rejected or edited it while we waited
            log.info("announcement #%s changed while waiting to be sent: %s", a.id, exc)
            return False
        try:
            if a.destination_kind is DestinationKind.THREAD:
                padded = self.adapter.fit_min_length(a.text, self._padding())
                forum_id = self.adapter.post_reply(a.destination, padded)
            else:
                forum_id = self.adapter.send_pm(a.destination, a.text) or self._sent_pm_id(a)
        except ForumError as exc:
            self._last_sent = self.clock()  # it may have reached the forum: pace the next one
            self._failed(a, exc)
            return False
        now = self.clock()
        with self.store.transaction() as uow:
            uow.outbox.mark_sent(a.id, str(forum_id), at=now)
        self._last_sent = now
        self.sent(a.key)
        title = kind_words(self.templates, a.kind, a.key)
        self.drylog.write(LogEntry(now, a.kind, where(a), a.text, "sent", str(a.id), title=title))
        return True

    def _failed(self, a: Announcement, exc: ForumError) -> None:
        """A failed send: kept with the reason in the GM's words and when it is tried again,
        and told to the GM: one alert for the announcement however many tries fail (it closes
        itself once the announcement is delivered); the GM's own PM box full, once more on its
        own with what to delete."""
        now = self.clock()
        reason = send_trouble(exc)
        if isinstance(exc, FloodControl) and exc.wait_seconds is not None:
            retry = now + timedelta(seconds=exc.wait_seconds)
        else:
            retry = now + retry_delay(a.attempts)
        with self.store.transaction() as uow:
            uow.outbox.mark_failed(a.id, reason, retry_at=retry)
        unclear = "" if isinstance(exc, REFUSED) else "unclear answer (it may be on the forum): "
        log.warning("could not send announcement #%s: %s%s", a.id, unclear, exc)
        message = (
            f"#{a.id} {kind_words(self.templates, a.kind, a.key)}（{where(a)}）发送失败：{reason}。"
            "它已获批准，会自动重试直到送到（送到后这条提醒自动关闭）"
        )
        player = a.destination if a.destination_kind is DestinationKind.USER else None
        alerts = [GmAlert(self.keys.send_failed(a.id), "send_failed", message, player, cause=Cause.sent(a.id))]
        if isinstance(exc, OwnBoxFull):
            self._box_full = True
            alerts.append(self._own_box_full(exc))
        self.alert(alerts)

    def _own_box_full(self, exc: OwnBoxFull) -> GmAlert:
        """The GM's own PM box is full (phpwind counts the PMs he sent in it): every PM fails
        until he deletes some. One alert a day, saying what to delete."""
        message = (
            f"天神账号自己的短消息箱满了：现有 {exc.total} 条，最多 {exc.box} 条。phpwind 把天神发出的私信"
            "也算在里面，所以所有私信（回执、夜晚结果）都发不出去，直到腾出空间。请登录论坛删除"
            "已发送的私信（消息中心 → 发件箱，或 消息设置 → 消息清理 → 清空已发送的消息）；"
            "之后没送到的私信会自动重发"
        )
        day = self.clock().astimezone(self.config.forum.tz).strftime("%Y%m%d")
        return GmAlert(self.keys.daemon_trouble("own_box_full", day), "own_box_full", message)

    def already_on_forum(self, a: Announcement) -> bool:
        """Did the forum get it, although its sending was not recorded? A poll records what the
        forum shows, our own posts (and our own PMs, where the engine lists them) included;
        look there (after a poll newer than the last try) for our message with this text to
        this thread or player that is not already the record of another announcement (the same
        answer may go to the same player twice in a game). Found: recorded as sent. (Also
        ``True`` when the announcement no longer waits: recognised meanwhile as the GM's own
        post, or rejected.)"""
        self._read_afresh(a)
        with self.store.snapshot() as uow:
            a = uow.outbox.get(a.id)
            taken = claimed(uow.outbox.announcements(self.game_id), besides=a.id)
        if a.state not in WAITING:
            return True  # meanwhile recognised as the GM's own post, or rejected: nothing to send
        thread = a.destination_kind is DestinationKind.THREAD
        padding = self._padding() if thread else ""
        found: tuple[str, datetime] | None = next(
            (
                (e.forum_id, e.posted_at)
                for e in self._ours(a)
                if evidence_ref(e) not in taken and same_message(e.text, a.text, padding)
            ),
            None,
        )
        if found is None and not thread:
            # phpwind shows a PM the GM sent only in the outbox until the player answers.
            pm_id = self._unclaimed_sent_pm(a, a.approved_at or a.created_at, taken)
            if pm_id is not None:
                found = (pm_id, self.clock())
        if found is None:
            return False
        with self.store.transaction() as uow:
            uow.outbox.mark_sent(a.id, found[0], at=found[1])
        self.sent(a.key)
        log.info("announcement #%s was on the forum already (%s): not sent again", a.id, found[0])
        return True

    def _read_afresh(self, a: Announcement) -> None:
        """Read the forum afresh once after ``a`` was last tried, before looking for it there:
        a round's shared reads may have skipped the inbox (no new-PM notice: our own PMs raise
        none), so only a read of our own is proof. It also processes what else is new, in order."""
        if self._fresh_at is not None and a.attempted_at is not None and self._fresh_at > a.attempted_at:
            return
        self._fresh_at = self.clock()
        self.refresh()

    def _read_since(self, a: Announcement) -> bool:
        """Whether a complete read of the forum began after ``a`` was last tried (a page that
        could not be read may hold it)."""
        polled = self.polled_at()
        return a.attempted_at is None or (polled is not None and polled > a.attempted_at)

    def _earlier_version_held(self, a: Announcement) -> bool:
        """The GM edited an announcement after a try whose answer was unclear: the forum may
        show the text as it was then, which is no longer the text to look for. A message of
        ours in that thread (to that player) since that try, recorded by no announcement, may
        be it: nothing is sent (never twice), the GM is told where it is and what to do."""
        with self.store.snapshot() as uow:
            a = uow.outbox.get(a.id)
            taken = claimed(uow.outbox.announcements(self.game_id))
        if a.edited_at is None or a.attempted_at is None or a.edited_at <= a.attempted_at:
            return False
        since = a.attempted_at - FORUM_CLOCK_SKEW - self.adapter.time_precision.pm
        suspect = next(
            (e for e in self._ours(a) if evidence_ref(e) not in taken and e.posted_at >= since), None
        )
        if suspect is None:
            return False
        reason = (
            f"edited after an unclear answer, and the forum has a message of ours since that try "
            f"({suspect.url or suspect.forum_id}): not sent again"
        )
        with self.store.transaction() as uow:
            uow.outbox.mark_failed(a.id, reason, retry_at=self.clock() + RETRY_MAX)
        message = (
            f"#{a.id} {kind_words(self.templates, a.kind, a.key)}（{where(a)}）上次发送时论坛没有给出明确答复，之后它被改过文字；论坛上有一条"
            f"那以后的我方消息，可能就是改之前的版本：{suspect.url or suspect.forum_id}。为免重复，不再发送。"
            f"它就是这条：shenshi published {a.id}；不是：shenshi reject {a.id} 后另行发布"
        )
        self.alert([GmAlert(self.keys.earlier_version(a.id), "earlier_version_on_forum", message)])
        log.warning("announcement #%s: %s", a.id, reason)
        return True

    def _ours(self, a: Announcement) -> list[Evidence]:
        """Our own posts in ``a``'s thread, or our PMs to ``a``'s player, as the forum shows them
        (the last poll's record), oldest first."""
        own = {getattr(self.adapter, "own_uid", None), self.config.forum.username}
        thread = a.destination_kind is DestinationKind.THREAD
        kind = EvidenceKind.POST if thread else EvidenceKind.PM
        return [
            e
            for e in self.store.stream_evidence(
                self.game_id, kind=kind, sources=[a.destination] if thread else None
            )
            if (e.author_uid in own or e.author in own)
            and (thread or (e.recipient or "").casefold() == a.destination.casefold())
        ]

    def _sent_pm_id(self, a: Announcement) -> str:
        """The forum's id of the PM just sent, where the engine does not say it (phpwind): the
        GM's sent PM to that player with that text that no other announcement records, so that
        a second identical one (two receipts ``已收到：今晚占卜 老王``) is never taken for this
        one after a crash. ``pm:<key>`` if the forum does not show it."""
        with self.store.snapshot() as uow:
            taken = claimed(uow.outbox.announcements(self.game_id))
        try:
            found = self._unclaimed_sent_pm(a, a.attempted_at or self.clock(), taken)
        except ForumError as exc:  # it was sent: only its id is unknown
            log.info("could not read the id of the PM just sent (#%s): %s", a.id, exc)
            found = None
        return found or f"pm:{a.key}"

    def _unclaimed_sent_pm(self, a: Announcement, since: datetime, taken: set[ForumRef]) -> str | None:
        """The oldest PM of the GM's to ``a``'s player with ``a``'s text since ``since`` that no
        announcement records (the engine's list of sent PMs), if the adapter can list them."""
        find = getattr(self.adapter, "find_sent_pms", None)
        if find is None:
            return None
        return next((i for i in find(a.destination, a.text, since) if pm_ref(i) not in taken), None)

    def _padding(self) -> str:
        """What a post shorter than the forum's minimum is padded with (the GM's template)."""
        return self.templates.render("padding")

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


def sending_order(superseded: Iterable[Announcement]) -> Callable[[Announcement], tuple[bool, int, int]]:
    """The order of sending: posts in the game's threads before PMs, each in the order first
    proposed, where an announcement that replaced another (``superseded``: the replaced ones)
    keeps the place of the first it replaced (newcomer2 F12: a receipt rewritten once the night
    settled went out after the seer's answer to the PM it acknowledges)."""
    first: dict[int, int] = {}
    for old in sorted(superseded, key=lambda a: a.id):  # (a replacement is newer than what it replaces)
        if old.superseded_by is not None:
            first[old.superseded_by] = min(first.get(old.id, old.id), first.get(old.superseded_by, old.superseded_by))

    def key(a: Announcement) -> tuple[bool, int, int]:
        return a.destination_kind is not DestinationKind.THREAD, first.get(a.id, a.id), a.id

    return key


def retry_note(a: Announcement, tz: tzinfo) -> str:
    """For the GM: a failed announcement is approved already and tried again, and when."""
    if a.state is not AnnouncementState.FAILED:
        return ""
    when = f"{a.retry_at.astimezone(tz):%m-%d %H:%M}" if a.retry_at else "下一轮"
    return (
        f"它已获批准，会自动重试（第 {a.attempts} 次尝试失败；下次：{when}）；"
        f"不再发送：shenshi reject {a.id}；改文字：shenshi edit {a.id}"
    )


def where(a: Announcement) -> str:
    """Where an announcement goes, in the GM's words (the log, the alerts)."""
    return where_to(a.destination_kind is DestinationKind.THREAD, a.destination)
