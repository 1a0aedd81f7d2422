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
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, tzinfo
from typing import Any

from shenshi.config import GameConfig
from shenshi.daemon import notices, stray
from shenshi.daemon.announce import (
    Draft,
    Templates,
    drafts_for_step,
    execution_lines,
    has_public_post,
    private_text,
    public_text,
    seat_names,
    seats_renamed,
    shown_as,
)
from shenshi.daemon.context import build_context, told_out, unpublished_deaths
from shenshi.daemon.gm_text import (
    describe_ballot,
    describe_submission,
    detail_words,
    refusal,
    round_name,
    rule_name,
    seat_played,
    verdict_name,
    who_name,
)
from shenshi.daemon.hints import (
    ACTION,
    RECEIPT,
    Cause,
    Happening,
    action_step,
    ballot_step,
    intake_cause,
    resolutions,
    rule_cause,
)
from shenshi.daemon.keys import GameKeys, answer_label, step_label
from shenshi.daemon.resend import RESENDABLE, Awaited, Refusal
from shenshi.daemon.sharing import COUNTS, REFUSED, UNSURE
from shenshi.daemon.timeline import NOT_YET, Window, window_of
from shenshi.intake import IntakeResult, read_gm_entry, read_pm, read_post, read_post_edit
from shenshi.intake.context import GameContext
from shenshi.intake.model import IntakeCommand
from shenshi.intake.receipts import accepted, rejected, until
from shenshi.records import Post, PrivateMessage
from shenshi.rulesets.base import (
    ABSTAIN,
    PHASE_GRAPH,
    Ballot,
    BallotOverridden,
    CastBallot,
    CloseNight,
    CloseRound,
    Command,
    DaemonNote,
    DeclareExit,
    Due,
    EarlyClose,
    Event,
    ExecutionForced,
    ExitDeclared,
    GameState,
    IllegalActionError,
    LastWordsRecorded,
    OpenDay,
    OpenNight,
    Phase,
    PhaseOpened,
    PhaseTimes,
    PowerSubmitted,
    PrivateResult,
    RecordActivity,
    RecordLastWords,
    Report,
    Resolved,
    Ruleset,
    RulingApplied,
    Submission,
    SubmissionVoided,
    Submit,
    SubstitutionScheduled,
    VoidAction,
    frozen_map,
)
from shenshi.rulesets.catalog import KILL, TEAM_NAMES, RulesetInfo
from shenshi.rulesets.profile import LastWordsNotice
from shenshi.sent_text import skeleton

BALLOTS = frozenset({"vote", "abstain", "delegate_vote"})  # intake's ballot commands
SUMMONING = 3  # the day's third round: family A's 招魂 (D-4, gm_text.round_name)
ENDED = {Phase.DAWN: Phase.NIGHT, Phase.DUSK: Phase.DAY}  # the step a phase between two steps follows
# Referee decisions published when made, even while a settled night waits for 06:00 (§5.8: 判罚
# 公示, with their reason; wolfadv W11): not part of the night's result.
AT_ONCE = frozenset({"penalty", "send_off"})

# Deadlines a substitution can move, as the players are told (``moved_*`` templates).
MOVABLE = ("vote_opens", "vote_closes", "day_end", "night_end", "action_deadline", "night_phase")


@dataclass(frozen=True)
class GmAlert:
    """Something for the GM: intake could not be sure, or a rule decided against a player."""

    key: str  # deterministic (idempotent storage)
    kind: str
    message: str
    subject: str | None = None
    evidence: str | None = None
    cause: Cause | None = None  # what it is about, which resolves it (hints.Cause)


@dataclass(frozen=True)
class Moment:
    """A time the phase clock acts at in the open step (:meth:`Referee.deadlines`).

    ``what``: ``game_start``, ``night_phase`` (``detail``: its key, 夜晚1 = ``"1"``),
    ``action_deadline``, ``night_settles``, ``night_end``, ``dawn_post`` (a settled night's
    result, held until its announcement time), ``vote_opens``, ``vote_closes``, ``day_end``.
    """

    what: str
    at: datetime
    detail: str = ""


@dataclass(frozen=True)
class HeldDawn:
    """A night settled before its close (werewolf: when 夜晚2 closes): its result post and
    answers wait for the announcement ``at`` the night's close; ``later`` is what the step's
    report gained in between (a sheriff named by the GM)."""

    at: datetime
    before: GameState
    event: Resolved
    later: Report = field(default_factory=Report)


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


# Intake alerts that hold no command, and those that refuse a command for the step it came in
# (routing a PM between games trusts the latter only where the step is surely the PM's).
NOT_COMMANDS = frozenset({"not_a_command", "question", "unclosed_quote"})
STEP_REFUSALS = frozenset({
    "pm_window", "not_in_phase", "after_deadline", "phase_deadline", "wrong_phase", "phase_not_open",
    "no_vote_open", "vote_closed", "extra_divination_deadline", "last_words_late", "last_words_not_granted",
})  # fmt: skip


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
        # Other names the forum showed for a player's uid (renamed on the forum), by seat name:
        # read as his, like nicknames (the shell learns them from the stored posts and PMs).
        self.forum_names: dict[str, tuple[str, ...]] = {}
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
        self._notices_sent: set[str] = set()  # the clock's notices proposed by this process
        self._held: HeldDawn | None = None
        # Last words written in private, to publish the next day: (game day, author, text).
        self._last_words: list[tuple[int, str, str]] = []
        # What the events applied since the shell last stored them resolve (hints.resolutions).
        self.happened: list[Happening] = []
        self.last_night: PhaseTimes | None = None  # the clock of the night settled last
        self.last_night_key = ""  # … and the announcement of its result (its window closes then)
        # 替补: who took (or is taking) each seat over, by the one who left it (old → new).
        self.successors: dict[str, str] = {}
        # when each replaced player left his seat (the GM's `substitute`): what he wrote before
        # it is his seat's, whenever it is read (the shell tells; a restart reads the players table)
        self.left_at: dict[str, datetime] = {}
        # the open step's submissions the GM voided, by the evidence that made them: (actor,
        # action, target); their receipts no longer stand (kept in replay too)
        self.voided: dict[str, tuple[str, str, str]] = {}
        self.voided_entries: set[tuple[str, str]] = set()  # GM-entered actions voided since (actor, action)
        # the exit posts the GM recorded during the open step (kept in replay too): till one is
        # out, its seat still plays and the step does not end early (newcomer N-14)
        self.exits_in_step: list[str] = []
        self._early_now = True  # whether the clock's tick may end a complete step early (see tick)
        # a day's result the GM corrected after it was settled (``override execute``): its key →
        # (the lines that said the execution and winner, the lines that say them now)
        self.corrected: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        # A settled day whose execution the GM corrected: the kinds of its result's PMs (the
        # identity to the camp's general…), and the keys of those the correction stands by
        # (day label → (kinds, keys)); the others are moot (gmattack2 F13)
        self.result_pms: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        # Unconfirmed exits (key → (text, player)): the GM who posts one himself confirms it.
        self.to_confirm: dict[str, tuple[str, str]] = {}
        # Refused PMs of the open step that their senders were told to send again: the step
        # runs to its deadline while one stands (RULES.md "Early close").
        self.awaited = Awaited()
        self._rulings: list[tuple[RulingApplied, str]] = []  # public GM rulings and their posts' keys

    # -- state -------------------------------------------------------------------------------

    def apply(self, command: Command) -> list[Event]:
        """Decide and evolve; raises :class:`IllegalActionError` (state untouched). What the
        events resolve (a ballot cast, a declaration that arrived…) is kept in
        :attr:`happened` until the shell stores it (and closes the alerts it resolves)."""
        events = self.ruleset.decide(self.state, command)
        state = self.state
        happened = []
        for event in events:
            self._remember(state, event)
            happened += resolutions([event], state, {n: self.partners(n, state) for n in _actors(event)})
            state = self.ruleset.evolve(state, event)
        self.state = state
        self.happened += happened
        return events

    def partners(self, name: str, state: GameState | None = None) -> tuple[str, ...]:
        """The other members of ``name``'s joint unit (the killers), who share its actions."""
        state = state or self.state
        if not state.has_player(name):
            return ()
        seat = state.seat(name)
        role = self.ruleset.info.roles.get(seat.role)
        if role is None or not role.joint:
            return ()
        return tuple(s.name for s in state.seats if s.name != name and s.role == seat.role and s.team == seat.team)

    def replay(self, events: Iterable[Event]) -> None:
        """Fold stored events into the state (no rules are re-run)."""
        self.replay_stored((event, None) for event in events)

    def replay_stored(self, stored: Iterable[tuple[Event, datetime | None]]) -> None:
        """Fold stored events, each with when it was stored, into the state (no rules are
        re-run): a GM's void or entry clears the refusals read before it was stored."""
        for event, recorded in stored:
            self._remember(self.state, event, recorded)
            self.state = self.ruleset.evolve(self.state, event)

    def _remember(self, before: GameState, event: Event, recorded: datetime | None = None) -> None:
        """What the announcements still to come need from ``event`` (kept in replay too): what
        each announcement publishes, last words to publish, a settled night whose result waits
        for its announcement time; the refused PMs it clears."""
        self._remember_announced(before, event)
        self.awaited.follow(event, recorded)
        if isinstance(event, SubstitutionScheduled):
            self.successors[event.old] = event.new
        if isinstance(event, ExecutionForced) and before.phase in (Phase.DUSK, Phase.OVER):
            was = replace(before.step_report, winner=before.outcome.winner if before.outcome else None)
            key = self.keys.public(step_label(Phase.DAY, before.number))
            # the seat named as the players know it (its announced substitute: recheck2 N2; the
            # day settles again from before its close, when the seat still had its old holder)
            entered = {old: new for old, new in self.successors.items()
                       if not before.has_player(old) and before.has_player(new)
                       and self.ruleset.substitution_report(old, new).public_facts}  # fmt: skip
            names = {**seat_names(self.templates, entered), **self._seats_shown(before)}
            shown, _ = shown_as(event.report, names)
            was, _ = shown_as(was, names)  # (as the pending post names it)
            now = execution_lines(self.templates, replace(shown, winner=None))
            ruled = [self.templates.render("execution_ruled", line=line) for line in now]  # the GM decided it
            won = execution_lines(self.templates, replace(event.report, public_facts=()))
            # a ruling that replaces an earlier ruling replaces its lines too (gmattack A8: the
            # post said 「新人丙 被处决，身份：杀手」 beside 「本日无人被处决」, a living killer's role)
            earlier = sum(self.corrected.get(key, ()), ())
            self.corrected[key] = (tuple(execution_lines(self.templates, was)) + earlier, tuple(ruled + won))
            label = step_label(Phase.DAY, before.number)
            kinds, _ = self.result_pms.get(label, (frozenset(), frozenset()))
            now_pms = self._execution_pms(before, event.report)
            kinds |= {d.kind for d in (*self._execution_pms(before, was), *now_pms)}
            self.result_pms[label] = (frozenset(kinds), frozenset(d.key for d in now_pms))
        if isinstance(event, SubmissionVoided) and not event.by_player:  # (his own: he knows)
            self.voided.update((str(s.evidence), (s.actor, s.action, s.target or "")) for s in before.submissions
                               if s.actor == event.actor and s.action == event.action and s.evidence)  # fmt: skip
            # one the GM entered has no PM of its own: its receipt is known by who and what (recheck3 F10)
            self.voided_entries |= {(s.actor, s.action) for s in before.submissions
                                    if s.actor == event.actor and s.action == event.action and s.extra.get("gm")}  # fmt: skip
        elif isinstance(event, PhaseOpened):
            self.voided.clear()
            self.voided_entries.clear()
            self.exits_in_step.clear()
        if isinstance(event, ExitDeclared) or (isinstance(event, RulingApplied) and event.kind == "exit"):
            self.exits_in_step.append(self.keys.exit(event.name))
        lw = self.profile.last_words
        if isinstance(event, LastWordsRecorded) and lw.published and not event.report.daemon:
            self._last_words.append((before.number, event.author, event.text))
        if isinstance(event, PhaseOpened):
            self._held = None
        elif isinstance(event, Resolved) and before.phase is Phase.NIGHT:
            self.last_night = self.times(before)
            self.last_night_key = self.keys.public(self._label(before, event))
            at = self._announced_at(before)
            self._held = HeldDawn(at, before, event) if at is not None else None
        elif self._held is not None and not (isinstance(event, RulingApplied) and event.kind in AT_ONCE):
            self._held = replace(self._held, later=self._held.later.merge(event.report))

    def _remember_announced(self, before: GameState, event: Event) -> None:
        """Note which announcement publishes what ``event`` reports (see :attr:`announced`)."""
        if isinstance(event, Resolved):
            key = self.keys.public(self._label(before, event))
        elif isinstance(event, ExitDeclared):
            key = self.keys.exit(event.name)
        elif isinstance(event, RulingApplied):
            key = self._ruling_key(event)  # numbered here, in the events' order (replay too)
            if event.outcome is None:
                return  # (only the end of the game's post must be known as the last one)
        else:
            return
        self.announced[key] = self.announced[key].merge(event.report) if key in self.announced else event.report

    @property
    def rulings(self) -> tuple[tuple[RulingApplied, str], ...]:
        """The public GM rulings so far, each with the key of its post."""
        return tuple(self._rulings)

    def _ruling_key(self, event: RulingApplied) -> str:
        """The key of the post of a GM ruling (an exit's is the exit's), the same in replay:
        rulings of one kind on one player are numbered in the order they were made (two
        penalties of one player are two posts)."""
        if event.kind == "exit":
            return self.keys.exit(event.name)
        for made, key in self._rulings:
            if made is event:
                return key
        earlier = sum(1 for made, _ in self._rulings if (made.kind, made.name) == (event.kind, event.name))
        key = self.keys.ruling(event.kind, event.name, earlier)
        self._rulings.append((event, key))
        return key

    def _settles_at(self, times: PhaseTimes) -> datetime:
        """When the open night settles: its close, or where the ruleset says so, when its last
        submission phase closes (werewolf: 夜晚2)."""
        if self.profile.clock.settles_at_last_phase and times.phase_deadlines:
            return min(max(times.phase_deadlines.values()), times.closes)
        return times.closes

    def _announced_at(self, night: GameState) -> datetime | None:
        """When the result of ``night`` (still open) is announced, if later than it settles."""
        times = self.times(night)
        if times is None or self._settles_at(times) >= times.closes:
            return None
        return times.closes

    def times(self, state: GameState | None = None) -> PhaseTimes | None:
        """The clock of the open step (of ``state``, default the game's), or ``None`` between
        steps."""
        state = state or self.state
        if state.phase not in (Phase.NIGHT, Phase.DAY):
            return None
        opened = state.params.get("opened_at")
        if opened is None:
            return None
        times = self.scheduled_times(state)
        assert times is not None
        if state.phase is Phase.DAY and state.round > 1 and state.round in times.rounds:
            times = self._later_round(times, state)
        return times

    def _settled_night(self, state: GameState) -> PhaseTimes | None:
        """The clock of the night ``state`` has settled and not announced yet (dawn), whose
        phase deadlines a late reply missed."""
        return self.scheduled_times(replace(state, phase=Phase.NIGHT)) if state.phase is Phase.DAWN else None

    def scheduled_times(self, state: GameState | None = None) -> PhaseTimes | None:
        """The open step's clock as the rules schedule it, before any announcement moves it
        (the vote opening post is proposed at the scheduled opening)."""
        state = state or self.state
        opened = state.params.get("opened_at")
        if state.phase not in (Phase.NIGHT, Phase.DAY) or opened is None:
            return None
        subs = len(state.pending_substitutions)
        return self.ruleset.phase_times(state, state.phase, state.number, opened, subs)

    @staticmethod
    def _has_opening_post(times: PhaseTimes) -> bool:
        """The first round opens later than the day (game6: the 13th hour), with its own post."""
        return 1 in times.rounds and times.rounds[1][0] > times.opens

    def ballots_from(self) -> datetime | None:
        """When the open round takes ballots from (``None``: no round open). A ballot counts
        from the rules' hour of its round (RULES.md §1.10: the vote thread opens at day hour 12),
        whether or not the GM's 「投票帖自…起开放投票」 is out yet: a player who votes at the
        rules' hour is never punished for the GM's delay (RES-A18 would remove him). A
        correction of a ballot is entered only from then on, as a ballot is counted only
        from then on."""
        times = self.times()
        if times is None or self.state.phase is not Phase.DAY or not self.state.round:
            return None
        return times.rounds.get(self.state.round, (times.opens, times.closes))[0]

    def awaited_opening(self) -> str | None:
        """The key of the vote's opening post while the open first round already counts ballots
        and the players have not read that it opened (F37), else ``None``."""
        return self._opening_key(self.state) if self._awaits_opening() else None

    def _awaits_opening(self) -> bool:
        """The open first round's opening post is not published yet."""
        state = self.state
        if state.phase is not Phase.DAY or state.round != 1:
            return False
        scheduled = self.scheduled_times()
        return scheduled is not None and self._has_opening_post(scheduled) and \
            self._opening_key(state) not in self.published

    def _opening_key(self, state: GameState) -> str:
        return self.keys.notice(step_label(Phase.DAY, state.number), "vote_open")

    def _later_round(self, times: PhaseTimes, state: GameState) -> PhaseTimes:
        """A runoff (生死投票, chess round 2) or 招魂 opens when the previous round's result is
        published, and lasts as long as the ruleset gives it: not at the scheduled close of the
        round before, which an early close (or a late approval) moves."""
        opens, closes = times.rounds[state.round]
        at = self.published.get(self._round_key(state.round - 1))
        if at is None:
            at = NOT_YET  # not announced: the round is not open
        rounds = {**times.rounds, state.round: (at, at + (closes - opens))}
        # the day resolves when its open round closes: not at the first round's scheduled close
        # (an early close ended it before, and with it any extension it had)
        day_closes = at + (closes - opens) if at < NOT_YET else max(times.closes, at + (closes - opens))
        return replace(times, rounds=frozen_map(rounds), closes=day_closes)

    def _round_key(self, rnd: int) -> str:
        return self.keys.public(step_label(Phase.DAY, self.state.number, rnd))

    def context(self, now: datetime, state: GameState | None = None):
        """The intake view of the game (or of ``state``) at ``now``."""
        state = state or self.state
        return build_context(
            self.ruleset, state, self.game, uids=self.uids, gm_name=self.gm_name,
            gm_uid=self.gm_uid, times=self.times(state) or self._settled_night(state), now=now, tz=self.tz,
            templates=self.templates,
            stand_ins=stand_ins(state), early_close=self.early_close,
            forum_names=self.forum_names, former_names=self._former_names(state), told_dead=self.told_dead(),
        )  # fmt: skip

    def told_dead(self) -> set[str]:
        """The dead whose announcement is out (an exit posted during the step: dead for the
        players although the step's result, which counts him too, is not)."""
        return {d.name for key, report in self.announced.items() if key in self.published for d in report.deaths}

    def _former_names(self, state: GameState) -> dict[str, tuple[str, ...]]:
        """The players whose seat each holder took over (a player who writes 占卜 月光 after
        admin replaced 月光 means the seat, as the substitution post told him)."""
        names: dict[str, tuple[str, ...]] = {}
        for old in self.successors:
            holder = self.holder_now(old, state)
            if holder != old and state.has_player(holder) and not state.has_player(old):
                names[holder] = (*names.get(holder, ()), old)
        return names

    def held_until(self) -> datetime | None:
        """When a settled night's result is announced, if it waits for its time (werewolf:
        settled as 夜晚2 closes, announced at 06:00)."""
        return self._held.at if self._held is not None else None

    def window_for(self, kind: str, action: str) -> tuple[Window | None, str]:
        """The window an alert about ``action`` of ``kind`` cites, and its name: a ballot's is the
        voting round's; a night action's the night's PM window (by day: the night settled last,
        never the vote's); late last words cite the deadline the player was told (the night's
        close)."""
        state = self.state
        night_window = PHASE_GRAPH[state.phase].due is Due.NIGHT_CLOSE
        if kind in ("no_vote_open", "vote_closed") or action in BALLOTS:
            if state.phase is not Phase.DAY:
                return None, ""
            window = window_of(state, self.times())  # (None: the next round is not announced yet)
            return window, "" if window is not None or not state.round or state.round < 2 else "between_rounds"
        if kind == "last_words_late":
            last = self.last_night
            return (Window(last.closes, last.closes), "last_words") if last is not None else (None, "")
        if night_window:
            return window_of(state, self.times()), ""
        last = self.last_night
        if last is None:
            return None, ""
        window = window_of(replace(state, phase=Phase.NIGHT), last)
        published = self.published.get(self.last_night_key) if self.last_night_key else None
        if window is not None and published is not None:  # A-S1: it closed at the announcement
            window = replace(window, closes=published)
        return window, "last_night"

    def next_window(self) -> datetime | None:
        """When the next night's PM window opens, where the clock knows it (by day: as today's
        result is published, at the day's close at the earliest; A-S1; :data:`NOT_YET` while
        a round to come is not announced: not known yet)."""
        state = self.state
        if state.phase is not Phase.DAY or state.outcome is not None:
            return None
        times = self.times()
        return times.closes if times is not None else None

    def watched(self) -> set[str]:
        """The posts and PMs (evidence ids) whose edits the GM must see: the ballots and
        submissions of the open step, or of the step just closed until the next one opens (an
        early close leaves time to edit)."""
        state = self.state
        found = {b.evidence for b in state.ballots} | {s.evidence for s in state.submissions}
        return {str(e) for e in found if e}

    def _as_read(self, evidence: str) -> GameState:
        """The game as it stood for the step a stored post was read in: an edit is compared
        with its first-seen text in that step, even after an early close or a new round."""
        state = self.state
        ballot = next((b for b in state.ballots if b.evidence == evidence), None)
        if ballot is not None and (state.phase is not Phase.DAY or ballot.round != state.round):
            return replace(state, phase=Phase.DAY, round=ballot.round)
        read = any(s.evidence == evidence for s in state.submissions)
        finished = PHASE_GRAPH[state.phase].finished
        if read and finished is not None:
            return replace(state, phase=finished)
        return state

    # -- inputs ------------------------------------------------------------------------------

    def read_post(self, post: Post, evidence: str) -> Effects:
        """A new post in a game thread (the first-seen text is what counts)."""
        if self._is_gm(post.author, post.author_uid):
            return self._gm_post(post)
        ctx = self.context(post.posted_at)
        result = read_post(ctx, post)
        if (left := self._left_seat(post.author, post.author_uid, post.posted_at)) is not None:
            return self._from_one_who_left(result, left, evidence)
        effects = self._intake(result, evidence, post.posted_at, "post", ctx)
        effects.drafts += stray.notices_for(self, result, post, evidence, ctx)  # a ballot outside the vote thread
        return effects

    def read_pm(self, pm: PrivateMessage, evidence: str) -> Effects:
        """A new PM to the GM."""
        if self._is_gm(pm.sender, pm.sender_uid):
            return Effects()
        ctx = self.context(pm.sent_at)
        result = read_pm(ctx, pm)
        if (left := self._left_seat(pm.sender, pm.sender_uid, pm.sent_at)) is not None:
            return self._from_one_who_left(result, left, evidence)
        return self._intake(result, evidence, pm.sent_at, "pm", ctx, pm.text)

    def judge_pm(self, pm: PrivateMessage, *, step_known: bool) -> str:
        """How ``pm`` (a PM of a player seated in another game too) reads in this game, nothing
        changed: :data:`~shenshi.daemon.sharing.COUNTS` (intake makes a command of it),
        ``REFUSED`` (a command this game refuses: a target it does not have, a role without
        the power, a dead player…; a refusal of the step only if ``step_known``: the step the
        state is in is the PM's) or ``UNSURE`` (no command: a question, a note)."""
        result = read_pm(self.context(pm.sent_at), pm)
        if result.commands:
            return COUNTS
        kinds = {a.kind for a in result.alerts}
        if not kinds - NOT_COMMANDS or (kinds & STEP_REFUSALS and not step_known):
            return UNSURE
        return REFUSED

    def read_edit(self, first: Post, revision: Post, evidence: str) -> Effects:
        """A later revision of a post: shown to the GM when it changes a vote or an action."""
        as_read = self._as_read(evidence)
        context = self.context(revision.posted_at, as_read)
        result = read_post_edit(context, first, revision)
        out = Effects()
        for i, alert in enumerate(result.alerts):
            cause = intake_cause(alert.kind, alert.subject, alert.action, alert.target, alert.suggestions,
                                 as_read, "post")  # fmt: skip
            out.alerts.append(
                GmAlert(self.keys.edit_alert(evidence, revision.text, i), alert.kind, alert.message, alert.subject,
                        evidence, cause)  # fmt: skip
            )
        return out

    def _left_seat(self, name: str, uid: str | None, at: datetime) -> tuple[str, str] | None:
        """``(he, his substitute)`` when the author left his seat to a substitute (who enters
        at the step's end, or entered: the seat is the substitute's), else ``None``. What he
        wrote ``at`` a time before he left counts for the seat while he still holds it, however
        late it is read (a substitution racing the daemon's poll changes nothing)."""
        for new, old in stand_ins(self.state).items():
            if (uid is not None and uid == self.uids.get(old)) or name == old:
                if old in self.left_at and at < self.left_at[old]:
                    return None
                return old, new
        for old, new in self.successors.items():  # entered already: the seat is his
            if self.state.has_player(old) or not self.state.has_player(new):
                continue
            if (uid is not None and uid == self.uids.get(old)) or name == old:
                return old, new
        return None

    def _from_one_who_left(self, result: IntakeResult, left: tuple[str, str], evidence: str) -> Effects:
        """What a player who left his seat still sends counts for nothing (his substitute plays
        it): one alert for the GM, no receipt; his talk is only talk."""
        if not (result.commands or result.alerts):
            return Effects()
        old, new = left
        text = self.templates.render("alert_left_seat", player=old, substitute=new)
        return Effects(alerts=[GmAlert(self.keys.reply(evidence, "left_seat"), "left_seat", text, old, evidence)])

    def _is_gm(self, name: str, uid: str | None) -> bool:
        return (uid is not None and uid == self.gm_uid) or name == self.gm_name

    def is_gm_name(self, name: str) -> bool:
        """Whether ``name`` is the GM's account (神的使者), which never plays a seat."""
        return self._is_gm(name, None)

    def _intake(
        self, result: IntakeResult, evidence: str, at: datetime, channel: str, ctx: GameContext | None = None,
        text: str = "",
    ) -> Effects:
        out = Effects()
        # A short kill declaration is the rules' to flag, once, at the close, for the unit's
        # longest (RES-A5): the player's receipt says it is short; the GM is not told twice.
        short = self.profile.kill_post.short_alert if self.profile.kill_post is not None else None
        for i, alert in enumerate(result.alerts):
            if alert.kind == short:
                continue
            cause = intake_cause(alert.kind, alert.subject, alert.action, alert.target, alert.suggestions,
                                 self.state, channel, at.astimezone(self.tz), _number(evidence))  # fmt: skip
            if cause is not None and cause.what == ACTION and text and ctx is not None:
                cause = replace(cause, declared=self._declaration_written(ctx, alert, text, at))
            message = alert.message
            if (new := dict(self.state.pending_substitutions).get(alert.subject or "")) is not None:
                # the seat as status names it: who plays it now writes (newcomer4 G6)
                message = message.replace(alert.subject or "", seat_played(alert.subject or "", new), 1)
            out.alerts.append(
                GmAlert(self.keys.intake_alert(evidence, i), alert.kind, message, alert.subject, evidence, cause)
            )
            if alert.kind == "no_vote_open" and alert.subject:
                out.drafts += self._vote_not_open(alert.subject, evidence, at)
            if alert.kind == "not_a_candidate" and alert.subject and channel == "post":
                out.drafts += self._not_a_candidate(alert.subject, alert.target, evidence, at)
            if alert.kind == "vote_immutable" and alert.subject:
                out.drafts += self._kept_gm_ballot(alert.subject, alert.target, evidence, at)
            if alert.kind in CHANGE_REFUSED and alert.subject and channel == "post":
                out.drafts += self._change_refused(alert.kind, alert.subject, alert.target, evidence, at)
        refused: set[int] = set()  # commands the rules core refused: no "已收到" for them
        # commands not taken, with why (a stand-in's ballot where the seat's ballot stands, a
        # declaration with no kill to go with)
        standing: dict[int, str] = {}
        answered: set[int] = set()  # commands answered at once (the penalty divination)
        for n, command in enumerate(result.commands):
            if command.action in ("vote", "abstain") and self.summoning() and not command.extra.get("summoned"):
                refused.add(n)  # 招魂: only the summoned victims vote (D-4); the voter is told
                out.drafts += self._summoning_only(command.actor, evidence, at)
                continue
            core = self.translate(for_the_seat(command, stand_ins(self.state)), evidence, at)
            if core is None:
                if command.action == "kill_declaration":  # nothing it can go with: not 已收到
                    standing[n] = self.templates.render("reason_declaration_without_kill")
                continue
            if (kept := self._seat_ballot_stands(command, core)) is not None:
                standing[n] = kept
                continue
            before = self.state
            try:
                events = self._apply_input(core)
            except IllegalActionError as exc:
                refused.add(n)
                if command.action in BALLOTS and before.phase in (Phase.DAY, Phase.DUSK, Phase.OVER):
                    # a ballot after its round closed: a late ballot (at dawn no round has closed
                    # yet: the step is settled, refused as any command is)
                    out.extend(self._late_ballot(command, evidence, at, channel))
                    continue
                out.alerts.append(
                    GmAlert(
                        self.keys.refused(evidence, command.action), "not_in_phase",
                        self.templates.render("alert_not_in_phase", player=command.actor,
                                              verb=self.ruleset.info.action_name(command.action),
                                              error=refusal(str(exc))),
                        command.actor, evidence,
                        Cause(RECEIPT, command.actor, action_step(self.state), command.action, channel=channel,
                              evidence=_number(evidence)),
                    )  # fmt: skip
                )
                continue
            out.events += events
            out.extend(self._notes(events, evidence))
            out.alerts += self._disagreement(before, events, evidence)
            out.drafts += self.drafts_for(events, before)
            out.alerts += self._words_after_post(events, evidence)
            if any(isinstance(e, PowerSubmitted) and e.report.private_results for e in events):
                answered.add(n)  # its answer goes at once: it is the receipt (one PM per fact)
        self._await_resends(result, evidence, at)
        # a kill the rules refused (the night settled) has no declaration to miss (recheck3 F3)
        refused_kills = {result.commands[n].actor for n in refused if result.commands[n].action == KILL}
        out.alerts = [a for a in out.alerts if not (a.kind == "declaration_missing" and a.subject in refused_kills)]
        # The step ends now, everything being in (RULES.md "Early close"): the receipts of what
        # completed it say so, not that it may still change.
        closing = ctx is not None and ctx.phase.closes_early and bool(result.commands) and self._closes_early()
        if self.game.receipts:
            out_of_window = self.templates.render("reason_pm_window")
            # the step it answers in: once another opens, what it promised until then is over (wolfadv W1)
            step = {"step": step_label(self.state.phase, self.state.number)} if self.state.phase in (Phase.NIGHT, Phase.DAY) else None
            unannounced = self.unannounced_names()  # (a seat taken over unannounced: its character's name)
            for i, receipt in enumerate(result.receipts):
                if receipt.command in answered:
                    continue
                text = seats_renamed(receipt.text, unannounced) if unannounced else receipt.text
                if closing and ctx is not None and receipt.command is not None:
                    note = until(ctx, result.commands[receipt.command])
                    text = text.replace(note, self.templates.render("receipt_until_closing"), 1)
                if receipt.command is None and (opens := self.next_window()) is not None and out_of_window in text:
                    shown = opens.astimezone(self.tz).strftime("%m-%d %H:%M")
                    ends = "。" if text.endswith("。") else ""  # (the note goes inside the sentence)
                    note = (self.templates.render("receipt_next_window", opens=shown) if opens < NOT_YET
                            else self.templates.render("receipt_next_window_later"))  # (a runoff to come)
                    text = text.removesuffix(ends) + note + ends
                if receipt.command is None and (moot := self._resend_moot(receipt.to, result, at)) is not None:
                    text = moot  # (it asked him to send it again: nothing he sends now counts)
                if receipt.command in refused or receipt.command in standing:
                    command = result.commands[receipt.command]
                    verb = self.ruleset.info.action_name(command.action)
                    why = standing.get(receipt.command) or self._closed_reason(command)
                    text = rejected(self.templates, verb, command.target, why)
                out.drafts.append(Draft(self.keys.receipt(evidence, i), "receipt", "pm", receipt.to, text, (evidence,),
                                        notes=step))
        if channel == "post":
            out.alerts = _one_per_post(out.alerts, evidence)
        return out

    def _await_resends(self, result: IntakeResult, evidence: str, at: datetime) -> None:
        """The senders this post or PM left with a refusal that asks them to send it again (its
        receipt proposed): the open step waits for them (read after its commands, so that a PM
        with one line taken and one refused still waits)."""
        told = {r.to for r in result.receipts if r.command is None} if self.game.receipts else set()
        for alert in result.alerts:
            if alert.kind in RESENDABLE and alert.subject in told:
                self.refused_resendable(Refusal(alert.subject, alert.kind, at, evidence))

    def _resend_moot(self, to: str, result: IntakeResult, at: datetime) -> str | None:
        """The receipt of ``to``'s refused command that asked him to send it again, when nothing
        he sends now could count (recheck3 F3: 「请直接写明对象重新发送」 after the night
        settled): why it is closed instead, as a command of his would be refused now (``None``:
        a resend may still count, or the receipt asks none)."""
        asked = next((a for a in result.alerts if a.kind in RESENDABLE and a.subject == to), None)
        if asked is None or self._resend_counts(asked.action or "", at):
            return None
        verb = self.ruleset.info.action_name(asked.action) if asked.action else ""
        why = self._closed_reason(IntakeCommand(asked.action or "", to, None, {}))
        return rejected(self.templates, verb or self.templates.render("receipt_command_word"), None, why)

    def _resend_counts(self, action: str, at: datetime) -> bool:
        """Whether a command sent again at ``at`` could still count: the step takes commands
        (the night or the day, not settled), and the werewolf night phase of ``action`` has not
        closed."""
        state = self.state
        if state.outcome is not None or state.phase not in (Phase.NIGHT, Phase.DAY):
            return False
        return self.night_phase_closed(action, at) is None

    def night_phase_closed(self, action: str, now: datetime) -> datetime | None:
        """When the open night's submission phase of ``action`` closed (werewolf 夜晚1 at
        00:00), if it has by ``now``; ``None`` while it is open, or where nights have no phases."""
        which = self.profile.skills.night_phases.get(action) if action else None
        times = self.times()
        if which is None or times is None or self.state.phase is not Phase.NIGHT:
            return None
        closed = times.phase_deadlines.get(str(which))
        return closed if closed is not None and now >= closed else None

    def refused_resendable(self, refusal: Refusal) -> None:
        """A holder's latest PM was refused and he was told to send it again (intake's
        refusal, or a PM whose game is unknown): the open step waits for him."""
        state = self.state
        if state.phase in (Phase.NIGHT, Phase.DAY) and state.has_player(refusal.who) and state.seat(refusal.who).alive:
            self.awaited.refuse(refusal)

    def entered_receipt(self, submission: Submission, written: str, now: datetime) -> str:
        """The receipt of an action the GM entered for a PM that could not be read (``written``:
        what the PM said, as its refusal quoted it): what was recorded, as the player's own PM
        would have been answered."""
        s = submission
        command = IntakeCommand(s.action, s.actor, s.target, s.extra)
        ctx = self.context(now)
        text = accepted(ctx, command)
        if self.state.phase is Phase.NIGHT and any(s.actor in members for members, _ in self.disagreements(self.state)):
            # his unit disagrees: no early close is promised (newcomer N4), as his partner's receipt says
            t = self.templates
            text = text.replace(t.render("receipt_until_settled"), t.render("receipt_until_agreed"), 1)
        return self.templates.render("receipt_entered", text=text, written=written)

    def _declaration_written(self, ctx: GameContext, alert: Any, text: str, at: datetime) -> str:
        """The kill declaration the player wrote in a PM whose action intake could not read (a
        misspelt target): read as the GM's entry of it would read it, the name written taken
        as the one it came closest to, so that the GM's next step carries it ('': none)."""
        if self.profile.kill_post is None or not alert.subject or not alert.action:
            return ""
        probe = next(iter(alert.suggestions), "") or next(
            (s.name for s in self.state.alive() if s.name != alert.subject), ""
        )
        written = alert.target or ""
        if not probe or (written and written not in text):
            return ""
        fixed = text.replace(written, probe, 1) if written else text
        entry = read_gm_entry(ctx, alert.subject, fixed, at)
        found = next((c for c in entry.commands if c.action == alert.action), None)
        return str(found.extra.get("declaration") or "") if found is not None else ""

    def _seat_ballot_stands(self, command: IntakeCommand, core: Command) -> str | None:
        """A substitute still entering votes for his seat only if it has no ballot in the open
        round yet: one the replaced player cast stands for the seat (RULES.md "The substitute's
        own clocks") where a ballot is final (family A, D-I); where the seat may change its
        ballot (werewolf, chess32), his is the seat's change (adversary6 C7). The reason for
        his receipt when it stands, else ``None``."""
        if not isinstance(core, CastBallot) or command.actor == core.voter or self.profile.ballots.changes != 0:
            return None
        rnd = core.round if core.round is not None else self.state.round
        cast = [b for b in self.state.ballots if b.voter == core.voter and b.round == rnd]
        if not cast:
            return None
        last = max(cast, key=lambda b: b.sort_key())
        target = self.templates.render("abstain_word") if last.target == ABSTAIN else last.target
        return self.templates.render("reason_seat_ballot_stands", old=core.voter, target=target)

    def _words_after_post(self, events: list[Event], evidence: str) -> list[GmAlert]:
        """Last words that came in time but after the dawn post that publishes them was
        proposed: the GM adds them to it (werewolf: between 06:00 and the day's opening)."""
        state = self.state
        key = self.keys.public(step_label(Phase.NIGHT, state.number))
        if not self.profile.last_words.published or state.phase is not Phase.DAWN or self._held is not None:
            return []
        if key not in self.pending_public:
            return []
        return [
            GmAlert(self.keys.reply(evidence, "last_words_after_post"), "last_words_after_post",
                    self.templates.render("alert_last_words_after_post", player=e.author), e.author, evidence)
            for e in events if isinstance(e, LastWordsRecorded) and not e.report.daemon
        ]  # fmt: skip

    def _apply_input(self, command: Command) -> list[Event]:
        """A player's command; a skill used between steps goes as the ruleset makes it (a
        werewolf sheriff's 【殉职】 after the night settled)."""
        later = self.ruleset.between_steps(self.state, command) if isinstance(command, Submit) else None
        if later is not None:  # (by day too: a sheriff an exit put out names his successor at once)
            return self.apply(later)
        return self.apply(command)

    def _closed_reason(self, command: IntakeCommand) -> str:
        """Why a command the open step does not take is refused, as the player may know it: the
        vote has closed; the game is over (once its end is published); the step is settled
        (with a next step to resend in only while the game goes on); a player the settled step
        put out and told so by PM (werewolf's death notice), that he is out (adversary6 C3) —
        unless he was asked to act as one out (a sheriff's 【殉职】: then what is wrong is
        whom he named, gmattack2 F7 F8)."""
        t = self.templates
        if command.action in BALLOTS:
            return t.render("reason_vote_closed")
        actor = stand_ins(self.state).get(command.actor, command.actor)
        if command.action in self.profile.skills.posthumous and command.target and self.state.outcome is None:
            target = stand_ins(self.state).get(command.target, command.target)
            if target == actor:
                return t.render("reason_self_target")
            if not self.state.is_alive(target) or target in told_out(self.ruleset, self.state):
                return t.render("reason_dead_target", target=command.target)
        if actor in told_out(self.ruleset, self.state):
            return t.render("reason_dead_actor")
        if actor in unpublished_deaths(self.state, self.told_dead()):  # (he goes out with it: no resend)
            return t.render("reason_step_settled")
        if self.state.outcome is None and self.state.phase is Phase.DAWN:
            # the night is settled: its actions count no more, and the day takes none (gmattack2 F18)
            return t.render("reason_night_settled")
        if self.state.outcome is None:
            return t.render("reason_not_in_phase")
        return t.render("reason_game_over" if self.end_published() else "reason_step_settled")

    def end_published(self) -> bool:
        """The post announcing the game's end (the last announcement of what happened) is out:
        the players know it ended."""
        return bool(self.announced) and list(self.announced)[-1] not in self.pending_public

    def _late_ballot(self, command: IntakeCommand, evidence: str, at: datetime, channel: str) -> Effects:
        """A ballot that came after its round closed (the round settled, or the game decided
        by it): not counted, the GM told it is late, the voter told too (a PM for a post; a
        delegation's receipt says so)."""
        t = self.templates
        step = ballot_step(self.state)
        message = t.render("alert_no_vote_open_late", player=command.actor)
        cause = Cause("", command.actor, step, command.action, command.target or "", channel,
                      at=at.astimezone(self.tz).strftime("%Y-%m-%dT%H:%M:%S"), evidence=_number(evidence))  # fmt: skip
        out = Effects(alerts=[GmAlert(self.keys.refused(evidence, command.action), "no_vote_open", message,
                                      command.actor, evidence, cause)])  # fmt: skip
        # one the game put out is told nothing (as by day: dead_actor), the others why it missed
        # (the game's end, once its post is out: newcomer N-16)
        seat = stand_ins(self.state).get(command.actor, command.actor)
        known_out = self.state.has_player(seat) and not self.state.is_alive(seat) and (
            seat not in unpublished_deaths(self.state, self.told_dead()) or self.end_published())
        if channel == "post" and self.state.has_player(seat) and not known_out:
            over = self.state.outcome is not None and self.end_published()
            text = t.render("vote_after_game_notice" if over else "vote_closed_notice", at=notices.clock_time(at, self.tz))
            out.drafts.append(Draft(self.keys.reply(evidence, "vote_closed"), "vote_closed", "pm", command.actor,
                                    text, (evidence,)))  # fmt: skip
        return out

    def _kept_gm_ballot(self, voter: str, target: str | None, evidence: str, at: datetime) -> list[Draft]:
        """A ballot refused as a change because the ballot that stands is one the GM recorded
        (``shenshi override ballot``): the player saw none of his own posts refused, so he is
        told his post did not count and what stands for him."""
        seat = stand_ins(self.state).get(voter, voter)
        mine = [b for b in self.state.ballots if b.voter == seat and b.round == self.state.round]
        if not mine or mine[0].via != "gm":
            return []
        t = self.templates
        was = t.render("abstain_word") if mine[0].target == ABSTAIN else mine[0].target
        text = t.render("vote_kept_notice", at=notices.clock_time(at, self.tz), target=target or "", was=was)
        return [Draft(self.keys.reply(evidence, "vote_kept"), "vote_kept", "pm", voter, text, (evidence,))]

    def _change_refused(self, kind: str, voter: str, target: str | None, evidence: str, at: datetime) -> list[Draft]:
        """A change of ballot the rules void (chess32: a second change, or one in the round's
        last hour, C-D4): the voter believes he changed it; he is told that his earlier ballot
        stands (gmattack3 F10)."""
        seat = stand_ins(self.state).get(voter, voter)
        mine = sorted((b for b in self.state.ballots if b.voter == seat and b.round == self.state.round),
                      key=lambda b: b.sort_key())  # fmt: skip
        if not mine:
            return []
        t = self.templates
        was = t.render("abstain_word") if mine[-1].target == ABSTAIN else mine[-1].target
        text = t.render("vote_change_refused_notice", at=notices.clock_time(at, self.tz), target=target or "",
                        was=was, why=t.render(f"vote_change_refused_{kind}"))  # fmt: skip
        return [Draft(self.keys.reply(evidence, "vote_kept"), "vote_kept", "pm", voter, text, (evidence,))]

    def _not_a_candidate(self, voter: str, target: str | None, evidence: str, at: datetime) -> list[Draft]:
        """A runoff ballot for a player who is no candidate is invalid and must be cast again
        (RES-A14): the voter is told, with the candidates, before a missing ballot makes him
        leave (RES-A18)."""
        shown = self._seats_shown(self.state)  # a candidate's seat being taken over: its substitute
        names = "、".join(shown.get(n, n) for n in runoff_candidates(self.state)) or "—"
        text = self.templates.render("not_a_candidate_notice", at=notices.clock_time(at, self.tz),
                                     target=target or "", names=names)  # fmt: skip
        return [Draft(self.keys.reply(evidence, "not_a_candidate"), "vote_kept", "pm", voter, text, (evidence,))]

    def _vote_not_open(self, voter: str, evidence: str, at: datetime) -> list[Draft]:
        """A ballot posted before the vote thread opened is not counted: the voter is told when
        it opens (game6: the 13th hour of the day); one posted after a round closed (early)
        and before the next is announced, that the next opens with that round's result."""
        times = self.times()
        if times is None or self.state.phase is not Phase.DAY:
            return []
        opens, _ = times.rounds.get(self.state.round, (times.opens, times.closes))
        t = self.templates
        if self.summoning() and self.state.is_alive(voter):
            return self._summoning_only(voter, evidence, at)  # (the summoning's post is not out yet)
        if opens >= NOT_YET and self.state.round > 1:
            text = t.render("vote_between_rounds_notice", at=notices.clock_time(at, self.tz))
        elif at < opens:
            text = t.render("vote_not_open_notice", at=notices.clock_time(at, self.tz),
                            opens=notices.clock_time(opens, self.tz))  # fmt: skip
        else:
            return []
        key = self.keys.reply(evidence, "vote_not_open")
        return [Draft(key, "vote_not_open", "pm", voter, text, (evidence,))]

    def summoning(self) -> bool:
        """The open round is a summoning (招魂, family A's D-4): only summoned victims vote."""
        state = self.state
        return state.phase is Phase.DAY and state.round == SUMMONING and bool(self.ruleset.summoning_order(state))

    def _summoning_only(self, voter: str, evidence: str, at: datetime) -> list[Draft]:
        """A living player's ballot in the summoning is not counted: he is told who votes."""
        called = "；".join(self.templates.render("summoning_night", n=n, names="、".join(names))
                          for n, names in self.ruleset.summoning_order(self.state))  # fmt: skip
        text = self.templates.render("summoning_only_notice", at=notices.clock_time(at, self.tz), called=called)
        return [Draft(self.keys.reply(evidence, "vote_not_open"), "vote_not_open", "pm", voter, text, (evidence,))]

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
                                       command.extra.get("chars"), evidence,
                                       str(command.extra.get("text") or ""))  # fmt: skip
            case "kill_declaration":
                return self._declaration(command, evidence, at)
            case "sign_in" | "slow_down":
                return None  # recorded as evidence (sign-in checks; 减速 is for the host to read)
        if extra.get("withdraw"):  # 不救了: his standing one no longer counts (A-S2, W-D1: the latest counts)
            standing = any(s.actor == command.actor and s.action == command.action for s in self.state.submissions)
            words = self.templates.render("withdrawn_by_player")
            return VoidAction(command.actor, command.action, words, by_player=True) if standing else None
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
        """A 杀人宣言 sent apart from its 杀 line joins the actor's latest kill; from a joint
        killer who sent no kill of his own, the unit's kill his partner sent: one of them 执笔s
        the declaration (A-J3, RES-A5: the kill has one when any agreeing member's latest
        submission carries it; newcomer2 F16: it was dropped, and the kill voided at dawn).
        ``None``: no kill tonight for it to go with."""
        state = self.state
        kills = [s for s in state.submissions if s.actor == command.actor and s.action == KILL]
        if not kills:
            partners = set(self.partners(command.actor))
            kills = [s for s in state.submissions if s.actor in partners and s.action == KILL and s.target]
            if len({s.target for s in kills}) > 1:  # the partners' latest kills differ: which one?
                latest = {p: max((s for s in kills if s.actor == p), key=lambda s: s.sort_key()) for p in partners
                          if any(s.actor == p for s in kills)}  # fmt: skip
                kills = list(latest.values()) if len({s.target for s in latest.values()}) == 1 else []
        if not kills:
            return None
        last = max(kills, key=lambda s: s.sort_key())
        extra = {**last.extra, **{k: v for k, v in command.extra.items() if k != "t"}}
        extra.setdefault("declaration_for", last.evidence or "")  # the kill it completes (not a second kill)
        return Submit(command.actor, KILL, last.target, frozen_map(extra), at, evidence)

    # -- the GM's own posts (dry-run: publication by hand) -------------------------------------

    def _gm_post(self, post: Post) -> Effects:
        """Recognise a proposed public announcement that the GM posted by hand."""
        out = Effects()
        names = [seat.name for seat in self.state.seats]
        for key, text in self.pending_public.items():
            if _same_announcement(text, post.text, names):
                out.published.append((key, post.posted_at))
        for key, (text, name) in list(self.to_confirm.items()):
            if _same_announcement(text, post.text, names):
                out.extend(self._confirmed_by_hand(key, name, post.posted_at))
        return out

    def _confirmed_by_hand(self, key: str, name: str, at: datetime) -> Effects:
        """The GM posted an unconfirmed exit (a missed sign-in, a lurker) himself: the players
        have read it, so it is confirmed, as ``shenshi override exit`` would (the seat dies at
        his post), and his post publishes both it and the exit."""
        before = self.state
        try:
            events = self.apply(DeclareExit(name, "天神手动发帖"))
        except IllegalActionError:
            del self.to_confirm[key]
            return Effects()  # out already (or replaced): his post publishes nothing more
        out = Effects(events=events, drafts=self.drafts_for(events, before))
        del self.to_confirm[key]
        out.extend(self._notes(events, None))
        out.published += [(key, at), *((d.key, at) for d in out.drafts if d.kind == "exit")]
        return out

    # -- the clock -----------------------------------------------------------------------------

    def learn(self, published: Mapping[str, datetime]) -> None:
        """When announcements were published (the shell's word; kept for later ticks)."""
        self.published.update(published)

    def wants(self, now: datetime) -> Wants:
        """What the clock needs to know to move at ``now``: the publication times of the
        announcements that open the next step or round (and of the substitutions entering, which
        decide how posts name their seats), and the post counts of a round about
        to close where the ruleset records them (chess32 lurking)."""
        state = self.state
        keys = set()
        if PHASE_GRAPH[state.phase].due is Due.PUBLICATION:
            keys.add(self.gate_key())
        if state.phase is Phase.DAY and state.round > 1:
            keys.add(self._round_key(state.round - 1))
        if state.phase is Phase.DAY and state.round == 1 and (t := self.scheduled_times()) and self._has_opening_post(t):
            keys.add(self._opening_key(state))
        keys.update(self.exits_unpublished())
        # whether the players read of a substitution yet: how posts name the seat (_seats_shown)
        keys.update(self.keys.substitution(old, new) for old, new in state.pending_substitutions)
        return Wants(frozenset(keys), self._activity_window(now))

    def exits_unpublished(self) -> list[str]:
        """The exit posts the GM recorded that are not on the forum yet (the seat goes out when
        its exit is announced: an open step does not end early on it before)."""
        return [k for k in self.exits_in_step if k not in self.published]

    def exited_unannounced(self) -> list[str]:
        """The players of :meth:`exits_unpublished`."""
        return [k.removeprefix(self.keys.exit("")) for k in self.exits_unpublished()]

    def holder_now(self, name: str, state: GameState | None = None) -> str:
        """Who holds the seat ``name`` held: ``name`` while he plays it, else the substitute
        (or his substitute) who does; the last one known if none plays it now."""
        state = state or self.state
        seen = {name}
        while not state.has_player(name) and name in self.successors and self.successors[name] not in seen:
            name = self.successors[name]
            seen.add(name)
        return name

    def tick(self, now: datetime, clockwork: Clockwork | None = None, early: bool = True) -> Effects:
        """Open, close and resolve steps whose time has come (repeat until nothing moves).

        ``clockwork`` is what the shell answers to :meth:`wants`: a step opens only once the
        previous step's result is published. The clock stops where it needs something it was
        not told (the post counts of a round that opened in this tick): ask again.
        """
        clockwork = clockwork or Clockwork()
        self.learn(clockwork.published)
        self._early_now = early
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
        if self._held is not None:
            self._release(now, out)
            if self._held is not None:
                return False  # the settled night is announced at its close
        if row.due is Due.START:
            if now < self.game.start:
                return False
            return self._open(self.ruleset.first_phase, self.ruleset.first_number, self.game.start, out, now)
        if row.due is Due.PUBLICATION:
            assert row.finished is not None
            if self._nothing_to_announce():
                at = self._closed_by(now)  # werewolf night 0: day 1 opens at 06:00, unannounced
                if at is None:
                    return False
            else:
                published = self.published.get(self.gate_key())
                if published is None or published > now:
                    return False
                at = published
            phase, n = self.ruleset.next_step(row.finished, state.number)
            return self._open(phase, n, at, out, now)
        times = self.times()
        if row.due is Due.NOTHING or times is None:
            return False
        if row.due is Due.NIGHT_CLOSE:
            self._night_phases_closed(now, times, out)
            settles = self._settles_at(times)
            if now >= settles or (self._early_now and self._closes_early()):
                at = min(now, settles)
                self._resolve(CloseNight(at), out, at)
                return True
            return False
        self._vote_opening(now, times, out)
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
        early = now >= opens and self._early_now and self._closes_early()
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
        """The step just resolved has no public post (the condition of :func:`drafts_for_step`),
        or the rules give it none (werewolf night 0: what the GM's corrections made public
        during it had posts of their own, and day 1 opens at 06:00 whatever they were;
        gmattack W4, a game frozen at 「第0夜（已结算）」)."""
        state = self.state
        done = PHASE_GRAPH[state.phase].finished
        if done is not None and not self.profile.clock.announced(done.value, state.number):
            return True
        return not has_public_post(state.step_report)

    def _closed_by(self, now: datetime) -> datetime | None:
        """When the step just resolved (with nothing to announce) closes on its clock, once
        ``now`` has reached it (``None`` before: the next step waits for it)."""
        state = self.state
        done = PHASE_GRAPH[state.phase].finished
        opened = state.params.get("opened_at")
        if opened is None or done is None:
            return now
        closes = self.ruleset.phase_times(state, done, state.number, opened).closes
        return closes if now >= closes else None

    def _release(self, now: datetime, out: Effects) -> None:
        """Propose a settled night's result once its announcement time has come (unless it was
        proposed before a restart: the shell refilled it, or it is published)."""
        held = self._held
        if held is None or now < held.at:
            return
        self._held = None
        label = self._label(held.before, held.event)
        key = self.keys.public(label)
        if key in self.pending_public or key in self.published:
            return
        out.drafts += self._result_drafts(held.before, held.event, held.event.report.merge(held.later))

    def _vote_opening(self, now: datetime, times: PhaseTimes, out: Effects) -> None:
        """The short post that the vote thread takes ballots from now on, where the first
        round opens later than the day (game6: the 13th hour), or where nothing told the players
        that the day began (werewolf day 1: night 0 has no result post; wolfadv W4)."""
        state = self.state
        opens, closes = times.rounds.get(1, (times.opens, times.closes))
        first_light = self._first_light(state)
        if state.round != 1 or not opens <= now < closes or (opens <= times.opens and first_light is None):
            return
        key = self._opening_key(state)
        if key in self._notices_sent or key in self.published:
            return
        self._notices_sent.add(key)
        text = self.vote_opened_text(state, opens, closes)
        out.drafts.append(Draft(key, "vote_opened", "thread", self.game.vote_thread, text))

    def _first_light(self, state: GameState) -> str | None:
        """The template of the post that opens day ``state.number`` because the night before
        it had no result post (werewolf day 1), else ``None``."""
        clock = self.profile.clock
        return clock.first_light if not clock.announced(Phase.NIGHT.value, state.number - 1) else None

    def vote_opened_text(self, state: GameState, opens: datetime, closes: datetime) -> str:
        """The post that opens the day's vote, from ``opens`` until ``closes``."""
        if (first_light := self._first_light(state)) is not None:
            said = self.templates.render(first_light, n=state.number, closes=notices.clock_time(closes, self.tz))
            return said + self.templates.render("signature")
        return notices.vote_opened(self.templates, state.number, opens, closes, self.tz)

    def _night_opening(self, times: PhaseTimes, out: Effects, now: datetime) -> None:
        """A night's post with its phases' deadlines (werewolf: 夜晚1, 夜晚2, [WW:L183]); none
        once they have all passed (a daemon started late: a post promising a deadline already
        past misleads, gmattack W1)."""
        state = self.state
        text = self.night_deadlines_text(state, times, now)
        if text is None:
            return
        key = self.keys.notice(step_label(Phase.NIGHT, state.number), "deadlines")
        if key in self._notices_sent:
            return
        self._notices_sent.add(key)
        out.drafts.append(Draft(key, "night_deadlines", "thread", self.game.vote_thread, text))

    def night_deadlines_text(self, state: GameState, times: PhaseTimes, now: datetime) -> str | None:
        """The post of night ``state.number``'s phase deadlines still ahead at ``now`` (one
        approved late says only what is still to come: newcomer4 W6), or ``None`` once all
        have passed."""
        skills = self.profile.skills
        tonight = {  # night 0 has its own skills (金箭, 托孤), the later nights the others
            action: phase
            for action, phase in skills.night_phases.items()
            if (action in skills.night0) == (state.number == 0)
        }
        ahead = {k: at for k, at in times.phase_deadlines.items() if k in {str(p) for p in tonight.values()} and at > now}
        if not ahead:
            return None
        tonight = {action: phase for action, phase in tonight.items() if str(phase) in ahead}
        return notices.night_deadlines(self.templates, state.number, ahead, times.closes, tonight, self.ruleset.info, self.tz)

    # -- what the clock waits for, for the scheduler and status -----------------------------------

    def deadlines(self, state: GameState | None = None) -> tuple[Moment, ...]:
        """Every time the phase clock acts at in the open step (of ``state``, default the
        game's), in order: the start, each night phase's deadline, the settlement and the
        announcement of a night, the vote's opening and close, the day's end."""
        state = state or self.state
        found: list[Moment] = []
        if state.phase is Phase.SETUP:
            found.append(Moment("game_start", self.game.start))
        if self._held is not None and state is self.state:
            found.append(Moment("dawn_post", self._held.at))
        times = self.times(state)
        if times is not None and state.phase is Phase.NIGHT:
            found += [Moment("night_phase", at, k) for k, at in sorted(times.phase_deadlines.items())]
            if times.input_deadline is not None and times.input_deadline < times.closes:
                found.append(Moment("action_deadline", times.input_deadline))
            settles = self._settles_at(times)
            if settles < times.closes:
                found.append(Moment("night_settles", settles))
            found.append(Moment("night_end", times.closes))
        elif times is not None and state.phase is Phase.DAY:
            opens, closes = times.rounds.get(state.round, (times.opens, times.closes))
            if opens < NOT_YET:
                if opens > times.opens:
                    found.append(Moment("vote_opens", opens, str(state.round)))
                found.append(Moment("vote_closes", closes, str(state.round)))
            if times.closes != closes:
                found.append(Moment("day_end", times.closes))
        return tuple(sorted(found, key=lambda m: m.at))

    def next_deadline(self, now: datetime) -> datetime | None:
        """The next time the phase clock has something to do: the first of :meth:`deadlines`
        after ``now``, else the last one passed (it is due), else ``None``."""
        moments = self.deadlines()
        later = [m.at for m in moments if m.at > now]
        if later:
            return later[0]
        return moments[-1].at if moments else None

    def phase_close_done(self, key: str, proposed: Collection[str]) -> bool:
        """Whether the open night's phase ``key`` closed and what its close sends is proposed
        (``proposed``: the outbox's keys), or it sends nothing."""
        n = self.state.number
        due = [self.keys.night_phase_result(n, r.text_kind, r.to) for r in self.ruleset.night_phase_closed(self.state, key)]
        return (n, key) in self._phase_results_sent or all(k in proposed for k in due)

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

    def _open(self, phase: Phase, n: int, at: datetime, out: Effects, now: datetime) -> bool:
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
        if phase is Phase.NIGHT:
            self._night_opening(times, out, now)
        return True

    def _resolve(self, command: Command, out: Effects, at: datetime) -> None:
        before = self.state
        events = self.apply(command)
        out.events += events
        out.extend(self._notes(events, None, before))
        out.drafts += self.drafts_for(events, before, at)

    def _closes_early(self) -> bool:
        """Whether the open step ends now, before its deadline: the ruleset says when it is
        complete (RULES.md "Early close"); the GM's ``early_close`` setting governs his own
        early close, not the players' 加速."""
        if self.awaited:
            return False  # a refused PM its sender may still send again (RULES.md "Early close")
        if self.exits_unpublished():
            return False  # an exit takes effect when announced: till then the seat still plays (newcomer N-14)
        done = self.ruleset.completion(self.state)
        return done.complete and (self.early_close or done.by is EarlyClose.SPEED_UP)

    # -- announcements ---------------------------------------------------------------------------

    def gate_key(self) -> str:
        """The public announcement whose publication opens the next step.

        Deaths take effect, and the next step's clock starts, when the GM announces them.
        """
        done = PHASE_GRAPH[self.state.phase].finished or Phase.DAY
        return self.keys.public(step_label(done, self.state.number))

    def drafts_for(self, events: list[Event], before: GameState, at: datetime | None = None) -> list[Draft]:
        """Announcements for ``events``: a resolution's post and PMs, and answers given at once
        (the penalty divination is answered as soon as it is submitted, RES-A19). ``at``: when
        the resolution happened (the deadline of last words counts from it).

        A night settled before its announcement time (werewolf) proposes only the last-words
        notices now; its post and answers come at its close (:meth:`_release`)."""
        drafts: list[Draft] = []
        for event in events:
            if isinstance(event, PowerSubmitted) and event.report.private_results:
                answers, _ = shown_as(replace(event.report, public_facts=()), self._seats_shown(before))
                step = drafts_for_step(
                    self.templates, game=self.keys.game, label=answer_label(event.submission.seq), title="",
                    thread=self.game.vote_thread, report=answers,
                    evidence=(event.submission.evidence,) if event.submission.evidence else (),
                    roles=self.ruleset.info.roles,
                )  # fmt: skip
                drafts += [d for d in step if d.channel == "pm"]
                continue
            if isinstance(event, (ExitDeclared, SubstitutionScheduled)):
                drafts += self._notice(event, before)
                continue
            if isinstance(event, RulingApplied):
                if not (before.phase is Phase.DAWN and self._held is not None) or event.kind in AT_ONCE:
                    drafts += self._ruling_notice(event, before)  # (a night held for 06:00 announces it itself)
                drafts += self._last_words_notices(before, event, at)
                continue
            if isinstance(event, BallotOverridden):
                drafts += self._ballot_entered(before, event)
                continue
            if isinstance(event, ExecutionForced):
                drafts += self._execution_corrected(before)
                if before.phase in (Phase.DUSK, Phase.OVER):  # (a settled day: its PMs as corrected)
                    drafts += self._execution_pms(before, event.report)
                continue
            if not isinstance(event, Resolved):
                continue
            drafts += self._last_words_notices(before, event, at)
            drafts += self._extension_ended(before, event, at)
            drafts += self._camp_changes(before, event)
            if self._held is not None and self._held.event is event:
                continue  # announced at the night's close
            drafts += self._result_drafts(before, event, event.report)
        return drafts

    def _execution_corrected(self, before: GameState) -> list[Draft]:
        """The GM corrected a settled day's execution: a result still to be published says it
        instead (:mod:`~shenshi.daemon.superseding` replaces its text); one already out is
        followed by a post with the correction."""
        label = step_label(Phase.DAY, before.number)
        key = self.keys.public(label)
        if before.phase not in (Phase.DUSK, Phase.OVER) or key not in self.published or key not in self.corrected:
            return []
        t = self.templates
        text = "\n".join([t.render("execution_corrected_title", n=before.number), *self.corrected[key][1]])
        return [Draft(self.keys.notice(label, "execution_corrected"), "day_result", "thread", self.game.vote_thread,
                      text + t.render("signature"))]  # fmt: skip

    def _ballot_entered(self, before: GameState, event: BallotOverridden) -> list[Draft]:
        """The voter whose ballot the GM recorded is told what counts for him now: he may have
        been told his post did not count, and would vote again (newcomer2 F5)."""
        b = event.ballot
        to = self.holder_now(b.voter, before)
        if not before.has_player(b.voter) or not before.is_alive(b.voter):
            return []
        target = self.templates.render("abstain_word") if b.target == ABSTAIN else b.target
        text = self.templates.render("ballot_entered", target=target)
        # one per entry (its ballot's number): a later entry is a PM of its own, an earlier one
        # still waiting is withdrawn (gmattack3 F7: 「记为 英布」 stood after two more corrections)
        key = self.keys.private(step_label(Phase.DAY, before.number, b.round), "ballot_entered", to, b.seq)
        return [Draft(key, "ballot_entered", "pm", to, text)]

    def _execution_pms(self, before: GameState, report: Report) -> list[Draft]:
        """The PMs a settled day's result sends (chess32: the executed's identity to his
        camp's general), for ``report``: as the day settled, or as the GM corrected it."""
        label = step_label(Phase.DAY, before.number)
        report = replace(report, public_facts=(), private_results=self._due_with_result(before, report))
        step = drafts_for_step(self.templates, game=self.keys.game, label=label, title="",
                               thread=self.game.vote_thread, report=report, roles=self.ruleset.info.roles)  # fmt: skip
        return [d for d in step if d.channel == "pm"]

    def _extension_ended(self, before: GameState, event: Resolved, at: datetime | None) -> list[Draft]:
        """A voting round that a substitution extended closed early (every ballot in): the
        substitute, told its extended close in his role PM, is told the round ended (RULES.md
        "Early close": it ends the round, its extension with it), and what comes next."""
        times = self.times(before)
        if at is None or times is None or before.phase is not Phase.DAY or before.round not in times.rounds:
            return []
        closes = times.rounds[before.round][1]
        if at >= closes or closes >= NOT_YET:
            return []
        entered = [new for old, new, rnd in before.params.get("substitution_rounds", ())
                   if rnd == before.round and (old, new) in before.pending_substitutions]  # fmt: skip
        t = self.templates
        nxt = t.render("round_closed_next_round" if event.next_round else "round_closed_day_over")
        text = t.render("round_closed_early_notice", round=round_name(before.round, self.runoff_name()),
                        at=notices.clock_time(at, self.tz),
                        was=notices.clock_time(closes, self.tz), next=nxt)  # fmt: skip
        label = self._label(before, event)
        return [Draft(self.keys.private(label, "round_closed", new, 0), "round_closed", "pm", new, text)
                for new in entered]

    def _result_drafts(self, before: GameState, event: Resolved, report: Report) -> list[Draft]:
        """The result post of a resolution and its private PMs (answers, madness notices)."""
        label = self._label(before, event)
        evidence, notes = _step_evidence(before, report)
        if event.outcome is not None and not report.winner:
            # The end of the game is announced with the resolution that decided it.
            report = replace(report, winner=event.outcome.winner)
        report = replace(report, private_results=self._due_with_result(before, report))
        report, declarations = shown_as(report, self._seats_shown(before), _declarations(before, event.report))
        step = drafts_for_step(
            self.templates, game=self.keys.game, label=label, title=self._title(before, event),
            thread=self.game.vote_thread, report=report, declarations=declarations,
            evidence=evidence, runoff_template=self.profile.ballots.runoff_template,
            roles=self.ruleset.info.roles, extra=self._extra_lines(before, report, event), notes=notes,
            lead=self._lead_lines(before, report),
        )  # fmt: skip
        # A private answer cites its recipient's own submissions only (the seer's PM).
        info = self.ruleset.info
        step = [replace(d, evidence=_own_evidence(before, d.destination, info)) if d.channel == "pm" else d
                for d in step]  # fmt: skip
        step += self._lurk_notices(label, before.number, report)
        maddened = self.ruleset.intake_facts(before).get("maddened") or ()
        for name in notices.newly_maddened(report, maddened):
            text = self.templates.render("maddened_notice")
            key = self.keys.private(label, "maddened_notice", name, 0)
            step.append(Draft(key, "maddened_notice", "pm", name, text))
        for d in step:
            if d.channel == "thread":
                self.pending_public[d.key] = d.text
        return step

    def _lurk_notices(self, label: str, day: int, report: Report) -> list[Draft]:
        """chess32 lurking (§4.8, C-D7): the player is told of each warning, and of the
        replacement that the second one means (substitutions are not announced, [CH:L158])."""
        warned = {n.who for n in report.daemon if n.rule == "lurking" and n.verdict == "warning"}
        replaced = {n.who for n in report.daemon if n.rule == "lurking" and n.verdict == "replaced"}
        counts = report.lurk_warnings if isinstance(report.lurk_warnings, Mapping) else {}
        drafts = []
        for who in sorted(warned | replaced):
            kind = "lurk_replaced" if who in replaced else "lurk_warning"
            text = self.templates.render(kind, n=day, count=counts.get(who, 1))
            # the replacement is the GM's to make (a substitute, or an exit): told once he does
            drafts.append(Draft(self.keys.private(label, kind, who, 0), kind, "pm", who, text,
                                unconfirmed=kind == "lurk_replaced"))  # fmt: skip
        return drafts

    def _due_with_result(self, before: GameState, report: Report) -> tuple[PrivateResult, ...]:
        """The private results the result brings: not those already sent as a night phase
        closed (werewolf: the 【通灵】 list goes to the witch when 夜晚1 closes, §5.5 step 7)."""
        times = self.times(before) if before.phase is Phase.NIGHT else None
        sent = {
            (r.to, r.text_kind)
            for key in (times.phase_deadlines if times else {})
            for r in self.ruleset.night_phase_closed(before, key)
        }
        # the seer the GM answered by hand (override answered): he has his answer (newcomer N-22)
        answered = self.ruleset.intake_facts(before).get("seer_answered") or frozenset()
        sent |= {(name, "divination") for name in answered}
        return tuple(r for r in report.private_results if (r.to, r.text_kind) not in sent)

    def _extra_lines(self, before: GameState, report: Report, event: Resolved) -> list[str]:
        """What a result post adds to the report's facts: the voting record (werewolf §5.6),
        who may post last words (chess32), last words written in private (werewolf §5.4), the
        summoning a runoff still tied goes on to (family A, D-4)."""
        t, profile = self.templates, self.profile
        lines: list[str] = []
        if before.phase is Phase.DAY and event.next_round == 2:
            lines.append(self._next_round_line(before))
        if before.phase is Phase.DAY and event.next_round and event.next_round > 2:
            lines.append(self._summoning_line(before, report))
        if profile.ballots.record_published and before.phase is Phase.DAY and report.vote_tally:
            ballots = notices.counted_ballots(before, report)
            lines.append(notices.vote_record(t, ballots, t.render("abstain_word")))
        if profile.last_words.notice is LastWordsNotice.PUBLIC and report.last_words:
            lines.append(notices.last_words_granted(t, report.last_words))
        if profile.last_words.published and before.phase is Phase.NIGHT:
            words = [(author, text) for n, author, text in self._last_words if n == before.number]
            lines += notices.last_words_published(t, words)
        return lines

    def _seats_shown(self, before: GameState) -> dict[str, str]:
        """How this step's texts name each seat a substitute is taking over, where the players
        are told of substitutions (family A): by the substitute, with the player he replaces
        (:func:`~shenshi.daemon.announce.seat_names`); a seat that died before he entered
        keeps its holder's name unless the players have read the substitution already: its
        post, or a round's result posted since, that named the seat by him (adversary5 B3)."""
        told = {
            old: new for old, new in before.pending_substitutions
            if self.ruleset.substitution_report(old, new).public_facts
            and (self.state.is_alive(old) or self.state.is_alive(new)
                 or self.keys.substitution(old, new) in self.published
                 or self._named_since(before, old, new))
        }  # fmt: skip
        return {**self.unannounced_names(), **seat_names(self.templates, told)}

    def unannounced_names(self) -> dict[str, str]:
        """Where substitutions are not announced (werewolf, chess32), a seat a substitute took
        over is named as the players know it, by the character its first holder played
        (gmattack2 F6: the dawn post said 「admin 出局」, a name the players were never told)."""
        names = {}
        for old, new in self.successors.items():
            if self.ruleset.substitution_report(old, new).public_facts or old in self.successors.values():
                continue  # (announced; or not the seat's first holder: his own first holder names it)
            holder = self.holder_now(old)
            if holder != old:
                names[holder] = old
        return names

    def _named_since(self, before: GameState, old: str, new: str) -> bool:
        """Whether a round's result of the day, posted once ``new`` began taking ``old``'s seat
        over, named the seat by him (it did while the seat lived; a result pending when he
        was named is posted with his name too, adversary4 A9)."""
        if before.phase is not Phase.DAY:
            return False
        since = [rnd for o, n, rnd in before.params.get("substitution_rounds", ()) if (o, n) == (old, new)]
        if not since:
            return False
        first = max(1, min(since) - 1)
        return any(self._round_key(r) in self.published for r in range(first, before.round))

    def _lead_lines(self, before: GameState, report: Report) -> list[str]:
        """Why a day's tallies decided nothing, said before the result: a runoff tied still
        with no night victim to summon (D-4, D-5)."""
        if before.phase is Phase.DAY and before.round == 2 and report.final_tally and report.executed is None \
                and not self.ruleset.summoning_order(before):
            return [self.templates.render("summoning_nobody")]
        return []

    def _next_round_line(self, before: GameState) -> str:
        """The runoff's post says how long it lasts from that post (A-D13: with the
        substitutions that extend it)."""
        times = self.times(before)  # (round 1's: the runoff's as scheduled, from round 1's close)
        hours = ""
        if times is not None and 2 in times.rounds:
            opens, closes = times.rounds[2]
            hours = f"{(closes - opens).total_seconds() / 3600:g}"
        return self.templates.render("next_round_length", round=self.runoff_name(), hours=hours)

    def next_round_now(self, text: str) -> str:
        """A pending result ``text`` that announces the next round (the runoff) as the round
        stands now: a substitution since it was written lengthened it (A-D13), and names the
        seat by its substitute (adversary4 A9), as the substitution post and his role PM do."""
        state = self.state
        times = self.times()
        if state.phase is not Phase.DAY or state.round < 2 or times is None or state.round not in times.rounds:
            return text
        opens, closes = times.rounds[state.round]
        if opens < NOT_YET:
            return text  # the round is open: its post is out
        name = round_name(state.round, self.runoff_name())
        marker = "\x00"
        pattern = re.escape(self.templates.render("next_round_length", round=name, hours=marker))
        line = self.templates.render("next_round_length", round=name, hours=f"{(closes - opens).total_seconds() / 3600:g}")
        text = re.sub(pattern.replace(re.escape(marker), r"[0-9.]+"), line, text, count=1)
        return seats_renamed(text, self._seats_shown(state))

    def _summoning_line(self, before: GameState, report: Report) -> str:
        """The runoff's post when the tie stands after the last words (D-4): whom the
        summoning calls, night by night, for which candidates, for how long."""
        t = self.templates
        tally = report.final_tally or report.runoff_tally or {}
        best = max(tally.values(), default=0)
        tied = "、".join(sorted(n for n, v in tally.items() if v == best))
        nights = [t.render("summoning_night", n=n, names="、".join(names))
                  for n, names in self.ruleset.summoning_order(before)]  # fmt: skip
        times = self.times(before)
        opens, closes = times.rounds[3] if times is not None and 3 in times.rounds else (NOT_YET, NOT_YET)
        hours = f"{(closes - opens).total_seconds() / 3600:g}"
        return t.render("summoning", names=tied, victims="；".join(nights), hours=hours)

    def _last_words_notices(
        self, before: GameState, event: Resolved | RulingApplied, at: datetime | None
    ) -> list[Draft]:
        """Each character the resolution (or a GM ruling that put characters out: an exit, and
        the lover who follows by 殉情, wolfadv W18) lets leave last words is told so, with the
        deadline (werewolf §5.4, P6(g): notified before the night ends; void once the next day
        opens); a sheriff put out without a successor is asked for his 【殉职】."""
        rules = self.profile.last_words
        label = (self._label(before, event) if isinstance(event, Resolved)
                 else f"{step_label(before.phase, before.number)}.{event.kind}.{event.name}")  # fmt: skip
        drafts = []
        if event.outcome is None:  # a sheriff put out without a successor: 【殉职】 now (RES-W21)
            for who in sorted({n.who for n in event.report.daemon if n.rule == "sheriff_default"}):
                key = self.keys.private(label, "successor_notice", who, 0)
                text = self.templates.render("successor_notice")
                drafts.append(Draft(key, "successor_notice", "pm", who, text))
        if rules.notice is not LastWordsNotice.PM or not event.report.last_words or event.outcome is not None:
            return drafts  # (once the game is over, no last words are due)
        step = before
        if before.phase in (Phase.DAWN, Phase.DUSK):  # (out between two steps: as at the close of
            step = replace(before, phase=ENDED[before.phase])  # the step that ended)
        if self.times(step) is None:
            return drafts  # (no clock to count the deadline from)
        deadline = self._next_day_opens(step, at)
        text = notices.last_words_notice(self.templates, deadline, rules.max_chars, self.tz)
        due = {"deadline": deadline.isoformat()}  # (approved after it, it is refused: approve --late)
        return drafts + [
            Draft(self.keys.private(label, "last_words_notice", name, 0), "last_words_notice", "pm", name, text,
                  notes=due)
            for name in event.report.last_words
        ]

    def _next_day_opens(self, before: GameState, at: datetime | None) -> datetime:
        """When the day after ``before``'s step opens on the clock: a night's close, or the
        close of the night that follows a day (opened at its close, ``at``)."""
        times = self.times(before)
        assert times is not None, "a resolution closes an open step"
        if before.phase is Phase.NIGHT:
            return times.closes
        opened = (at or times.closes).astimezone(self.tz)
        night = replace(before, phase=Phase.NIGHT, params=frozen_map({"opened_at": opened}))
        return self.ruleset.phase_times(night, Phase.NIGHT, before.number, opened).closes

    def _notice(self, event: ExitDeclared | SubstitutionScheduled, before: GameState) -> list[Draft]:
        """The public post of an exit without substitute, or of a substitute taking over a seat
        where the ruleset publishes substitutions (family A), proposed when the GM records it
        (``before``: the game as it stood, whose seats being taken over the post names by their
        substitutes)."""
        if isinstance(event, ExitDeclared):
            key, kind, report = self.keys.exit(event.name), "exit", event.report
            if event.outcome is not None and not report.winner:
                report = replace(report, winner=event.outcome.winner)
        else:
            key, kind = self.keys.substitution(event.old, event.new), "substitution"
            report = self.ruleset.substitution_report(event.old, event.new)
        if not (report.public_facts or report.winner):
            if isinstance(event, SubstitutionScheduled):  # not announced: he who leaves is told all the same (recheck3 F13)
                told = self.templates.render("seat_taken", new=event.new)
                return [Draft(f"{key}:seat_taken", "seat_taken", "pm", event.old, told)]
            return []
        if isinstance(event, SubstitutionScheduled):
            text = self.substitution_text(event.old, event.new)
        else:
            text = self.exit_text(event, report, before)
        self.pending_public[key] = text
        drafts = [Draft(key, kind, "thread", self.game.vote_thread, text)]
        if isinstance(event, SubstitutionScheduled):  # the player who leaves is told, by PM
            told = self.templates.render("seat_taken", new=event.new)
            drafts.append(Draft(f"{key}:seat_taken", "seat_taken", "pm", event.old, told))
        return drafts

    def _camp_changes(self, before: GameState, event: Resolved) -> list[Draft]:
        """Each character whose camp the resolution changed is told his new camp (werewolf
        N0.2 私奔: the lovers and cupid join 〖情侣阵营〗, or cupid theirs; adversary6 C9): his
        win condition is no longer the one his role PM gave; a wolf whose accepted 【托孤】 the
        elopement voided (the pack too small, N0.4) is told so."""
        label = self._label(before, event)
        drafts = []
        for n in event.report.daemon:  # an accepted 托孤 the elopement then voided (N0.4): he is told
            if n.rule == "wolf_camp_too_small" and before.has_player(n.who):
                text = self.templates.render("entrust_failed")
                drafts.append(Draft(self.keys.private(label, "entrust_failed", n.who, 0), "entrust_failed", "pm", n.who, text))
        for seat in event.seats:
            if before.has_player(seat.name) and before.seat(seat.name).team != seat.team and seat.alive:
                text = self.templates.render("camp_changed", camp=TEAM_NAMES.get(seat.team, seat.team))
                key = self.keys.private(label, "camp_changed", seat.name, 0)
                drafts.append(Draft(key, "camp_changed", "pm", seat.name, text))
        return drafts

    def _ruling_notice(self, event: RulingApplied, before: GameState) -> list[Draft]:
        """The public post of a GM ruling the players must know (adversary6 C5/C11/C15): an
        exit (werewolf: with 殉情 and the badge it moves), the badge handed over, 判罚 and 罚下,
        and the end of the game it brings (§5.7: the host announces the winning camp)."""
        report = event.report
        if event.outcome is not None and not report.winner:
            report = replace(report, winner=event.outcome.winner)
        if not (report.public_facts or report.winner):
            return []
        key = self._ruling_key(event)
        if event.kind == "exit":
            exit = ExitDeclared(event.name, event.seats, event.outcome, event.reason, report=report)
            text = self.exit_text(exit, report, before)
        else:  # a penalty's reason is public (§5.8 判罚 公示; adversary7 D5)
            why = [self.templates.render("ruling_reason", reason=event.reason.strip())] if event.reason.strip() \
                and event.kind in ("penalty", "send_off") else []
            text = public_text(self.templates, "", report, {}, extra=why).lstrip("\n")
            text = seats_renamed(text, self._seats_shown(before))  # (a seat as the players know it: recheck3 F11)
        self.pending_public[key] = text
        return [Draft(key, "exit" if event.kind == "exit" else "ruling", "thread", self.game.vote_thread, text)]

    def exit_text(self, event: ExitDeclared, report: Report, before: GameState) -> str:
        """The post of an exit the GM declared, saying why: his ``--reason`` (a player who quit:
        the reason the GM gives wins over a pending notice's), else the text of the notice he
        confirmed (``…未签到，视为自动退出游戏``, a lurker's), else the bare exit. A seat the
        players were told a substitute is taking over is named by him (recheck2 A1)."""
        why = None
        if event.reason and event.reason.strip():
            why = self.templates.render("exit_because", name=event.name, reason=event.reason.strip().rstrip("。"))
        if why is None:
            why = next((text for text, name in self.to_confirm.values() if name == event.name), None)
        if why is None:  # the GM's own exit, no reason given: not 「自动退出」, and once (wolfadv W22)
            why = self.templates.render("exit_by_gm", name=event.name)
        facts = tuple(f for f in report.public_facts  # (his exit is the line with the reason)
                      if not (f.kind in ("exit", "out", "death") and f.get("name") == event.name))  # fmt: skip
        text = public_text(self.templates, "", replace(report, public_facts=facts), {}, extra=[why]).lstrip("\n")
        return seats_renamed(text, self._seats_shown(before))

    def substitution_text(self, old: str, new: str) -> str:
        """The post of ``new`` taking over ``old``'s seat, as the game stands: who replaces
        whom, and the deadlines the substitution moved while it waits for the step's end
        (+12 h, A-D13)."""
        report = self.ruleset.substitution_report(old, new)
        moved = self.moved_deadlines(old, new)
        return public_text(self.templates, "", report, {}, extra=[moved] if moved else ()).lstrip("\n")

    def moved_deadlines(self, old: str, new: str) -> str:
        """The open step's deadlines that ``new`` entering for ``old`` moved, as the players
        are told (``本阶段因替补延长12小时：投票截止改为 …``); '' when none moved (he entered
        between steps, or the ruleset gives no time)."""
        state = self.state
        if (old, new) not in state.pending_substitutions:
            return ""
        without = tuple(p for p in state.pending_substitutions if p != (old, new))
        before = {(m.what, m.detail): m.at for m in self.deadlines(replace(state, pending_substitutions=without))}
        moved = [m for m in self.deadlines(state)
                 if m.what in MOVABLE and (m.what, m.detail) in before and before[(m.what, m.detail)] != m.at]  # fmt: skip
        t = self.templates
        rounds = [rnd for o, n, rnd in state.params.get("substitution_rounds", ()) if (o, n) == (old, new)]
        if not moved and rounds and rounds[0] and rounds[0] < state.round:  # the round it extended closed
            return t.render("substitution_round_over", round=rounds[0])
        if not moved:
            return self._moved_length(replace(state, pending_substitutions=without))

        hours = (moved[0].at - before[(moved[0].what, moved[0].detail)]).total_seconds() / 3600
        vote = round_name(state.round or 1, self.runoff_name())
        shown = [t.render(f"moved_{m.what}", at=notices.clock_time(m.at, self.tz), n=state.number, phase=m.detail,
                          round=vote) for m in moved]  # fmt: skip
        return t.render("substitution_deadline", hours=f"{hours:g}", moments=t.render("list_separator").join(shown))

    def runoff_name(self) -> str:
        """The second voting round as the players know it: 生死投票, or chess32's 第二轮投票."""
        return "生死投票" if self.profile.ballots.runoff_template == "runoff" else "第二轮投票"

    def _moved_length(self, without: GameState) -> str:
        """The open round's length a substitution moved while the round is not announced yet
        (a runoff opens with round 1's result: its close is not known, its length is), as the
        players are told; '' when it moved nothing."""
        state = self.state
        now, then = self.scheduled_times(state), self.scheduled_times(without)
        if now is None or then is None or state.phase is not Phase.DAY or state.round not in now.rounds:
            return ""
        current = self.times(state)
        if current is None or current.rounds[state.round][0] < NOT_YET:
            return ""  # announced: its close moved, or nothing did
        length = now.rounds[state.round][1] - now.rounds[state.round][0]
        was = then.rounds[state.round][1] - then.rounds[state.round][0]
        if length == was:
            return ""
        t = self.templates
        hours = (length - was).total_seconds() / 3600
        shown = t.render("moved_round_length", hours=f"{length.total_seconds() / 3600:g}")
        return t.render("substitution_deadline", hours=f"{hours:g}", moments=shown)

    def _label(self, before: GameState, event: Resolved) -> str:
        """``night1``, ``day1``, or ``day1.r1`` for a round that leads to another."""
        return step_label(before.phase, before.number, before.round if event.next_round else None)

    def _title(self, before: GameState, event: Resolved) -> str:
        name = "night_title" if before.phase is Phase.NIGHT else "day_title"
        return self.templates.render(name, n=before.number)

    def _notes(self, events: list[Event], evidence: str | None, before: GameState | None = None) -> Effects:
        """Daemon decisions of the rules core, as GM alerts (in the GM's words); a joint unit's
        disagreement names each member's choice as it stood (``before`` the resolution)."""
        out = Effects()
        for event in events:
            for i, n in enumerate(event.report.daemon):
                if n.verdict == "exit" and n.who in self.successors:
                    # a substitute takes the seat over: nobody exits (RES-A18); one who entered
                    # to vote for it and did not is the GM's to judge (gmattack2 F17)
                    out.alerts += self._substitute_no_vote(n, i, evidence)
                    continue
                if n.rule == "joint_disagreement" and before is not None and not n.detail:
                    n = replace(n, detail="；".join(self._choices(subs) for _, subs in self.disagreements(before)))
                out.alerts.append(_note_alert(self.templates, self.keys, self.state, n, i, evidence or _evidence_of(event),
                                              self.successors))  # fmt: skip
        return out

    def _substitute_no_vote(self, n: DaemonNote, i: int, evidence: str | None) -> list[GmAlert]:
        """The alert on a seat's missing ballot where its substitute had entered to cast it."""
        new = self.holder_now(n.who)
        if not n.rule.startswith("no_vote") or new == n.who or not self.state.is_alive(new):
            return []
        message = self.templates.render("alert_substitute_no_vote", new=new, old=n.who)
        key = self.keys.rule_alert(self.state.phase, self.state.number, self.state.round, new, n.rule, str(evidence or i))
        return [GmAlert(key, "substitute_no_vote", message, new, evidence, Cause.seat(new))]

    def disagreements(self, state: GameState) -> list[tuple[tuple[str, ...], list[Submission]]]:
        """The joint units (killers, horses…) whose members' latest submissions of one action
        name different targets: each unit's members and those submissions, in time order."""
        found = []
        seen: set[str] = set()
        for seat in state.alive():
            if seat.name in seen or not self.partners(seat.name, state):
                continue
            members = (seat.name, *self.partners(seat.name, state))
            seen.update(members)
            latest: dict[tuple[str, str], Submission] = {}
            for sub in sorted(state.submissions, key=lambda x: x.sort_key()):
                if sub.actor in members and state.is_alive(sub.actor):  # (a partner gone out chooses nothing: recheck2 A10)
                    latest[(sub.actor, sub.action)] = sub
            for action in dict.fromkeys(a for _, a in latest):
                subs = [x for (_, a), x in latest.items() if a == action]
                if len(subs) > 1 and len({(x.target, x.extra.get("platform")) for x in subs}) > 1:
                    found.append((members, sorted(subs, key=lambda x: x.sort_key())))
        return found

    def _choices(self, subs: list[Submission]) -> str:
        """``夜行者 杀 Rex（12-01 23:10）、老王 杀 小明（12-02 01:15）``."""
        return "、".join(
            describe_submission(x) + (f"（{x.t.astimezone(self.tz):%m-%d %H:%M}）" if x.t else "") for x in subs
        )

    def _disagreement(self, before: GameState, events: list[Event], evidence: str) -> list[GmAlert]:
        """A submission that leaves its joint unit disagreeing (A-J2): the GM sees both choices
        while the step is open (it runs to its deadline; unless they agree by then, the action
        is forfeited), with the next step: void one of them. Once per disagreement: a PM that
        changes no member's choice (a declaration sent on its own) raises none again (newcomer
        N-21)."""
        actors = {e.submission.actor for e in events if isinstance(e, PowerSubmitted)}
        earlier = {(members, _choices_of(subs)) for members, subs in self.disagreements(before)}
        out = []
        for members, subs in self.disagreements(self.state):
            if not actors & set(members) or (members, _choices_of(subs)) in earlier:
                continue
            unit = "、".join(sorted(members))
            text = self.templates.render("alert_joint_disagreement", choices=self._choices(subs))
            cause = Cause(ACTION, unit, action_step(self.state), subs[0].action, evidence=_number(evidence))
            key = self.keys.reply(evidence, "joint_disagreement")
            out.append(GmAlert(key, "joint_disagreement", text, subs[-1].actor, evidence, cause))
        return out


def _choices_of(subs: Sequence[Submission]) -> frozenset[tuple[str, str, Any, Any]]:
    """What a joint unit's members chose, whenever they sent it."""
    return frozenset((x.actor, x.action, x.target, x.extra.get("platform")) for x in subs)


def runoff_candidates(state: GameState) -> tuple[str, ...]:
    """The candidates of the open later round (a runoff), as its round's result named them."""
    for fact in reversed(state.step_report.public_facts):
        if fact.kind == "runoff":
            return tuple(fact.get("candidates") or ())
    return ()


# Intake's alerts on a change of ballot the rules void (chess32): the voter is told (vote_kept).
CHANGE_REFUSED = frozenset({"last_hour_change", "change_limit"})


def stand_ins(state: GameState) -> dict[str, str]:
    """Substitutes entering at the end of the open step, each with the seat he acts for until
    then (new → old): his ballots and actions are the seat's (RULES.md "The substitute's own
    clocks")."""
    return {new: old for old, new in state.pending_substitutions}


def for_the_seat(command: IntakeCommand, acting: Mapping[str, str]) -> IntakeCommand:
    """``command`` with a substitute still entering named by the seat he acts for, wherever it
    names him (actor, target, a second target, a platform, the accused of last words): the
    rules core knows the seat under its holder's name until the step ends."""
    if not acting:
        return command

    def seat(name: Any) -> Any:
        return acting.get(name, name) if isinstance(name, str) else name

    extra = dict(command.extra)
    for key in ("target2", "platform"):
        if key in extra:
            extra[key] = seat(extra[key])
    if "accused" in extra and extra["accused"]:
        extra["accused"] = tuple(seat(n) for n in extra["accused"])
    return replace(command, actor=seat(command.actor), target=seat(command.target), extra=frozen_map(extra))


def _step_evidence(state: GameState, report: Report) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The posts and PMs behind a step's result, in the order they were made: its submissions,
    and the closing round's ballots that counted (a vote result lists each ballot); and the
    notes the GM reads beside them: the ballots he recorded himself (``shenshi override
    ballot``, no post behind them) and the ballots not counted, each with the reason."""
    subs = sorted(state.submissions, key=lambda s: s.sort_key())
    ballots = sorted((b for b in state.ballots if b.round == state.round), key=lambda b: b.sort_key())
    counted = {b.seq for b in notices.counted_ballots(state, report)} if ballots else set()
    judged = {n.seq: n for n in report.daemon if n.seq is not None}
    found = [s.evidence for s in subs] + [b.evidence for b in ballots if b.seq in counted]
    notes: dict[str, Any] = {}
    recorded = [describe_ballot(b) for b in ballots if b.seq in counted and not b.evidence]
    if recorded:
        notes["recorded"] = recorded
    uncounted = [
        {"id": b.evidence, "words": describe_ballot(b), "reason": _not_counted(state, b, judged, counted, ballots)}
        for b in ballots if b.seq not in counted
    ]  # fmt: skip
    if uncounted:
        notes["uncounted"] = uncounted
    return tuple(dict.fromkeys(e for e in found if e)), notes


def _not_counted(
    state: GameState, ballot: Ballot, judged: Mapping[int, DaemonNote], counted: set[int], ballots: list[Ballot]
) -> str:
    """Why a ballot did not count, in the GM's words: its voter is out (an exit during the
    round; a summoned victim is out, and the count's note says why his ballot did not count),
    the count's own note, or another ballot of his counted."""
    n = judged.get(ballot.seq)
    if not state.is_alive(ballot.voter) and (n is None or ballot.via != "summon"):
        return "投票人已出局"
    if n is not None:
        return f"{rule_name(n.rule)}：{verdict_name(n.verdict)}"
    if any(b.voter == ballot.voter and b.seq in counted for b in ballots):
        return "同一投票人的另一张票为准"
    return "不计"


def _own_evidence(state: GameState, to: str, info: RulesetInfo) -> tuple[str, ...]:
    """The submissions of ``to`` (or of his joint unit, which shares one answer) this step."""
    unit = {to}
    if state.has_player(to) and info.roles[state.seat(to).role].joint:
        seat = state.seat(to)
        unit |= {s.name for s in state.seats if s.role == seat.role and s.team == seat.team}
    subs = sorted((s for s in state.submissions if s.actor in unit), key=lambda s: s.sort_key())
    return tuple(dict.fromkeys(s.evidence for s in subs if s.evidence))


def _one_per_post(alerts: list[GmAlert], evidence: str) -> list[GmAlert]:
    """At most one alert per post reaches the GM: a post's alerts become its first one, its
    message saying everything the others said (once each); its next steps are the first's."""
    own = [a for a in alerts if a.evidence == evidence]
    if len(own) < 2:
        return alerts
    messages = list(dict.fromkeys(a.message for a in own))
    merged = replace(own[0], message="；".join(messages))
    return [merged if a is own[0] else a for a in alerts if a is own[0] or a.evidence != evidence]


def _number(evidence: str | None) -> int | None:
    """A stored post or PM's id (the referee's evidence strings are its numbers)."""
    return int(evidence) if evidence and evidence.isdigit() else None


def _actors(event: Event) -> tuple[str, ...]:
    """Who submitted (or had a submission voided) in ``event``: a unit's partners share it."""
    if isinstance(event, PowerSubmitted):
        return (event.submission.actor,)
    return (event.actor,) if isinstance(event, SubmissionVoided) else ()


def _evidence_of(event: Event) -> str | None:
    if isinstance(event, PowerSubmitted):
        return event.submission.evidence
    return None


def _note_alert(
    t: Templates, keys: GameKeys, state: GameState, n: DaemonNote, i: int, evidence: str | None,
    successors: Mapping[str, str] | None = None,
) -> GmAlert:
    key = keys.rule_alert(state.phase, state.number, state.round, n.who, n.rule, str(evidence or i))
    detail = t.render("alert_rule_detail", detail=detail_words(n.detail)) if n.detail else ""
    # a chess unit (``chu_horses``, FORMAT's naming) by its members' names (gmattack3 F9)
    # (game6-13's ``alliance_killers`` too: newcomer4 G4), as a joint unit's alerts name it
    members = [s for s in state.seats if n.who in (f"{s.team}_{s.role}s", f"{s.role}s")]
    unit = sorted(s.name for s in members if s.alive) or sorted(s.name for s in members)
    subject = "、".join(unit) if unit and not state.has_player(n.who) else n.who
    who = subject if subject != n.who else who_name(n.who)
    # a seat whose substitute wrote what the note is about (entered at the step's end, or still
    # entering): named as status names it (newcomer4 G6: 「阿花：杀人宣言太短」 for 路人甲's)
    playing = dict(state.pending_substitutions).get(n.who) or (
        (successors or {}).get(n.who) if not state.has_player(n.who) or not state.is_alive(n.who) else None)
    if playing is not None and subject == n.who:
        who = seat_played(n.who, playing)
    message = t.render("alert_rule", who=who, rule=rule_name(n.rule), verdict=verdict_name(n.verdict), detail=detail)
    kind = f"rule:{n.rule}"
    return GmAlert(key, kind, message, subject, evidence, rule_cause(kind, subject, n.verdict, action_step(state)))


def _declarations(state: GameState, report: Report) -> dict[str, str]:
    """The kill declarations (chess: kill posts) published with the deaths, by victim: the text
    of the submission each fact names (the kill that succeeded, never another unit's)."""
    by_seq = {s.seq: s for s in state.submissions}
    out: dict[str, str] = {}
    for fact in report.public_facts:
        sub = by_seq.get(fact.source) if fact.source is not None else None
        text = sub.extra.get("declaration") if sub is not None else None
        if fact.kind in ("kill_declaration", "kill_post") and text:
            out[str(fact.get("victim"))] = str(text)
    return out




def _same_announcement(draft: str, posted: str, names: Iterable[str] = ()) -> bool:
    """Whether the GM's post publishes the draft: its title line, or most of its text with the
    same facts (the same numbers, the same players named: the GM may reword, but ``老王 未签到``
    is not ``小明 未签到``, nor night 2's result night 1's)."""
    shown = skeleton(posted)  # as the forum shows it: BBCode rendered, no whitespace
    first = skeleton(draft.strip().splitlines()[0]) if draft.strip() else ""
    if first and first in shown:
        return True
    a = skeleton(draft)
    if not a or difflib.SequenceMatcher(None, a, shown).ratio() <= 0.7:
        return False
    return _facts(a, names) == _facts(shown, names)


def _facts(text: str, names: Iterable[str]) -> tuple[list[str], set[str]]:
    """The numbers and the players' names in a text, the facts a rewording keeps."""
    return re.findall(r"\d+", text), {n for n in names if skeleton(n) in text}


__all__ = ["Clockwork", "Effects", "GmAlert", "PhaseOpened", "PostCounts", "Referee", "Report", "Wants"]
