"""The poller: what the forum shows, stored as evidence (forum → store), nothing processed.

One :meth:`Poller.read` reads the game's threads (the board listing says which moved; role
threads directly), the GM's inbox, and (at most every :data:`REREAD_SPACING`) the pages that
hold the open step's ballots and actions, to see edits. Each source's posts or PMs are stored
in one transaction with its cursor, so a crash never moves a cursor past what was not stored.
What was stored is processed later, by the service, in one time-ordered stream with whatever
else is waiting (:mod:`shenshi.daemon.timeline`).

A page the adapter cannot parse becomes a GM alert naming its URL, and the other pages are
still read: one bad page never holds back the others. A failure of the forum itself (it cannot
be reached, the login is refused) ends the read with the error: the poll is then incomplete,
and the phase clock does not run past the start of the last complete one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from shenshi.adapters.errors import AnswerTooLarge, IncompletePage, UnexpectedPage
from shenshi.daemon.gameio import GameIO
from shenshi.daemon.referee import GmAlert
from shenshi.daemon.sharing import SharedReads, Unrouted
from shenshi.daemon.timeline import FORUM_CLOCK_SKEW
from shenshi.records import InboxCursor, Post, ThreadCursor, ThreadDelta
from shenshi.store.records import Evidence, EvidenceKind, RecordResult
from shenshi.store.unit_of_work import UnitOfWork

log = logging.getLogger(__name__)

INBOX = "inbox"
REREAD_SPACING = timedelta(minutes=10)  # re-reading pages for edits, at most this often
MAX_REREAD_PAGES = 5  # … and at most this many pages of a thread each time
REPLACEMENT = "\ufffd"  # what a byte the page's charset cannot decode became


def source_words(what: str) -> str:
    """A source the poller reads, in the GM's words (``thread 12`` → ``帖子 12``)."""
    kind, _, rest = what.partition(" ")
    words = {"thread": "帖子", "board": "版块", "inbox": "短消息收件箱", "conversation": "短消息对话"}
    return f"{words.get(kind, kind)} {rest}".strip()


def page_trouble(exc: UnexpectedPage) -> str:
    """Why a page could not be read, in the GM's words (details go to the log)."""
    if isinstance(exc, AnswerTooLarge):
        return "回答太大，超过了 max_answer_bytes，shenshi 没有读完它"
    if isinstance(exc, IncompletePage):
        return "页面不完整（传输中途断了），重新读了几次仍是如此"
    return "页面的结构与 shenshi 认识的不同（shenshi run -v 可看详情）"


def thread_source(tid: str) -> str:
    """The cursor name of a thread."""
    return f"thread:{tid}"


@dataclass(frozen=True)
class Edit:
    """A post seen again with another text: the first-seen version and the new one."""

    first: Post
    revision: Post
    evidence_id: int


@dataclass
class PollReport:
    """What one read of the forum stored (the status line, the tests), and the edits to show
    the GM; ``started``: when the read began (the phase clock runs to it)."""

    started: datetime
    posts: int = 0
    pms: int = 0
    revisions: int = 0
    requests: int = 0
    edits: list[Edit] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # sources a page of which could not be read

    @property
    def complete(self) -> bool:
        """Whether every source was read: only then may the phase clock run to ``started``."""
        return not self.unread


class Poller(GameIO):
    """Reads one game's threads and the GM's inbox into the store."""

    def __init__(self, *args: Any, reads: SharedReads | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.progress: Callable[[str], None] = lambda message: None
        self._last_reread: datetime | None = None
        self._unread: list[str] = []  # the current read's sources that could not be read
        # What edits mean for the GM, stored in the transaction that stores them (the service).
        self.on_edits: Callable[[UnitOfWork, list[Edit]], object] = lambda uow, edits: None
        # A PM that may be this game's or another's, stored (processed: read by no game until
        # the GM says which), with what the GM and the player are told, in the same transaction.
        self.on_unrouted: Callable[[UnitOfWork, Unrouted, int | None], object] = self._unrouted
        # The board listings and the inbox, shared with the other games on this forum account
        # (:mod:`shenshi.daemon.sharing`); a game alone has its own, and starts its rounds.
        self.own_reads = reads is None
        self.reads = reads or SharedReads(self.adapter, self.clock)
        self._fresh = False

    def read(self, watched: Collection[str] = (), *, fresh: bool = False) -> PollReport:
        """Read what changed on the forum and store it (evidence first, cursors after).

        ``watched``: evidence ids whose pages are re-read for edits (the open step's ballots
        and actions); empty outside a night or a day. ``fresh``: read the board and the inbox
        again now, whatever this round read already (looking for a message just sent).
        """
        report = PollReport(started=self.clock())
        self._unread = report.unread
        before = getattr(self.adapter, "requests", 0)
        if self.own_reads:
            self.reads.begin()
        self._fresh = fresh
        self._read_threads(report)
        self._read_inbox(report)
        if watched:
            self._reread_for_edits(watched, report)
        report.requests = getattr(self.adapter, "requests", 0) - before
        return report

    # -- threads ----------------------------------------------------------------------------------

    def _read_threads(self, report: PollReport) -> None:
        # Every thread read so far (the configured ones, and players' own analysis threads
        # found on the board), then the configured ones not read yet.
        with self.store.snapshot() as uow:
            stored_cursors = uow.evidence.cursors(self.game_id)
        cursors: dict[str, ThreadCursor] = {
            c.source.removeprefix("thread:"): ThreadCursor.from_json(c.value)
            for c in stored_cursors
            if c.source.startswith("thread:")
        }
        for tid in self.threads():
            cursors.setdefault(tid, ThreadCursor(tid, fid=self.config.game.board))
        for delta in self._poll_threads(cursors).values():
            if delta.shrunk or delta.deleted or delta.moved:
                what = "deleted" if delta.deleted else "moved" if delta.moved else "lost posts"
                key = self.keys.thread_changed(delta.tid, what, delta.cursor.floor)
                self.alert([GmAlert(key, "thread_changed", f"thread {delta.tid} {what}")])
            self.progress(f"thread {delta.tid}: {len(delta.posts)} new posts")
            with self.store.transaction() as uow:
                results = self._record_posts(uow, delta.posts, report)
                uow.evidence.set_cursor(
                    self.game_id, thread_source(delta.tid), delta.cursor.to_json()
                )
                if delta.subject:  # the title, as the console names the thread
                    uow.evidence.set_cursor(self.game_id, f"title:{delta.tid}", {"subject": delta.subject})
            report.posts += sum(result.is_new for result in results)

    def _poll_threads(self, cursors: dict[str, ThreadCursor]) -> dict[str, ThreadDelta]:
        """The changed threads; a page the adapter cannot parse becomes an alert with its URL,
        and the other threads are still read."""
        game = self.config.game
        # Werewolf 功能树洞 threads usually live on a private board: each is read directly
        # unless that board's listing shows it with the reply count its cursor has.
        private = {t for t in game.role_threads.values() if t in cursors}
        found: dict[str, ThreadDelta] = {}
        unchanged = self._unchanged_on_their_boards({tid: cursors[tid] for tid in private})
        for tid in sorted(private - unchanged):
            try:
                found[tid] = self.adapter.read_thread(tid, cursors[tid])
            except UnexpectedPage as exc:
                self.unparsable(f"thread {tid}", exc)
        on_board = {tid: c for tid, c in cursors.items() if tid not in private}
        # With no counted threads configured, every thread on the board counts (family A:
        # any post on the game board), so players' new threads are read as they appear.
        # Only this game's: a thread opened after its first configured thread (tids only grow),
        # not the old games further down the same board.
        oldest = min((int(t) for t in self.threads() if str(t).isdigit()), default=0)
        discover = None if game.counted_threads else (
            lambda row: row.tid not in game.uncounted_threads and (not row.tid.isdigit() or int(row.tid) > oldest)
        )
        try:
            listing = self._listing()
        except UnexpectedPage as exc:
            # A listing cut short (or unreadable) says nothing of which threads moved, nor of
            # new ones: the poll is incomplete (the phase clock holds), and the threads known
            # are read directly.
            self.unparsable(f"board {game.board}", exc)
            for tid, cursor in sorted(on_board.items()):
                try:
                    found[tid] = self.adapter.read_thread(tid, cursor)
                except UnexpectedPage as failure:
                    self.unparsable(f"thread {tid}", failure)
            return found
        try:
            return found | self.adapter.poll_board(game.board, on_board, discover, **listing)
        except UnexpectedPage:
            pass
        for tid, cursor in on_board.items():
            try:
                found.update(self.adapter.poll_board(game.board, {tid: cursor}, **listing))
            except UnexpectedPage as exc:
                self.unparsable(f"thread {tid}", exc)
        return found

    def _unchanged_on_their_boards(self, cursors: dict[str, ThreadCursor]) -> set[str]:
        """The threads, read before, that the listing of the board they were last read on
        shows with no new reply (one request per board and round, shared with other games). A
        thread the listing does not show, or a board that cannot be listed, is read directly."""
        boards: dict[str, list[str]] = {}
        for tid, cursor in cursors.items():
            if cursor.floor and cursor.fid:
                boards.setdefault(str(cursor.fid), []).append(tid)
        unchanged: set[str] = set()
        for fid, tids in boards.items():
            try:
                rows = self.reads.board(fid, fresh=self._fresh)
            except UnexpectedPage:
                continue  # read each thread directly, as without a listing
            listed = {row.tid: row for row in rows or ()}
            unchanged.update(t for t in tids if t in listed and not cursors[t].is_behind(listed[t]))
        return unchanged

    def _listing(self) -> dict[str, Any]:
        """The board's listing of this round (read once for every game on the board)."""
        rows = self.reads.board(self.config.game.board, fresh=self._fresh)
        return {} if rows is None else {"listing": rows}

    def threads(self) -> list[str]:
        """The game's configured threads (vote, counted, role threads, the player list, and
        the 灌水 threads: read for what players post there by mistake, a ballot above all,
        though they never count for activity)."""
        game = self.config.game
        tids = [game.vote_thread, *game.counted_threads, *game.role_threads.values()]
        if game.player_list_thread:
            tids.append(game.player_list_thread)
        counted = [t for t in tids if t not in game.uncounted_threads]
        return list(dict.fromkeys([*counted, *game.uncounted_threads]))

    # -- the inbox ---------------------------------------------------------------------------------

    def inbox_cursor(self) -> InboxCursor | None:
        """What this game stored of the GM's inbox."""
        with self.store.snapshot() as uow:
            stored = uow.evidence.cursor(self.game_id, INBOX)
        return InboxCursor.from_json(stored.value) if stored else None

    def _read_inbox(self, report: PollReport) -> None:
        """This game's share of the inbox (read once for every game of the GM account, and
        only when something may have arrived): stored with the new cursor, then marked read."""
        try:
            inbox = self.reads.inbox(
                self.game_id, lambda cursor, since: self.adapter.read_pms(cursor, since=since),
                fresh=self._fresh,
            )  # fmt: skip
        except UnexpectedPage as exc:
            self.unparsable("inbox", exc)  # the posts already read are still stored
            return
        if inbox is None:
            return  # nothing may have arrived (the board page's notice): no request
        for failure in inbox.failures:  # one conversation; the others were read
            self.unparsable(f"conversation {getattr(failure, 'url', None) or ''}".rstrip(), failure)
        self.progress(f"inbox: {len(inbox.messages)} new messages")
        with self.store.transaction() as uow:
            results = uow.evidence.record(
                self.game_id, [(pm, self.adapter.pm_url(pm)) for pm in inbox.messages]
            )
            kept = [u for u in inbox.ambiguous if u.seated]  # a stranger's is no game's to count
            doubtful = uow.evidence.record(self.game_id, [(u.pm, self.adapter.pm_url(u.pm)) for u in kept])
            for unrouted, result in zip(kept, doubtful, strict=True):
                if result.is_new:
                    self.on_unrouted(uow, unrouted, result.evidence.id)
            for unrouted in inbox.ambiguous:
                if not unrouted.seated:
                    self.on_unrouted(uow, unrouted, None)
            uow.evidence.set_cursor(self.game_id, INBOX, inbox.cursor.to_json())
        for result in results:
            if result.is_new:
                report.pms += 1
        self.reads.stored(self.game_id)  # marked read once every game stored its share

    def _unrouted(self, uow: UnitOfWork, unrouted: Unrouted, evidence_id: int | None) -> None:
        """The PM kept aside (``evidence_id``, processed: no game reads it) and the GM told, in
        ``uow`` (the service's hook also tells the player how to name the game, and offers the
        fix)."""
        if evidence_id is not None:
            uow.evidence.mark_processed(evidence_id)
        pm = unrouted.pm
        message = (
            f"{pm.sender} 的私信（{pm.sent_at.astimezone(self.config.forum.tz):%Y-%m-%d %H:%M}）"
            f"可能属于这几局中的任何一局：{'、'.join(unrouted.games)}；shenshi 没有计入任何一局，请人工处理"
            f"（{self.adapter.pm_url(pm)}）：{pm.text[:80]}"
        )
        uow.alerts.add(self.game_id, self.keys.pm_game(pm.id), "pm_game_unknown", message)

    # -- edits -------------------------------------------------------------------------------------

    def _reread_for_edits(self, watched: Collection[str], report: PollReport) -> None:
        """Edits change no reply count, so a thread poll never sees them: re-read the pages that
        hold the open step's ballots and tree-hole submissions (at most every
        :data:`REREAD_SPACING`), so that an edited vote or action reaches the GM. The
        first-seen text still counts."""
        now = self.clock()
        pages_of = getattr(self.adapter, "pages_of", None)
        if not watched or pages_of is None:
            return
        if self._last_reread is not None and now - self._last_reread < REREAD_SPACING:
            return
        self._last_reread = now
        pages: dict[str, set[int]] = {}
        seen_to: dict[str, int] = {}
        with self.store.snapshot() as uow:
            for ident in watched:
                if not ident or not str(ident).isdigit():
                    continue
                evidence = uow.evidence.get(int(ident))
                if evidence.kind is EvidenceKind.POST and evidence.floor:
                    pages.setdefault(evidence.source, set()).update(
                        pages_of(evidence.floor, evidence.floor)
                    )
            for tid in pages:
                stored = uow.evidence.cursor(self.game_id, thread_source(tid))
                seen_to[tid] = ThreadCursor.from_json(stored.value).floor if stored else 0
        for tid, numbers in pages.items():
            try:
                reread = self.adapter.reread_pages(tid, sorted(numbers)[-MAX_REREAD_PAGES:])
            except UnexpectedPage as exc:
                self.unparsable(f"thread {tid}", exc, incomplete=False)
                continue
            for page in reread:
                known = [
                    p for p in page.posts if p.floor <= seen_to[tid]
                ]  # new posts: the next poll's
                with self.store.transaction() as uow:
                    self._record_posts(uow, known, report)

    def _record_posts(
        self, uow: UnitOfWork, posts: list[Post], report: PollReport
    ) -> list[RecordResult]:
        """Store posts (new ones, and revisions of those seen before) in ``uow``; what the
        edits mean for the GM (``on_edits``: the service asks the referee) is stored in the
        same transaction, so that a crash never keeps a revision and loses its alert."""
        results = uow.evidence.record(self.game_id, [(p, self.post_url(p)) for p in posts])
        edits = [
            Edit(result.evidence.as_post(), post, result.evidence.id)
            for post, result in zip(posts, results, strict=True)
            if result.changed
        ]
        if edits:
            self.on_edits(uow, edits)
        report.revisions += len(edits)
        report.edits += edits
        return results

    # -- alerts and links --------------------------------------------------------------------------

    def unparsable(self, what: str, exc: UnexpectedPage, *, incomplete: bool = True) -> None:
        """A page the adapter could not read: a GM alert (one an hour) with its URL. What it
        held is unknown, so the read is ``incomplete`` (unless it was only re-read for edits)."""
        if incomplete:
            self._unread.append(what)
        stamp = self.clock().strftime("%Y%m%d%H")
        message = f"{source_words(what)}：shenshi 读不了这一页（{exc.url or '没有网址'}）：{page_trouble(exc)}"
        if incomplete:
            message += "；读不到这一页时，阶段时钟停在上一次完整读取论坛的时间（不会在没读到的帖子和私信之前截止）"
        self.alert([GmAlert(self.keys.unparsable(what, stamp), "unparsable_page", message)])
        log.warning("%s: a page shenshi cannot read (%s): %s", what, exc.url or "no URL", exc)

    def notes(self, evidence: Evidence) -> list[GmAlert]:
        """What the GM must be told of a stored post or PM whatever it says: bytes its page's
        charset could not decode (a name may be among them), a forum time well after the
        daemon first had it in hand (the forum's clock jumped: the phase clock is not run past
        when the daemon saw it, :func:`~shenshi.daemon.timeline.moment_of`). The service
        commits them with the item's processed mark, so that a crash loses none."""
        where = evidence.url or f"evidence {evidence.id}"
        ident = str(evidence.id)
        out = []
        if REPLACEMENT in evidence.text:
            message = f"{where}: 有无法按网页编码解码的字节（显示为 {REPLACEMENT}），请核对原文"
            out.append(GmAlert(self.keys.undecodable(ident), "undecodable_bytes", message, evidence=ident))
        seen = evidence.first_seen_at
        if seen is not None and evidence.posted_at - seen > FORUM_CLOCK_SKEW:
            tz = self.config.forum.tz
            message = (
                f"{where}: 论坛显示的时间 {evidence.posted_at.astimezone(tz):%m-%d %H:%M:%S} 晚于 shenshi "
                f"读到它的时间 {seen.astimezone(tz):%m-%d %H:%M:%S}：论坛服务器的时钟快了或跳变了。"
                "阶段时钟不会因此提前；请核对论坛时间，必要时更正（shenshi override）"
            )
            out.append(GmAlert(self.keys.clock_ahead(ident), "forum_clock_ahead", message, evidence=ident))
        return out

    def post_url(self, post: Post) -> str | None:
        """The link of a post (for the evidence and the log)."""
        return self.adapter.post_url(post.tid, post.pid)
