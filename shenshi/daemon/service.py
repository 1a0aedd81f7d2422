"""The game service: the shell around the referee (forum, store, outbox, dry-run log).

One :class:`GameService` runs one game. Each poll reads what changed on the forum, stores it as
evidence first, then lets the referee turn it into events and proposals, and commits both in one
transaction together with the "processed" mark, so that a crash at any point loses nothing and
repeats nothing. ``tick`` runs the phase clock; ``publish`` sends what the mode allows.

Map::

    start()      load or create the game, replay the events, re-run unprocessed evidence
    poll()       board → threads → posts; inbox → PMs (cursors stored after the evidence)
    tick()       deadlines, resolutions, phase openings (published announcements gate them)
    publish()    review/live: send approved announcements, paced; never twice after a crash
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from shenshi.adapters.base import ForumAdapter
from shenshi.adapters.errors import FloodControl, ForumError, UnexpectedPage
from shenshi.config import Config
from shenshi.daemon import keys
from shenshi.daemon.activity import lurking, missed_sign_in
from shenshi.daemon.announce import CAMP, Draft, Templates, kind_words
from shenshi.daemon.by_hand import OutboxWatch, recognise_sent_pm
from shenshi.daemon.deal import Dealt, deal_roles, new_seed, partners
from shenshi.daemon.drylog import DryRunLog, LogEntry, where_to
from shenshi.daemon.gm_text import hint
from shenshi.daemon.links import EvidenceLink, evidence_links
from shenshi.daemon.referee import Clockwork, Effects, GmAlert, PostCounts, Referee, Wants
from shenshi.errors import UserError
from shenshi.records import InboxCursor, Post, PrivateMessage, ThreadCursor, ThreadDelta
from shenshi.rulesets.base import Command, Phase, PlayerSpec, Substitute
from shenshi.rulesets.registry import find_ruleset
from shenshi.store import codec
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import Announcement, DestinationKind, EvidenceKind
from shenshi.store.unit_of_work import Store, UnitOfWork

log = logging.getLogger(__name__)

INBOX = "inbox"
REREAD_SPACING = timedelta(minutes=10)  # re-reading pages for edits, at most this often
MAX_REREAD_PAGES = 5  # … and at most this many pages of a thread each time


def thread_source(tid: str) -> str:
    """The cursor name of a thread."""
    return f"thread:{tid}"


@dataclass(frozen=True)
class PollReport:
    """What one poll did (for the status line and the tests)."""

    posts: int = 0
    pms: int = 0
    revisions: int = 0
    requests: int = 0


@dataclass(frozen=True)
class StatusReport:
    """What ``shenshi status`` shows (roles and night actions included: it is for the GM)."""

    game: str
    ruleset: str
    mode: str
    phase: str
    number: int
    round: int
    deadline: datetime | None
    winner: str | None
    living: tuple[str, ...]
    dead: tuple[str, ...]
    ballots: tuple[tuple[str, str], ...]
    pending: tuple[tuple[str, str, str | None], ...]  # (actor, action, target)
    proposed: int
    alerts: tuple[str, ...]
    activity: tuple[tuple[str, int, datetime | None], ...]  # (name, posts in 24 h, last post)


class GameService:
    """Runs one game beside the forum."""

    def __init__(
        self,
        config: Config,
        store: Store,
        adapter: ForumAdapter | None,
        clock: Callable[[], datetime],
        *,
        drylog: DryRunLog | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.adapter = adapter
        self.clock = clock
        self.drylog = drylog or DryRunLog(config.daemon.log, config.forum.tz)
        self.sleep = sleep
        self.ruleset = find_ruleset(config.game.ruleset)
        self.templates = Templates(config.templates)
        self.game_id = 0
        self.referee: Referee | None = None
        self._last_sent: datetime | None = None
        self._last_reread: datetime | None = None
        self.progress: Callable[[str], None] = lambda message: None  # e.g. a spinner's text
        self.outbox_watch = OutboxWatch(clock)  # dry-run: PMs the GM sent by hand

    # -- start-up ------------------------------------------------------------------------------

    def start(self) -> Referee:
        """Load (or create) the game, rebuild its state, and finish any interrupted work."""
        with self.store.snapshot() as uow:
            game = uow.games.find(self.config.game.name)
        if game is None:
            game = self._create_game()
        self.game_id = game.id
        # The game starts from each seat's first holder; substitutions are replayed as events.
        with self.store.snapshot() as uow:
            players = uow.games.players(self.game_id, current_only=False)
        first: dict[int, object] = {}
        for p in sorted(players, key=lambda p: (p.seat, p.joined_at, p.id)):
            first.setdefault(p.seat, p)
        specs = [PlayerSpec(p.name, p.role, p.team, True, tuple(p.addons)) for _, p in sorted(first.items())]
        state = self.ruleset.new_game(specs, self.config.game.rules)
        referee = Referee(
            self.ruleset, self.config.game, state,
            game_key=keys.game_key(self.game_id), templates=self.templates,
            uids={p.name: p.uid for p in players if p.uid}, gm_name=self.config.forum.username,
            gm_uid=getattr(self.adapter, "own_uid", None), tz=self.config.forum.tz,
            early_close=self.config.daemon.early_close,
        )  # fmt: skip
        referee.replay(codec.decode(e.payload) for e in self.store.stream_events(self.game_id))
        referee.learn(self._clockwork(referee.wants(self.clock())).published)
        with self.store.snapshot() as uow:
            waiting = uow.outbox.announcements(self.game_id, [AnnouncementState.PROPOSED, AnnouncementState.APPROVED])
        for a in waiting:
            if a.destination_kind is DestinationKind.THREAD and a.published_at is None:
                referee.pending_public[a.key] = a.text
        self.referee = referee
        self._reprocess()
        return referee

    def _create_game(self):
        cfg = self.config.game
        info = self.ruleset.info
        missing = [p.name for p in cfg.players if not p.role]
        if missing:
            raise UserError(
                f"players without a role: {', '.join(missing)} (give roles, or run `shenshi deal`)"
            )
        uids: dict[str, str | None] = {}
        for p in cfg.players:
            uids[p.name] = p.uid
            if p.uid is None and self.adapter is not None:
                try:
                    uids[p.name] = self.adapter.lookup_uid(p.name)
                except ForumError as exc:
                    log.warning("could not look up the uid of %s: %s", p.name, exc)
        with self.store.transaction() as uow:
            game = uow.games.create(cfg.name, cfg.ruleset, {"board": cfg.board, "vote_thread": cfg.vote_thread})
            for seat, p in enumerate(cfg.players):
                team = p.team or info.roles[p.role].team
                uow.games.add_player(game.id, seat, p.name, p.role, team, uid=uids[p.name], addons=p.addons)
        return game

    def _reprocess(self) -> None:
        """Evidence stored before a crash but never processed goes through intake now."""
        items: list[tuple[datetime, int, Post | PrivateMessage]] = []
        for evidence in self.store.stream_evidence(self.game_id, unprocessed=True):
            record = evidence.as_post() if evidence.kind is EvidenceKind.POST else evidence.as_pm()
            at = record.posted_at if isinstance(record, Post) else record.sent_at
            items.append((at, evidence.id, record))
        self._process_in_order(items)

    # -- polling --------------------------------------------------------------------------------

    def poll(self) -> PollReport:
        """Read what changed on the forum and process it (evidence first, then events).

        Everything new is stored before anything is processed; then posts and PMs go through
        intake in the order they were written, the phase clock caught up to each one first
        (a PM written after the dawn post belongs to the day, even if this poll is the first
        to see both).
        """
        assert self.adapter is not None, "poll needs a forum adapter"
        before = getattr(self.adapter, "requests", 0)
        posts = pms = revisions = 0
        game = self.config.game
        # Every thread read so far (the configured ones, and players' own analysis threads
        # found on the board), then the configured ones not read yet.
        with self.store.snapshot() as uow:
            stored_cursors = uow.evidence.cursors(self.game_id)
        cursors: dict[str, ThreadCursor] = {
            c.source.removeprefix("thread:"): ThreadCursor.from_json(c.value)
            for c in stored_cursors
            if c.source.startswith("thread:")
        }
        for tid in self._threads():
            cursors.setdefault(tid, ThreadCursor(tid, fid=game.board))
        new: list[tuple[datetime, int, Post | PrivateMessage]] = []
        edits: list[tuple[Post, Post, int]] = []
        for delta in self._poll_threads(cursors).values():
            if delta.shrunk or delta.deleted or delta.moved:
                what = "deleted" if delta.deleted else "moved" if delta.moved else "lost posts"
                self._alerts([GmAlert(self.referee.keys.thread_changed(delta.tid, what, delta.cursor.floor),
                                      "thread_changed", f"thread {delta.tid} {what}")])  # fmt: skip
            self.progress(f"thread {delta.tid}: {len(delta.posts)} new posts")
            with self.store.transaction() as uow:
                results = uow.evidence.record(self.game_id, [(p, self._url_post(p)) for p in delta.posts])
                uow.evidence.set_cursor(self.game_id, thread_source(delta.tid), delta.cursor.to_json())
            for post, result in zip(delta.posts, results, strict=True):
                if result.is_new:
                    posts += 1
                    new.append((post.posted_at, result.evidence.id, post))
                elif result.changed:
                    revisions += 1
                    edits.append((result.evidence.as_post(), post, result.evidence.id))
        with self.store.snapshot() as uow:
            stored = uow.evidence.cursor(self.game_id, INBOX)
        try:
            inbox = self.adapter.read_pms(InboxCursor.from_json(stored.value) if stored else None, since=game.start)
        except UnexpectedPage as exc:
            self._unparsable("inbox", exc)  # the posts already read are still processed
            inbox = None
        if inbox is not None:
            for failure in inbox.failures:  # one conversation; the others were read
                self._unparsable(f"conversation {getattr(failure, 'url', None) or ''}".rstrip(), failure)
            self.progress(f"inbox: {len(inbox.messages)} new messages")
            with self.store.transaction() as uow:
                results = uow.evidence.record(self.game_id, [(pm, self.adapter.pm_url(pm)) for pm in inbox.messages])
                uow.evidence.set_cursor(self.game_id, INBOX, inbox.cursor.to_json())
            for pm, result in zip(inbox.messages, results, strict=True):
                if result.is_new:
                    pms += 1
                    new.append((pm.sent_at, result.evidence.id, pm))
            if inbox.unread:
                self.adapter.mark_read(inbox.unread)  # only after storing
        self._process_in_order(new)
        for first, revision, evidence_id in edits:
            self._process_edit(first, revision, evidence_id)
        revisions += self._reread_for_edits()
        find_sent_pm = getattr(self.adapter, "find_sent_pm", None)
        if self.config.daemon.mode == "dry-run" and find_sent_pm and not getattr(self.adapter, "inbox_lists_sent", False):
            self.outbox_watch.look(self.store, self.game_id, find_sent_pm)
        return PollReport(posts, pms, revisions, getattr(self.adapter, "requests", 0) - before)

    def _reread_for_edits(self) -> int:
        """Edits change no reply count, so a thread poll never sees them: re-read the pages that
        hold the open step's ballots and tree-hole submissions (at most every
        :data:`REREAD_SPACING`), so that an edited vote or action reaches the GM. The
        first-seen text still counts."""
        now = self.clock()
        pages_of = getattr(self.adapter, "pages_of", None)
        idents = self.referee.watched()  # after an early close too, until the next step
        if not idents or pages_of is None:
            return 0
        if self._last_reread is not None and now - self._last_reread < REREAD_SPACING:
            return 0
        self._last_reread = now
        pages: dict[str, set[int]] = {}
        seen_to: dict[str, int] = {}
        with self.store.snapshot() as uow:
            for ident in idents:
                if not ident or not str(ident).isdigit():
                    continue
                evidence = uow.evidence.get(int(ident))
                if evidence.kind is EvidenceKind.POST and evidence.floor:
                    pages.setdefault(evidence.source, set()).update(pages_of(evidence.floor, evidence.floor))
            for tid in pages:
                stored = uow.evidence.cursor(self.game_id, thread_source(tid))
                seen_to[tid] = ThreadCursor.from_json(stored.value).floor if stored else 0
        revisions = 0
        for tid, numbers in pages.items():
            try:
                reread = self.adapter.reread_pages(tid, sorted(numbers)[-MAX_REREAD_PAGES:])
            except UnexpectedPage as exc:
                self._unparsable(f"thread {tid}", exc)
                continue
            for page in reread:
                known = [p for p in page.posts if p.floor <= seen_to[tid]]  # new posts: the next poll's
                with self.store.transaction() as uow:
                    results = uow.evidence.record(self.game_id, [(p, self._url_post(p)) for p in known])
                for post, result in zip(known, results, strict=True):
                    if result.changed:
                        revisions += 1
                        self._process_edit(result.evidence.as_post(), post, result.evidence.id)
        return revisions

    def _process_in_order(self, items: Iterable[tuple[datetime, int, Post | PrivateMessage]]) -> None:
        """Intake in the order things were written, the phase clock caught up to each."""
        for at, evidence_id, record in sorted(items, key=lambda item: (item[0], item[1])):
            self._catch_up(at)
            if isinstance(record, Post):
                self._process_post(record, evidence_id)
            else:
                self._process_pm(record, evidence_id)

    def _poll_threads(self, cursors: dict[str, ThreadCursor]) -> dict[str, ThreadDelta]:
        """The changed threads; a page the adapter cannot parse becomes an alert with its URL,
        and the other threads are still read."""
        board = self.config.game.board
        # Werewolf 功能树洞 threads usually live on a private board: read them directly.
        private = {t for t in self.config.game.role_threads.values() if t in cursors}
        found: dict[str, ThreadDelta] = {}
        for tid in sorted(private):
            try:
                found[tid] = self.adapter.read_thread(tid, cursors[tid])
            except UnexpectedPage as exc:
                self._unparsable(f"thread {tid}", exc)
        on_board = {tid: c for tid, c in cursors.items() if tid not in private}
        game = self.config.game
        # With no counted threads configured, every thread on the board counts (family A:
        # any post on the game board), so players' new threads are read as they appear.
        # Only this game's: a thread opened after its first configured thread (tids only grow),
        # not the old games further down the same board.
        oldest = min((int(t) for t in self._threads() if str(t).isdigit()), default=0)
        discover = None if game.counted_threads else (
            lambda row: row.tid not in game.uncounted_threads and (not row.tid.isdigit() or int(row.tid) > oldest)
        )
        try:
            return found | self.adapter.poll_board(board, on_board, discover)
        except UnexpectedPage:
            pass
        for tid, cursor in on_board.items():
            try:
                found.update(self.adapter.poll_board(board, {tid: cursor}))
            except UnexpectedPage as exc:
                self._unparsable(f"thread {tid}", exc)
        return found

    def _unparsable(self, what: str, exc: UnexpectedPage) -> None:
        stamp = self.clock().strftime("%Y%m%d%H")
        message = f"{what}: a page shenshi cannot read ({exc.url or 'no URL'}): {exc}"
        self._alerts([GmAlert(self.referee.keys.unparsable(what, stamp), "unparsable_page", message)])
        log.warning("%s", message)

    def _threads(self) -> list[str]:
        game = self.config.game
        tids = [game.vote_thread, *game.counted_threads, *game.role_threads.values()]
        if game.player_list_thread:
            tids.append(game.player_list_thread)
        return list(dict.fromkeys(t for t in tids if t not in game.uncounted_threads))

    def _url_post(self, post: Post) -> str | None:
        return self.adapter.post_url(post.tid, post.pid) if self.adapter is not None else None

    def _evidence_links(self, ids: Iterable[str]) -> tuple[EvidenceLink, ...]:
        """The posts and PMs behind an announcement or alert, labelled (for the log)."""
        return evidence_links(self.store, self.game_id, ids)

    def _process_post(self, post: Post, evidence_id: int) -> None:
        outcome = self.referee.read_post(post, str(evidence_id))
        self._commit(outcome, keys.evidence_batch(evidence_id), evidence_id)
        for key, at in outcome.published:
            self._mark_published(key, at, post.pid)

    def _process_pm(self, pm: PrivateMessage, evidence_id: int) -> None:
        if pm.sender_uid == getattr(self.adapter, "own_uid", None) or pm.sender == self.config.forum.username:
            recognise_sent_pm(self.store, self.game_id, pm)  # a PM the GM sent by hand
        self._commit(self.referee.read_pm(pm, str(evidence_id)), keys.evidence_batch(evidence_id), evidence_id)

    def _process_edit(self, first: Post, revision: Post, evidence_id: int) -> None:
        outcome = self.referee.read_edit(first, revision, str(evidence_id))
        self._alerts(outcome.alerts)

    # -- the clock ---------------------------------------------------------------------------------

    def tick(self) -> Effects:
        """Run the phase clock at the current time, then the sign-in and lurking checks."""
        now = self.clock()
        outcome = self._run_clock(now)
        outcome.extend(self._absences(now))
        self._commit_tick(outcome)
        return outcome

    def _catch_up(self, now: datetime) -> Effects:
        """Run the phase clock up to ``now``: the time of a post or PM about to be read."""
        outcome = self._run_clock(now)
        self._commit_tick(outcome)
        return outcome

    def _run_clock(self, now: datetime) -> Effects:
        """The referee's clock at ``now``, told what it asks for; asked again while a move
        makes it want something new (a round that opened and closes at once needs counts)."""
        outcome = Effects()
        asked: Wants | None = None
        for _ in range(4):
            wants = self.referee.wants(now)
            if wants == asked:
                break
            asked = wants
            outcome.extend(self.referee.tick(now, self._clockwork(wants)))
        return outcome

    def _clockwork(self, wants: Wants) -> Clockwork:
        """The publication times and post counts the referee asked for, from the store."""
        published = {key: at for key in wants.announcements if (at := self._published_at(key))}
        counts = self._activity(*wants.activity) if wants.activity else {}
        return Clockwork(published, PostCounts(wants.activity, counts))

    def _commit_tick(self, outcome: Effects) -> None:
        if outcome.events or outcome.drafts or outcome.alerts:
            self._commit(outcome, keys.tick_batch(self._last_seq()), None)

    def _absences(self, now: datetime) -> Effects:
        """Missed sign-ins and lurkers (family A: 24 h, 48 h) become proposals for the GM to
        confirm, where the ruleset has these rules."""
        state = self.referee.state
        rules = self.referee.profile.clock
        start = self.config.game.start
        if state.phase is Phase.OVER or now < start or not (rules.lurking or rules.sign_in):
            return Effects()
        living = [s.name for s in state.alive()]
        signin_thread = self.config.game.player_list_thread or self.config.game.vote_thread
        signed_in = rules.sign_in is not None and now >= start + rules.sign_in
        with self.store.snapshot() as uow:
            names = {p.uid: p.name for p in uow.games.players(self.game_id) if p.uid}
            board = uow.evidence.activity(self.game_id, start, now, exclude_sources=list(self.config.game.uncounted_threads))
            if signed_in:
                replies = uow.evidence.activity(self.game_id, start, start + rules.sign_in, sources=[signin_thread])
        last = {names.get(a.author_uid, a.author): a.last_at for a in board}
        absent = lurking(rules, living, start, now, last)
        if signed_in:
            signed = {names.get(a.author_uid, a.author): a.first_at for a in replies}
            absent = missed_sign_in(rules, living, start, signed) + absent
        out = Effects()
        for a in absent:
            stamp = a.since.astimezone(self.config.forum.tz).strftime("%Y%m%d%H%M")
            key = self.referee.keys.absence(a.kind, a.name, stamp)
            text = self.templates.render("signin_missed" if a.kind == "signin" else "lurking", name=a.name)
            out.drafts.append(Draft(key, a.kind, "thread", self.config.game.vote_thread, text))
            out.alerts.append(GmAlert(key, a.kind, text, a.name))  # the next command: gm_text.hint
        return out

    def _published_at(self, key: str) -> datetime | None:
        with self.store.snapshot() as uow:
            a = uow.outbox.by_key(self.game_id, key)
        if a is None:
            return None
        return a.published_at or a.sent_at

    def _activity(self, start: datetime, end: datetime) -> dict[str, int]:
        game = self.config.game
        with self.store.snapshot() as uow:
            rows = uow.evidence.activity(
                self.game_id, start, end,
                sources=list(game.counted_threads) or None, exclude_sources=list(game.uncounted_threads),
            )  # fmt: skip
            by_uid = {p.uid: p.name for p in uow.games.players(self.game_id) if p.uid}
        return {by_uid.get(r.author_uid, r.author): r.posts for r in rows}

    # -- committing an outcome ------------------------------------------------------------------

    def _commit(
        self,
        outcome: Effects,
        batch_key: str,
        evidence_id: int | None,
        also: Callable[[UnitOfWork], object] | None = None,
    ) -> None:
        """Store what one input produced in one transaction: the events (idempotent under
        ``batch_key``), the proposals and alerts (idempotent by their keys), for evidence the
        processed mark, what ``also`` writes (a substitute's row in the players table), and
        the players table brought in step with the new state. A crash or an error leaves all
        of it or none of it."""
        with self.store.transaction() as uow:
            uow.events.append(self.game_id, [codec.encode(e) for e in outcome.events], evidence_id, key=batch_key)
            for draft in outcome.drafts:
                uow.outbox.propose(self.game_id, **_draft_row(draft))
            for alert in outcome.alerts:
                uow.alerts.add(self.game_id, **_alert_row(alert))
            if evidence_id is not None:
                uow.evidence.mark_processed(evidence_id)
            if also is not None:
                also(uow)
            if outcome.events:
                self._sync_players(uow)
        if outcome.events and self.referee is not None:
            self.drylog.phases(self.clock(), outcome.events, self.referee.state)
        for draft in outcome.drafts:
            self._log_draft(draft)
        for alert in outcome.alerts:
            self._log_alert(alert)

    def _sync_players(self, uow: UnitOfWork) -> None:
        """Keep the players table (alive, team, add-ons) in step with the replayed state."""
        current = {p.name: p for p in uow.games.players(self.game_id)}
        for seat in self.referee.state.seats:
            row = current.get(seat.name)
            if row is None:
                continue  # a substitute not yet recorded by `shenshi substitute`
            if (row.alive, row.team, tuple(row.addons)) != (seat.alive, seat.team, tuple(sorted(seat.addons))):
                uow.games.update_player(
                    self.game_id, seat.name, alive=seat.alive, team=seat.team, addons=sorted(seat.addons)
                )

    def _alerts(self, alerts: Iterable[GmAlert]) -> None:
        for a in alerts:
            with self.store.transaction() as uow:
                _, created = uow.alerts.add(self.game_id, a.key, a.kind, a.message, subject=a.subject)
            if created:
                self._log_alert(a)

    def _last_seq(self) -> int:
        with self.store.snapshot() as uow:
            return uow.events.last_seq(self.game_id)

    def _log_draft(self, d: Draft) -> None:
        where = where_to(d.channel == "thread", d.destination)
        with self.store.snapshot() as uow:
            stored = uow.outbox.by_key(self.game_id, d.key)
        ident = str(stored.id) if stored else ""
        self.drylog.write(
            LogEntry(self.clock(), d.kind, where, d.text, "proposed", ident, self._evidence_links(d.evidence),
                     title=kind_words(self.templates, d.kind, d.key))  # fmt: skip
        )

    def _log_alert(self, a: GmAlert) -> None:
        evidence = self._evidence_links((a.evidence,) if a.evidence else ())
        with self.store.snapshot() as uow:
            stored = uow.alerts.by_key(self.game_id, a.key)
        ident = str(stored.id) if stored else ""
        self.drylog.write(LogEntry(self.clock(), a.kind, "天神", a.message, "alert", ident, evidence,
                                   alert=True, hint=hint(a.kind, a.subject)))  # fmt: skip

    def _mark_published(self, key: str, at: datetime, forum_id: str | None) -> None:
        with self.store.transaction() as uow:
            a = uow.outbox.by_key(self.game_id, key)
            if a is None or a.published_at is not None or a.sent_at is not None:
                return
            uow.outbox.mark_published(a.id, at, forum_id=forum_id)
        self.referee.pending_public.pop(key, None)

    def close(self) -> None:
        """Release the forum connections and the database."""
        if self.adapter is not None and hasattr(self.adapter, "close"):
            self.adapter.close()
        self.store.close()

    # -- status and GM corrections ----------------------------------------------------------------

    def next_deadline(self) -> datetime | None:
        """The next time the phase clock has something to do (the referee's deadlines: night
        phases, the vote's opening and close, a held dawn post…; None when nothing is due)."""
        return self.referee.next_deadline(self.clock()) if self.referee else None

    def status(self) -> StatusReport:
        """The game at a glance."""
        state = self.referee.state
        now = self.clock()
        counts = self._activity(now - timedelta(hours=24), now)
        with self.store.snapshot() as uow:
            names = {p.uid: p.name for p in uow.games.players(self.game_id) if p.uid}
            month = uow.evidence.activity(self.game_id, now - timedelta(days=60), now)
            proposed = uow.outbox.announcements(self.game_id, [AnnouncementState.PROPOSED])
            alerts = uow.alerts.raised(self.game_id, open_only=True)
        last = {names.get(a.author_uid, a.author): a.last_at for a in month}
        return StatusReport(
            game=self.config.game.name,
            ruleset=state.ruleset,
            mode=self.config.daemon.mode,
            phase=state.phase.value,
            number=state.number,
            round=state.round,
            deadline=self.next_deadline(),
            winner=state.winner,
            living=tuple(s.name for s in state.alive()),
            dead=tuple(s.name for s in state.seats if not s.alive),
            ballots=tuple((b.voter, b.target) for b in state.ballots if b.round == state.round),
            pending=tuple((s.actor, s.action, s.target) for s in state.submissions),
            proposed=len(proposed),
            alerts=tuple(f"#{a.id} {a.kind}: {a.message}" for a in alerts),
            activity=tuple((s.name, counts.get(s.name, 0), last.get(s.name)) for s in state.alive()),
        )

    def gm(self, command: Command, also: Callable[[UnitOfWork], object] | None = None) -> Effects:
        """A GM correction: an event like any other, with what it changes proposed, stored in
        one transaction with what ``also`` writes. If storing fails, the state is as before."""
        before = self.referee.state
        events = self.referee.apply(command)  # IllegalActionError: nothing stored
        outcome = Effects(events=events, drafts=self.referee.drafts_for(events, before))
        try:
            self._commit(outcome, keys.gm_batch(self._last_seq(), type(command).__name__), None, also)
        except BaseException:
            self.referee.state = before
            raise
        return outcome

    def substitute(self, old: str, new: str, uid: str | None = None) -> Effects:
        """替补: ``new`` takes over ``old``'s seat (now, or when the open step resolves). The
        events and the players table change in one transaction: both or neither."""
        if uid is None and self.adapter is not None:
            uid = self.adapter.lookup_uid(new)  # before the transaction: no request holds it
        outcome = self.gm(
            Substitute(old, new), also=lambda uow: uow.games.substitute(self.game_id, old, new, uid=uid)
        )
        if uid:
            self.referee.uids[new] = uid
        return outcome

    def replay_differences(self) -> list[str]:
        """Where the replayed state and the players table disagree (empty: none)."""
        state = self.referee.state
        with self.store.snapshot() as uow:
            stored = {p.seat: p for p in uow.games.players(self.game_id)}
        out = []
        for seat in state.seats:
            row = stored.get(seat.number)
            if row is None:
                out.append(f"seat {seat.number} ({seat.name}) is missing from the players table")
                continue
            if row.name != seat.name and not state.pending_substitutions:
                out.append(f"seat {seat.number}: events say {seat.name}, the table says {row.name}")
            if row.alive != seat.alive:
                word = "alive" if seat.alive else "dead"
                out.append(f"{seat.name}: events say {word}, the table says {'alive' if row.alive else 'dead'}")
        return out

    def deal(self, seed: str | None = None) -> list[Dealt]:
        """Deal the roles at random (seeded), create the game with them, propose role PMs."""
        cfg = self.config.game
        with self.store.snapshot() as uow:
            exists = uow.games.find(cfg.name) is not None
        if exists:
            raise UserError(f"the game {cfg.name!r} already exists: roles cannot be dealt again")
        info = self.ruleset.info
        seed = seed or new_seed()
        composition = cfg.rules.get("composition")
        dealt = deal_roles(info, [p.name for p in cfg.players], seed, composition)
        roles = {d.name: d for d in dealt}
        players = tuple(replace(p, role=roles[p.name].role, team=roles[p.name].team) for p in cfg.players)
        self.config = replace(self.config, game=replace(cfg, players=players))
        game = self._create_game()
        with self.store.transaction() as uow:
            uow.games.set_deal(game.id, seed, [d.__dict__ for d in dealt])
        self.game_id = game.id
        known = partners(dealt, info)
        drafts = []
        for d in dealt:
            text = self.templates.render(
                "role", game=cfg.name, role=info.roles[d.role].chinese, team=CAMP.get(d.team, d.team)
            )
            if known.get(d.name):
                text += "\n" + self.templates.render("partners", names="、".join(known[d.name]))
            drafts.append(Draft(keys.GameKeys(keys.game_key(game.id)).role(d.name), "role", "pm", d.name, text))
        self._commit(Effects(drafts=drafts), keys.deal_batch(game.id), None)
        return dealt

    # -- publishing -------------------------------------------------------------------------------

    def publish(self) -> int:
        """Send what the mode allows (review: approved; live: everything proposed). Returns sent."""
        mode = self.config.daemon.mode
        if mode == "dry-run" or self.adapter is None:
            return 0
        with self.store.transaction() as uow:
            if mode == "live":
                for a in uow.outbox.announcements(self.game_id, [AnnouncementState.PROPOSED]):
                    uow.outbox.approve(a.id)
            pending = uow.outbox.announcements(
                self.game_id, [AnnouncementState.APPROVED, AnnouncementState.SENDING, AnnouncementState.FAILED]
            )
        sent = 0
        for a in pending:
            if self._send(a):
                sent += 1
        return sent

    def _send(self, a: Announcement) -> bool:
        if a.state is AnnouncementState.SENDING and self._already_on_forum(a):
            return True  # a crash came between sending and recording: never post twice
        self._pace()
        with self.store.transaction() as uow:
            a = uow.outbox.mark_sending(a.id)
        try:
            if a.destination_kind is DestinationKind.THREAD:
                padded = self.adapter.fit_min_length(a.text, self.templates.render("padding"))
                forum_id = self.adapter.post_reply(a.destination, padded)
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
        self.referee.pending_public.pop(a.key, None)
        where = where_to(a.destination_kind is DestinationKind.THREAD, a.destination)
        self.drylog.write(LogEntry(now, a.kind, where, a.text, "sent", str(a.id), title=kind_words(self.templates, a.kind, a.key)))
        return True

    def _already_on_forum(self, a: Announcement) -> bool:
        """After a crash mid-send: did the forum get it? A poll records what the forum shows,
        our own posts (and our own PMs, where the engine lists them) included; look there for
        our message with this text to this thread or player that is not already the record of
        another announcement (the same answer may go to the same player twice in a game)."""
        self.poll()  # also processes what else is new, in order
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
            if _same_text(e.text, a.text):
                with self.store.transaction() as uow:
                    uow.outbox.mark_sent(a.id, e.forum_id, at=e.posted_at)
                self.referee.pending_public.pop(a.key, None)
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


def _same_text(a: str, b: str) -> bool:
    return "".join(a.split()) == "".join(b.split())


def _draft_row(d: Draft) -> dict:
    return {
        "key": d.key, "kind": d.kind,
        "destination_kind": "thread" if d.channel == "thread" else "user",
        "destination": d.destination, "text": d.text,
        "evidence_ids": [int(e) for e in d.evidence if str(e).isdigit()],
    }  # fmt: skip


def _alert_row(a: GmAlert) -> dict:
    return {
        "key": a.key, "kind": a.kind, "message": a.message, "subject": a.subject,
        "evidence_id": int(a.evidence) if a.evidence and a.evidence.isdigit() else None,
    }  # fmt: skip

