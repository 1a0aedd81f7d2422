"""The referee: one game's logic between intake, the rules core and the outbox, without I/O.

The shell (:mod:`shenshi.daemon.service`) feeds it what the forum shows (posts, PMs, edits)
and the clock; the referee answers with an :class:`Effects`: the core events to store, the
announcements to propose, the GM alerts, and the announcements the GM was seen publishing by
hand. Its state is the rules core's :class:`~shenshi.rulesets.base.GameState`, so it can be
rebuilt at any time by replaying the stored events. It never calls back into the shell: what
its clock needs to know (when announcements were published, how many posts each player made)
it asks for with :meth:`Referee.wants` and is given as plain data, a :class:`Clockwork`.

Map::

    read_post / read_pm / read_edit   intake → core commands (or alerts), receipts
    wants(now) → Wants                what the clock needs from the shell at ``now``
    tick(now, Clockwork)              the phase clock (PHASE_GRAPH): open, close, resolve
    apply(command)                    GM corrections (substitute, void, force, exit)
    drafts_for(events)                announcements from resolutions
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from shenshi.config import GameConfig
from shenshi.daemon.announce import Draft, Templates, drafts_for_step, private_text, public_text
from shenshi.daemon.context import build_context
from shenshi.daemon.gm_text import refusal, rule_name, verdict_name
from shenshi.daemon.keys import GameKeys, answer_label, step_label
from shenshi.intake import IntakeResult, read_pm, read_post, read_post_edit
from shenshi.intake.model import IntakeCommand
from shenshi.intake.receipts import rejected
from shenshi.records import Post, PrivateMessage
from shenshi.rulesets.base import (
    ABSTAIN,
    PHASE_GRAPH,
    CastBallot,
    CloseNight,
    CloseRound,
    Command,
    DaemonNote,
    Due,
    Event,
    ExitDeclared,
    GameState,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    PhaseOpened,
    PhaseTimes,
    PowerSubmitted,
    RecordActivity,
    RecordLastWords,
    Report,
    Resolved,
    Ruleset,
    Submit,
    SubstitutionScheduled,
    frozen_map,
)
from shenshi.rulesets.catalog import CANNON_KILL, KILL, RulesetInfo

NOT_YET = datetime.max.replace(tzinfo=UTC) - timedelta(days=400)  # a round not yet announced


@dataclass(frozen=True)
class GmAlert:
    """Something for the GM: intake could not be sure, or a rule decided against a player."""

    key: str  # deterministic (idempotent storage)
    kind: str
    message: str
    subject: str | None = None
    evidence: str | None = None


@dataclass(frozen=True)
class Wants:
    """What the referee's clock needs from the shell at a tick (:meth:`Referee.wants`)."""

    announcements: frozenset[str] = frozenset()  # keys whose publication time it needs
    activity: tuple[datetime, datetime] | None = None  # a window of post counts to record


@dataclass(frozen=True)
class PostCounts:
    """Counted posts per player in ``window`` (``None``: no window was asked for)."""

    window: tuple[datetime, datetime] | None
    counts: Mapping[str, int] = field(default_factory=frozen_map)


@dataclass(frozen=True)
class Clockwork:
    """What the shell tells the referee's clock at a tick, as plain data.

    ``published``: when announcements were published, by key (at least the ones
    :meth:`Referee.wants` asked for; an absent key is not published yet). ``activity``: the
    post counts of the window it asked for, or ``None`` when the shell keeps no counts (a
    round then closes without recording any).
    """

    published: Mapping[str, datetime] = field(default_factory=frozen_map)
    activity: PostCounts | None = None


@dataclass
class Effects:
    """What one input or tick produced."""

    events: list[Event] = field(default_factory=list)
    drafts: list[Draft] = field(default_factory=list)
    alerts: list[GmAlert] = field(default_factory=list)
    published: list[tuple[str, datetime]] = field(default_factory=list)  # (draft key, at)

    def extend(self, other: Effects) -> Effects:
        self.events += other.events
        self.drafts += other.drafts
        self.alerts += other.alerts
        self.published += other.published
        return self


class Referee:
    """Runs one game: decides with the rules core, proposes with the templates."""

    def __init__(
        self,
        ruleset: Ruleset,
        game: GameConfig,
        state: GameState,
        *,
        game_key: str,
        templates: Templates,
        uids: Mapping[str, str] | None = None,
        gm_name: str = "神的使者",
        gm_uid: str | None = None,
        tz: tzinfo,
        early_close: bool = True,
    ) -> None:
        self.ruleset = ruleset
        self.game = game
        self.state = state
        self.keys = GameKeys(game_key)
        self.templates = templates
        self.uids = dict(uids or {})
        self.gm_name = gm_name
        self.gm_uid = gm_uid
        self.tz = tz
        self.profile = ruleset.profile(state.config)
        # Family A lets the GM end a phase once all its activity is in [G6:L33][G5:L54];
        # chess ballots may still change, and werewolf needs everyone's 加速 (W-D7).
        self.early_close = early_close and self.profile.clock.early_close
        # When announcements were published (key → time), as far as the shell has said.
        self.published: dict[str, datetime] = {}
        # Public drafts not yet seen published (key → text): the GM's own posts are matched
        # against them in dry-run. The shell refills it from the outbox after a restart.
        self.pending_public: dict[str, str] = {}
        self._phase_results_sent: set[tuple[int, str]] = set()
        # What each public announcement of a result, an exit or a substitution publishes (its
        # deaths and facts), by key: the players know a death from its publication.
        self.announced: dict[str, Report] = {}

    # -- state -------------------------------------------------------------------------------

    def apply(self, command: Command) -> list[Event]:
        """Decide and evolve; raises :class:`IllegalActionError` (state untouched)."""
        events = self.ruleset.decide(self.state, command)
        state = self.state
        for event in events:
            self._remember_announced(state, event)
            state = self.ruleset.evolve(state, event)
        self.state = state
        return events

    def replay(self, events: Iterable[Event]) -> None:
        """Fold stored events into the state (no rules are re-run)."""
        for event in events:
            self._remember_announced(self.state, event)
            self.state = self.ruleset.evolve(self.state, event)

    def _remember_announced(self, before: GameState, event: Event) -> None:
        """Note which announcement publishes what ``event`` reports (see :attr:`announced`)."""
        if isinstance(event, Resolved):
            key = self.keys.public(self._label(before, event))
        elif isinstance(event, ExitDeclared):
            key = self.keys.exit(event.name)
        else:
            return
        self.announced[key] = self.announced[key].merge(event.report) if key in self.announced else event.report

    def times(self) -> PhaseTimes | None:
        """The clock of the open step, or ``None`` between steps."""
        state = self.state
        if state.phase not in (Phase.NIGHT, Phase.DAY):
            return None
        opened = state.params.get("opened_at")
        if opened is None:
            return None
        subs = len(state.pending_substitutions)
        times = self.ruleset.phase_times(state, state.phase, state.number, opened, subs)
        if state.phase is Phase.DAY and state.round > 1 and state.round in times.rounds:
            times = self._later_round(times)
        return times

    def _later_round(self, times: PhaseTimes) -> PhaseTimes:
        """A runoff (生死投票, chess round 2) or 招魂 opens when the previous round's result is
        published, and lasts as long as the ruleset gives it: not at the scheduled close of the
        round before, which an early close (or a late approval) moves."""
        state = self.state
        opens, closes = times.rounds[state.round]
        at = self.published.get(self._round_key(state.round - 1))
        if at is None:
            at = NOT_YET  # not announced: the round is not open
        rounds = {**times.rounds, state.round: (at, at + (closes - opens))}
        return replace(times, rounds=frozen_map(rounds), closes=max(times.closes, at + (closes - opens)))

    def _round_key(self, rnd: int) -> str:
        return self.keys.public(step_label(Phase.DAY, self.state.number, rnd))

    def context(self, now: datetime):
        """The intake view of the game at ``now``."""
        return build_context(
            self.ruleset, self.state, self.game, uids=self.uids, gm_name=self.gm_name,
            gm_uid=self.gm_uid, times=self.times(), now=now, tz=self.tz, templates=self.templates,
        )  # fmt: skip

    # -- inputs ------------------------------------------------------------------------------

    def read_post(self, post: Post, evidence: str) -> Effects:
        """A new post in a game thread (the first-seen text is what counts)."""
        if self._is_gm(post.author, post.author_uid):
            return self._gm_post(post)
        result = read_post(self.context(post.posted_at), post)
        return self._intake(result, evidence, post.posted_at)

    def read_pm(self, pm: PrivateMessage, evidence: str) -> Effects:
        """A new PM to the GM."""
        if self._is_gm(pm.sender, pm.sender_uid):
            return Effects()
        result = read_pm(self.context(pm.sent_at), pm)
        return self._intake(result, evidence, pm.sent_at)

    def read_edit(self, first: Post, revision: Post, evidence: str) -> Effects:
        """A later revision of a post: shown to the GM when it changes a vote or an action."""
        result = read_post_edit(self.context(revision.posted_at), first, revision)
        out = Effects()
        for i, alert in enumerate(result.alerts):
            out.alerts.append(
                GmAlert(self.keys.edit_alert(evidence, i), alert.kind, alert.message, alert.subject, evidence)
            )
        return out

    def _is_gm(self, name: str, uid: str | None) -> bool:
        return (uid is not None and uid == self.gm_uid) or name == self.gm_name

    def _intake(self, result: IntakeResult, evidence: str, at: datetime) -> Effects:
        out = Effects()
        for i, alert in enumerate(result.alerts):
            out.alerts.append(
                GmAlert(self.keys.intake_alert(evidence, i), alert.kind, alert.message, alert.subject, evidence)
            )
        refused: set[int] = set()  # commands the rules core refused: no "已收到" for them
        for n, command in enumerate(result.commands):
            core = self.translate(command, evidence, at)
            if core is None:
                continue
            before = self.state
            try:
                events = self.apply(core)
            except IllegalActionError as exc:
                refused.add(n)
                out.alerts.append(
                    GmAlert(
                        self.keys.refused(evidence, command.action), "not_in_phase",
                        self.templates.render("alert_not_in_phase", player=command.actor,
                                              verb=self.ruleset.info.action_name(command.action),
                                              error=refusal(str(exc))),
                        command.actor, evidence,
                    )  # fmt: skip
                )
                continue
            out.events += events
            out.extend(self._notes(events, evidence))
            out.drafts += self.drafts_for(events, before)
        if self.game.receipts:
            for i, receipt in enumerate(result.receipts):
                text = receipt.text
                if receipt.command in refused:
                    command = result.commands[receipt.command]
                    verb = self.ruleset.info.action_name(command.action)
                    text = rejected(self.templates, verb, command.target, self.templates.render("reason_not_in_phase"))
                out.drafts.append(Draft(self.keys.receipt(evidence, i), "receipt", "pm", receipt.to, text, (evidence,)))
        return out

    def translate(self, command: IntakeCommand, evidence: str, at: datetime) -> Command | None:
        """An intake command as a rules-core command (``None``: nothing for the core)."""
        extra = {k: v for k, v in command.extra.items() if k not in ("t", "via", "summoned", "change")}
        match command.action:
            case "vote" | "abstain":
                target = ABSTAIN if command.action == "abstain" else command.target
                via = "summon" if command.extra.get("summoned") else "post"
                rnd = 3 if via == "summon" and self.state.round == 3 else None
                return CastBallot(command.actor, target or ABSTAIN, at, via, True, rnd, evidence)
            case "delegate_vote":
                return CastBallot(command.actor, command.target or "", at, "pm_delegate", True, None, evidence)
            case "last_words":
                return RecordLastWords(command.actor, tuple(command.extra.get("accused") or ()), at,
                                       command.extra.get("chars"), evidence)  # fmt: skip
            case "kill_declaration":
                return self._declaration(command, evidence, at)
            case "sign_in" | "slow_down":
                return None  # recorded as evidence (sign-in checks; 减速 is for the host to read)
        if extra.get("declaration_same"):  # 宣言同上: the declaration of his earlier kill stands
            extra = {**self._earlier_declaration(command.actor), **extra}
        return Submit(command.actor, command.action, command.target, frozen_map(extra), at, evidence)

    def _earlier_declaration(self, actor: str) -> dict[str, Any]:
        """The declaration text (and story mark) of ``actor``'s latest kill that had one."""
        kills = [s for s in self.state.submissions if s.actor == actor and s.extra.get("declaration")]
        if not kills:
            return {}
        last = max(kills, key=lambda s: s.sort_key())
        return {k: last.extra[k] for k in ("declaration", "story") if k in last.extra}

    def _declaration(self, command: IntakeCommand, evidence: str, at: datetime) -> Command | None:
        """A 杀人宣言 sent apart from its 杀 line joins the actor's latest kill."""
        kills = [s for s in self.state.submissions if s.actor == command.actor and s.action == KILL]
        if not kills:
            return None
        last = max(kills, key=lambda s: s.sort_key())
        extra = {**last.extra, **{k: v for k, v in command.extra.items() if k != "t"}}
        return Submit(command.actor, KILL, last.target, frozen_map(extra), at, evidence)

    # -- the GM's own posts (dry-run: publication by hand) -------------------------------------

    def _gm_post(self, post: Post) -> Effects:
        """Recognise a proposed public announcement that the GM posted by hand."""
        out = Effects()
        for key, text in self.pending_public.items():
            if _same_announcement(text, post.text):
                out.published.append((key, post.posted_at))
        return out

    # -- the clock -----------------------------------------------------------------------------

    def learn(self, published: Mapping[str, datetime]) -> None:
        """When announcements were published (the shell's word; kept for later ticks)."""
        self.published.update(published)

    def wants(self, now: datetime) -> Wants:
        """What the clock needs to know to move at ``now``: the publication times of the
        announcements that open the next step or round, and the post counts of a round about
        to close where the ruleset records them (chess32 lurking)."""
        state = self.state
        keys = set()
        if PHASE_GRAPH[state.phase].due is Due.PUBLICATION:
            keys.add(self.gate_key())
        if state.phase is Phase.DAY and state.round > 1:
            keys.add(self._round_key(state.round - 1))
        return Wants(frozenset(keys), self._activity_window(now))

    def tick(self, now: datetime, clockwork: Clockwork | None = None) -> Effects:
        """Open, close and resolve steps whose time has come (repeat until nothing moves).

        ``clockwork`` is what the shell answers to :meth:`wants`: a step opens only once the
        previous step's result is published. The clock stops where it needs something it was
        not told (the post counts of a round that opened in this tick): ask again.
        """
        clockwork = clockwork or Clockwork()
        self.learn(clockwork.published)
        out = Effects()
        for _ in range(8):  # a few transitions can fall due at once after a long outage
            moved = self._step(now, clockwork, out)
            if not moved:
                break
        return out

    def _step(self, now: datetime, clockwork: Clockwork, out: Effects) -> bool:
        """Do what the open phase awaits (:data:`PHASE_GRAPH`), if its time has come."""
        state = self.state
        row = PHASE_GRAPH[state.phase]
        if row.due is Due.START:
            if now < self.game.start:
                return False
            return self._open(self.ruleset.first_phase, self.ruleset.first_number, self.game.start, out)
        if row.due is Due.PUBLICATION:
            assert row.finished is not None
            if self._nothing_to_announce():
                at = self._closed_by(now)  # werewolf night 0: day 1 opens at 06:00, unannounced
            else:
                published = self.published.get(self.gate_key())
                if published is None or published > now:
                    return False
                at = published
            phase, n = self.ruleset.next_step(row.finished, state.number)
            return self._open(phase, n, at, out)
        times = self.times()
        if row.due is Due.NOTHING or times is None:
            return False
        if row.due is Due.NIGHT_CLOSE:
            self._night_phases_closed(now, times, out)
            if now >= times.closes or (self.early_close and self._night_complete()):
                at = min(now, times.closes)
                self._resolve(CloseNight(at), out, at)
                return True
            return False
        at = self._round_due(now, times)
        if at is None:
            return False
        if state.round == 1 and self.profile.clock.records_activity and clockwork.activity is not None:
            if clockwork.activity.window != self._activity_window(now):
                return False  # the counts of this round's window come with the next tick
            out.events += self.apply(RecordActivity(frozen_map(clockwork.activity.counts)))
        self._resolve(CloseRound(at), out, at)
        return True

    def _round_due(self, now: datetime, times: PhaseTimes) -> datetime | None:
        """When the open round closes if it closes at ``now`` (its time is up, every ballot
        is in, or 加速), else ``None``."""
        state = self.state
        opens, closes = times.rounds.get(state.round, (times.opens, times.closes))
        early = (
            self.early_close and state.round in (1, 2) and self._vote_complete(now, opens)
        ) or self.ruleset.speed_up_ready(state)  # werewolf 加速 (W-D7)
        return min(now, closes) if now >= closes or early else None

    def _activity_window(self, now: datetime) -> tuple[datetime, datetime] | None:
        """The window of post counts the ruleset records as the first round closes at
        ``now`` (posts made during the night count toward the day, RES-C19), or ``None``."""
        state = self.state
        if not (self.profile.clock.records_activity and state.phase is Phase.DAY and state.round == 1):
            return None
        times = self.times()
        at = self._round_due(now, times) if times is not None else None
        if times is None or at is None:
            return None
        return (state.params.get("activity_from") or times.opens, at)

    def _nothing_to_announce(self) -> bool:
        """The step just resolved has no public post (the condition of :func:`drafts_for_step`)."""
        report = self.state.step_report
        return not (report.public_facts or report.vote_tally or report.winner)

    def _closed_by(self, now: datetime) -> datetime:
        """When the step just resolved closed, at the latest (its clock's close, or now)."""
        state = self.state
        done = PHASE_GRAPH[state.phase].finished
        opened = state.params.get("opened_at")
        if opened is None or done is None:
            return now
        return min(now, self.ruleset.phase_times(state, done, state.number, opened).closes)

    def _night_phases_closed(self, now: datetime, times: PhaseTimes, out: Effects) -> None:
        """Private results due as each night phase closes (werewolf: the witch's 【通灵】 list
        when 夜晚1 closes, RES-W3), each proposed once."""
        n = self.state.number
        for phase, deadline in sorted(times.phase_deadlines.items()):
            if now < deadline or (n, phase) in self._phase_results_sent:
                continue
            self._phase_results_sent.add((n, phase))
            for result in self.ruleset.night_phase_closed(self.state, phase):
                key = self.keys.night_phase_result(n, result.text_kind, result.to)
                text = private_text(self.templates, result, roles=self.ruleset.info.roles)
                out.drafts.append(Draft(key, result.text_kind, "pm", result.to, text))

    def _open(self, phase: Phase, n: int, at: datetime, out: Effects) -> bool:
        # Rulesets read wall-clock times (werewolf 06:00/21:00, the chess weekend) off the
        # datetime they get: give them the forum's clock, not the store's UTC.
        at = at.astimezone(self.tz)
        probe = replace(self.state, phase=phase, number=n, params=frozen_map({"opened_at": at}))
        times = self.ruleset.phase_times(probe, phase, n, at)
        params: dict[str, Any] = {"opened_at": at}
        if phase is Phase.NIGHT:
            params["window_open"] = at
            if times.input_deadline is not None:
                params["deadline"] = times.input_deadline
            if times.phase_deadlines:
                params["phase_deadlines"] = frozen_map(times.phase_deadlines)
        else:
            # Posts made during a night count toward the next day (chess lurking, RES-C19).
            previous = self.state.params.get("opened_at") if self.state.phase is Phase.DAWN else None
            params["activity_from"] = previous or at
            for rnd, key in ((1, "round1_close"), (2, "round2_close")):
                if rnd in times.rounds:
                    params[key] = times.rounds[rnd][1]
        command = OpenNight(n, frozen_map(params)) if phase is Phase.NIGHT else OpenDay(n, frozen_map(params))
        events = self.apply(command)
        out.events += events
        out.extend(self._notes(events, None))
        out.drafts += self.drafts_for(events, self.state)
        return True

    def _resolve(self, command: Command, out: Effects, at: datetime) -> None:  # noqa: ARG002
        before = self.state
        events = self.apply(command)
        out.events += events
        out.extend(self._notes(events, None))
        out.drafts += self.drafts_for(events, before)

    def _night_complete(self) -> bool:
        """Every living player with a night power has submitted something."""
        info = self.ruleset.info
        actors = {s.actor for s in self.state.submissions}
        needed = [s.name for s in self.state.alive() if info.roles[s.role].powers]
        return bool(needed) and all(n in actors for n in needed)

    def _vote_complete(self, now: datetime, opens: datetime) -> bool:
        """Every living player has a ballot in the open round."""
        if now < opens:
            return False
        voters = {b.voter for b in self.state.ballots if b.round == self.state.round}
        facts = self.context(now).phase
        barred = {facts.bound, *facts.sent_off}  # the bound survivor (束魂), the sent off
        return all(s.name in voters for s in self.state.alive() if s.name not in barred)

    # -- announcements ---------------------------------------------------------------------------

    def gate_key(self) -> str:
        """The public announcement whose publication opens the next step.

        Deaths take effect, and the next step's clock starts, when the GM announces them.
        """
        done = PHASE_GRAPH[self.state.phase].finished or Phase.DAY
        return self.keys.public(step_label(done, self.state.number))

    def drafts_for(self, events: list[Event], before: GameState) -> list[Draft]:
        """Announcements for ``events``: a resolution's post and PMs, and answers given at once
        (the penalty divination is answered as soon as it is submitted, RES-A19)."""
        drafts: list[Draft] = []
        for event in events:
            if isinstance(event, PowerSubmitted) and event.report.private_results:
                after = self.ruleset.evolve(before, event)
                step = drafts_for_step(
                    self.templates, game=self.keys.game, label=answer_label(event.submission.seq), title="",
                    thread=self.game.vote_thread, report=replace(event.report, public_facts=()),
                    evidence=(event.submission.evidence,) if event.submission.evidence else (),
                    targets=_targets(after, event.report), roles=self.ruleset.info.roles,
                )  # fmt: skip
                drafts += [d for d in step if d.channel == "pm"]
                continue
            if isinstance(event, (ExitDeclared, SubstitutionScheduled)):
                drafts += self._notice(event)
                continue
            if not isinstance(event, Resolved):
                continue
            label = self._label(before, event)
            title = self._title(before, event)
            declarations = _declarations(before)
            evidence = _step_evidence(before)
            report = event.report
            if event.outcome is not None and not report.winner:
                # The end of the game is announced with the resolution that decided it.
                report = replace(report, winner=event.outcome.winner)
            step = drafts_for_step(
                self.templates, game=self.keys.game, label=label, title=title, thread=self.game.vote_thread,
                report=report, declarations=declarations, evidence=evidence,
                runoff_template=self.profile.ballots.runoff_template,
                targets=_targets(before, event.report), roles=self.ruleset.info.roles,
            )  # fmt: skip
            # A private answer cites its recipient's own submissions only (the seer's PM).
            info = self.ruleset.info
            step = [replace(d, evidence=_own_evidence(before, d.destination, info)) if d.channel == "pm" else d
                    for d in step]  # fmt: skip
            drafts += step
            for d in step:
                if d.channel == "thread":
                    self.pending_public[d.key] = d.text
        return drafts

    def _notice(self, event: ExitDeclared | SubstitutionScheduled) -> list[Draft]:
        """The public post of an exit without substitute, or of a substitute taking over a seat
        where the ruleset publishes substitutions (family A), proposed when the GM records it."""
        if isinstance(event, ExitDeclared):
            key, kind, report = self.keys.exit(event.name), "exit", event.report
            if event.outcome is not None and not report.winner:
                report = replace(report, winner=event.outcome.winner)
        else:
            key, kind = self.keys.substitution(event.old, event.new), "substitution"
            report = self.ruleset.substitution_report(event.old, event.new)
        if not (report.public_facts or report.winner):
            return []
        text = public_text(self.templates, "", report, {}).lstrip("\n")
        self.pending_public[key] = text
        return [Draft(key, kind, "thread", self.game.vote_thread, text)]

    def _label(self, before: GameState, event: Resolved) -> str:
        """``night1``, ``day1``, or ``day1.r1`` for a round that leads to another."""
        return step_label(before.phase, before.number, before.round if event.next_round else None)

    def _title(self, before: GameState, event: Resolved) -> str:
        name = "night_title" if before.phase is Phase.NIGHT else "day_title"
        return self.templates.render(name, n=before.number)

    def _notes(self, events: list[Event], evidence: str | None) -> Effects:
        """Daemon decisions of the rules core, as GM alerts (in the GM's words)."""
        out = Effects()
        for event in events:
            for i, n in enumerate(event.report.daemon):
                alert = _note_alert(self.templates, self.keys, self.state, n, i, evidence or _evidence_of(event))
                hint = self._what_to_do(n)
                if hint:
                    alert = replace(alert, message=f"{alert.message}；{hint}")
                out.alerts.append(alert)
        return out

    def _what_to_do(self, n: DaemonNote) -> str:
        """What the GM can do about a decision that removes or replaces a player."""
        bench = [s for s in self.game.substitutes if not self.state.has_player(s)]
        if (n.rule, n.verdict) == ("lurking", "replaced"):
            new = bench[0] if bench else "新玩家"
            return f"两次潜水警告：换人（shenshi substitute {n.who} {new}）或淹死（shenshi override exit {n.who}）"
        return ""


def _step_evidence(state: GameState) -> tuple[str, ...]:
    """The posts and PMs behind a step's result: its submissions, and the closing round's
    ballots (a vote result lists each ballot), in the order they were made."""
    subs = sorted(state.submissions, key=lambda s: s.sort_key())
    ballots = sorted((b for b in state.ballots if b.round == state.round), key=lambda b: b.sort_key())
    found = [s.evidence for s in subs] + [b.evidence for b in ballots]
    return tuple(dict.fromkeys(e for e in found if e))


def _own_evidence(state: GameState, to: str, info: RulesetInfo) -> tuple[str, ...]:
    """The submissions of ``to`` (or of his joint unit, which shares one answer) this step."""
    unit = {to}
    if state.has_player(to) and info.roles[state.seat(to).role].joint:
        seat = state.seat(to)
        unit |= {s.name for s in state.seats if s.role == seat.role and s.team == seat.team}
    subs = sorted((s for s in state.submissions if s.actor in unit), key=lambda s: s.sort_key())
    return tuple(dict.fromkeys(s.evidence for s in subs if s.evidence))


def _evidence_of(event: Event) -> str | None:
    if isinstance(event, PowerSubmitted):
        return event.submission.evidence
    return None


def _note_alert(
    t: Templates, keys: GameKeys, state: GameState, n: DaemonNote, i: int, evidence: str | None
) -> GmAlert:
    key = keys.rule_alert(state.phase, state.number, state.round, n.who, n.rule, str(evidence or i))
    detail = t.render("alert_rule_detail", detail=n.detail) if n.detail else ""
    message = t.render("alert_rule", who=n.who, rule=rule_name(n.rule), verdict=verdict_name(n.verdict), detail=detail)
    return GmAlert(key, f"rule:{n.rule}", message, n.who, evidence)


_ASKED = {"divination": "divine", "extra_divination": "divine", "prophecy": "divine", "check": "check"}


def _targets(state: GameState, report: Report) -> dict[tuple[str, str], str]:
    """Whom each answered divination or check was about (a joint unit shares one target)."""
    out: dict[tuple[str, str], str] = {}
    for r in report.private_results:
        action = _ASKED.get(r.text_kind)
        if action is None:
            continue
        role = state.seat(r.to).role if state.has_player(r.to) else None
        asked = [
            s for s in state.submissions
            if s.action == action and s.target
            and (s.actor == r.to or (role and state.has_player(s.actor) and state.seat(s.actor).role == role))
            and bool(s.extra.get("extra_divination")) == (r.text_kind == "extra_divination")
        ]  # fmt: skip
        if asked:
            out[(r.to, r.text_kind)] = max(asked, key=lambda s: s.sort_key()).target or ""
    return out


def _declarations(state: GameState) -> dict[str, str]:
    """The kill declarations (chess: kill posts, cannons' too) by victim (published with a death)."""
    out: dict[str, str] = {}
    for s in sorted(state.submissions, key=lambda s: s.sort_key()):
        text = s.extra.get("declaration")
        if s.action in (KILL, CANNON_KILL) and s.target and text:
            out[s.target] = str(text)
    return out


_SPACE = re.compile(r"\s+")


def _same_announcement(draft: str, posted: str) -> bool:
    """Whether the GM's post publishes the draft: its title line, or most of its text."""
    first = draft.strip().splitlines()[0] if draft.strip() else ""
    if first and first in posted:
        return True
    a, b = _SPACE.sub("", draft), _SPACE.sub("", posted)
    return bool(a) and difflib.SequenceMatcher(None, a, b).ratio() > 0.7


__all__ = ["Clockwork", "Effects", "GmAlert", "PhaseOpened", "PostCounts", "Referee", "Report", "Wants"]
