"""The pure rules core: the shapes every ruleset shares.

A game is a fold of events: ``evolve(state, event) -> state``. Commands come in from the
outside world (intake, the GM, the scenario runner), ``decide(state, command) -> [events]``
checks them against the phase table and the ruleset's rules, and never touches the state.
Everything a rule needs, the time included, arrives inside a command; nothing here reads a
clock, does I/O or draws a random number without a seed passed in.

Map of this module::

    Seat, Submission, Ballot        what the state is made of
    GameState                       the whole game after some events (frozen)
    commands (OpenNight, Submit…)   what the outside asks for
    events (NightResolved…)         what happened; each carries a Report for the step
    Report and its items            deaths, saved, public facts, private results, daemon notes
    TRANSITIONS                     which command is allowed in which phase
    PHASE_GRAPH                     phase × happening → next phase, and what the clock awaits
    Ruleset                         the base class a ruleset subclasses (hooks per family)

Phases: ``setup`` → (``night`` → ``dawn`` → ``day`` → ``dusk``)* → ``over``. Family A and
werewolf start with a night, chess32 with a day (a ruleset's ``cycle`` orders a game day's
steps); a step may be skipped (the scenario runner opens the step it needs), so ``dawn`` and
``dusk`` may open either kind of step. The two tables are the only place the progression is
written: ``decide`` reads TRANSITIONS, ``evolve`` and the daemon's clock read PHASE_GRAPH.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from shenshi.rulesets.catalog import RulesetInfo
from shenshi.rulesets.profile import RulesetProfile
from shenshi.rulesets.settings import Setting, SettingProblem, problems

ABSTAIN = "ABSTAIN"  # 弃权 (chess32 only)
K = TypeVar("K")
V = TypeVar("V")


class IllegalActionError(Exception):
    """A command that is not allowed in the game's current phase; the state is untouched."""


class RulesetError(ValueError):
    """A game that cannot be set up: unknown role, wrong team, duplicate name, bad config."""


def frozen_map(data: Mapping[K, V] | None = None) -> Mapping[K, V]:
    """A read-only copy of ``data`` (for ``extra``, ``config`` and ``params`` fields)."""
    return MappingProxyType(dict(data or {}))


class Phase(StrEnum):
    """Where the game stands.

    ``night`` and ``day`` are open steps that take submissions and ballots; ``dawn`` is a
    resolved night and ``dusk`` a finished day, both waiting for the next step to open.
    """

    SETUP = "setup"
    NIGHT = "night"
    DAWN = "dawn"
    DAY = "day"
    DUSK = "dusk"
    OVER = "over"


# --------------------------------------------------------------------------------------------
# What the state is made of


@dataclass(frozen=True)
class Seat:
    """One seat at the table. The seat number never changes; a substitute (替补) takes the name.

    ``team`` is the current team or camp (werewolf camps change by 私奔).
    """

    number: int
    name: str
    role: str
    team: str
    alive: bool = True
    addons: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Submission:
    """A power used by private message (or werewolf tree-hole reply): 提交.

    ``seq`` is the arrival order; the latest submission counts by ``t`` when given, else by
    ``seq``. ``evidence`` points at the post or PM it came from (the daemon's id).
    """

    actor: str
    action: str
    target: str | None
    extra: Mapping[str, Any] = field(default_factory=frozen_map)
    t: datetime | None = None
    seq: int = 0
    evidence: str | None = None

    def sort_key(self) -> tuple:
        """Order of submissions: by time when known, then by arrival."""
        return (self.t is not None, self.t or datetime.min, self.seq)


@dataclass(frozen=True)
class Ballot:
    """A ballot of a day vote. ``round`` 1 is the first round, 2 the runoff/round 2.

    ``via`` is ``post`` (the vote thread), ``pm_delegate`` (委托投票 by PM, family A) or
    ``summon`` (招魂, a summoned victim). ``target`` may be :data:`ABSTAIN` in chess32.
    """

    voter: str
    target: str
    round: int = 1
    t: datetime | None = None
    via: str = "post"
    format_ok: bool = True
    seq: int = 0
    evidence: str | None = None

    def sort_key(self) -> tuple:
        """Order of ballots: by time when known, then by arrival."""
        return (self.t is not None, self.t or datetime.min, self.seq)


@dataclass(frozen=True)
class PhaseTimes:
    """When an open step's inputs stop counting and when it resolves (a ruleset's clock).

    ``closes`` is when the step resolves (dawn, or the close of the day's last round).
    ``input_deadline``: later submissions are ignored (chess: dawn − 10 min). ``rounds`` gives
    each voting round's (opens, closes); ``phase_deadlines`` the werewolf night phases.
    """

    opens: datetime
    closes: datetime
    input_deadline: datetime | None = None
    rounds: Mapping[int, tuple[datetime, datetime]] = field(default_factory=frozen_map)
    phase_deadlines: Mapping[str, datetime] = field(default_factory=frozen_map)


@dataclass(frozen=True)
class StandingVote:
    """The open voting round as it stands (``shenshi status``): the ballot that would count
    for each voter if the round closed now, who must vote, and the votes per target as the
    close would count them before curse and bless (which the GM announces with the tally).
    """

    counted: Mapping[str, Ballot]  # voter -> the ballot that counts
    electorate: tuple[str, ...]  # who must vote in this round
    counts: Mapping[str, float]  # target -> votes (weighted where the rules weigh ballots)


def standing(
    counted: Mapping[str, Ballot],
    electorate: Sequence[str],
    counts: Mapping[str, float] | None = None,
) -> StandingVote:
    """A :class:`StandingVote`; ``counts`` defaults to one vote per counted ballot (an
    abstention counts for nobody)."""
    if counts is None:
        tally: dict[str, float] = {}
        for b in counted.values():
            if b.target != ABSTAIN:
                tally[b.target] = tally.get(b.target, 0) + 1
        counts = tally
    return StandingVote(frozen_map(dict(counted)), tuple(electorate), frozen_map(dict(counts)))


class Waiting(StrEnum):
    """Why an open step is not yet complete (:class:`Outstanding`, RULES.md "Early close")."""

    NO_ACTION = "no_action"  # a living power holder has no PM in for his power (detail: it)
    REJECTED = "rejected"  # his latest PM was rejected and he may send another (detail: why)
    JOINT_DISAGREEMENT = "joint_disagreement"  # a joint unit's members name different targets
    DECLARATION_MISSING = "declaration_missing"  # the unit's kill has no 杀人宣言 yet
    NO_BALLOT = "no_ballot"  # an elector has no ballot that counts in the open round
    NO_CONSENT = "no_consent"  # 加速: this character has not agreed to speed the day up
    UNDECIDED = "undecided"  # 加速: the ballots not yet cast could still change who leads


class EarlyClose(StrEnum):
    """How an open step may end before its deadline (:attr:`Completion.by`)."""

    ALL_IN = "all_in"  # the GM ends it once all activity is complete [G6:L33][G5:L54]
    SPEED_UP = "speed_up"  # the players agreed and the outcome is determined (werewolf 加速)


@dataclass(frozen=True)
class Outstanding:
    """One thing that keeps an open step open to its deadline: ``who`` (a player, a unit
    such as ``killers``, or ``""`` for the step as a whole) and ``why``; ``detail`` is the
    action a holder has not used, or the rule his latest PM was rejected by."""

    who: str
    why: Waiting
    detail: str = ""


@dataclass(frozen=True)
class Completion:
    """Whether the open step may end now, before its deadline (RULES.md "Early close").

    ``by`` says how this step can end early at all (``None``: it runs to its deadline);
    ``outstanding`` what is still missing. The step is :attr:`complete` when it can end early
    and nothing is outstanding: what stands would be resolved as a valid action by every
    holder, and nothing a player was told he may still do could change the result.
    """

    by: EarlyClose | None = None
    outstanding: tuple[Outstanding, ...] = ()

    @property
    def complete(self) -> bool:
        """The step may end now."""
        return self.by is not None and not self.outstanding


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won and why (never a bare string)."""

    winner: str  # a team id, or "draw"
    termination: str  # e.g. "killers_extinct", "general_killed", "last_camp_standing"


# --------------------------------------------------------------------------------------------
# What a step reports (FORMAT.md "Expected-result object")


@dataclass(frozen=True)
class Death:
    """Someone died or went out this step."""

    name: str
    cause: str


@dataclass(frozen=True)
class Saved:
    """Someone attacked this step who survived, and why."""

    name: str
    by: str


@dataclass(frozen=True)
class PrivateResult:
    """A private message the GM sends (seer answers, chess identities, witch vision…).

    ``about`` names whom an answer is about (the divined, checked or 预言 target), taken from
    the submission the answer was given for, so that a unit is only ever told about its own
    submission; it is for the daemon's text and is not printed (FORMAT has no such key).
    """

    to: str
    text_kind: str
    value: Any
    about: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The FORMAT.md shape: ``{"to": …, "text_kind": …, "value": …}``."""
        return {"to": self.to, "text_kind": self.text_kind, "value": _jsonable(self.value)}


@dataclass(frozen=True)
class PublicFact:
    """One public announcement; ``fields`` are the kind's own keys (FORMAT.md table).

    ``source`` is the ``seq`` of the submission whose text the fact publishes (the kill
    declaration or 杀人帖 of the kill that succeeded); it is for the daemon's text and is not
    printed.
    """

    kind: str
    fields: tuple[tuple[str, Any], ...] = ()
    source: int | None = None

    @classmethod
    def of(cls, kind: str, **fields: Any) -> PublicFact:
        """``PublicFact.of("death", name="C1", cause="killer")``."""
        return cls(kind, tuple(fields.items()))

    def get(self, key: str, default: Any = None) -> Any:
        """The value of one field."""
        return dict(self.fields).get(key, default)

    def to_json(self) -> dict[str, Any]:
        """The FORMAT.md shape: ``{"kind": …, **fields}``."""
        return {"kind": self.kind, **{k: _jsonable(v) for k, v in self.fields}}


@dataclass(frozen=True)
class DaemonNote:
    """A decision the daemon takes on a submission or ballot (FORMAT.md "Daemon rule ids")."""

    who: str
    rule: str
    verdict: str
    detail: str = ""
    log_only: bool = False  # for the GM's log; not a FORMAT.md daemon entry
    seq: int | None = None  # the submission or ballot judged (its ``seq``), if the note is one

    def to_json(self) -> dict[str, str]:
        """The FORMAT.md shape (``detail`` is for the GM's log only)."""
        return {"who": self.who, "rule": self.rule, "verdict": self.verdict}


class _Unset:
    _instance: ClassVar[_Unset | None] = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()
"""Marks a report key the step did not produce (``None`` is a real value: "nobody")."""


@dataclass(frozen=True)
class Report:
    """What one resolution produced, in the vocabulary of FORMAT.md.

    List-valued keys accumulate when reports of one step are merged; the others are replaced.
    A key left :data:`UNSET` is not printed.
    """

    deaths: tuple[Death, ...] = ()
    saved: tuple[Saved, ...] = ()
    private_results: tuple[PrivateResult, ...] = ()
    public_facts: tuple[PublicFact, ...] = ()
    daemon: tuple[DaemonNote, ...] = ()
    exits: tuple[str, ...] = ()
    replaced: tuple[str, ...] = ()
    last_words: tuple[str, ...] = ()
    announce_order: tuple[str, ...] = ()
    executed: Any = UNSET  # name or None
    vote_tally: Any = UNSET  # {name: number}
    runoff_tally: Any = UNSET
    final_tally: Any = UNSET
    winner: Any = UNSET  # team, "draw" or None
    bound: Any = UNSET  # family A
    x: Any = UNSET  # prayer threshold (int, None, or {"chu": x, "han": x})
    states: Any = UNSET  # chess night states
    sheriff: Any = UNSET  # werewolf
    madness: Any = UNSET  # werewolf, list of names
    camps: Any = UNSET  # werewolf {name: camp}
    lurk_warnings: Any = UNSET  # chess {name: int}
    schedule: Any = UNSET  # timeline {label: datetime}
    ruleset_selected: Any = UNSET  # setup
    # List keys this step produced even when empty (werewolf ``last_words: []``): printed anyway.
    produced: frozenset[str] = frozenset()

    LISTS: ClassVar[tuple[str, ...]] = (
        "deaths", "saved", "private_results", "public_facts", "daemon", "exits", "replaced",
        "last_words", "announce_order",
    )  # fmt: skip

    def merge(self, other: Report) -> Report:
        """This report followed by ``other`` (lists concatenated, other keys replaced)."""
        changes: dict[str, Any] = {}
        lists = self.LISTS
        for name, theirs in vars(other).items():  # every field (a replay merges one per event)
            if name == "produced":
                if theirs - self.produced:
                    changes[name] = self.produced | theirs
            elif name in lists:
                if theirs:
                    changes[name] = getattr(self, name) + theirs
            elif theirs is not UNSET:
                changes[name] = theirs
        return replace(self, **changes) if changes else self

    def to_json(self) -> dict[str, Any]:
        """The printed object of ``shenshi simulate`` for this step (UNSET keys left out)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "produced":
                continue
            if f.name in self.LISTS:
                if f.name == "daemon":
                    value = tuple(v for v in value if not v.log_only)
                always = ("deaths", "saved", "private_results", "public_facts", "daemon", "replaced")
                if f.name in always or f.name in self.produced or value:
                    out[f.name] = _unique([_jsonable(v) for v in value])
            elif value is not UNSET:
                out[f.name] = _jsonable(value)
        return out


def _unique(items: list[Any]) -> list[Any]:
    seen: list[Any] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def _jsonable(value: Any) -> Any:
    if hasattr(value, "to_json"):
        return value.to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S")
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = [_jsonable(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (frozenset, set)) else items
    return value


# --------------------------------------------------------------------------------------------
# The game state


@dataclass(frozen=True)
class GameState:
    """The whole game after some events. Never mutated: ``evolve`` returns a new one.

    ``memory`` holds what a ruleset family remembers between phases (bind streaks, swaps used,
    guard history…) as that family's own frozen dataclass, keyed by seat number where it
    belongs to a seat (so a substitute inherits it).
    """

    ruleset: str
    config: Mapping[str, Any]
    seats: tuple[Seat, ...]
    phase: Phase = Phase.SETUP
    number: int = 0  # night n / day n
    round: int = 0  # day: the open voting round (1, 2, …); 0 outside a vote
    params: Mapping[str, Any] = field(default_factory=frozen_map)  # the open phase's times
    submissions: tuple[Submission, ...] = ()  # this phase's power submissions
    ballots: tuple[Ballot, ...] = ()  # this day's ballots, every round
    pending_substitutions: tuple[tuple[str, str], ...] = ()  # (out, in) at phase end
    memory: Any = None
    outcome: Outcome | None = None
    seq: int = 0  # arrival counter for submissions and ballots
    step_report: Report = field(default_factory=Report)  # accumulated for the open step

    # -- lookups ---------------------------------------------------------------------------

    def seat(self, name: str) -> Seat:
        """The seat currently played under ``name``; ``KeyError`` if nobody has that name."""
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)

    def has_player(self, name: str) -> bool:
        """Whether ``name`` holds a seat now."""
        return any(s.name == name for s in self.seats)

    def by_number(self, number: int) -> Seat:
        """The seat with this number."""
        return self.seats[number]

    def alive(self) -> tuple[Seat, ...]:
        """Living seats, in seat order."""
        return tuple(s for s in self.seats if s.alive)

    def is_alive(self, name: str) -> bool:
        """Whether ``name`` holds a living seat."""
        return self.has_player(name) and self.seat(name).alive

    def with_role(self, *roles: str, alive_only: bool = True) -> tuple[Seat, ...]:
        """Seats with one of ``roles`` (living ones by default)."""
        return tuple(s for s in self.seats if s.role in roles and (s.alive or not alive_only))

    def on_team(self, team: str, alive_only: bool = True) -> tuple[Seat, ...]:
        """Seats on ``team`` (living ones by default)."""
        return tuple(s for s in self.seats if s.team == team and (s.alive or not alive_only))

    @property
    def winner(self) -> str | None:
        """The winning team, ``"draw"``, or ``None`` while the game runs."""
        return self.outcome.winner if self.outcome else None

    # -- small updates (used by evolve) ------------------------------------------------------

    def with_deaths(self, names: Iterable[str]) -> GameState:
        """The state with these players dead."""
        dead = set(names)
        if not dead:
            return self
        return replace(
            self, seats=tuple(replace(s, alive=False) if s.name in dead else s for s in self.seats)
        )

    def with_seat(self, seat: Seat) -> GameState:
        """The state with one seat replaced (matched by number)."""
        seats = list(self.seats)
        seats[seat.number] = seat
        return replace(self, seats=tuple(seats))


# --------------------------------------------------------------------------------------------
# Commands: what the outside world asks for


@dataclass(frozen=True)
class Command:
    """Base of all commands. ``gm`` commands are GM corrections, allowed after the end too."""

    gm: ClassVar[bool] = False


@dataclass(frozen=True)
class OpenNight(Command):
    """Night ``n`` begins (family A: the GM's announcement opens the PM window).

    ``params`` carries the night's times: ``window_open``/``window_close`` (family A),
    ``deadline`` (chess: dawn − 10 min), ``phase_deadlines`` {"1": t, "2": t} (werewolf),
    ``opened_at``.
    """

    n: int
    params: Mapping[str, Any] = field(default_factory=frozen_map)


@dataclass(frozen=True)
class OpenDay(Command):
    """Day ``n`` begins; ``params`` as for :class:`OpenNight` (``round1_close``, …)."""

    n: int
    params: Mapping[str, Any] = field(default_factory=frozen_map)


@dataclass(frozen=True)
class Submit(Command):
    """A player uses a power (night action, or a day skill where the rules have one)."""

    actor: str
    action: str
    target: str | None
    extra: Mapping[str, Any] = field(default_factory=frozen_map)
    t: datetime | None = None
    evidence: str | None = None


@dataclass(frozen=True)
class GmAnswered(Command):
    """The GM answered ``actor``'s divination early (family A seer lock, A-S2/RES-A21)."""

    actor: str
    t: datetime | None = None


@dataclass(frozen=True)
class CastBallot(Command):
    """A ballot in the open round (or a summoned victim's ballot, ``via="summon"``)."""

    voter: str
    target: str
    t: datetime | None = None
    via: str = "post"
    format_ok: bool = True
    round: int | None = None  # None: the open round
    evidence: str | None = None


@dataclass(frozen=True)
class RecordLastWords(Command):
    """Last words (遗言) of a dead player, with the players they accuse (指控)."""

    author: str
    accused: tuple[str, ...] = ()
    t: datetime | None = None
    chars: int | None = None
    evidence: str | None = None
    text: str = ""  # what was written (werewolf: published with the next announcement)


@dataclass(frozen=True)
class RecordActivity(Command):
    """Counted posts per player for the day (chess lurking, §4.8)."""

    post_counts: Mapping[str, int] = field(default_factory=frozen_map)


@dataclass(frozen=True)
class CloseNight(Command):
    """Dawn: resolve the night and publish (the GM's announcement closes the window)."""

    t: datetime | None = None


@dataclass(frozen=True)
class CloseRound(Command):
    """Close the open voting round (first round, runoff, summoning…).

    ``online`` lists summoned victims who came online (family A 招魂).
    """

    t: datetime | None = None
    online: tuple[str, ...] = ()


@dataclass(frozen=True)
class Substitute(Command):
    """替补: ``new`` takes over ``old``'s seat when the open step is resolved."""

    gm: ClassVar[bool] = True
    old: str
    new: str


@dataclass(frozen=True)
class VoidAction(Command):
    """GM correction: drop a submission (all of ``actor``'s ``action`` this phase); with
    ``by_player``, the actor took it back himself (不救了: the latest reply counts)."""

    gm: ClassVar[bool] = True
    actor: str
    action: str
    reason: str = ""
    by_player: bool = False


@dataclass(frozen=True)
class ForceExecution(Command):
    """GM correction: execute ``name`` (or, with ``name=None``, cancel today's execution)."""

    gm: ClassVar[bool] = True
    name: str | None
    reason: str = ""


@dataclass(frozen=True)
class OverrideBallot(Command):
    """GM correction: ``voter``'s ballot of the open round is ``target`` (a player, or
    :data:`ABSTAIN` where abstaining is allowed), whatever he posted or delegated: for a ballot
    intake could not read (``shenshi override ballot VOTER TARGET``). It replaces his ballots
    of the round; its validity is judged at the close like any ballot."""

    gm: ClassVar[bool] = True
    voter: str
    target: str
    reason: str = ""


@dataclass(frozen=True)
class DeclareExit(Command):
    """GM: an automatic exit (sign-in, lurking, drowning) with no substitute: the seat dies."""

    gm: ClassVar[bool] = True
    name: str
    reason: str = ""


@dataclass(frozen=True)
class GmRuling(Command):
    """GM: a ruling that only some rulesets know (werewolf penalty points and 罚下, …).

    ``kind`` names the ruling and ``name`` the player it concerns; the ruleset's
    :meth:`Ruleset.gm_ruling` hook decides what it does (a kind it does not know is illegal).
    """

    gm: ClassVar[bool] = True
    kind: str
    name: str
    params: Mapping[str, Any] = field(default_factory=frozen_map)
    reason: str = ""


# --------------------------------------------------------------------------------------------
# Events: what happened


@dataclass(frozen=True)
class Event:
    """Base of all events. ``report`` is what the event adds to the open step's report."""

    report: Report = field(default_factory=Report, kw_only=True)


@dataclass(frozen=True)
class PhaseOpened(Event):
    """A night or day began."""

    phase: Phase
    n: int
    params: Mapping[str, Any] = field(default_factory=frozen_map)


@dataclass(frozen=True)
class PowerSubmitted(Event):
    """A submission was recorded (its validity is judged when the phase resolves)."""

    submission: Submission


@dataclass(frozen=True)
class GmAnswerRecorded(Event):
    """The GM answered a seer early (family A)."""

    actor: str
    t: datetime | None


@dataclass(frozen=True)
class BallotCast(Event):
    """A ballot was recorded (its validity is judged at the close)."""

    ballot: Ballot


@dataclass(frozen=True)
class BallotOverridden(Event):
    """The GM set a voter's ballot of the round (:class:`OverrideBallot`): it replaces the
    ballots he cast in that round."""

    ballot: Ballot
    reason: str = ""


@dataclass(frozen=True)
class LastWordsRecorded(Event):
    """Last words and accusations were recorded."""

    author: str
    accused: tuple[str, ...]
    t: datetime | None = None
    chars: int | None = None
    text: str = ""


@dataclass(frozen=True)
class ActivityRecorded(Event):
    """Post counts for the lurking rule were recorded."""

    post_counts: Mapping[str, int]


@dataclass(frozen=True)
class Resolved(Event):
    """A resolution (dawn, or the close of a voting round): the new seats, memory and phase.

    The resolution is computed once, in ``decide``; ``evolve`` only applies it, so replaying
    events never re-runs the rules. ``next_round`` > 0 keeps the day open for that round.
    """

    seats: tuple[Seat, ...]
    memory: Any
    outcome: Outcome | None
    next_round: int = 0


@dataclass(frozen=True)
class SubmissionVoided(Event):
    """GM correction: a submission was dropped (``by_player``: its actor took it back)."""

    actor: str
    action: str
    reason: str = ""
    by_player: bool = False


@dataclass(frozen=True)
class SubstitutionScheduled(Event):
    """A substitute will take over a seat when the open step is resolved."""

    old: str
    new: str


@dataclass(frozen=True)
class SeatTakenOver(Event):
    """A substitute took over a seat (seat-attached records stay with the seat)."""

    old: str
    new: str
    memory: Any


@dataclass(frozen=True)
class ExecutionForced(Event):
    """GM correction of today's execution (applied as a resolution)."""

    name: str | None
    seats: tuple[Seat, ...]
    memory: Any
    outcome: Outcome | None
    reason: str = ""


@dataclass(frozen=True)
class ExitDeclared(Event):
    """An automatic exit without substitute: the seat died at the announcement."""

    name: str
    seats: tuple[Seat, ...]
    outcome: Outcome | None
    reason: str = ""


@dataclass(frozen=True)
class RulingApplied(Event):
    """A GM ruling (or a ruleset's own handling of a GM command) changed seats and memory."""

    kind: str
    name: str
    seats: tuple[Seat, ...]
    memory: Any
    outcome: Outcome | None
    reason: str = ""  # the GM's words (an exit's reason is published with it)


# --------------------------------------------------------------------------------------------
# The phase table (h11 style): which command is allowed where

_BETWEEN_STEPS = frozenset(
    {OpenNight, OpenDay, Substitute, DeclareExit, RecordLastWords, GmRuling}
)

TRANSITIONS: Mapping[Phase, frozenset[type[Command]]] = MappingProxyType(
    {
        Phase.SETUP: _BETWEEN_STEPS,
        Phase.NIGHT: frozenset(
            {
                Submit, GmAnswered, RecordLastWords, CloseNight, Substitute, VoidAction,
                DeclareExit, GmRuling,
            }
        ),
        Phase.DAWN: _BETWEEN_STEPS,
        Phase.DAY: frozenset(
            {
                Submit, CastBallot, RecordLastWords, RecordActivity, CloseRound, Substitute,
                VoidAction, ForceExecution, DeclareExit, GmRuling, OverrideBallot,
            }
        ),  # fmt: skip
        Phase.DUSK: _BETWEEN_STEPS | {ForceExecution},
        Phase.OVER: frozenset({ForceExecution}),
    }
)
"""Which command is allowed in which phase: the one table (h11 "Rule 1")."""


class Happening(StrEnum):
    """What an event does to the phase: the columns of :data:`PHASE_GRAPH`."""

    NIGHT_OPENED = "night_opened"  # PhaseOpened(night)
    DAY_OPENED = "day_opened"  # PhaseOpened(day)
    RESOLVED = "resolved"  # Resolved: the night, or the day's last round, is over
    NEXT_ROUND = "next_round"  # Resolved with a round to come (runoff, round 2, 招魂)
    CORRECTED = "corrected"  # ExecutionForced after the close: the day is settled again
    DECIDED = "decided"  # any event with an outcome: the game is over


class Due(StrEnum):
    """What the daemon's clock waits for in a phase, and what it then does."""

    START = "start"  # the game's start time: open the ruleset's first step
    NIGHT_CLOSE = "night_close"  # the night's close (or every action in): CloseNight
    ROUND_CLOSE = "round_close"  # the round's close (or every ballot in, or 加速): CloseRound
    PUBLICATION = "publication"  # the result published (or none to publish): open the next step
    NOTHING = "nothing"  # the game is over


@dataclass(frozen=True)
class PhaseRow:
    """One row of :data:`PHASE_GRAPH`."""

    due: Due  # what the clock waits for
    after: Mapping[Happening, Phase]  # where each happening leads
    finished: Phase | None = None  # between steps: the step that just ended


_OPENS = {Happening.NIGHT_OPENED: Phase.NIGHT, Happening.DAY_OPENED: Phase.DAY}
_ENDS = {Happening.DECIDED: Phase.OVER}

PHASE_GRAPH: Mapping[Phase, PhaseRow] = MappingProxyType(
    {
        Phase.SETUP: PhaseRow(Due.START, {**_OPENS, **_ENDS}),
        Phase.NIGHT: PhaseRow(Due.NIGHT_CLOSE, {Happening.RESOLVED: Phase.DAWN, **_ENDS}),
        Phase.DAWN: PhaseRow(Due.PUBLICATION, {**_OPENS, **_ENDS}, finished=Phase.NIGHT),
        Phase.DAY: PhaseRow(
            Due.ROUND_CLOSE,
            {Happening.NEXT_ROUND: Phase.DAY, Happening.RESOLVED: Phase.DUSK, **_ENDS},
        ),
        Phase.DUSK: PhaseRow(
            Due.PUBLICATION,
            {**_OPENS, Happening.CORRECTED: Phase.DUSK, **_ENDS},
            finished=Phase.DAY,
        ),
        Phase.OVER: PhaseRow(Due.NOTHING, {Happening.CORRECTED: Phase.DUSK, **_ENDS}),
    }
)
"""Phase × happening → next phase, and what the daemon's clock awaits in each phase (h11
``_state.py``). An event that leaves the phase as it is (a submission, a ballot, a ruling
with no outcome) is no happening."""


def phase_after(phase: Phase, happening: Happening) -> Phase:
    """The phase that ``happening`` leads to from ``phase`` (:data:`PHASE_GRAPH`)."""
    try:
        return PHASE_GRAPH[phase].after[happening]
    except KeyError:
        raise IllegalActionError(f"{happening.value} cannot happen during the {phase.value}") from None


# --------------------------------------------------------------------------------------------
# The ruleset base class


@dataclass(frozen=True)
class PlayerSpec:
    """A player at setup: name, role, team, alive, add-ons (FORMAT.md player object)."""

    name: str
    role: str
    team: str
    alive: bool = True
    addons: tuple[str, ...] = ()


class Ruleset:
    """Base of every ruleset. Subclasses override the hooks below (python-chess style).

    Class metadata: ``name``, ``aliases``, ``info`` (the static description: roles, teams,
    composition), ``first_phase``. What the world outside the core needs to know about a
    ruleset is its :meth:`profile` (built by the :meth:`declare` hook from the settings); the
    hooks that need the game's state are declared here with defaults, so nothing outside the
    core asks which ruleset is running or probes for a method.

    Hooks a family implements:

    * ``default_config()`` → ruleset settings with the spec's defaults;
    * ``initial_memory(state)`` → its memory dataclass;
    * ``resolve_night(state, command)`` → events ending with :meth:`finish_step`'s;
    * ``close_round(state, command)`` → a :class:`Resolved` (``next_round`` > 0 keeps the day
      open; the last round of a day also goes through :meth:`finish_step`);
    * ``substitute(state, old, new)`` → memory after a takeover (what follows the seat);
    * ``check_win(state)`` → :class:`Outcome` or ``None``;
    * ``timeline(state, step)`` → :class:`Report` for the daemon-only timeline checks;
    * ``remember(state, event)`` → memory after recorded last words or activity.
    * ``gm_ruling(state, command)`` → events of the GM rulings the ruleset knows (werewolf
      penalty points / 罚下); a :class:`RulingApplied` carries the new seats and memory.
    * ``declare(config)`` → its :class:`~shenshi.rulesets.profile.RulesetProfile`;
    * ``check_submission(state, sub)``, ``intake_facts(state)``, ``completion(state)``,
      ``night_phase_closed(state, key)``: what intake and the daemon ask while a step is open.
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    info: ClassVar[RulesetInfo]
    first_phase: ClassVar[Phase] = Phase.NIGHT
    first_number: ClassVar[int] = 1  # werewolf starts with night 0 (第零日夜晚)
    # A game day's two steps in order; the number goes up when the first comes round again.
    # Family A: night n, day n; chess32 and werewolf count game days from the day.
    cycle: ClassVar[tuple[Phase, Phase]] = (Phase.NIGHT, Phase.DAY)
    exit_cause: ClassVar[str] = "auto_exit"
    # The GM's rulings this ruleset knows beyond the corrections every ruleset takes (the
    # :meth:`gm_ruling` kinds, and ``answered``: a seer answered early, A-S2): the console
    # offers only these.
    gm_rulings: ClassVar[tuple[str, ...]] = ()
    # The ruleset's own values that stored events can hold (its memory), by stable tag: the
    # store keeps the tag, so a class may move or be renamed without old games turning
    # unreadable. Never change a tag once games are stored under it.
    stored_types: ClassVar[Mapping[str, type]] = MappingProxyType({})

    # -- setup -------------------------------------------------------------------------------

    # The settings a GM may change in ``[game.rules]``, each with its type and range
    # (:mod:`shenshi.rulesets.settings`); a key none declares is refused at load.
    settings: ClassVar[tuple[Setting, ...]] = ()

    def default_config(self) -> dict[str, Any]:
        """Ruleset settings a GM may change, with the spec's choice as the default."""
        return {}

    def check_settings(self, given: Mapping[str, Any] | None) -> list[SettingProblem]:
        """Every problem of the GM's ``[game.rules]`` (``given``) for this ruleset: a key it does
        not declare, a value outside its declaration (:attr:`settings`), then what the ruleset
        itself refuses of the whole (its :meth:`declare`). Empty: the settings work."""
        found = problems(self.settings, dict(given or {}))
        if found:
            return found
        try:
            self.profile(given)
        except RulesetError as exc:
            return [SettingProblem("", str(exc))]
        return []

    def new_game(
        self, players: Sequence[PlayerSpec], config: Mapping[str, Any] | None = None
    ) -> GameState:
        """The state before the first step. Raises :class:`RulesetError` for a bad table."""
        cfg = {**self.default_config(), **dict(config or {})}
        seen: set[str] = set()
        seats = []
        for number, p in enumerate(players):
            if p.name in seen:
                raise RulesetError(f"player {p.name!r} is listed twice")
            seen.add(p.name)
            self.validate_player(p)
            seats.append(Seat(number, p.name, p.role, p.team, p.alive, frozenset(p.addons)))
        state = GameState(ruleset=self.name, config=frozen_map(cfg), seats=tuple(seats))
        return replace(state, memory=self.initial_memory(state))

    def validate_player(self, player: PlayerSpec) -> None:
        """Reject an unknown role, team or add-on."""
        roles = self.info.roles
        if player.role not in roles:
            raise RulesetError(
                f"unknown role {player.role!r} for {self.name} (known: {', '.join(roles)})"
            )
        if player.team not in self.info.teams:
            known = ", ".join(self.info.teams)
            raise RulesetError(f"unknown team {player.team!r} for {self.name} (known: {known})")
        for addon in player.addons:
            if addon not in self.info.addons:
                raise RulesetError(f"unknown add-on {addon!r} for {self.name}")

    def initial_memory(self, state: GameState) -> Any:
        """The family's memory at the start of the game."""
        return None

    # -- decide ------------------------------------------------------------------------------

    def decide(self, state: GameState, command: Command) -> list[Event]:
        """The events ``command`` causes; raises :class:`IllegalActionError` if not allowed.

        The state is never modified (it is frozen); an illegal command leaves no trace.
        """
        kind = type(command)
        if state.outcome is not None and kind not in TRANSITIONS[Phase.OVER]:
            raise IllegalActionError(
                f"the game is over ({state.outcome.winner} won): only GM corrections are accepted"
            )
        if kind not in TRANSITIONS[state.phase]:
            where = state.phase.value + (f" {state.number}" if state.number else "")
            raise IllegalActionError(f"{kind.__name__} is not allowed during the {where}")
        handler = getattr(self, f"_decide_{kind.__name__}")
        return list(handler(state, command))

    def apply(self, state: GameState, command: Command) -> tuple[GameState, list[Event]]:
        """Decide and evolve in one go: the new state and the events."""
        events = self.decide(state, command)
        for event in events:
            state = self.evolve(state, event)
        return state, events

    def _decide_OpenNight(self, state: GameState, c: OpenNight) -> Iterable[Event]:
        yield from self._open(state, PhaseOpened(Phase.NIGHT, c.n, frozen_map(c.params)))

    def _decide_OpenDay(self, state: GameState, c: OpenDay) -> Iterable[Event]:
        yield from self._open(state, PhaseOpened(Phase.DAY, c.n, frozen_map(c.params)))

    def _open(self, state: GameState, opened: PhaseOpened) -> Iterable[Event]:
        # Substitutions ordered between steps take effect before the next step opens.
        yield from self.takeover_events(state)
        yield opened

    def _decide_Submit(self, state: GameState, c: Submit) -> Iterable[Event]:
        if not state.has_player(c.actor):
            raise IllegalActionError(f"{c.actor!r} is not a player of this game")
        sub = Submission(c.actor, c.action, c.target, frozen_map(c.extra), c.t, state.seq + 1, c.evidence)
        yield PowerSubmitted(sub)

    def _decide_GmAnswered(self, state: GameState, c: GmAnswered) -> Iterable[Event]:
        """The GM answered a seer early (A-S2): only a holder of a divination can be answered."""
        answered = self.profile(state.config).skills.answer_locks or {"divine"}
        role = self.info.roles.get(state.seat(c.actor).role) if state.has_player(c.actor) else None
        if role is None or not answered & set(role.powers):
            raise IllegalActionError(f"{c.actor!r} has no divination to answer")
        yield GmAnswerRecorded(c.actor, c.t)

    def _decide_CastBallot(self, state: GameState, c: CastBallot) -> Iterable[Event]:
        if not state.round:
            raise IllegalActionError(f"no voting round is open on day {state.number}")
        if not state.has_player(c.voter):
            raise IllegalActionError(f"{c.voter!r} is not a player of this game")
        rnd = c.round if c.round is not None else state.round
        ballot = Ballot(c.voter, c.target, rnd, c.t, c.via, c.format_ok, state.seq + 1, c.evidence)
        yield BallotCast(ballot)

    def _decide_OverrideBallot(self, state: GameState, c: OverrideBallot) -> Iterable[Event]:
        if not state.round:
            raise IllegalActionError(f"no voting round is open on day {state.number}")
        if not state.has_player(c.voter):
            raise IllegalActionError(f"{c.voter!r} is not a player of this game")
        if c.target != ABSTAIN and not state.has_player(c.target):
            raise IllegalActionError(f"{c.target!r} is not a player of this game")
        if c.target == ABSTAIN and not self.profile(state.config).ballots.abstain:
            raise IllegalActionError(f"{self.name} does not allow abstaining")
        ballot = Ballot(c.voter, c.target, state.round, None, "gm", True, state.seq + 1)
        yield BallotOverridden(ballot, c.reason)

    def _decide_RecordLastWords(self, state: GameState, c: RecordLastWords) -> Iterable[Event]:
        if not state.has_player(c.author):
            raise IllegalActionError(f"{c.author!r} is not a player of this game")
        yield LastWordsRecorded(c.author, tuple(c.accused), c.t, c.chars, c.text)

    def _decide_RecordActivity(self, state: GameState, c: RecordActivity) -> Iterable[Event]:
        yield ActivityRecorded(frozen_map(c.post_counts))

    def _decide_CloseNight(self, state: GameState, c: CloseNight) -> Iterable[Event]:
        yield from self.resolve_night(state, c)

    def _decide_CloseRound(self, state: GameState, c: CloseRound) -> Iterable[Event]:
        if not state.round:
            raise IllegalActionError(f"no voting round is open on day {state.number}")
        yield from self.close_round(state, c)

    def _decide_Substitute(self, state: GameState, c: Substitute) -> Iterable[Event]:
        if not state.has_player(c.old):
            raise IllegalActionError(f"{c.old!r} is not a player of this game")
        if not state.seat(c.old).alive:
            raise IllegalActionError(f"{c.old!r} is dead: a substitute takes over a living seat")
        if state.has_player(c.new) or any(n == c.new for _, n in state.pending_substitutions):
            raise IllegalActionError(f"{c.new!r} already plays in this game")
        scheduled = SubstitutionScheduled(c.old, c.new)
        yield scheduled
        if state.phase in (Phase.SETUP, Phase.DAWN, Phase.DUSK):
            yield from self.takeover_events(self.evolve(state, scheduled))

    def _decide_VoidAction(self, state: GameState, c: VoidAction) -> Iterable[Event]:
        if not any(s.actor == c.actor and s.action == c.action for s in state.submissions):
            raise IllegalActionError(f"{c.actor} has no {c.action} submission to void")
        yield SubmissionVoided(c.actor, c.action, c.reason, c.by_player)

    def _decide_ForceExecution(self, state: GameState, c: ForceExecution) -> Iterable[Event]:
        if c.name is not None and not state.is_alive(c.name):
            raise IllegalActionError(f"{c.name!r} is not a living player")
        if state.phase is Phase.DAY:
            # Before the close: the close applies it instead of the tally.
            yield ExecutionForced(c.name, state.seats, state.memory, state.outcome, c.reason)
            return
        executed = state.step_report.executed
        if state.phase is not Phase.DUSK and not executed:
            raise IllegalActionError("only today's execution can be corrected")
        seats = state.seats
        if executed:
            seats = tuple(replace(s, alive=True) if s.name == executed else s for s in seats)
        after = replace(state, seats=seats, outcome=None)
        if c.name is not None:
            after = after.with_deaths([c.name])
        outcome = self.check_win(after)
        fact = self.execution_fact(state, c.name) if c.name else PublicFact.of("no_execution")
        report = Report(
            executed=c.name,
            deaths=(Death(c.name, "execution"),) if c.name else (),
            public_facts=(fact,),
            private_results=self.execution_messages(state, c.name) if c.name else (),
            winner=outcome.winner if outcome else None,
        )
        forced = ExecutionForced(c.name, after.seats, state.memory, outcome, c.reason, report=report)
        yield forced
        if outcome is None:  # a seat the correction spares is handed to the substitute entering it
            yield from self.takeover_events(self.evolve(state, forced))

    def execution_fact(self, state: GameState, name: str) -> PublicFact:
        """How the day's result publishes the execution of ``name`` (family A: 杀手 or 平民,
        D-6; chess32: the camp). Default: the name alone."""
        return PublicFact.of("executed", name=name)

    def execution_messages(self, state: GameState, name: str) -> tuple[PrivateResult, ...]:
        """What the execution of ``name`` tells by PM (chess32: his identity to his camp's
        general). Default: nothing."""
        return ()

    def _decide_DeclareExit(self, state: GameState, c: DeclareExit) -> Iterable[Event]:
        if not state.is_alive(c.name):
            raise IllegalActionError(f"{c.name!r} is not a living player")
        after = state.with_deaths([c.name])
        report = Report(
            deaths=(Death(c.name, self.exit_cause),),
            public_facts=(PublicFact.of("exit", name=c.name),),
        )
        yield ExitDeclared(c.name, after.seats, self.check_win(after), c.reason, report=report)

    def _decide_GmRuling(self, state: GameState, c: GmRuling) -> Iterable[Event]:
        if not state.has_player(c.name):
            raise IllegalActionError(f"{c.name!r} is not a player of this game")
        yield from self.gm_ruling(state, c)

    # -- family hooks ------------------------------------------------------------------------

    def resolve_night(self, state: GameState, command: CloseNight) -> Iterable[Event]:
        """Resolve the open night (ends with :meth:`finish_step`)."""
        raise NotImplementedError

    def close_round(self, state: GameState, command: CloseRound) -> Iterable[Event]:
        """Close the open voting round."""
        raise NotImplementedError

    def substitute(self, state: GameState, old: str, new: str) -> Any:
        """The memory after ``new`` takes over ``old``'s seat (default: unchanged)."""
        return state.memory

    def summoning_order(self, state: GameState) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """Whom a summoning round calls, night by night, the latest first (family A's 招魂);
        none where the ruleset has no summoning."""
        return ()

    def substitution_report(self, old: str, new: str) -> Report:
        """What a substitution publishes (family A: a public fact; chess and werewolf: none)."""
        return Report()

    def carried_over(self, state: GameState, seat: Seat) -> tuple[tuple[str, Mapping[str, str]], ...]:
        """What of the seat's past a substitute taking it must know to play it (template name,
        values): family A's bind streak (RES-A10, RES-A18); none by default."""
        return ()

    def check_win(self, state: GameState) -> Outcome | None:
        """The outcome if the game is decided in ``state``, else ``None``."""
        return None

    def remember(self, state: GameState, event: Event) -> Any:
        """Fold a recorded fact (last words, activity) into the family memory."""
        return state.memory

    def gm_ruling(self, state: GameState, command: GmRuling) -> Iterable[Event]:
        """The events of a GM ruling this ruleset knows (default: it knows none)."""
        raise IllegalActionError(f"{self.name} has no GM ruling {command.kind!r}")

    def timeline(self, state: GameState, step: Mapping[str, Any]) -> Report:
        """The daemon-only timeline checks (sign-in, lurking, schedule) of one step."""
        raise RulesetError(f"{self.name} has no timeline check {step.get('check')!r}")

    def setup(self, registrants: int) -> Report:
        """A setup step (game 6 picks its variant from the registrants)."""
        raise RulesetError(f"{self.name} has no setup step")

    def intake_facts(self, state: GameState) -> dict[str, Any]:
        """Facts of the family's memory that intake's single-post checks need, by the names of
        intake's ``PhaseFacts`` fields (the bound survivor, swaps left, madness…)."""
        return {}

    # -- what the world outside the core asks ------------------------------------------------

    def profile(self, settings: Mapping[str, Any] | None = None) -> RulesetProfile:
        """What intake, the daemon and the demo need to know about this ruleset under
        ``settings`` (the GM's ``[game.rules]``, merged over :meth:`default_config`; a game's
        ``state.config`` is merged already). A bad setting raises :class:`RulesetError`."""
        return self.declare({**self.default_config(), **dict(settings or {})})

    def declare(self, config: Mapping[str, Any]) -> RulesetProfile:
        """The profile under ``config`` (default: a fixed table and no special rules)."""
        return RulesetProfile(self.name, players=self.info.players)

    def check_submission(self, state: GameState, sub: Submission) -> DaemonNote | None:
        """Why a submission cannot count as it stands, or ``None`` (intake uses it for
        receipts). Default: every submission counts until the resolution judges it."""
        return None

    def standing_vote(self, state: GameState) -> StandingVote:
        """The open round as it stands, for the GM (:class:`StandingVote`). Default: each
        voter's latest ballot of the round counts, every living player votes."""
        latest: dict[str, Ballot] = {}
        for b in sorted((b for b in state.ballots if b.round == state.round), key=Ballot.sort_key):
            if state.is_alive(b.voter):
                latest[b.voter] = b
        return standing(latest, tuple(s.name for s in state.alive()))

    def between_steps(self, state: GameState, command: Submit) -> Command | None:
        """A skill used between two steps (no step is open), as the command the ruleset makes
        of it (werewolf: the 【殉职】 of the sheriff put out by the night just settled, RES-W21);
        ``None``: it has no effect now. Default: none."""
        return None

    def completion(self, state: GameState) -> Completion:
        """Whether the open step may end before its deadline, and what keeps it open
        (RULES.md "Early close"; werewolf 加速, W-D7/RES-W14). The daemon's clock ends the step
        once :attr:`Completion.complete`; receipts and hints read the same answer.
        Default: the step runs to its deadline."""
        return Completion()

    def night_phase_closed(self, state: GameState, key: str) -> tuple[PrivateResult, ...]:
        """Private results due as soon as night phase ``key`` of the open night closes
        (werewolf: the witch's 【通灵】 list when 夜晚1 closes, RES-W3). Default: none."""
        return ()

    def next_step(self, phase: Phase, n: int) -> tuple[Phase, int]:
        """The step after ``phase`` ``n`` by :attr:`cycle`. Family A: night n → day n → night
        n+1; chess32 and werewolf: day n → night n → day n+1."""
        first, second = self.cycle
        return (second, n) if phase is first else (first, n + 1)

    def phase_times(
        self, state: GameState, phase: Phase, n: int, opened_at: datetime, substitutions: int = 0
    ) -> PhaseTimes:
        """The clock of a step that opened at ``opened_at`` (the daemon's deadlines).

        ``substitutions`` made during the step extend it where the rules say so.
        """
        raise NotImplementedError(f"{self.name} has no phase clock")

    # -- helpers for families ----------------------------------------------------------------

    def finish_step(self, state: GameState, resolved: Resolved) -> list[Event]:
        """``resolved`` followed by the takeovers of the step's pending substitutions.

        A seat that died in the resolution is not taken over (its substitute never enters), and
        nobody enters a game that the resolution ended (FORMAT "Game over").
        """
        after = self.evolve(state, resolved)
        return [resolved] if after.outcome is not None else [resolved, *self.takeover_events(after)]

    def takeover_events(self, state: GameState) -> list[Event]:
        """Events that hand each pending substitution's (living) seat to its newcomer."""
        events: list[Event] = []
        for old, new in state.pending_substitutions:
            if state.has_player(old) and state.seat(old).alive:
                memory = self.substitute(state, old, new)
                events.append(SeatTakenOver(old, new, memory, report=self.substitution_report(old, new)))
                state = self.evolve(state, events[-1])
        return events

    # -- evolve ------------------------------------------------------------------------------

    def evolve(self, state: GameState, event: Event) -> GameState:
        """The state after ``event``. Pure; the same events always give the same state."""
        step = state.step_report.merge(event.report)
        match event:
            case PhaseOpened(phase=phase, n=n, params=params):
                opened = Happening.NIGHT_OPENED if phase is Phase.NIGHT else Happening.DAY_OPENED
                # a substitute whose seat went out before he entered never enters: he answered
                # for it until the step settled (its last words, its 殉职), and moves no later
                # step's clock (gmattack A6: day 1's vote 12 h longer for a night-1 substitute)
                entering = tuple(p for p in state.pending_substitutions if state.is_alive(p[0]))
                return replace(
                    state,
                    phase=phase_after(state.phase, opened),
                    number=n,
                    round=1 if phase is Phase.DAY else 0,
                    params=frozen_map(params),
                    submissions=(),
                    ballots=(),
                    step_report=Report(),
                    pending_substitutions=entering,
                )
            case PowerSubmitted(submission=sub):
                return replace(
                    state, submissions=state.submissions + (sub,), seq=sub.seq, step_report=step
                )
            case GmAnswerRecorded(actor=actor, t=t):
                answered = {**dict(state.params.get("gm_answered", {})), actor: t}
                params = frozen_map({**state.params, "gm_answered": frozen_map(answered)})
                return replace(state, params=params, step_report=step)
            case BallotCast(ballot=b):
                return replace(state, ballots=state.ballots + (b,), seq=b.seq, step_report=step)
            case BallotOverridden(ballot=b):
                kept = tuple(x for x in state.ballots if (x.voter, x.round) != (b.voter, b.round))
                return replace(state, ballots=kept + (b,), seq=b.seq, step_report=step)
            case LastWordsRecorded() | ActivityRecorded():
                return replace(state, memory=self.remember(state, event), step_report=step)
            case Resolved(seats=seats, memory=memory, outcome=outcome, next_round=nxt):
                outcome = outcome or state.outcome
                happening = (
                    Happening.DECIDED if outcome
                    else Happening.NEXT_ROUND if nxt
                    else Happening.RESOLVED
                )  # fmt: skip
                phase = phase_after(state.phase, happening)
                return replace(
                    state, seats=seats, memory=memory, outcome=outcome, round=nxt,
                    phase=phase, step_report=step,
                )  # fmt: skip
            case SubmissionVoided(actor=actor, action=action):
                keep = tuple(
                    s for s in state.submissions if not (s.actor == actor and s.action == action)
                )
                return replace(state, submissions=keep, step_report=step)
            case SubstitutionScheduled(old=old, new=new):
                pending = state.pending_substitutions + ((old, new),)
                # the voting round he enters in (or, between two rounds, the next): its clock
                # is the one his +12 h extends (family A, RULES.md "Substitution clock")
                entered = (*state.params.get("substitution_rounds", ()), (old, new, state.round))
                params = frozen_map({**state.params, "substitution_rounds": entered})
                return replace(state, pending_substitutions=pending, params=params, step_report=step)
            case SeatTakenOver(old=old, new=new, memory=memory):
                seat = state.seat(old)
                pending = tuple(p for p in state.pending_substitutions if p != (old, new))
                return replace(
                    state.with_seat(replace(seat, name=new)),
                    memory=memory,
                    pending_substitutions=pending,
                    step_report=step,
                )
            case ExecutionForced(name=name, seats=seats, memory=memory, outcome=outcome):
                if state.phase is Phase.DAY:
                    params = frozen_map({**state.params, "forced_execution": (name,)})
                    return replace(state, params=params, step_report=step)
                happening = Happening.DECIDED if outcome else Happening.CORRECTED
                return replace(
                    state, seats=seats, memory=memory, outcome=outcome,
                    phase=phase_after(state.phase, happening), step_report=step,
                )  # fmt: skip
            case RulingApplied(seats=seats, memory=memory, outcome=outcome):
                outcome = outcome or state.outcome
                phase = phase_after(state.phase, Happening.DECIDED) if outcome else state.phase
                return replace(
                    state, seats=seats, memory=memory, outcome=outcome, phase=phase,
                    step_report=step,
                )  # fmt: skip
            case ExitDeclared(seats=seats, outcome=outcome):
                outcome = outcome or state.outcome
                phase = phase_after(state.phase, Happening.DECIDED) if outcome else state.phase
                return replace(state, seats=seats, outcome=outcome, phase=phase, step_report=step)
        raise TypeError(f"unknown event {type(event).__name__}")  # pragma: no cover
