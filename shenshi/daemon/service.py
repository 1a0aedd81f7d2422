"""The game service: the shell around the referee (store, dry-run log, the forum's poller and
publisher).

One :class:`GameService` runs one game. The :class:`~shenshi.daemon.poller.Poller` stores what
the forum shows as evidence; the service then reads everything stored and not yet processed,
whenever it was read, in one time-ordered stream (:mod:`shenshi.daemon.timeline`), the phase
clock caught up to each item first, and commits each item's events and proposals together with
its "processed" mark, so that a crash at any point loses nothing and repeats nothing. ``tick``
runs the phase clock; the :class:`~shenshi.daemon.publisher.Publisher` sends what the mode
allows. :class:`~shenshi.daemon.cycle.Cycle` wires the three with the lease and the back-off.

Map::

    start()      load or create the game, rebuild the referee from the stored events
    poll()       read (poller) then process() the stream
    process()    everything unprocessed, in order, the clock caught up to each item
    tick(now)    deadlines, resolutions, phase openings (published announcements gate them)
    publish()    review/live: send approved announcements, paced; never twice after a crash

The phase clock never moves backwards: it is caught up to ``max(item's moment, clock)``, and
that time is stored with each outcome (the ``clock`` cursor).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from shenshi.adapters.base import ForumAdapter, TimePrecision, find_adapter
from shenshi.adapters.errors import ForumError
from shenshi.config import Config
from shenshi.daemon import gm_text, keys
from shenshi.daemon.activity import lurking, missed_sign_in
from shenshi.daemon.announce import Draft, Templates, kind_words
from shenshi.daemon.by_hand import OutboxWatch, holds_sent_pm, recognise_sent_pm
from shenshi.daemon.deal import Dealt, deal_roles, new_seed, partners, role_text
from shenshi.daemon.drylog import DryRunLog, LogEntry, where_to
from shenshi.daemon.forum_ids import claimed, post_ref
from shenshi.daemon.hints import (
    Advice,
    Cause,
    Happening,
    Situation,
    advise,
    cause_of,
    confirmation_hints,
    render,
    settle,
    superseded,
)
from shenshi.daemon.lease import GameLease, owner_name
from shenshi.daemon.links import EvidenceLink, evidence_links
from shenshi.daemon.poller import Edit, Poller, PollReport
from shenshi.daemon.publisher import Publisher
from shenshi.daemon.referee import Clockwork, Effects, GmAlert, PostCounts, Referee, Wants
from shenshi.daemon.resend import RESENDABLE, Refusal
from shenshi.daemon.sharing import COUNTS, REFUSED, Seats, SharedReads, Unrouted
from shenshi.daemon.situation import facts_of, on_forum, situation_of
from shenshi.daemon.superseding import (
    ABSENCES,
    EARLIER,
    Proposals,
    Reconciled,
    because,
    reconcile,
    subject_of,
)
from shenshi.daemon.timeline import (
    WINDOW_ALERTS,
    Item,
    Window,
    counted_at,
    in_order,
    moment_of,
    uncertain,
    uncertain_message,
    window_of,
    window_text,
)
from shenshi.errors import UserError
from shenshi.records import Post, PrivateMessage
from shenshi.rulesets.base import (
    Command,
    Event,
    Phase,
    PlayerSpec,
    PowerSubmitted,
    RulesetError,
    Substitute,
)
from shenshi.rulesets.registry import find_ruleset
from shenshi.store import codec
from shenshi.store.announcements import original_key
from shenshi.store.errors import StoreError
from shenshi.store.outbox import PENDING, AnnouncementState
from shenshi.store.records import (
    Alert,
    Announcement,
    DestinationKind,
    Evidence,
    EvidenceKind,
    Player,
)
from shenshi.store.unit_of_work import Store, UnitOfWork

log = logging.getLogger(__name__)

CLOCK = "clock"  # the cursor that keeps the phase clock's time across restarts
# What the GM may be seen publishing by hand (not what is being sent, or was; an unconfirmed
# exit he posts himself is confirmed by it, referee._confirmed_by_hand).
PUBLISHABLE = (AnnouncementState.PROPOSED, AnnouncementState.APPROVED, AnnouncementState.FAILED,
               AnnouncementState.UNCONFIRMED)  # fmt: skip


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
    # Sends that failed and are retried: (id, kind, the forum's reason, attempts, retry at).
    failed: tuple[tuple[int, str, str, int, datetime | None], ...] = ()


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
        self.poller: Poller | None = None
        self.publisher: Publisher | None = None
        self.clock_time: datetime | None = None  # the phase clock: it never moves backwards
        # why the pending proposals are derived again at the next commit though no event
        # happened (the clock learned a publication, a lurker posted), else None
        self._follow_why: str | None = None
        self._ticked_at: datetime | None = None  # the clock's time at the last tick
        self._lurking: frozenset[str] | None = None  # the lurking proposals the clock proposes now
        self.last_poll: datetime | None = None  # when the last complete read of the forum began
        self.owner = owner_name()  # this daemon, in the game's lease and the sends it claims
        self.lease: GameLease | None = None
        self.progress: Callable[[str], None] = lambda message: None  # e.g. a spinner's text
        self.outbox_watch = OutboxWatch(clock)  # dry-run: PMs the GM sent by hand
        self._seq_known = 0  # the game's latest event this service has in its referee
        self._edit_alerts: list[GmAlert] = []  # stored with their revisions, not logged yet
        self._unrouted_log: list[GmAlert | Draft] = []  # stored with an unrouted PM, not logged yet
        # Board listings and the inbox shared with the other games of this forum account (set
        # by :class:`~shenshi.daemon.fleet.Fleet` before ``start``); None: this game reads alone.
        self.reads: SharedReads | None = None
        # What the last stored change superseded, confirmed and proposed anew (the GM's command
        # says it).
        self.followed = Reconciled()

    @property
    def precision(self) -> TimePrecision:
        """How finely the forum shows times (an engine fact of the adapter)."""
        if self.adapter is not None:
            return self.adapter.time_precision
        return find_adapter(self.config.forum.engine).time_precision

    # -- start-up ------------------------------------------------------------------------------

    def start(self) -> Referee:
        """Load (or create) the game and rebuild its state from the stored events.

        Evidence stored before a crash and never processed waits for the next poll: it is read
        in one time-ordered stream with what that poll finds (:meth:`process`).
        """
        with self.store.snapshot() as uow:
            game = uow.games.find(self.config.game.name)
        created = game is None
        if game is None:
            game = self._create_game()
        self.game_id = game.id
        try:
            referee = self.rebuild()
        except RulesetError as exc:  # (a stored game the rules no longer take: say so, no traceback)
            if created:
                raise  # (the table as configured: the configuration's error)
            raise UserError(
                f"没能从数据库重建《{self.config.game.name}》：{exc}。数据库没有改动；"
                "请把数据库文件和 shenshi run -v 的输出交给维护者"
            ) from None
        self.lease = GameLease(self.store, self.game_id, self.clock, self.owner)
        if self.adapter is not None:
            self.poller = Poller(
                self.config, self.store, self.adapter, self.game_id, self.clock, self.raise_alerts, reads=self.reads
            )  # fmt: skip
            self.poller.progress = lambda message: self.progress(message)
            self.poller.on_edits = self._edits_seen
            self.poller.on_unrouted = self._unrouted_seen
            self.poller.reads.join(
                self.game_id, seats=self.seats, cursor=self.poller.inbox_cursor, deadline=self.next_deadline,
                served=(lambda: self.lease is not None and self.lease.held is not None) if self.reads else lambda: True,
                judge=self.judge_pm,
            )  # fmt: skip
            self.publisher = Publisher(
                self.config, self.store, self.adapter, self.game_id, self.clock, self.raise_alerts,
                drylog=self.drylog, templates=self.templates, sleep=self.sleep, owner=self.owner, hold=self.lease.hold,
                refresh=lambda: self.poll(fresh=True), polled_at=lambda: self.last_poll, sent=self._published_by_sending,
                deadline=self.next_deadline, corrected=lambda: self._last_seq() > self._seq_known,
            )  # fmt: skip
        return referee

    def seats(self) -> Seats:
        """Who holds or held this game's seats, since when it runs (routing the GM's PMs)."""
        with self.store.snapshot() as uow:
            players = uow.games.players(self.game_id, current_only=False)
        members = {p.name for p in players} | {p.uid for p in players if p.uid}
        finished = self.referee is not None and self.referee.state.winner is not None
        return Seats(self.game_id, self.config.game.name, self.config.game.start, frozenset(members), finished)

    def rebuild(self) -> Referee:
        """The referee rebuilt from the store: the seats' first holders, every stored event
        replayed, the publication times and the public drafts still waiting. After a failed
        cycle the in-memory state may be ahead of the store: this puts it back."""
        # The game starts from each seat's first holder; substitutions are replayed as events.
        with self.store.snapshot() as uow:
            players = uow.games.players(self.game_id, current_only=False)
            clock = uow.evidence.cursor(self.game_id, CLOCK)
        first: dict[int, Player] = {}
        for p in sorted(players, key=lambda p: (p.seat, p.joined_at, p.id)):
            first.setdefault(p.seat, p)
        specs = [self._as_set_up(p) for _, p in sorted(first.items())]
        state = self.ruleset.new_game(specs, self.config.game.rules)
        referee = Referee(
            self.ruleset, self.config.game, state,
            game_key=keys.game_key(self.game_id), templates=self.templates,
            uids={p.name: p.uid for p in players if p.uid}, gm_name=self.config.forum.username,
            gm_uid=getattr(self.adapter, "own_uid", None), tz=self.config.forum.tz,
            early_close=self.config.daemon.early_close,
        )  # fmt: skip
        known = self._last_seq()
        referee.replay_stored((codec.decode(e.payload), e.recorded_at) for e in self.store.stream_events(self.game_id))
        referee.learn(self._clockwork(referee.wants(self.clock())).published)
        self._recall_refusals(referee)
        with self.store.snapshot() as uow:
            waiting = uow.outbox.announcements(self.game_id, [AnnouncementState.PROPOSED, AnnouncementState.APPROVED])
        for a in waiting:
            if a.destination_kind is DestinationKind.THREAD and a.published_at is None:
                referee.pending_public[a.key] = a.text
        with self.store.snapshot() as uow:
            unconfirmed = uow.outbox.announcements(self.game_id, [AnnouncementState.UNCONFIRMED])
        referee.to_confirm = {a.key: (a.text, subject_of(a)) for a in unconfirmed if a.kind in ABSENCES}
        referee.left_at = {p.name: p.left_at for p in players if p.left_at is not None and p.replaced_by is not None}
        self.referee = referee
        self.learn_names()
        self._seq_known = known  # (an event appended meanwhile: the next cycle rebuilds again)
        self.clock_time = datetime.fromisoformat(clock.value["at"]) if clock else None
        return referee

    def _recall_refusals(self, referee: Referee) -> None:
        """The refused PMs of the open step whose senders were told to send them again, from
        the stored alerts (a restart keeps the step waiting for them, RULES.md "Early close")."""
        opened = referee.state.params.get("opened_at")
        if opened is None or referee.state.phase not in (Phase.NIGHT, Phase.DAY):
            return
        tz = self.config.forum.tz
        with self.store.snapshot() as uow:
            alerts = [a for a in uow.alerts.raised(self.game_id) if a.kind in RESENDABLE and a.subject]
            told = {
                (a.destination, e) for a in uow.outbox.announcements(self.game_id)
                if a.kind == "receipt" for e in a.evidence_ids
            } if self.config.game.receipts else set()  # fmt: skip
        found = []
        for a in alerts:
            if a.resolved_at is not None:
                continue  # its cause is gone (a PM kept aside that was counted or sent again)
            if a.kind != "pm_game_unknown" and (a.subject, a.evidence_id) not in told:
                continue  # no receipt asked him to send it again
            written = str((a.cause or {}).get("at") or "")
            at = datetime.fromisoformat(written).replace(tzinfo=tz) if written else a.created_at
            if at >= opened:
                found.append(Refusal(str(a.subject), a.kind, at, str(a.evidence_id) if a.evidence_id else None))
        referee.awaited.recall(found, (s.name for s in referee.state.alive()))

    def read_corrections(self) -> bool:
        """Events this service did not write (the GM's corrections from ``shenshi override``,
        ``substitute`` or the console, while the daemon runs): the referee is rebuilt from the
        store so that the next step sees them. True if it was."""
        if self.referee is None or self._last_seq() <= self._seq_known:
            return False
        log.info("读到守护进程之外写入的事件（天神的更正），已重建局面")
        self.rebuild()
        if self.publisher is not None:
            # The correction's proposals were derived by the GM's process, which may not yet have
            # known what this daemon just published (a round's close fixed by a result sent
            # between two paced sends): what is pending is derived again here, before it is sent.
            self._commit(Effects(), keys.tick_batch(self._last_seq()), None, follow=gm_text.NOTES["corrections_read"])
        return True

    def _create_game(self):
        cfg = self.config.game
        info = self.ruleset.info
        missing = [p.name for p in cfg.players if not p.role]
        if missing:
            raise UserError(
                f"这些玩家还没有身份：{'、'.join(missing)}（在配置里写上身份，或先运行 shenshi deal 发身份）"
            )
        uids: dict[str, str | None] = {}
        for p in cfg.players:
            uids[p.name] = p.uid
            if p.uid is None and self.adapter is not None:
                try:
                    uids[p.name] = self.adapter.lookup_uid(p.name)
                except ForumError as exc:
                    log.warning("查不到 %s 的论坛 uid：%s", p.name, exc)
        held: dict[str, str] = {}
        for name, uid in uids.items():
            if uid is not None and uid in held:
                raise UserError(
                    f"{held[uid]} 和 {name} 在论坛上是同一个账号（uid {uid}）：一个账号只能坐一个座位；"
                    "请在玩家名单里改正名字或 uid"
                )
            if uid is not None:
                held[uid] = name
        with self.store.transaction() as uow:
            game = uow.games.create(cfg.name, cfg.ruleset, {"board": cfg.board, "vote_thread": cfg.vote_thread})
            for seat, p in enumerate(cfg.players):
                team = p.team or info.roles[p.role].team
                uow.games.add_player(game.id, seat, p.name, p.role, team, uid=uids[p.name], addons=p.addons)
        return game

    # -- reading the forum ---------------------------------------------------------------------

    def poll(self, *, fresh: bool = False) -> PollReport:
        """Read what changed on the forum (stored first), then process everything waiting in
        one time-ordered stream, then show the GM what was edited. ``fresh``: read the forum
        again now, not this round's shared reads (the publisher looking for what it sent)."""
        assert self.poller is not None, "poll needs a forum adapter"
        report = self.poller.read(self._watched(), fresh=fresh)
        self._log_unrouted()
        if report.complete:  # (a source unread: the phase clock stays at the last complete poll)
            self.last_poll = report.started
        self.process(complete=report.complete)
        for alert in self._edit_alerts:  # (stored with the revisions: only the log is left)
            self._log_alert(alert)
        self._edit_alerts.clear()
        find_sent_pms = getattr(self.adapter, "find_sent_pms", None)
        if self.config.daemon.mode == "dry-run" and find_sent_pms and not getattr(self.adapter, "inbox_lists_sent", False):
            for a in self.outbox_watch.look(self.store, self.game_id, find_sent_pms):  # sent by hand
                self._log_published(a)
                self.resolve_alerts(on_forum(a, by_hand=True))
        return report

    def _edits_seen(self, uow: UnitOfWork, edits: list[Edit]) -> None:
        """The GM's alerts for edited posts (an edited ballot…), stored in the transaction that
        stores the revisions (the poller's); logged once the poll is done."""
        for edit in edits:
            for a in self.referee.read_edit(edit.first, edit.revision, str(edit.evidence_id)).alerts:
                if uow.alerts.add(self.game_id, **_alert_row(a))[1]:
                    self._edit_alerts.append(a)

    # -- a PM of a player seated in several games ---------------------------------------------

    def judge_pm(self, pm: PrivateMessage) -> str:
        """How ``pm`` reads in this game, nothing changed (:mod:`shenshi.daemon.sharing` routes
        the PMs of a player seated in several games by it): a PM the GM sent counts where the
        outbox holds it (the announcement it records, or the proposal it publishes); a player's as intake reads it, a refusal for the step trusted only
        while the game's clock has passed no deadline since the PM (the state is the PM's)."""
        gm = {getattr(self.adapter, "own_uid", None), self.config.forum.username} - {None}
        if pm.sender_uid in gm or pm.sender in gm:
            return COUNTS if holds_sent_pm(self.store, self.game_id, pm) else REFUSED
        referee = self.referee
        slack = self.precision.pm
        times = referee.times()
        after = self.clock_time or self.clock()
        deadline = referee.next_deadline(after)
        known = (
            times is not None and times.opens <= pm.sent_at - slack
            and (deadline is None or pm.sent_at + slack < deadline)
        )  # fmt: skip
        return referee.judge_pm(pm, step_known=known)

    def _unrouted_seen(self, uow: UnitOfWork, unrouted: Unrouted, evidence_id: int | None) -> None:
        """A PM that may be this game's or another's (:class:`~shenshi.daemon.sharing.Unrouted`),
        in the transaction that stores it: kept aside (processed: read by no game until the GM
        counts it in one, ``shenshi override count-pm``), the GM alerted with that fix, and the
        player, once across the games, told how to name the game."""
        pm = unrouted.pm
        if evidence_id is not None:
            uow.evidence.mark_processed(evidence_id)
        seat = self._seat_of(pm.sender, pm.sender_uid)
        tz = self.config.forum.tz
        games = "、".join(f"《{g}》" for g in unrouted.games)
        when = pm.sent_at.astimezone(tz).strftime("%m-%d %H:%M")
        text = self.templates.render(
            "alert_pm_game_unknown", sender=seat or pm.sender, time=when, games=games, pm=pm.id,
            text=" ".join(pm.text.split())[:60],
        )  # fmt: skip
        cause = Cause(who=seat or "", channel="pm", at=pm.sent_at.astimezone(tz).strftime("%Y-%m-%dT%H:%M:%S"))
        evidence = str(evidence_id) if evidence_id is not None else None
        alert = GmAlert(self.referee.keys.pm_game(pm.id), "pm_game_unknown", text, seat or pm.sender,
                        evidence, cause if evidence else None)  # fmt: skip
        if uow.alerts.add(self.game_id, **_alert_row(alert))[1]:
            self._unrouted_log.append(alert)
        if seat is not None and evidence is not None:  # told to send it again, naming the game
            self.referee.refused_resendable(Refusal(seat, "pm_game_unknown", pm.sent_at, evidence))
        if unrouted.tell and seat is not None and evidence is not None:
            example = f"【{self.config.game.name}】{pm.text.strip().splitlines()[0][:20] if pm.text.strip() else ''}"
            words = self.templates.render("receipt_which_game", time=when, games=games, example=example)
            draft = Draft(self.referee.keys.which_game(pm.id), "receipt", "pm", seat, words, (evidence,))
            if uow.outbox.propose(self.game_id, **_draft_row(draft))[1]:
                self._unrouted_log.append(draft)

    def _resent_here(self, pm: PrivateMessage) -> None:
        """``pm``, counted in this game, is a PM kept aside as maybe this game's or another's
        sent again naming this game (the same text with its ``【game】`` tag): the alerts about
        the one kept aside close in every game, so that no game waits for it any more (their
        clock releases the wait, :meth:`_release_settled_unknowns`)."""
        name = self.config.game.name
        if f"【{name}】" not in pm.text:
            return  # not sent again naming this game (the hot path: no store read)
        again = _command_text(pm.text, name)
        sender = {pm.sender_uid, pm.sender} - {None}
        with self.store.snapshot() as uow:
            settled = [
                (game.id, alert.key)
                for game in uow.games.listing()
                for alert in uow.alerts.raised(game.id, open_only=True)
                if alert.kind == "pm_game_unknown" and alert.evidence_id is not None
                and _same_pm_again(uow.evidence.get(alert.evidence_id), sender, pm.sent_at, again, name)
            ]  # fmt: skip
        if not settled:
            return
        words = gm_text.RESOLVED["resent_naming"].format(game=name)
        with self.store.transaction() as uow:
            for game_id, key in settled:
                uow.alerts.resolve(game_id, lambda a, key=key: words if a.key == key else None, at=self.clock())

    def _release_settled_unknowns(self) -> None:
        """A PM whose game was unknown keeps this step waiting for its sender only while its
        alert is open: once the GM counted it in a game (``override count-pm``) or the player
        sent it again naming a game, this game no longer waits for it."""
        waiting = {r.evidence: who for who, r in self.referee.awaited.refused.items()
                   if r.kind == "pm_game_unknown" and r.evidence}  # fmt: skip
        if not waiting:
            return
        with self.store.snapshot() as uow:
            closed = [a for a in uow.alerts.raised(self.game_id) if a.kind == "pm_game_unknown"
                      and a.resolved_at is not None and str(a.evidence_id) in waiting]  # fmt: skip
        for alert in closed:
            self.referee.awaited.release(waiting[str(alert.evidence_id)])

    def _seat_of(self, name: str, uid: str | None) -> str | None:
        """The seat holder of this game who wrote as ``name`` (``uid``), if any."""
        state = self.referee.state
        if uid:
            held = [n for n, u in self.referee.uids.items() if u == uid and state.has_player(n)]
            if held:
                return held[0]
        return name if state.has_player(name) else None

    def _log_unrouted(self) -> None:
        for item in self._unrouted_log:
            if isinstance(item, Draft):
                self._log_draft(item)
            else:
                self._log_alert(item)
        self._unrouted_log.clear()

    def count_pm(self, pm_id: str) -> Effects:
        """The GM counts the PM ``pm_id`` (the forum's id, as alerts show it: ``PM 3``) in this
        game, where it was kept aside as maybe another game's: read now, as the player's own PM
        sent at its time; the alerts about it close, here and in the other games of this
        database. A PM this game already read, or never kept aside, is refused."""
        with self.store.snapshot() as uow:
            alert = uow.alerts.by_key(self.game_id, self.referee.keys.pm_game(str(pm_id)))
            evidence = uow.evidence.get(alert.evidence_id) if alert and alert.evidence_id else None
            counted = evidence is not None and bool(uow.events.of_evidence(self.game_id, [evidence.id]))
        if evidence is None:
            raise UserError(f"PM {pm_id} 不是一条待定归属的私信（只有“可能属于几局”的私信可以这样计入）；没有改动")
        if counted or (alert is not None and alert.resolved_at is not None):
            raise UserError(f"PM {pm_id} 的归属已经定了（{alert.resolution if alert else ''}）；没有改动")
        gm = {getattr(self.adapter, "own_uid", None), self.config.forum.username} - {None}
        before = self._last_seq()
        self._read(self._item(evidence, gm))
        suffix = f":pm_game:{pm_id}"
        words = gm_text.RESOLVED["counted"].format(game=self.config.game.name)
        with self.store.transaction() as uow:
            for game in uow.games.listing():
                uow.alerts.resolve(game.id, lambda a: words if a.kind == "pm_game_unknown" and a.key.endswith(suffix) else None,
                                   at=self.clock())  # fmt: skip
        with self.store.snapshot() as uow:
            events = uow.events.page(self.game_id, after_seq=before, limit=10_000)
            raised = [a for a in uow.alerts.raised(self.game_id) if a.evidence_id == evidence.id and a.kind != "pm_game_unknown"]
            drafts = [a for a in uow.outbox.announcements(self.game_id) if evidence.id in a.evidence_ids and a.key != self.referee.keys.which_game(str(pm_id))]
        return Effects(
            events=[codec.decode(e.payload) for e in events],
            drafts=[Draft(a.key, a.kind, "pm", a.destination, a.text) for a in drafts],
            alerts=[GmAlert(a.key, a.kind, a.message, a.subject) for a in raised],
        )

    def _watched(self) -> set[str]:
        """The evidence of the open step's ballots and actions, or of the step just closed
        until the next one opens (their pages are re-read for edits)."""
        return self.referee.watched()

    def process(self, complete: bool = True) -> int:
        """Read every stored post and PM not yet processed, in one time-ordered stream (the
        restart's leftovers and the last poll's finds together): the phase clock is caught up
        to each item's moment first (a PM written after the dawn post belongs to the day, even
        if one poll saw both), but after a read that was not ``complete`` never past the start
        of the last complete one (what could not be read may be older): an item written after
        it waits for a complete read (read earlier, a ballot would count after a close that had
        not seen it). Returns how many were read."""
        gm = {getattr(self.adapter, "own_uid", None), self.config.forum.username} - {None}
        waiting = list(self.store.stream_evidence(self.game_id, unprocessed=True))
        if waiting:
            self.learn_names()
        items = [self._item(e, gm) for e in waiting]
        notes = {e.id: self.poller.notes(e) for e in waiting} if self.poller is not None else {}
        cap = None if complete else self.last_poll
        read = 0
        for at, item in in_order(items):
            if cap is not None and at > cap:
                continue  # written after the last complete read: what was not read may be older
            if complete or cap is not None:
                self._catch_up(at)
            self._read(item, notes.get(item.evidence_id, ()))
            read += 1
        return read

    def learn_names(self) -> None:
        """Renames learned from the forum: a player's uid shown under another name on the
        stored posts and PMs (his own, after a rename on the forum) makes that name his for
        everyone's ballots and actions, as a nickname would; the GM is told once per name."""
        referee = self.referee
        seated = {s.name for s in referee.state.seats}
        seat_of = {uid: name for name, uid in referee.uids.items() if uid and name in seated}
        with self.store.snapshot() as uow:
            shown = uow.evidence.names_of(self.game_id, list(seat_of))
        learned: dict[str, list[str]] = {}
        new = []
        for uid, name, _first in shown:
            player = seat_of[uid]
            if name == player or name in seated or name in learned.get(player, ()):
                continue
            learned.setdefault(player, []).append(name)
            if name not in referee.forum_names.get(player, ()):
                text = self.templates.render("alert_renamed", player=player, shown=name, uid=uid)
                new.append(GmAlert(referee.keys.renamed(uid, name), "renamed", text, player))
        referee.forum_names = {player: tuple(names) for player, names in learned.items()}
        if new:
            self.raise_alerts(new)

    def _item(self, evidence: Evidence, gm: set[str | None]) -> Item:
        precision = self.precision
        if evidence.kind is EvidenceKind.POST:
            record: Post | object = evidence.as_post()
            moment = moment_of(evidence.posted_at, precision.post, evidence.first_seen_at)
        else:
            record = evidence.as_pm()
            moment = moment_of(evidence.posted_at, precision.pm, evidence.first_seen_at)
        by_gm = evidence.author_uid in gm or evidence.author in gm
        return Item(evidence.id, record, moment, by_gm)  # type: ignore[arg-type]

    def _read(self, item: Item, notes: Iterable[GmAlert] = ()) -> None:
        """One post or PM through the referee, at the time it counts at, with what the GM must
        be told about its time, and the poller's ``notes`` on it (undecodable bytes…)."""
        referee = self.referee
        window = window_of(referee.state, referee.times())
        evidence = str(item.evidence_id)
        if isinstance(item.record, Post):
            post = item.record
            outcome = referee.read_post(post, evidence)
            who = post.author
        else:
            if item.by_gm and (found := recognise_sent_pm(self.store, self.game_id, item.record)):
                self._log_published(found)  # a PM the GM sent by hand
                self.resolve_alerts(on_forum(found, by_hand=True))
            at = counted_at(item.moment, window)
            message = item.record if at == item.record.sent_at else replace(item.record, sent_at=at)
            outcome = referee.read_pm(message, evidence)
            who = message.sender
            if outcome.events and not item.by_gm:
                self._resent_here(message)
            if outcome.events and uncertain(item.moment, window):
                text = uncertain_message(who, item.moment, window, self.config.forum.tz)
                outcome.alerts.append(GmAlert(referee.keys.order_uncertain(evidence), "order_uncertain", text, who, evidence))
        tz = self.config.forum.tz
        outcome.alerts = [
            replace(a, message=a.message + window_text(*self._window_of(a), moment=item.moment, tz=tz))
            if a.evidence == evidence and a.kind.removeprefix("rule:") in WINDOW_ALERTS
            else a
            for a in outcome.alerts
        ]
        outcome.alerts.extend(notes)
        published: list[str] = []  # the GM's own post publishes these (with the processed mark)
        post = item.record if isinstance(item.record, Post) else None

        def publish(uow: UnitOfWork) -> None:
            together: set[int] = set()  # one post may publish several (a notice and the exit it confirms)
            published[:] = [key for key, at in outcome.published if post and self._publish(uow, key, at, post, together)]

        self._commit(outcome, keys.evidence_batch(item.evidence_id), item.evidence_id, publish)
        for key in published:
            self.referee.pending_public.pop(key, None)
            with self.store.snapshot() as uow:
                a = uow.outbox.by_key(self.game_id, key)
            if a is not None:
                self._log_published(a)

    def _window_of(self, alert: GmAlert) -> tuple[Window | None, str]:
        """The window an alert about an input outside its window cites, and its name (the
        voting round's for a ballot, a night's for a night action: Referee.window_for)."""
        kind = gm_text.without_round(alert.kind.removeprefix("rule:"))
        action = alert.cause.action if alert.cause is not None else ""
        return self.referee.window_for(kind, action)

    def _evidence_links(self, ids: Iterable[str]) -> tuple[EvidenceLink, ...]:
        """The posts and PMs behind an announcement or alert, labelled (for the log)."""
        return evidence_links(self.store, self.game_id, ids)

    # -- the clock ---------------------------------------------------------------------------------

    def tick(self, now: datetime | None = None) -> Effects:
        """Run the phase clock at ``now`` (the clock's time if not given; the cycle gives the
        start of its last complete poll, so that nothing closes before what was written by then
        is read), then the sign-in and lurking checks."""
        now = self._advance(now or self.clock())
        self._release_settled_unknowns()
        self._follow_night_phases(now)
        outcome = self._run_clock(now)
        absences = self._absences(now)
        outcome.extend(absences)
        self._follow_lurking(frozenset(d.key for d in absences.drafts if d.kind == "lurk"))
        self._commit_tick(outcome)
        return outcome

    def _follow_night_phases(self, now: datetime) -> None:
        """A werewolf night phase that closed since the last tick changes no state (no event)
        but what a pending post says of it: the night's deadlines post is derived again
        (newcomer4 W6: approved late, it promised a deadline already past)."""
        before, self._ticked_at = self._ticked_at, now
        times = self.referee.times() if self.referee is not None else None
        if before is None or times is None or self.referee.state.phase is not Phase.NIGHT:
            return
        if any(before < at <= now for at in times.phase_deadlines.values()):
            self._follow_why = self._follow_why or gm_text.NOTES["night_phase_closed"]

    def _follow_lurking(self, lurking: frozenset[str]) -> None:
        """The lurking proposals the clock proposes now; one still pending that it no longer
        proposes (the player posted since) is withdrawn at this commit (newcomer3 N23)."""
        before, self._lurking = self._lurking, lurking
        if before is not None and before - lurking:
            with self.store.snapshot() as uow:
                pending = {original_key(a.key) for a in uow.outbox.announcements(self.game_id, PENDING) if a.kind == "lurk"}
            if pending - lurking:
                self._follow_why = self._follow_why or gm_text.NOTES["lurker_posted"]

    def _catch_up(self, at: datetime) -> Effects:
        """Run the phase clock up to ``at``: the moment of a post or PM about to be read."""
        # (deadlines only: a step complete after one item of a read does not end before the
        # items read with it, written before anyone could see it end; wolfadv W7 W13 W20)
        outcome = self._run_clock(self._advance(at), early=False)
        self._commit_tick(outcome)
        return outcome

    def _advance(self, at: datetime) -> datetime:
        """The phase clock moved to ``at``, or kept where it is if ``at`` is earlier: it never
        moves backwards (a PM read late does not close a vote before the ballot that completed
        it)."""
        if self.clock_time is not None and at < self.clock_time:
            return self.clock_time
        self.clock_time = at
        return at

    def _run_clock(self, now: datetime, early: bool = True) -> Effects:
        """The referee's clock at ``now``, told what it asks for; asked again while a move
        makes it want something new (a round that opened and closes at once needs counts).
        ``early``: a step complete before its deadline may end now (RULES.md "Early close");
        the catch-up to an item of a read moves deadlines only."""
        outcome = Effects()
        asked: Wants | None = None
        known = set(self.referee.published)
        for _ in range(4):
            wants = self.referee.wants(now)
            if wants == asked:
                break
            asked = wants
            outcome.extend(self.referee.tick(now, self._clockwork(wants), early=early))
        # a publication the clock learned fixes a round's close (a runoff opens with the
        # result's publication): what the pending proposals say of it is derived again
        if set(self.referee.published) - known:
            self._follow_why = self._follow_why or gm_text.NOTES["published_moves"]
        return outcome

    def _clockwork(self, wants: Wants) -> Clockwork:
        """The publication times and post counts the referee asked for, from the store."""
        published = {key: at for key in wants.announcements if (at := self._published_at(key))}
        counts = self._activity(*wants.activity) if wants.activity else {}
        return Clockwork(published, PostCounts(wants.activity, counts))

    def _commit_tick(self, outcome: Effects) -> None:
        why, self._follow_why = self._follow_why, None
        # the vote opened on the clock: what a pending PM says of it (「届时」) is said anew
        if why is None and any(d.kind == "vote_opened" for d in outcome.drafts):
            why = gm_text.NOTES["vote_opened"]
        # a settled night's PMs proposed at its announcement time were written to its seats as
        # they were: each goes to whoever plays the seat now (gmattack W3: a substitute's lover)
        if why is None and any(d.channel == "pm" for d in outcome.drafts):
            why = gm_text.NOTES["to_the_seats"]
        if outcome.events or outcome.drafts or outcome.alerts or why:
            self._commit(outcome, keys.tick_batch(self._last_seq()), None, follow=why)

    def _absences(self, now: datetime) -> Effects:
        """Missed sign-ins and lurkers (family A: 24 h, 48 h) become proposals for the GM to
        confirm (``unconfirmed``: ``shenshi override exit`` confirms), where the ruleset has
        these rules. A substitute does not sign in (entering is his sign-in) and his lurking
        clock starts when he entered; a seat whose substitute is still entering is his, and
        waits for him to hold it (RULES.md "The substitute's own clocks")."""
        state = self.referee.state
        rules = self.referee.profile.clock
        start = self.config.game.start
        if state.phase is Phase.OVER or now < start or not (rules.lurking or rules.sign_in):
            return Effects()
        leaving = {old for old, _ in state.pending_substitutions}
        came_in = set(self.referee.successors.values())
        living = [s.name for s in state.alive() if s.name not in leaving]
        signin_thread = self.config.game.player_list_thread or self.config.game.vote_thread
        signed_in = rules.sign_in is not None and now >= start + rules.sign_in
        with self.store.snapshot() as uow:
            players = uow.games.players(self.game_id, current_only=False)
            board = uow.evidence.activity(self.game_id, start, now, exclude_sources=list(self.config.game.uncounted_threads))
            if signed_in:
                replies = uow.evidence.activity(self.game_id, start, start + rules.sign_in, sources=[signin_thread])
        names = {p.uid: p.name for p in players if p.uid and p.current}
        entered = {p.name: max(p.joined_at, start) for p in players if p.name in came_in}
        last = {names.get(a.author_uid, a.author): a.last_at for a in board}
        absent = lurking(rules, [n for n in living if n not in came_in], start, now, last)
        for name in (n for n in living if n in came_in):
            absent += lurking(rules, [name], entered.get(name, start), now, last)
        if signed_in:
            signed = {names.get(a.author_uid, a.author): a.first_at for a in replies}
            absent = missed_sign_in(rules, [n for n in living if n not in came_in], start, signed) + absent
        out = Effects()
        told = set()  # one exit proposal per seat: the first cause (a missed sign-in before lurking)
        for a in absent:
            if a.name in told:
                continue
            told.add(a.name)
            stamp = a.since.astimezone(self.config.forum.tz).strftime("%Y%m%d%H%M")
            key = self.referee.keys.absence(a.kind, a.name, stamp)
            text = self.templates.render("signin_missed" if a.kind == "signin" else "lurking", name=a.name)
            out.drafts.append(Draft(key, a.kind, "thread", self.config.game.vote_thread, text, unconfirmed=True))
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
        follow: str | None = None,
    ) -> None:
        """Store what one input produced in one transaction: the events (idempotent under
        ``batch_key``), the proposals and alerts (idempotent by their keys), for evidence the
        processed mark, what ``also`` writes (a substitute's row in the players table), and
        the players table brought in step with the new state (``follow``: the pending proposals
        are derived again though no event happened, and why: the clock learned a publication or
        opened the vote, a lurker posted). A crash or an error leaves all of it or none of it."""
        happened = list(self.referee.happened) if self.referee is not None else []
        if self.referee is not None:
            self.referee.happened.clear()  # (stored below, or lost with the events if this fails)
        with self.store.transaction() as uow:
            seqs = uow.events.append(self.game_id, [codec.encode(e) for e in outcome.events], evidence_id, key=batch_key)
            # alerts raised before these events that they resolve close (not the batch's own)
            settled = settle(uow, self.game_id, happened, at=self.clock())
            # the dry-run log gets what is new (a tick proposes the same absences again)
            created = [d for d in outcome.drafts if uow.outbox.propose(self.game_id, **_draft_row(d))[1]]
            if also is not None:  # (a substitute's row, the GM's own post publishing a proposal)
                also(uow)
            # what the new events made moot is superseded, what they change is proposed anew
            followed = self._follow_the_state(uow, outcome.events, follow) if outcome.events or follow else Reconciled()
            answered = self._answer_entries(uow, outcome.events, settled)
            followed.superseded += answered.superseded
            followed.proposed += answered.proposed
            self.followed = followed
            created += followed.proposed
            # a failed send of what is superseded now is no longer a trouble
            settled += settle(uow, self.game_id, [superseded(old.id) for old, _ in followed.superseded], at=self.clock())
            alerts = [a for a in outcome.alerts if uow.alerts.add(self.game_id, **_alert_row(a))[1]]
            if evidence_id is not None:
                uow.evidence.mark_processed(evidence_id)
            if outcome.events:
                self._sync_players(uow)
            if self.clock_time is not None:
                uow.evidence.set_cursor(self.game_id, CLOCK, {"at": self.clock_time.isoformat()})
        if seqs and seqs[0] == self._seq_known + 1:  # nobody else wrote events in between
            self._seq_known = seqs[-1]
        if self.referee is not None:  # the GM's own posts are matched against every public draft
            for old, _ in followed.superseded:  # (a superseded one never again; what replaced it
                self.referee.pending_public.pop(original_key(old.key), None)  # takes its key below)
                self.referee.to_confirm.pop(original_key(old.key), None)
            for d in created:  # (the referee's own, and the shell's: sign-in and lurking notices)
                if d.channel == "thread" and not d.unconfirmed:
                    self.referee.pending_public[d.key] = d.text
                elif d.channel == "thread" and d.kind in ABSENCES:
                    self.referee.to_confirm[d.key] = (d.text, d.key.split(":")[2])
        if outcome.events and self.referee is not None:
            self.drylog.phases(self.clock(), outcome.events, self.referee.state)
        for old, by in followed.superseded:
            self._log_superseded(old, by)
        for draft in created:
            self._log_draft(draft)
        situation = self.situation() if alerts else None  # (one read of the outbox for all)
        for alert in alerts:
            self._log_alert(alert, situation)
        self._log_settled(settled)

    def _follow_the_state(self, uow: UnitOfWork, events: Sequence[Event], why: str | None = None) -> Reconciled:
        """Every pending proposal brought in line with the state after ``events`` (in
        ``uow``): what they made moot is superseded, with them as the reason (or ``why``,
        where no event happened)."""
        if self.referee is None:
            return Reconciled()
        proposals = self.proposals(uow)
        if events or why is None:
            why = because(events, proposals.leaving, self.referee.state)
        return reconcile(uow, self.game_id, proposals, why, _draft_row)

    def _answer_entries(self, uow: UnitOfWork, events: Sequence[Event], settled: Sequence[Alert]) -> Reconciled:
        """An action the GM entered for a PM intake could not read settles what its receipt
        refused: a refusal receipt not yet out is superseded by one saying what was recorded;
        one already out is followed by it (in ``uow``; ``settled``: the alerts the entry
        closed, each naming its PM)."""
        out = Reconciled()
        referee = self.referee
        entered = {e.submission.actor: e.submission for e in events
                   if isinstance(e, PowerSubmitted) and e.submission.extra.get("gm")}  # fmt: skip
        if referee is None or not entered or not self.config.game.receipts:
            return out
        settling: dict[str, list[tuple[Alert, Cause]]] = {}
        for alert in sorted(settled, key=lambda a: a.id):
            cause = Cause.from_json(alert.cause)
            if cause is not None and cause.who in entered and alert.evidence_id is not None:
                settling.setdefault(cause.who, []).append((alert, cause))
        announcements = uow.outbox.announcements(self.game_id)
        for actor, causes in settling.items():  # one entry, one receipt (newcomer N-3)
            sub = entered[actor]
            written_of = {alert.id: " ".join(x for x in (referee.ruleset.info.action_name(cause.action)
                                                         if cause.action else "", cause.target) if x)
                          for alert, cause in causes}  # fmt: skip
            answers = {alert.id: [a for a in announcements if a.kind == "receipt" and a.destination == actor
                                  and alert.evidence_id in a.evidence_ids] for alert, _ in causes}  # fmt: skip
            pending = [(alert, a) for alert, _ in causes for a in answers[alert.id] if a.state in PENDING
                       and (not written_of[alert.id] or written_of[alert.id] in _unbracketed(a.text))]  # fmt: skip
            # the PM the entry stands for: the latest whose refusal is still pending, else the latest
            main = pending[-1][0] if pending else causes[-1][0]
            text = referee.entered_receipt(sub, written_of[main.id], self.clock())
            evidence = str(main.evidence_id)
            new = None
            for _, a in pending:  # every refusal of his the entry made moot (a PM's other receipts stand)
                old = uow.outbox.supersede(a.id, gm_text.RESOLVED["gm"].format(what=gm_text.describe_submission(sub)))
                if new is None:
                    d = Draft(original_key(a.key), "receipt", "pm", actor, text, (evidence,))
                    new, created = uow.outbox.propose(self.game_id, **_draft_row(d))
                    if created:
                        out.proposed.append(d)
                out.superseded.append((uow.outbox.link_superseded(old.id, new.id), new))
            if new is None:  # his refusals are out, or his PM had none (not read as a command: newcomer4 C3)
                d = Draft(referee.keys.reply(evidence, "entered"), "receipt", "pm", actor, text, (evidence,))
                if uow.outbox.propose(self.game_id, **_draft_row(d))[1]:
                    out.proposed.append(d)
        return out

    def proposals(self, uow: UnitOfWork) -> Proposals:
        """What the current state proposes (:mod:`shenshi.daemon.superseding`), read in
        ``uow``: a substitute's role PM repeats the answers his seat received before."""
        referee = self.referee
        assert referee is not None, "start the service first"
        earlier: dict[str, list[str]] = {}
        if referee.successors:
            for a in uow.outbox.announcements(self.game_id, [AnnouncementState.SENT, AnnouncementState.PUBLISHED]):
                if a.kind in EARLIER and a.destination_kind is DestinationKind.USER:
                    earlier.setdefault(a.destination, []).append(a.text)
        answered: frozenset[str] = frozenset()
        received: frozenset[str] = frozenset()
        disagreed: frozenset[str] = frozenset()
        night = referee.state.phase is Phase.NIGHT
        if referee.voided or night:  # (one read of the outbox for both)
            every = uow.outbox.announcements(self.game_id)
            out = (AnnouncementState.SENDING, AnnouncementState.SENT, AnnouncementState.PUBLISHED)
            # a voided action's player is told, wherever his PM had a receipt: out, or waiting
            # and withdrawn by the void (gmattack3 F3); not one the GM dropped
            receipts = [a for a in every if a.kind == "receipt"] if referee.voided else []
            answered = frozenset(str(e) for a in receipts if a.state in out for e in a.evidence_ids)
            received = frozenset(str(e) for a in receipts if a.state is not AnnouncementState.REJECTED
                                 for e in a.evidence_ids)  # fmt: skip
            # who was told tonight that his joint unit disagrees (told again once it agrees)
            tonight = f"{referee.keys.game}:{keys.step_label(Phase.NIGHT, referee.state.number)}:joint_disagreement:"
            disagreed = frozenset(a.destination for a in every if night and a.kind == "joint_disagreement"
                                  and a.state in out and a.key.startswith(tonight))  # fmt: skip
        return Proposals(referee, self.config.game.name, earlier, self._lurking, answered,
                         now=self.clock_time or self.clock(), received=received, disagreed=disagreed)  # fmt: skip

    def _log_superseded(self, old: Announcement, by: Announcement | None) -> None:
        """The dry-run log: a proposal a later event made moot (never sent)."""
        instead = f"由 #{by.id} 取代" if by is not None else "撤回"
        text = f"#{old.id} {instead}（{old.superseded_because}），不会发送：\n{old.text}"
        where = where_to(old.destination_kind is DestinationKind.THREAD, old.destination)
        self.drylog.write(LogEntry(self.clock(), old.kind, where, text, AnnouncementState.SUPERSEDED.value,
                                   str(old.id), title=kind_words(self.templates, old.kind, original_key(old.key))))  # fmt: skip

    def _as_set_up(self, row: Player) -> PlayerSpec:
        """A seat's first holder as the game was set up: the players table mirrors the current
        team and add-ons (:meth:`_sync_players`), which the replayed events give again; a
        rebuild that started from them had the badge twice after it changed hands (wolfadv
        W19). The team and add-ons are the configuration's, as :meth:`_create_game` read them."""
        declared = next((p for p in self.config.game.players if p.name == row.name), None)
        role = self.ruleset.info.roles.get(row.role)
        if declared is None or role is None:
            return PlayerSpec(row.name, row.role, row.team, True, tuple(row.addons))
        return PlayerSpec(row.name, row.role, declared.team or role.team or row.team, True, tuple(declared.addons))

    def _sync_players(self, uow: UnitOfWork) -> None:
        """Keep the players table (alive, team, add-ons) in step with the replayed state."""
        state = self.referee.state
        rows = uow.games.players(self.game_id)
        entering = {old for old, _ in state.pending_substitutions if state.is_alive(old)}  # (a dead seat takes none)
        for row in rows:  # a substitution withdrawn (the seat died first): the seat is its holder's again
            holder = next((s for s in state.seats if s.number == row.seat), None)
            if holder is not None and holder.name != row.name and holder.name not in entering and not state.has_player(row.name):
                uow.games.withdraw_substitution(self.game_id, holder.name, row.name, at=self.clock())
        current = {p.name: p for p in uow.games.players(self.game_id)}
        by_seat = {p.seat: p.name for p in current.values()}
        for seat in state.seats:  # a withdrawn substitution that took effect after all (gmattack2 F20)
            if seat.name not in current and seat.name not in entering and (held := by_seat.get(seat.number)) is not None \
                    and held != seat.name:  # fmt: skip
                uow.games.reinstate_substitution(self.game_id, held, seat.name, at=self.clock())
        current = {p.name: p for p in uow.games.players(self.game_id)}
        for seat in state.seats:
            row = current.get(seat.name)
            if row is None:
                continue  # a substitute not yet recorded by `shenshi substitute`
            if (row.alive, row.team, tuple(row.addons)) != (seat.alive, seat.team, tuple(sorted(seat.addons))):
                uow.games.update_player(
                    self.game_id, seat.name, alive=seat.alive, team=seat.team, addons=sorted(seat.addons)
                )

    def raise_alerts(self, alerts: Iterable[GmAlert]) -> None:
        """Store GM alerts (each once, by its key) and write the new ones to the dry-run log."""
        for a in alerts:
            with self.store.transaction() as uow:
                row = _alert_row(a)
                _, created = uow.alerts.add(self.game_id, row["key"], row["kind"], row["message"],
                                            subject=row["subject"], cause=row["cause"])  # fmt: skip
            if created:
                self._log_alert(a)

    def resolve_alerts(self, happened: Sequence[Happening]) -> list[Alert]:
        """Close the open alerts that ``happened`` resolves (e.g. ``hints.delivered(id)``: a
        send that failed went out), logged; the alerts stay viewable."""
        with self.store.transaction() as uow:
            settled = settle(uow, self.game_id, happened, at=self.clock())
        self._log_settled(settled)
        return settled

    def _log_settled(self, settled: Sequence[Alert]) -> None:
        for a in settled:
            self.drylog.write(LogEntry(self.clock(), a.kind, "天神", f"提醒 #{a.id} 已解决：{a.resolution}",
                                       "resolved", str(a.id), title=gm_text.alert_name(a.kind)))  # fmt: skip

    def _last_seq(self) -> int:
        with self.store.snapshot() as uow:
            return uow.events.last_seq(self.game_id)

    def _log_draft(self, d: Draft) -> None:
        where = where_to(d.channel == "thread", d.destination)
        with self.store.snapshot() as uow:
            stored = uow.outbox.by_key(self.game_id, d.key)
        if stored is None:
            return  # superseded as it was proposed (its 「已被取代」 line says so; gmattack W3)
        ident = str(stored.id)
        uncounted = [u.get("id") for u in (d.notes or {}).get("uncounted", ())]
        labels = {str(link.id): str(link) for link in self._evidence_links(uncounted)}
        notes = gm_text.gm_notes(stored or d, labels)
        if d.unconfirmed and stored is not None:
            hints = confirmation_hints(self.situation(), d.kind, subject_of(stored), stored.id)
            notes.append(f"{gm_text.NOTES['unconfirmed']}：{render(hints)}")
        self.drylog.write(
            LogEntry(self.clock(), d.kind, where, d.text, "proposed", ident, self._evidence_links(d.evidence),
                     title=kind_words(self.templates, d.kind, d.key), notes=tuple(notes))  # fmt: skip
        )

    def _log_alert(self, a: GmAlert, situation: Situation | None = None) -> None:
        evidence = self._evidence_links((a.evidence,) if a.evidence else ())
        with self.store.snapshot() as uow:
            stored = uow.alerts.by_key(self.game_id, a.key)
        ident = str(stored.id) if stored else ""
        advice = self.advice(stored, situation) if stored is not None else None
        self.drylog.write(LogEntry(self.clock(), a.kind, "天神", a.message, "alert", ident, evidence, alert=True,
                                   hint=advice.text() if advice else "", hints=advice.hints if advice else ()))  # fmt: skip

    def situation(self) -> Situation:
        """The model every hint is derived from, now (:mod:`shenshi.daemon.hints`)."""
        return situation_of(self)

    def advice(self, alert: Alert, situation: Situation | None = None) -> Advice:
        """The next steps for a stored alert, now."""
        return advise(facts_of(alert), situation or self.situation())

    def _publish(self, uow: UnitOfWork, key: str, at: datetime, post: Post, together: set[int]) -> bool:
        """Mark the announcement ``key`` published by the GM's own ``post``, in ``uow`` (the
        transaction that marks that post processed: a crash keeps both or neither). A post
        another announcement already records (two with the same text) publishes only that one,
        unless the referee said this very post publishes both (``together``: the announcements
        this post marked already, e.g. a sign-in notice and the exit that posting it confirms)."""
        a = uow.outbox.by_key(self.game_id, key)
        if a is None or a.published_at is not None or a.sent_at is not None or a.state not in PUBLISHABLE:
            return False  # (``sending``: the publisher is finding out whether the forum has it)
        others = [o for o in uow.outbox.announcements(self.game_id) if o.id not in together]
        if post_ref(post.tid, post.pid) in claimed(others, besides=a.id):
            return False
        together.add(a.id)
        uow.outbox.mark_published(a.id, at, forum_id=post.pid)
        settle(uow, self.game_id, on_forum(a, by_hand=True), at=self.clock())
        return True

    def _log_published(self, a: Announcement) -> None:
        """The dry-run log: the GM's own post or PM recognised as an announcement's publication."""
        self.drylog.published(self.clock(), a, kind_words(self.templates, a.kind, a.key))

    def close(self) -> None:
        """Give the game's lease up, release the forum connections and the database."""
        if self.lease is not None and self.lease.held is not None:
            try:
                self.lease.release()
            except Exception as exc:  # noqa: BLE001 - the lease then expires on its own
                log.warning("没能交出这局的租约（它会自行过期）：%s", exc)
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
            failed = uow.outbox.announcements(self.game_id, [AnnouncementState.FAILED])
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
            failed=tuple((a.id, a.kind, a.last_error or "", a.attempts, a.retry_at) for a in failed),
        )

    def gm(self, command: Command, also: Callable[[UnitOfWork], object] | None = None) -> Effects:
        """A GM correction: an event like any other, with what it changes proposed, stored in
        one transaction with what ``also`` writes. If storing fails, the game is as before (the
        referee rebuilt from the store: what it remembered of the events is gone too)."""
        before = self.referee.state
        events = self.referee.apply(command)  # IllegalActionError: nothing stored
        outcome = Effects(events=events, drafts=self.referee.drafts_for(events, before))
        try:
            self._commit(outcome, keys.gm_batch(self._last_seq(), type(command).__name__), None, also)
        except BaseException:
            self.rebuild()
            raise
        return outcome

    def substitute(self, old: str, new: str, uid: str | None = None) -> Effects:
        """替补: ``new`` takes over ``old``'s seat (now, or when the open step resolves). The
        events and the players table change in one transaction: both or neither."""
        if uid is None and self.adapter is not None:
            uid = self.adapter.lookup_uid(new)  # before the transaction: no request holds it
        if self.referee.state.phase in (Phase.DAWN, Phase.DUSK):
            # between two steps whose next may be open already (its post published since the
            # daemon's last cycle): he enters that step, lengthened by his entry (A-D13;
            # gmattack2 F19: a substitute a minute after the dawn post got no +12 h)
            try:
                self._catch_up(self.clock())
            except StoreError:  # the daemon stored the same step first: take the game as it is now
                self.rebuild()
        if uid:
            with self.store.snapshot() as uow:
                seated = [p.name for p in uow.games.players(self.game_id) if p.uid == uid and p.name not in (old, new)]
            if seated:
                raise UserError(f"{new} 在论坛上和 {seated[0]} 是同一个账号（uid {uid}）：一个账号只能坐一个座位；没有改动")
        outcome = self.gm(
            Substitute(old, new), also=lambda uow: uow.games.substitute(self.game_id, old, new, uid=uid, at=self.clock())
        )
        if uid:
            self.referee.uids[new] = uid
        self.referee.left_at[old] = self.clock()  # (as the players table has it)
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
                out.append(f"座位 {seat.number}（{seat.name}）在玩家表里没有")
                continue
            if row.name != seat.name and not state.pending_substitutions:
                out.append(f"座位 {seat.number}：事件里是 {seat.name}，玩家表里是 {row.name}")
            if row.alive != seat.alive:
                word = "存活" if seat.alive else "出局"
                out.append(f"{seat.name}：事件里{word}，玩家表里{'存活' if row.alive else '出局'}")
        return out

    def deal(self, seed: str | None = None) -> list[Dealt]:
        """Deal the roles at random (seeded), create the game with them, propose role PMs."""
        cfg = self.config.game
        with self.store.snapshot() as uow:
            exists = uow.games.find(cfg.name) is not None
        if exists:
            raise UserError(f"本局「{cfg.name}」已经开始（已在数据库里）：身份不能再发一次；没有改动")
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
            text = role_text(self.templates, cfg.name, info, d.role, d.team, known.get(d.name, ()))
            drafts.append(Draft(keys.GameKeys(keys.game_key(game.id)).role(d.name), "role", "pm", d.name, text))
        self._commit(Effects(drafts=drafts), keys.deal_batch(game.id), None)
        return dealt

    def propose_message(self, to: str, text: str) -> str:
        """The GM's own PM ``text`` to ``to`` (``shenshi message``), proposed in the dry-run
        log as every PM is; returns its key (the same text in the same second: one proposal)."""
        at = self.clock().astimezone(self.config.forum.tz).strftime("%Y%m%d%H%M%S")
        key = self.referee.keys.message(to, at, text)
        self._commit(Effects(drafts=[Draft(key, MESSAGE_KIND, "pm", to, text)]), f"gm:{key}", None)
        return key

    # -- publishing -------------------------------------------------------------------------------

    def publish(self) -> int:
        """Send what the mode allows (review: approved; live: everything proposed). Returns sent."""
        return self.publisher.publish() if self.publisher is not None else 0

    @property
    def deadline_passed_while_sending(self) -> bool:
        """The last :meth:`publish` stopped because a deadline of the phase clock passed (or a
        GM correction was written beside it): read the forum (and the correction) and run the
        clock before sending the rest."""
        return self.publisher is not None and self.publisher.interrupted

    def next_retry(self) -> datetime | None:
        """When a failed send is due to be tried again (the scheduler comes back then)."""
        return self.publisher.next_retry() if self.publisher is not None else None

    def _published_by_sending(self, key: str) -> None:
        """An announcement is on the forum: the GM's posts no longer need matching against it,
        and an alert about its failed sends is resolved."""
        if self.referee is not None:
            self.referee.pending_public.pop(key, None)
        with self.store.snapshot() as uow:
            a = uow.outbox.by_key(self.game_id, key)
        if a is not None:
            self.resolve_alerts(on_forum(a))


MESSAGE_KIND = "gm_message"  # the GM's own PM to a player (``shenshi message``)


def _draft_row(d: Draft) -> dict:
    return {
        "key": d.key, "kind": d.kind,
        "destination_kind": "thread" if d.channel == "thread" else "user",
        "destination": d.destination, "text": d.text,
        "evidence_ids": [int(e) for e in d.evidence if str(e).isdigit()],
        "unconfirmed": d.unconfirmed, "notes": dict(d.notes) if d.notes else None,
    }  # fmt: skip


def _alert_row(a: GmAlert) -> dict:
    cause = a.cause or cause_of(a.kind, a.key, a.subject)
    return {
        "key": a.key, "kind": a.kind, "message": a.message, "subject": a.subject,
        "evidence_id": int(a.evidence) if a.evidence and a.evidence.isdigit() else None,
        "cause": cause.to_json() if cause is not None else None,
    }  # fmt: skip


def _unbracketed(text: str) -> str:
    """A receipt's text with the brackets of a quoted werewolf skill dropped (「【金箭】 老汪」
    quotes the action as 「金箭 老汪」: newcomer4 W2)."""
    return text.replace("【", "").replace("】", "").replace("[", "").replace("]", "")


def _command_text(text: str, game: str) -> str:
    """A PM's text as a command, whichever game it names: without the ``【game】`` tag and
    whitespace (a PM sent again naming its game is the same command)."""
    return "".join(text.replace(f"【{game}】", "").split())


def _same_pm_again(kept: Evidence, sender: set[str], at: datetime, again: str, game: str) -> bool:
    """Whether ``kept`` (a PM kept aside) is the command ``again`` that ``sender`` sent again at
    ``at``, naming ``game``."""
    return (
        kept.kind is EvidenceKind.PM and bool(({kept.author_uid, kept.author} - {None, ""}) & sender)
        and kept.posted_at <= at and _command_text(kept.text, game) == again
    )
