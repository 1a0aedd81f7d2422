"""The game as the GM needs to see it: one typed status model, built from the store and the
referee, rendered by ``shenshi status`` (text), ``shenshi status --json`` (scripts, health
checks) and the web console.

It answers the GM's questions: what the next deadline is for and how long is left (on the
forum's clock); the vote as it stands, with each candidate's voters and the posts they voted
in, who has not voted and how many votes decide; who has not acted at night; which
announcement waits for the GM to publish it; the living as the players know them (a death
counts from its publication) and the marks they know (束魂, 诅咒, 庇佑, 警长); the alerts the GM
has not acknowledged, each with its time, evidence and next command; failed sends with the
forum's reason; activity; and whether the daemon is polling (the health check).

Map::

    build_status(service) → GameStatus      everything below, at the service's clock
      Deadline, VoteStanding(CandidateVotes, BallotView), NightActions(ActionView),
      Waiting, AlertView, FailedSend, Mark, PlayerActivity, SignIn, Health
    record_poll(store, game_id, at)          the daemon's last successful poll (health)
    to_json(status)                          plain JSON (times ISO 8601 on the forum's clock)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from enum import Enum
from typing import TYPE_CHECKING, Any

from shenshi.daemon import gm_text
from shenshi.daemon.announce import kind_words
from shenshi.daemon.context import unpublished_deaths
from shenshi.daemon.hints import (
    Advice,
    Hint,
    Situation,
    advise,
    confirmation_hints,
    publish_advice,
    rejected_gate_advice,
)
from shenshi.daemon.keys import step_label
from shenshi.daemon.links import EvidenceLink, evidence_links
from shenshi.daemon.referee import NOT_YET, SUMMONING, Referee, stand_ins
from shenshi.daemon.situation import facts_of, situation_of
from shenshi.daemon.superseding import subject_of
from shenshi.intake.actions import in_step
from shenshi.rulesets.base import (
    ABSTAIN,
    PHASE_GRAPH,
    Due,
    EarlyClose,
    GameState,
    Phase,
    PhaseTimes,
    Report,
)
from shenshi.store.announcements import original_key
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import Alert, Announcement, DestinationKind
from shenshi.store.unit_of_work import Store

if TYPE_CHECKING:
    from shenshi.daemon.service import GameService

LAST_POLL = "poll"  # the cursor source that holds the last successful poll
STALE_AFTER = 3  # poll intervals without a successful poll: the daemon is unhealthy
ACTIVITY_WINDOW = timedelta(hours=24)
MARK_KINDS = {"bound": "被束魂（今天不能投票）", "curse_applied": "诅咒（+1票）",
              "bless_applied": "庇佑（-1票）", "sheriff": "警长"}  # fmt: skip
# marks that change a first round's count only (RULES.md A-D10: the runoff without curse/bless)
FIRST_ROUND_MARKS = frozenset({"curse_applied", "bless_applied"})


# -- the model ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deadline:
    """A moment the phase clock acts at: what for (``night_end``, ``vote_opens``,
    ``vote_closes``, ``night_phase``, ``action_deadline``, ``day_end``, ``game_start``)."""

    what: str
    label: str  # 第1夜结束, 投票截止, 夜晚1截止…
    at: datetime  # on the forum's clock
    seconds_left: float  # negative once passed


@dataclass(frozen=True)
class BallotView:
    """One counted ballot: who, whom, when, how, and the post (or PM) it was cast in."""

    voter: str
    target: str  # ABSTAIN for an abstention
    at: datetime | None
    via: str  # post | pm_delegate | summon
    evidence: EvidenceLink | None = None


@dataclass(frozen=True)
class CandidateVotes:
    """A candidate's votes as the close would count them (before curse and bless)."""

    name: str
    votes: float
    voters: tuple[BallotView, ...]


@dataclass(frozen=True)
class VoteStanding:
    """The open voting round as it stands."""

    round: int
    name: str  # 投票, 生死投票, 第二轮投票, 招魂
    opens: datetime | None
    closes: datetime | None
    open: bool
    electorate: tuple[str, ...]
    decisive: int  # votes that decide it whatever the others vote (more than half); 0: none (招魂)
    tally: tuple[CandidateVotes, ...]  # most votes first
    abstained: tuple[BallotView, ...]
    not_voted: tuple[str, ...]
    decided: str | None  # the candidate nobody can catch any more, if there is one
    # Why the round is still open although ``decided`` (the rules close it early only once
    # every ballot is in, or never): the GM's words, None when it is not decided.
    why_open: str | None = None
    # Seats a substitute is taking over at the step's end: seat name → the substitute, who
    # votes for it (RULES.md "The substitute's own clocks").
    played_by: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ActionView:
    """A night (or day) submission, secret: for the GM only."""

    actor: str
    action: str  # the action id (kill, divine…)
    words: str  # 月光 杀 老王
    at: datetime | None
    evidence: EvidenceLink | None = None


@dataclass(frozen=True)
class NightActions:
    """What the open night has received, and who with a power has sent nothing yet;
    ``troubles``: what the players were told they may still fix, while they may (joint
    killers naming different targets, a kill recorded with no declaration), in the GM's words."""

    submitted: tuple[ActionView, ...]
    not_acted: tuple[str, ...]
    troubles: tuple[str, ...] = ()
    # who has sent nothing yet, grouped by what their role may send (``("祈祷", ("Rex",))``: a
    # game6 庶民's prayer), in the order of ``not_acted``: the GM reads what is missing
    still_to_send: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class Waiting:
    """A public announcement the players have not seen yet (the one that opens the next step
    first): the GM publishes it by hand (dry-run) or approves it (review)."""

    id: int
    kind: str
    what: str  # the kind in the GM's words (第1天投票结果)
    state: str
    opens_next_step: bool
    hint: str  # the hints in words
    hints: tuple[Hint, ...] = ()  # how the GM gets it out in this mode (none in live)


@dataclass(frozen=True)
class AlertView:
    """An alert the GM has not acknowledged (``shenshi ack ID``)."""

    id: int
    kind: str
    name: str  # the kind in the GM's words
    message: str
    subject: str | None
    at: datetime
    evidence: EvidenceLink | None
    hint: str  # the advice in words (note and next steps)
    advice: Advice = field(default_factory=Advice)  # … as data: the console's buttons
    resolution: str | None = None  # closed: what resolved it (its cause happened)


@dataclass(frozen=True)
class FailedSend:
    """An announcement the forum refused, with the forum's reason (retried by the daemon)."""

    id: int
    kind: str
    where: str
    error: str
    attempts: int


@dataclass(frozen=True)
class Mark:
    """A mark the players know from a published announcement (束魂, 诅咒, 庇佑, 警长)."""

    name: str
    kind: str
    words: str


@dataclass(frozen=True)
class PlayerActivity:
    """Posts of a living player in the last 24 h, and his last post (lurking); a seat a
    substitute plays already (``played_by``): his posts, not those of the one who left."""

    name: str
    posts: int
    last_post: datetime | None
    played_by: str = ""


@dataclass(frozen=True)
class SignIn:
    """The sign-in (签到) window after the player list, while it is open: who has replied to
    the player-list thread and who not yet (family A: 24 h; those missing are proposed as
    automatic exits when it closes)."""

    thread: str
    closes: datetime
    signed: tuple[str, ...]
    missing: tuple[str, ...]


@dataclass(frozen=True)
class SupersededView:
    """A proposal a later event made moot (never sent), as a review tool marks a comment
    outdated: what replaces it now (``by``: an announcement id; None: withdrawn) and why."""

    id: int
    kind: str
    what: str  # the kind in the GM's words
    by: int | None
    because: str
    at: datetime | None


@dataclass(frozen=True)
class SubstituteView:
    """A substitute (替补) and the seat he took over: ``entering`` until the open step ends
    (he acts for the seat already, under its name in the tally), with the deadlines his entry
    moved (+12 h, A-D13) as the players are told."""

    old: str
    new: str
    entering: bool
    moved: str = ""


@dataclass(frozen=True)
class Health:
    """Whether the daemon is polling: its last successful poll, and if that is too long ago."""

    last_poll: datetime | None
    poll_interval: float
    ok: bool
    problem: str = ""
    # Sends the daemon is pacing to the forum's flood interval (it reads the forum again once
    # they are out): a poll that long ago is no problem then.
    sending: int = 0


@dataclass(frozen=True)
class GameStatus:
    """Everything ``shenshi status`` shows (roles and night actions included: it is the GM's)."""

    game: str
    ruleset: str
    ruleset_name: str  # 游戏六（10人）
    mode: str
    now: datetime
    timezone: str
    phase: str
    number: int
    round: int
    step: str  # 第2天 生死投票
    deadline: Deadline | None  # the next one
    deadlines: tuple[Deadline, ...]  # every one of the open step still to come
    winner: str | None
    winner_name: str | None  # 好人方, 楚方, 和棋…
    living: tuple[str, ...]  # as the players know it
    dead: tuple[str, ...]  # as the players know it
    unannounced_deaths: tuple[str, ...]  # dead, not yet published (GM only)
    marks: tuple[Mark, ...]
    vote: VoteStanding | None
    night: NightActions | None
    waiting: tuple[Waiting, ...]
    proposed: int  # announcements waiting for review (approve / reject / edit)
    alerts: tuple[AlertView, ...]
    failed: tuple[FailedSend, ...]
    activity: tuple[PlayerActivity, ...]
    health: Health
    roles: Mapping[str, str] = field(default_factory=dict)  # name → role in Chinese (secret)
    next: str = ""  # what happens next, when, and what the GM then does (gm_text.next_step)
    to_send: tuple[int, ...] = ()  # PMs (receipts, role PMs…) waiting for the GM, by id
    sign_in: SignIn | None = None  # while the sign-in window is open
    substitutes: tuple[SubstituteView, ...] = ()  # every substitution of the game
    # a seat a substitute took over unannounced (werewolf, chess32): holder → the character
    # the players know it by
    characters: Mapping[str, str] = field(default_factory=dict)
    superseded: tuple[SupersededView, ...] = ()  # proposals made moot, newest first

    @property
    def open_alerts(self) -> tuple[AlertView, ...]:
        """The alerts still waiting for the GM (a resolved one stays listed until he acks it,
        but waits for nothing: newcomer N7)."""
        return tuple(a for a in self.alerts if a.resolution is None)

    @property
    def living_shown(self) -> tuple[str, ...]:
        """The living as the GM reads them: a seat a substitute is entering is named with him
        (``kk_大侠（替补 路人甲）``): the player who left no longer plays it."""
        entering = {v.old: v.new for v in self.substitutes if v.entering}
        return tuple(f"{n}（替补 {entering[n]}）" if n in entering
                     else f"{self.characters[n]}（{n} 在玩）" if n in self.characters else n
                     for n in self.living)  # fmt: skip


# -- building it ------------------------------------------------------------------------------------


def build_status(service: GameService, now: datetime | None = None) -> GameStatus:
    """The status of ``service``'s game at ``now`` (default: the service's clock)."""
    referee = service.referee
    assert referee is not None, "start the service first"
    tz = service.config.forum.tz
    now = (now or service.clock()).astimezone(tz)
    state = referee.state
    store, game_id = service.store, service.game_id
    mode = service.config.daemon.mode
    with store.snapshot() as uow:
        outbox = uow.outbox.announcements(game_id)
        alerts = uow.alerts.raised(game_id, unacknowledged=True)
        poll = uow.evidence.cursor(game_id, LAST_POLL)
        lease = uow.leases.holder(game_id)
    published_at = {a.key: when for a in outbox if (when := a.published_at or a.sent_at)}
    published = set(published_at)
    dead_known, unannounced = _deaths(referee, published)
    runoff = referee.runoff_name()
    deadlines = _deadlines(referee, state, now, tz, runoff, {a.key for a in outbox})
    later = tuple(d for d in deadlines if d.seconds_left > 0)
    info = service.ruleset.info
    health = _health(poll.updated_at if poll else None, service.config.daemon.poll_interval, now,
                     _pacing(outbox, lease, service.config.daemon.poll_interval, now))  # fmt: skip
    situation = situation_of(service, outbox)
    waiting = _waiting(referee, outbox, mode, situation)
    return GameStatus(
        game=service.config.game.name,
        ruleset=state.ruleset,
        ruleset_name=info.chinese,
        mode=mode,
        now=now,
        timezone=str(tz),
        phase=state.phase.value,
        number=state.number,
        round=state.round,
        step=_step(referee, state, now, runoff, _settled(referee, published, tz)),
        deadline=later[0] if later else None,
        deadlines=deadlines,
        winner=state.winner,
        winner_name=("和棋" if state.winner == "draw" else info.team_name(state.winner))
        if state.winner
        else None,
        living=tuple(s.name for s in state.seats if s.name not in dead_known),
        dead=tuple(s.name for s in state.seats if s.name in dead_known),
        unannounced_deaths=unannounced,
        marks=() if state.phase is Phase.OVER else _marks(referee, published_at),  # (newcomer N-17)
        vote=_vote(service, referee, state, now, tz, runoff),
        night=_night(service, state, tz, now),
        waiting=waiting,
        proposed=sum(1 for a in outbox if a.state is AnnouncementState.PROPOSED),
        alerts=_alerts(store, game_id, alerts, tz, situation),
        failed=tuple(_failed(a) for a in outbox if a.state is AnnouncementState.FAILED),
        activity=_activity(service, state, now),
        health=health,
        roles={s.name: info.roles[s.role].chinese for s in state.seats if s.role in info.roles},
        next=_next(state, deadlines, waiting, mode, health),
        to_send=_to_send(outbox, mode),
        sign_in=_sign_in(service, state, now),
        substitutes=() if state.phase is Phase.OVER else _substitutes(referee),
        characters=referee.unannounced_names(),
        superseded=_superseded(referee, outbox, tz),
    )


def _superseded(referee: Referee, outbox: list[Announcement], tz: tzinfo) -> tuple[SupersededView, ...]:
    """The proposals a later event made moot, each with what stands for it now."""
    by_id = {a.id: a for a in outbox}

    def standing(a: Announcement) -> int | None:
        seen = set()
        while a.superseded_by is not None and a.superseded_by in by_id and a.id not in seen:
            seen.add(a.id)
            a = by_id[a.superseded_by]
        return None if a.state is AnnouncementState.SUPERSEDED else a.id

    moot = [a for a in outbox if a.state is AnnouncementState.SUPERSEDED]
    return tuple(
        SupersededView(a.id, a.kind, kind_words(referee.templates, a.kind, original_key(a.key)), standing(a),
                       a.superseded_because or "", a.superseded_at.astimezone(tz) if a.superseded_at else None)
        for a in sorted(moot, key=lambda a: a.id, reverse=True)
    )  # fmt: skip


def _substitutes(referee: Referee) -> tuple[SubstituteView, ...]:
    """Every substitution, the ones still entering with the deadlines they moved."""
    state = referee.state
    return tuple(
        SubstituteView(old, new, (old, new) in state.pending_substitutions and state.is_alive(old),
                       referee.moved_deadlines(old, new))
        for old, new in referee.successors.items()
    )  # fmt: skip


def _next(
    state: GameState, deadlines: tuple[Deadline, ...], waiting: tuple[Waiting, ...], mode: str,
    health: Health,
) -> str:
    """What happens next and what the GM then does; a result waiting for the GM comes first,
    since nothing moves until it is out."""
    if state.winner:
        return ""
    gate = next((w for w in waiting if w.opens_next_step), None)
    if gate is not None:
        who = "守护进程发出" if not gate.hints and gate.state != "unconfirmed" else "你发布"
        return f"游戏在等{who} #{gate.id}（{gate.what}）：{gate.hint}"
    if not deadlines:
        return gm_text.NOT_POLLING["cli"] if not health.ok else ""
    text = gm_text.next_step(deadlines[0].what, mode, health.ok)
    forced = state.params.get("forced_execution") if state.phase is Phase.DAY else None
    if forced and deadlines[0].what in ("vote_closes", "day_end"):  # the GM decided the day (gmattack2 F10)
        ruled = f"今天处决 {forced[0]}" if forced[0] else "今天不处决任何人"
        text += f"（天神已裁定{ruled}：结果按裁定，不按计票）"
    return text


def _settled(referee: Referee, published: set[str], tz: tzinfo) -> str:
    """A settled step's state for its name: ``published`` once its result is out (sent by the
    daemon or posted by the GM: the next step opens at the next cycle), the time its result is
    announced at when it waits for one (werewolf: 06:00), else ''."""
    if PHASE_GRAPH[referee.state.phase].due is not Due.PUBLICATION:
        return ""
    if referee.gate_key() in published:
        return "published"
    at = referee.held_until()
    return f"{at.astimezone(tz):%H:%M}" if at is not None else ""


def _sign_in(service: GameService, state: GameState, now: datetime) -> SignIn | None:
    """Who has signed in (replied to the player-list thread) while the window is open."""
    window = service.referee.profile.clock.sign_in
    game = service.config.game
    if window is None or state.phase is Phase.OVER or not game.start <= now < game.start + window:
        return None
    thread = str(game.player_list_thread or game.vote_thread)
    with service.store.snapshot() as uow:
        names = {p.uid: p.name for p in uow.games.players(service.game_id) if p.uid}
        replies = uow.evidence.activity(service.game_id, game.start, now, sources=[thread])
    signed = {names.get(a.author_uid, a.author) for a in replies}
    # a substitute does not sign in (entering is his sign-in), nor is a seat he is taking over
    # asked to (RULES.md "The substitute's own clocks"; the daemon proposes no exit for either)
    exempt = set(service.referee.successors.values()) | {old for old, _ in state.pending_substitutions}
    # alive as the players know it: a settled night's dead are still signing in (newcomer4 G7:
    # the count dropped, which leaked the unpublished deaths into a number)
    hidden = unpublished_deaths(state, service.referee.told_dead())
    living = [s.name for s in state.seats if (s.alive or s.name in hidden) and s.name not in exempt]
    closes = (game.start + window).astimezone(now.tzinfo)
    return SignIn(thread, closes, tuple(n for n in living if n in signed),
                  tuple(n for n in living if n not in signed))  # fmt: skip


def _to_send(outbox: list[Announcement], mode: str) -> tuple[int, ...]:
    """The PMs waiting for the GM: to review (review mode), to send by hand (dry-run)."""
    states = {AnnouncementState.PROPOSED}
    if mode == "dry-run":
        states.add(AnnouncementState.APPROVED)
    return tuple(a.id for a in outbox
                 if a.destination_kind is not DestinationKind.THREAD and a.state in states)  # fmt: skip


def record_poll(store: Store, game_id: int, at: datetime) -> None:
    """Note a successful poll at ``at`` (the daemon's clock): the health check reads it."""
    with store.transaction() as uow:
        uow.evidence.set_cursor(game_id, LAST_POLL, {"ok": True}, at=at)


def _deaths(referee: Referee, published: set[str]) -> tuple[set[str], tuple[str, ...]]:
    """Who the players know to be dead, and who died without the announcement out yet."""
    state = referee.state
    unpublished: set[str] = set()
    told: set[str] = set()  # dead by a post that is out (a GM's exit posted during the step)
    for key, report in referee.announced.items():
        (told if key in published else unpublished).update(d.name for d in report.deaths)
    if referee.gate_key() not in published:  # the settled step's dead, a GM's execution too (recheck2 N3)
        unpublished |= unpublished_deaths(state) - told  # (newcomer2 F6: not an exit already posted)
    dead = {s.name for s in state.seats if not s.alive}
    hidden = dead & unpublished
    return dead - hidden, tuple(s.name for s in state.seats if s.name in hidden)


def _step(referee: Referee, state: GameState, now: datetime, runoff: str, settled: str) -> str:
    """The open step's name; a day whose vote opens later than the day (game6: the 13th hour)
    is 讨论 until then, not 投票."""
    times = referee.times()
    opening = times.rounds[1][0] if times is not None and 1 in times.rounds else None
    if state.phase is Phase.DAY and state.round == 1 and opening is not None and times.opens < opening and now < opening:
        return gm_text.step_name(state.phase, state.number) + " " + gm_text.STEP_WORDS["discussion"]
    return gm_text.step_name(state.phase, state.number, state.round, runoff, settled)


def _marks(referee: Referee, published_at: dict[str, datetime]) -> tuple[Mark, ...]:
    """Marks from the published results of the current step number (the night's 束魂, the
    day's curse and bless), and the sheriff of the latest published post naming one (an
    election, a 殉职, or the GM's ``override sheriff``: wolfadv W21)."""
    state = referee.state
    n = state.number
    current = [referee.keys.public(step_label(phase, n, rnd))
               for phase in (Phase.NIGHT, Phase.DAY) for rnd in (None, 1, 2)]  # fmt: skip
    reports: list[Report] = [
        referee.announced[k] for k in current if k in referee.announced and k in published_at
    ]
    named = [*referee.announced.items(), *((key, made.report) for made, key in referee.rulings)]
    sheriff = [
        r for _, k, r in sorted((published_at[k], i, r) for i, (k, r) in enumerate(named)
                                if k in published_at and any(f.kind == "sheriff" for f in r.public_facts))
    ]  # fmt: skip
    marks: dict[tuple[str, str], Mark] = {}
    badge = [f for r in sheriff[-1:] for f in r.public_facts if f.kind == "sheriff"]
    for fact in [*badge, *(f for r in reports for f in r.public_facts if f.kind != "sheriff")]:
        name = referee.holder_now(named) if (named := fact.get("name")) else None  # as played now (gmattack W7)
        if fact.kind in FIRST_ROUND_MARKS and state.phase is Phase.DAY and state.round > 1:
            continue  # (the runoff counts without them)
        if fact.kind in MARK_KINDS and name and state.is_alive(name):
            marks[(name, fact.kind)] = Mark(name, fact.kind, MARK_KINDS[fact.kind])
    return tuple(marks.values())


def _deadlines(
    referee: Referee, state: GameState, now: datetime, tz: tzinfo, runoff: str, proposed: Collection[str] = ()
) -> tuple[Deadline, ...]:
    """The open step's deadlines still to come (and the one just passed, until it acts);
    ``proposed``: the outbox's keys (a night phase's close that proposed its PMs is done)."""
    words = gm_text.DEADLINES
    found: list[tuple[str, str, datetime]] = []
    if state.phase is Phase.SETUP:
        found.append(("game_start", words["game_start"], referee.game.start))
    times: PhaseTimes | None = referee.times()
    if times is not None and state.phase is Phase.NIGHT:
        for k, at in sorted(times.phase_deadlines.items()):
            if at <= now and referee.phase_close_done(k, proposed):
                continue  # its close is done (the witch's list proposed): not 「下次轮询时处理」 (gmattack2 F9)
            found.append(("night_phase", words["night_phase"].format(k=k), at))
        if times.input_deadline is not None and times.input_deadline != times.closes:
            found.append(("action_deadline", words["action_deadline"], times.input_deadline))
        found.append(("night_end", words["night_end"].format(n=state.number), times.closes))
    elif times is not None and state.phase is Phase.DAY:
        opens, closes = times.rounds.get(state.round, (times.opens, times.closes))
        name = gm_text.round_name(state.round, runoff)
        if opens < NOT_YET:
            if opens > times.opens:
                found.append(("vote_opens", words["vote_opens"].format(round=name), opens))
            found.append(("vote_closes", words["vote_closes"].format(round=name), closes))
        if times.closes != closes:
            found.append(("day_end", words["day_end"].format(n=state.number), times.closes))
    out = [
        Deadline(what, label, at.astimezone(tz), (at - now).total_seconds())
        for what, label, at in found
    ]
    upcoming = [d for d in out if d.seconds_left > 0]
    # A close that is due: the next cycle acts on it (an opening that passed is no deadline).
    passed = [d for d in out if d.seconds_left <= 0 and d.what != "vote_opens"][-1:]
    return tuple(sorted(passed + upcoming, key=lambda d: d.at))


def _vote(
    service: GameService, referee: Referee, state: GameState, now: datetime, tz: tzinfo, runoff: str
) -> VoteStanding | None:
    if state.phase is not Phase.DAY or not state.round:
        return None
    times = referee.times()
    opens = closes = None
    if times is not None:
        o, c = times.rounds.get(state.round, (times.opens, times.closes))
        opens, closes = (o.astimezone(tz), c.astimezone(tz)) if o < NOT_YET else (None, None)
    standing = service.ruleset.standing_vote(state)
    links = _links_by_id(service, [b.evidence for b in standing.counted.values()])
    views = {
        voter: BallotView(voter, b.target, b.t.astimezone(tz) if b.t else None, b.via, links.get(str(b.evidence)))
        for voter, b in standing.counted.items()
    }  # fmt: skip
    by_target: dict[str, list[BallotView]] = {}
    for view in sorted(views.values(), key=lambda v: (v.at is None, v.at or now)):
        by_target.setdefault(view.target, []).append(view)
    candidates = set(standing.counts) | {t for t in by_target if t != ABSTAIN}
    tally = sorted(
        (CandidateVotes(name, float(standing.counts.get(name, 0)), tuple(by_target.get(name, ())))
         for name in candidates),
        key=lambda c: (-c.votes, c.name),
    )  # fmt: skip
    not_voted = tuple(n for n in standing.electorate if n not in standing.counted)
    # (where a ballot may still change, a leader is never out of reach; werewolf's sheriff's
    # ballot also weighs more: adversary3 A10)
    decided = _decided(tally, len(not_voted)) if referee.profile.ballots.changes == 0 else None
    return VoteStanding(
        round=state.round,
        name=gm_text.round_name(state.round, runoff),
        opens=opens,
        closes=closes,
        open=opens is not None and opens <= now,
        electorate=standing.electorate,
        # (招魂 adds one ballot per summoned victim to the runoff's count: no majority to reach;
        # where ballots may change, or weigh unequally, no count of them settles it: adversary6 C13)
        decisive=0 if state.round == SUMMONING or referee.profile.ballots.changes != 0
        else len(standing.electorate) // 2 + 1,
        tally=tuple(tally),
        abstained=tuple(by_target.get(ABSTAIN, ())),
        not_voted=not_voted,
        decided=decided,
        why_open=_why_open(referee, not_voted, closes, _played_by(state)) if decided else None,
        played_by=_played_by(state),
    )


def _played_by(state: GameState) -> dict[str, str]:
    """Each living seat a substitute is entering, and who plays it (old → new)."""
    return {old: new for old, new in state.pending_substitutions if state.is_alive(old)}


def _why_open(referee: Referee, not_voted: tuple[str, ...], closes: datetime | None,
              played_by: Mapping[str, str] | None = None) -> str:  # fmt: skip
    """Why a vote nobody can change any more is still open, in the GM's words: the ruleset's
    own answer (RULES.md "Early close": what keeps the step open, or no early end at all); a
    seat a substitute plays named with him (newcomer2 F7)."""
    played_by = played_by or {}
    until = f"到 {closes:%m-%d %H:%M} 截止时计票" if closes else "到截止时间计票"
    done = referee.ruleset.completion(referee.state)
    if done.by is None or (done.by is EarlyClose.ALL_IN and not referee.early_close):
        return f"结果已定，但本局规则不提前结束投票：{until}"
    waiting: dict[str, list[str]] = {}
    for o in done.outstanding:
        who = gm_text.seat_played(o.who, played_by.get(o.who, "")) if o.who in played_by else gm_text.who_name(o.who)
        waiting.setdefault(gm_text.WAITING.get(o.why.value, o.why.value), []).append(who if o.who else "")
    resends = _resends_awaited(referee)
    if resends:
        return f"结果已定，但{'；'.join(resends)}（或{until}）"
    exits = referee.exited_unannounced()
    if exits:
        return f"结果已定，但 {'、'.join(exits)} 的退出公告还没发出：发出后才算出局，投票才提前结束（或{until}）"
    if not waiting:
        return f"结果已定，守护进程下一轮就结束投票（或{until}）"
    how = "全员同意加速" if done.by is EarlyClose.SPEED_UP else "所有人投票"
    missing = "；".join(f"{why}：{'、'.join(n for n in names if n)}" if any(names) else why
                        for why, names in waiting.items())  # fmt: skip
    return f"结果已定，但要{how}才提前结束（{missing}）；否则{until}"


def _decided(tally: list[CandidateVotes], remaining: int) -> str | None:
    """The leader whom the ballots still to come cannot catch (one vote each; a ballot once
    cast is final), if any. A delegated ballot is not final (its voter's own post voids it,
    D-D): it is counted as one still to come (newcomer N9)."""
    if not tally:
        return None
    unsure = {c.name: sum(1 for v in c.voters if v.via == "pm_delegate") for c in tally}
    firm = sorted(((c.votes - unsure[c.name], c.name) for c in tally), key=lambda x: (-x[0], x[1]))
    second = firm[1][0] if len(firm) > 1 else 0
    still = remaining + sum(unsure.values())
    return firm[0][1] if firm[0][0] > second + still else None


def _night(service: GameService, state: GameState, tz: tzinfo, now: datetime) -> NightActions | None:
    if state.phase is not Phase.NIGHT:
        return None
    subs = sorted(state.submissions, key=lambda s: s.sort_key())
    links = _links_by_id(service, [s.evidence for s in subs])
    played = _played_by(state)  # (a seat a substitute plays, named with him: gmattack2 F2)

    def shown(name: str) -> str:
        return gm_text.seat_played(name, played[name]) if name in played else name

    submitted = tuple(
        ActionView(s.actor, s.action, shown(s.actor) + gm_text.describe_submission(s).removeprefix(s.actor),
                   s.t.astimezone(tz) if s.t else None, links.get(str(s.evidence)))
        for s in subs
    )  # fmt: skip
    info = service.ruleset.info
    usable = _usable_tonight(service.referee, state, now)
    acted = {s.actor for s in subs}
    not_acted = tuple(s.name for s in state.alive() if usable.get(s.name) and s.name not in acted)
    groups: dict[str, list[str]] = {}
    for name in not_acted:
        words = "或".join(dict.fromkeys(info.action_name(p) for p in usable[name]))
        groups.setdefault(words, []).append(shown(name))
    still = tuple((words, tuple(names)) for words, names in groups.items())
    return NightActions(submitted, not_acted, _night_troubles(service.referee, state), still)


def _usable_tonight(referee: Referee, state: GameState, now: datetime) -> dict[str, tuple[str, ...]]:
    """The skills each living character may still use in the open night, as intake reads
    them (adversary6 C8): those of this night (night 0: 金箭/托孤 only; later nights not
    them), not a spent one nor one kept for any time (殉职), and none for a member of a pack
    whose one kill another wolf sent (RES-W7; family A's joint killers each send theirs)."""
    ctx = referee.context(now, state)
    skills = ctx.profile.skills
    sent = {(s.actor, s.action) for s in state.submissions}
    out: dict[str, tuple[str, ...]] = {}
    closed = {n for n, at in ctx.phase.phase_deadlines.items() if at <= now}  # 夜晚1 after 00:00
    for player in ctx.players:
        if not player.alive or not state.has_player(player.name) or player.name in ctx.phase.sent_off:
            continue
        powers = ctx.powers_of(player)
        role = ctx.info.roles.get(player.role or "")
        pack = ctx.unit_of(player) if role is not None and role.pack else ()  # (a joint unit: each sends)
        ordered = dict.fromkeys((*(role.powers if role else ()), *sorted(powers)))  # the role's order
        out[player.name] = tuple(
            a for a in ordered if a in powers
            if in_step(ctx, a) and a not in skills.anytime and skills.night_phases.get(a) not in closed
            and not (a in skills.single_use and a in ctx.phase.used_skills)
            and not any((q.name, a) in sent for q in pack)
        )  # fmt: skip
    return out


def _night_troubles(referee: Referee, state: GameState) -> tuple[str, ...]:
    """What keeps the night's kill from standing as it is, while the killers may still fix it:
    a joint unit that disagrees (each member's choice), a kill with no declaration (A-J3: a
    partner's covers it)."""
    out = []
    for members, subs in referee.disagreements(state):
        choices = "、".join(gm_text.describe_submission(x) for x in subs)
        out.append(gm_text.NIGHT_TROUBLES["joint_disagreement"].format(unit="、".join(sorted(members)), choices=choices))
    latest = {(s.actor, s.action): s for s in sorted(state.submissions, key=lambda x: x.sort_key())}
    declared = {(s.action, s.target) for s in latest.values()
                if s.extra.get("declaration_chars") or s.extra.get("declaration_by")}  # fmt: skip
    for s in latest.values():
        partners = referee.partners(s.actor, state)
        covered = any(p.actor in partners and (p.action, p.target) == (s.action, s.target)
                      and (p.action, p.target) in declared for p in latest.values())  # fmt: skip
        if s.extra.get("declaration_missing") and not s.extra.get("declaration_by") and not covered:
            out.append(gm_text.NIGHT_TROUBLES["declaration_missing"].format(what=gm_text.describe_submission(s)))
    return tuple(out) + _resends_awaited(referee) + _why_no_early_close(referee, state)


def _why_no_early_close(referee: Referee, state: GameState) -> tuple[str, ...]:
    """Why a night whose actions are all in does not end early (gmattack A12: status only
    said 「到时：…结算这一夜」): the GM's setting, or an exit not announced yet."""
    if state.phase is not Phase.NIGHT:
        return ()
    done = referee.ruleset.completion(state)
    if not done.complete or done.by is not EarlyClose.ALL_IN or referee.awaited:
        return ()
    if not referee.early_close:
        return (gm_text.NIGHT_TROUBLES["early_close_off"],)
    exits = referee.exited_unannounced()
    if exits:
        return (gm_text.NIGHT_TROUBLES["exit_unpublished"].format(who="、".join(exits)),)
    return ()


def _resends_awaited(referee: Referee) -> tuple[str, ...]:
    """The refused PMs whose senders were told to send them again: the step waits for them."""
    return tuple(
        gm_text.NIGHT_TROUBLES["resend_awaited"].format(who=r.who, kind=gm_text.alert_name(r.kind))
        for r in sorted(referee.awaited.refused.values(), key=lambda r: r.who)
    )


def _waiting(referee: Referee, outbox: list[Announcement], mode: str, situation: Situation) -> tuple[Waiting, ...]:
    """Public announcements not yet out, the one the next step waits for first."""
    gate = referee.gate_key() if PHASE_GRAPH[referee.state.phase].due is Due.PUBLICATION else None
    if referee.state.phase is Phase.OVER and referee.announced:  # the final result: the players
        gate = list(referee.announced)[-1]  # learn the end from it
    pending = [
        a for a in outbox
        if a.destination_kind is DestinationKind.THREAD and not (a.published_at or a.sent_at)
        and a.state not in (AnnouncementState.REJECTED, AnnouncementState.SUPERSEDED)
    ]  # fmt: skip
    opening = referee.awaited_opening()  # ballots count from it: the open round waits for it too
    pending.sort(key=lambda a: (a.key not in (gate, opening), a.id))
    out = []
    dropped = next((a for a in outbox if a.key == gate and a.state is AnnouncementState.REJECTED), None)
    if dropped is not None and not any(a.key == gate for a in pending):  # (nothing else says it)
        advice = rejected_gate_advice(mode, dropped.id)
        out.append(Waiting(dropped.id, dropped.kind, kind_words(referee.templates, dropped.kind, dropped.key),
                           dropped.state.value, True, advice.text(), advice.hints))  # fmt: skip
    for a in pending:
        if a.state is AnnouncementState.UNCONFIRMED:  # it goes out once the GM confirms it
            hints = confirmation_hints(situation, a.kind, subject_of(a), a.id)
            advice = Advice(gm_text.NOTES["unconfirmed"], hints)
        else:
            advice = publish_advice(mode, (a.id,), state=a.state.value)
        out.append(Waiting(a.id, a.kind, kind_words(referee.templates, a.kind, a.key), a.state.value,
                           a.key in (gate, opening), advice.text(), advice.hints))  # fmt: skip
    return tuple(out)


def _alerts(
    store: Store, game_id: int, alerts: Iterable[Alert], tz: tzinfo, situation: Situation
) -> tuple[AlertView, ...]:
    alerts = list(alerts)
    links = {
        link.id: link for link in evidence_links(store, game_id, [a.evidence_id for a in alerts])
    }
    views = []
    for a in alerts:
        advice = advise(facts_of(a), situation)
        views.append(AlertView(a.id, a.kind, gm_text.alert_name(a.kind), a.message, a.subject,
                               a.created_at.astimezone(tz), links.get(a.evidence_id), advice.text(), advice,
                               a.resolution if a.resolved_at else None))  # fmt: skip
    return tuple(views)


def _failed(a: Announcement) -> FailedSend:
    where = (
        f"帖子 {a.destination}"
        if a.destination_kind is DestinationKind.THREAD
        else f"私信 {a.destination}"
    )
    return FailedSend(a.id, a.kind, where, a.last_error or "", a.attempts)


def _activity(service: GameService, state: GameState, now: datetime) -> tuple[PlayerActivity, ...]:
    game = service.config.game
    with service.store.snapshot() as uow:
        names = {p.uid: p.name for p in uow.games.players(service.game_id) if p.uid}
        day = uow.evidence.activity(
            service.game_id, now - ACTIVITY_WINDOW, now,
            sources=list(game.counted_threads) or None, exclude_sources=list(game.uncounted_threads),
        )  # fmt: skip
        ever = uow.evidence.activity(
            service.game_id, game.start, now, exclude_sources=list(game.uncounted_threads)
        )
    posts = {names.get(a.author_uid, a.author): a.posts for a in day}
    last = {names.get(a.author_uid, a.author): a.last_at for a in ever}
    tz = service.config.forum.tz
    playing = {old: new for new, old in stand_ins(state).items()}  # a substitute plays it already
    out = []
    for s in state.alive():
        who = playing.get(s.name, s.name)
        at = last[who].astimezone(tz) if who in last else None
        out.append(PlayerActivity(s.name, posts.get(who, 0), at, who if who != s.name else ""))
    return tuple(out)


def _pacing(outbox: list[Announcement], lease: Any, interval: float, now: datetime) -> int:
    """How many approved announcements a running daemon is sending one by one (its lease
    renewed within the health window, and a send made or an approval given within it: right
    after ``approve`` it has sent none yet, adversary4 A14), else 0."""
    window = timedelta(seconds=STALE_AFTER * interval)
    if lease is None or lease.renewed_at < now - window or lease.expires_at <= now:
        return 0
    waiting = [a for a in outbox if a.state in (AnnouncementState.APPROVED, AnnouncementState.SENDING)]
    recent = now - window
    active = any(a.sent_at is not None and a.sent_at >= recent for a in outbox) or any(
        a.state is AnnouncementState.SENDING or (a.approved_at is not None and a.approved_at >= recent)
        for a in waiting
    )
    return len(waiting) if waiting and active else 0


def _health(last: datetime | None, interval: float, now: datetime, sending: int = 0) -> Health:
    if sending:  # it is busy sending, paced; it reads the forum again once they are out
        return Health(last.astimezone(now.tzinfo) if last else None, interval, True, "", sending)
    if last is None:
        return Health(None, interval, False, "守护进程还没有成功读取过论坛（shenshi run）")
    age = (now - last).total_seconds()
    if age > STALE_AFTER * interval:
        return Health(last.astimezone(now.tzinfo), interval, False,
                      f"上次成功读取论坛是 {gm_text.left(age).removeprefix('已过 ')}前（超过 {STALE_AFTER} 个轮询间隔）")  # fmt: skip
    return Health(last.astimezone(now.tzinfo), interval, True)


def _links_by_id(service: GameService, ids: Iterable[str | None]) -> dict[str, EvidenceLink]:
    found = evidence_links(service.store, service.game_id, [i for i in ids if i])
    return {str(link.id): link for link in found}


# -- JSON ---------------------------------------------------------------------------------------------


def to_json(status: GameStatus) -> dict[str, Any]:
    """The status as plain JSON values (times ISO 8601 with the forum's offset)."""
    return _plain(status)


def _plain(value: Any) -> Any:
    if isinstance(value, (Advice, Hint)):
        return value.to_json()  # the console's shape (blanks as forms, the text beside)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


__all__ = [
    "ActionView", "AlertView", "BallotView", "CandidateVotes", "Deadline", "FailedSend",
    "GameStatus", "Health", "Mark", "NightActions", "PlayerActivity", "SignIn", "SubstituteView", "SupersededView",
    "VoteStanding", "Waiting",
    "build_status", "record_poll", "to_json",
]  # fmt: skip
