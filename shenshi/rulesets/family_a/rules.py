"""Family A (游戏五 / 游戏六): the shared machinery and the four rulesets as small subclasses.

Each ruleset sets the parameters of RULES.md §2–3 as class attributes (``KILL_SOURCES`` is the
:meth:`FamilyA.kill_sources` hook); the algorithms live in :mod:`.night` and :mod:`.day`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any, ClassVar

from shenshi.rulesets.base import (
    CloseNight,
    CloseRound,
    Completion,
    DaemonNote,
    EarlyClose,
    Event,
    GameState,
    GmRuling,
    IllegalActionError,
    LastWordsRecorded,
    Outcome,
    Phase,
    PhaseTimes,
    PowerSubmitted,
    PrivateResult,
    PublicFact,
    Report,
    Resolved,
    Ruleset,
    RulesetError,
    RulingApplied,
    Seat,
    StandingVote,
    Submission,
    Submit,
    frozen_map,
    standing,
)
from shenshi.rulesets.catalog import (
    BIND,
    BLESS,
    CURSE,
    DIVINE,
    GAME5,
    GAME6_8,
    GAME6_10,
    GAME6_13,
    KILL,
)
from shenshi.rulesets.common import note
from shenshi.rulesets.family_a import clock, complete, day, night
from shenshi.rulesets.family_a.memory import FamilyAMemory, LastWords
from shenshi.rulesets.family_a.night import KillSource
from shenshi.rulesets.profile import (
    BallotRules,
    ClockRules,
    KillPost,
    LastWordsPost,
    LastWordsRules,
    Refusal,
    RulesetProfile,
    SkillRules,
    TargetRules,
)
from shenshi.rulesets.settings import Kind, Setting

EXTRA_DIVINATION_LEAD = timedelta(hours=1)  # default deadline: 1 h before the vote closes (RES-A19)


class FamilyA(Ruleset):
    """游戏五/游戏六 core (§1): subclasses set the parameters of their table."""

    stored_types = MappingProxyType({"FamilyAMemory": FamilyAMemory, "LastWords": LastWords})
    gm_rulings = ("extra_divination", "answered")  # RES-A19, A-S2

    FIXED_X: ClassVar[int | None] = None  # game6-8: x = 2
    KILLERS_CANNOT_KILL_EACH_OTHER: ClassVar[bool] = False  # game6-8 (RES-A3)
    LONE_KILLER_MAY_NOT_KILL_SELF: ClassVar[bool] = False  # game5, game6-10 (RES-A4)
    ALTERNATING_KILLERS: ClassVar[bool] = False  # game6-8 (RES-A1, RES-A2)
    BIND_SUCCESS_WORDING: ClassVar[str] = "no_death"  # game5: "kill_failed" (杀手杀人失败)
    CYCLE: ClassVar[clock.Cycle] = clock.GAME6_CYCLE
    POWER_ROLE: ClassVar[Mapping[str, str]] = {
        DIVINE: "seer", BIND: "binder", CURSE: "curser", BLESS: "blesser",
    }  # fmt: skip

    # -- setup -------------------------------------------------------------------------------

    # [game.rules]: the runoff and the summoning extend the day (default 12 h each).
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("runoff_hours", Kind.HOURS, meaning="hours of the runoff round (决选)"),
        Setting("summon_hours", Kind.HOURS, meaning="hours of the summoning round (招魂)"),
    )

    def declare(self, config: Mapping[str, Any]) -> RulesetProfile:
        """§1: powers by PM in the night's window, a 杀人宣言 with each kill, the first ballot
        final, 委托投票 by PM, accusations in last words, sign-in and lurking exits, and an
        early close once everything is in."""
        lone = {KILL: "killers"} if self.LONE_KILLER_MAY_NOT_KILL_SELF else {}
        return RulesetProfile(
            self.name,
            skills=SkillRules(
                pm_window=True,
                answer_locks=frozenset({DIVINE}),
                out_of_step=Refusal("pm_window", "alert_why_day_not_night"),
                change_note="receipt_until_dawn",
            ),
            targets=TargetRules(last_of_team_not_self=frozen_map(lone)),
            kill_post=KillPost(
                "杀人宣言", night.DECLARATION_MIN, frozenset({KILL}), required=True,
                story_exempt=True, short_alert="declaration_short",
            ),  # fmt: skip
            ballots=BallotRules(changes=0, delegated=True),
            last_words=LastWordsRules(post=LastWordsPost.MARKED, accusations=True),
            clock=ClockRules(early_close=True, sign_in=clock.SIGN_IN, lurking=clock.LURK),
            players=self.info.players,
        )

    def initial_memory(self, state: GameState) -> FamilyAMemory:
        order: tuple[int, ...] = ()
        if self.ALTERNATING_KILLERS:
            names = list(state.config.get("killer_order") or ())
            killers = [s for s in state.seats if s.role == "killer"]
            if not names:  # no lot drawn: seat order (the GM should set killer_order)
                names = [s.name for s in killers]
            for name in names:
                if not state.has_player(name) or state.seat(name).role != "killer":
                    raise RulesetError(f"config.killer_order names {name!r}, who is not a killer")
            if sorted(names) != sorted(s.name for s in killers):
                raise RulesetError("config.killer_order must name each killer once")
            order = tuple(state.seat(n).number for n in names)
        return FamilyAMemory(killer_order=order)

    def gm_ruling(self, state: GameState, command: GmRuling) -> Iterable[Event]:
        """``extra_divination``: the civilian the GM drew by lot for the penalty divination
        (RES-A19); only his first PM before the deadline is answered, at once."""
        if command.kind != "extra_divination":
            raise IllegalActionError(f"{self.name} has no GM ruling {command.kind!r}")
        seat = state.seat(command.name)
        if not seat.alive or seat.team != "civilians":
            raise IllegalActionError(f"{command.name} is not a living civilian: the lot is drawn among them")
        memory = replace(state.memory, extra_divination_actor=seat.number)
        yield RulingApplied(command.kind, command.name, state.seats, memory, state.outcome)

    def standing_vote(self, state: GameState) -> StandingVote:
        """D-E/D-I/D-D: the first posted ballot (or the delegation) of each voter; the bound
        survivor does not vote; a runoff counts only ballots for its candidates; the summoned
        victims vote in 招魂."""
        mem: FamilyAMemory = state.memory
        if state.round == 3:  # 招魂: the summoned victims, on top of the count after the last words
            summoned, cast, _ = day.summoned_votes(state, ())
            called = summoned or [n for n in next(iter(self.summoning_order(state)), (0, ()))[1]]
            return standing(cast, called, day.summoning_counts(state, cast))
        candidates = {state.by_number(n).name for n in mem.runoff} if state.round > 1 else None
        counted, _ = day.counted_ballots(state, state.round, None, candidates)
        return standing(counted, [s.name for s in day.electorate(state)])

    def intake_facts(self, state: GameState) -> dict[str, Any]:
        """The bound survivor, the 8p on-duty killer, summoned victims, last-words grants, the
        civilian drawn for the penalty divination, and the seers whose unit the GM answered."""
        mem: FamilyAMemory = state.memory
        facts: dict[str, Any] = {}
        answered = state.params.get("gm_answered") or {}
        if answered:  # both seers of a unit are locked by one answer (RES-A21)
            facts["seer_answered"] = frozenset(
                n for a in answered if state.has_player(a) for n in self._divination_unit(state, a)
            )
        if mem.extra_divination_actor is not None and state.phase in (Phase.DAWN, Phase.DAY):
            facts["extra_divination_actor"] = state.by_number(mem.extra_divination_actor).name
            deadline = state.params.get("extra_divination_deadline")
            close = state.params.get("round1_close")
            facts["extra_divination_deadline"] = deadline or (close - EXTRA_DIVINATION_LEAD if close else None)
        if state.phase is Phase.DAY and mem.bound is not None:
            facts["bound"] = state.by_number(mem.bound).name
        if state.phase is Phase.NIGHT and self.ALTERNATING_KILLERS:
            facts["on_duty_killer"] = self.on_duty_killer(state)
        if state.phase in (Phase.DAWN, Phase.DAY):
            dead = [state.by_number(s).name for _, seats in mem.victims for s in seats]
            facts["summoned"] = frozenset(n for n in dead if not state.is_alive(n))
            last = [state.by_number(s).name for n, seats in mem.victims if n == state.number for s in seats]
            facts["last_words_granted"] = frozenset(last)
        return facts

    def execution_fact(self, state: GameState, name: str) -> PublicFact:
        """D-6: a killer is published as 杀手, everyone else as 平民."""
        value = "杀手" if state.seat(name).team == "killers" else "平民"
        return PublicFact.of("executed", name=name, value=value)

    def summoning_order(self, state: GameState) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """D-4: whom a summoning (招魂) calls, night by night, the latest night first (each
        night's victims are counted only if nobody of a later night came online)."""
        mem: FamilyAMemory = state.memory
        return tuple((n, tuple(state.by_number(s).name for s in seats)) for n, seats in day.summonable(mem))

    def unit_name(self, role: str) -> str:
        """How a joint unit is named in daemon notes ("killers", "seers", …)."""
        return role + "s"

    def kill_sources(self, state: GameState) -> list[KillSource]:
        """``KILL_SOURCES``: one joint killer unit (game5, game6-10)."""
        killers = state.with_role("killer")
        return [KillSource(self.unit_name("killer"), killers, joint=True)]

    # -- submissions ---------------------------------------------------------------------------

    def check_submission(self, state: GameState, sub: Submission) -> DaemonNote | None:
        """Why a night submission is invalid (A-S1..A-S5, A-D4), or ``None`` if it is valid.

        Also used by intake for receipts, so a player learns at once that a PM will not count.
        """
        if not state.has_player(sub.actor) or not state.seat(sub.actor).alive:
            return note(sub.actor, "dead_actor", "rejected")
        if sub.extra.get("extra_divination"):
            return note(sub.actor, "pm_window", "rejected", "penalty divination sent at night")
        seat = state.seat(sub.actor)
        if sub.action not in self.info.roles[seat.role].powers:
            return note(sub.actor, "no_power", "rejected", sub.action, log_only=True)
        params = state.params
        if sub.t is not None:
            opened, closed = params.get("window_open"), params.get("window_close")
            if (opened and sub.t < opened) or (closed and sub.t >= closed):
                return note(sub.actor, "pm_window", "rejected")
            answered = self.answered_at(state, sub.actor)
            if sub.action == DIVINE and answered is not None and sub.t > answered:
                return note(sub.actor, "seer_locked", "rejected")
        if sub.target is None or not state.is_alive(sub.target):
            return note(sub.actor, "target_not_alive", "rejected", str(sub.target), log_only=True)
        if sub.action == KILL:
            return self._check_kill(state, sub)
        return None

    def _divination_unit(self, state: GameState, actor: str) -> list[str]:
        """The seers who divine as one with ``actor`` (game6-13: both, [G6:L67]), him included."""
        seat = state.seat(actor)
        if not self.info.roles[seat.role].joint:
            return [actor]
        return [s.name for s in state.seats if s.role == seat.role and s.team == seat.team]

    def answered_at(self, state: GameState, actor: str) -> datetime | None:
        """When the GM answered the divination of ``actor``'s seer unit, if he has (A-S2,
        RES-A21): an answer to either seer of a unit freezes the unit's target for both."""
        answered = state.params.get("gm_answered") or {}
        times = [answered[n] for n in self._divination_unit(state, actor) if answered.get(n)]
        return min(times) if times else None

    def divination_frozen(self, state: GameState, actor: str) -> bool:
        """Whether ``actor``'s seer unit has had its answer, so that nothing it sends from now
        on can change it (the lock of :meth:`answered_at`)."""
        return self.answered_at(state, actor) is not None

    def completion(self, state: GameState) -> Completion:
        """RULES.md "Early close": a night once every living power holder has a valid PM in,
        each joint unit agrees and each kill has its declaration, with nothing a player was
        told he may fix outstanding; a first round or runoff once every elector's ballot that
        counts is in. The summoning (招魂) runs its period."""
        if state.phase is Phase.NIGHT:
            return Completion(EarlyClose.ALL_IN, complete.night_outstanding(self, state))
        if state.phase is Phase.DAY and state.round in (1, 2):
            return Completion(EarlyClose.ALL_IN, complete.vote_outstanding(self, state))
        return Completion()

    def _check_kill(self, state: GameState, sub: Submission) -> DaemonNote | None:
        killers = state.on_team("killers")
        if self.ALTERNATING_KILLERS:
            on_duty = self.on_duty_killer(state)
            if on_duty is not None and sub.actor != on_duty:
                return note(sub.actor, "off_duty_killer", "rejected")
        if (
            self.LONE_KILLER_MAY_NOT_KILL_SELF
            and len(killers) == 1
            and state.seat(sub.target or "").team == "killers"
        ):
            return note(self.unit_name("killer"), "lone_killer_suicide", "rejected", sub.actor)
        return None

    def on_duty_killer(self, state: GameState) -> str | None:
        """game6-8: whose night it is (RES-A1); the survivor kills every night (RES-A2)."""
        mem: FamilyAMemory = state.memory
        living = [n for n in mem.killer_order if state.by_number(n).alive]
        if len(living) < len(mem.killer_order) or not mem.killer_order:
            return state.by_number(living[0]).name if living else None
        return state.by_number(mem.killer_order[(state.number - 1) % 2]).name

    def _decide_Submit(self, state: GameState, c: Submit) -> Iterable[Event]:
        events = list(super()._decide_Submit(state, c))
        if state.phase is Phase.DAY:
            submitted = events[-1]
            assert isinstance(submitted, PowerSubmitted)
            events[-1] = replace(submitted, report=self._day_submission(state, submitted.submission))
        return events

    def _day_submission(self, state: GameState, sub: Submission) -> Report:
        """RES-A19: the penalty divination is answered at once; other day PMs are out of window."""
        if not (sub.action == DIVINE and sub.extra.get("extra_divination")):
            return Report(daemon=(note(sub.actor, "pm_window", "rejected"),))
        if not state.is_alive(sub.actor) or state.seat(sub.actor).team != "civilians":
            return Report(daemon=(note(sub.actor, "not_eligible", "rejected", log_only=True),))
        drawn = state.memory.extra_divination_actor
        if drawn is not None and state.seat(sub.actor).number != drawn:
            return Report(daemon=(note(sub.actor, "not_drawn", "rejected", log_only=True),))
        deadline = state.params.get("extra_divination_deadline")
        if deadline is None and state.params.get("round1_close") is not None:
            deadline = state.params["round1_close"] - EXTRA_DIVINATION_LEAD
        if deadline is not None and sub.t is not None and sub.t > deadline:
            return Report(daemon=(note(sub.actor, "extra_divination_deadline", "rejected"),))
        if sub.target is None or not state.is_alive(sub.target):
            return Report(daemon=(note(sub.actor, "target_not_alive", "rejected", log_only=True),))
        if any(r.text_kind == "extra_divination" for r in state.step_report.private_results):
            return Report(daemon=(note(sub.actor, "extra_divination_used", "rejected", log_only=True),))
        value = "是" if state.seat(sub.target).team == "killers" else "不是"
        answer = PrivateResult(sub.actor, "extra_divination", value, sub.target)
        return Report(private_results=(answer,))

    # -- resolution ----------------------------------------------------------------------------

    def resolve_night(self, state: GameState, command: CloseNight) -> Iterable[Event]:
        out = night.resolve(self, state)
        after = replace(state, seats=out.seats, memory=out.memory)
        outcome = self.check_win(after)
        memory = out.memory
        if outcome is not None and outcome.winner == "killers" and self._final_day(after):
            outcome, memory = None, replace(memory, final_day=True)
        return self.finish_step(state, Resolved(out.seats, memory, outcome, report=out.report))

    def _final_day(self, state: GameState) -> bool:
        """§1.7.3 / RES-A17: 1 civilian v 1 killer with a curse or bless pending on one of them."""
        mem: FamilyAMemory = state.memory
        living = state.alive()
        if len(living) != 2 or {s.team for s in living} != {"killers", "civilians"}:
            return False
        pending = {n for n in (mem.curse, mem.bless) if n is not None}
        return any(s.number in pending for s in living)

    def close_round(self, state: GameState, command: CloseRound) -> Iterable[Event]:
        close = command.t
        if state.round == 1:
            close = close or state.params.get("round1_close")
            out = day.first_round(self, state, close)
        elif state.round == 2:
            close = close or state.params.get("round2_close")
            out = day.runoff(self, state, close)
        elif state.round == 3:
            out = day.summoning(self, state, command.online)
        else:  # pragma: no cover - rounds come from close_round itself
            raise IllegalActionError(f"no round {state.round} in {self.name}")
        memory = out.memory
        if not out.next_round:
            memory = replace(memory, runoff=(), first_round_voters=(), final_counts=(), bound=None,
                             curse=None, bless=None, final_day=False, runoff_voters=(),
                             missed_ballot=(), extra_divination_actor=None)  # fmt: skip
        resolved = Resolved(out.seats, memory, out.outcome, out.next_round, report=out.report)
        return [resolved] if out.next_round else self.finish_step(state, resolved)

    def remember(self, state: GameState, event: Event) -> Any:
        if isinstance(event, LastWordsRecorded):
            mem: FamilyAMemory = state.memory
            author = state.seat(event.author).number
            return replace(mem, last_words=mem.last_words + (LastWords(author, event.accused),))
        return state.memory

    def carried_over(self, state: GameState, seat: Seat) -> tuple[tuple[str, Mapping[str, str]], ...]:
        """The binder's streak (RES-A10): last night's valid bind on a player no kill touched;
        binding him again tonight with no kill on him kills him (束魂失败). A substitute taking
        the binder's seat inherits it (RES-A18) and must know it (newcomer N-5)."""
        mem = state.memory
        role = self.info.roles.get(seat.role)
        if mem is None or mem.unattacked_bind is None or role is None or BIND not in role.powers:
            return ()
        return (("substitute_bind_streak", {"name": state.by_number(mem.unattacked_bind).name}),)

    def substitution_report(self, old: str, new: str) -> Report:
        # RES-A18: the GM announces the exit and the substitute who takes the seat.
        return Report(public_facts=(PublicFact.of("substitution", out=old, **{"in": new}),))

    def check_win(self, state: GameState) -> Outcome | None:
        """§1.7: no killer alive → civilians; civilians ≤ killers with curser and blesser dead → killers."""
        killers = len(state.on_team("killers"))
        if killers == 0:
            return Outcome("civilians", "killers_extinct")
        civilians = len(state.on_team("civilians"))
        if civilians <= killers and not state.with_role("curser", "blesser"):
            return Outcome("killers", "killers_reach_civilians")
        return None

    # -- timeline and setup --------------------------------------------------------------------

    def timeline(self, state: GameState, step: Mapping[str, Any]) -> Report:
        living = [s.name for s in state.alive()]
        if step["check"] == "signin":
            return Report(exits=tuple(clock.missed_sign_in(living, step["start"], step["events"])))
        if step["check"] == "lurk":
            now = step["now"] or max((e["t"] for e in step["events"]), default=step["start"])
            return Report(exits=tuple(clock.lurkers(living, step["start"], now, step["events"])))
        return Report(
            schedule=clock.schedule(
                self.CYCLE,
                step["start"],
                runoff=step["runoff"],
                substitutions=step["substitutions"],
                substitution_phase=step["substitution_phase"],
            )
        )

    def setup(self, registrants: int) -> Report:
        return Report(ruleset_selected=select_game6_variant(registrants))

    def default_config(self) -> dict[str, Any]:
        # Runoff plus summoning extend the day by 24 h [G6:L30][G5:L53]: split between them.
        return {"runoff_hours": 12, "summon_hours": 12}

    def phase_times(
        self, state: GameState, phase: Phase, n: int, opened_at: datetime, substitutions: int = 0
    ) -> PhaseTimes:
        """§1.10: a night of 24 h; a day with the vote at its 13th hour (game 6) for 24 h.

        Each substitution extends its phase by 12 h (A-D13): by day, the voting round the
        substitute enters in (the first round, the runoff once the first has closed, the
        summoning once the runoff has); an early close ends that round, its extension with it."""
        extra = clock.SUBSTITUTION * substitutions
        if phase is Phase.NIGHT:
            return PhaseTimes(opened_at, opened_at + self.CYCLE.night + extra)
        pending = set(state.pending_substitutions)
        entered = [rnd for old, new, rnd in state.params.get("substitution_rounds", ()) if (old, new) in pending]
        summoning = min(sum(1 for rnd in entered if rnd and rnd > 2), substitutions)
        later = min(sum(1 for rnd in entered if rnd == 2), substitutions - summoning)
        r1_open = opened_at + self.CYCLE.vote_opens_after
        r1_close = r1_open + self.CYCLE.vote_lasts + clock.SUBSTITUTION * (substitutions - later - summoning)
        r2_close = r1_close + timedelta(hours=float(state.config.get("runoff_hours", 12))) + clock.SUBSTITUTION * later
        r3_close = (r2_close + timedelta(hours=float(state.config.get("summon_hours", 12)))
                    + clock.SUBSTITUTION * summoning)  # fmt: skip
        rounds = {1: (r1_open, r1_close), 2: (r1_close, r2_close), 3: (r2_close, r3_close)}
        return PhaseTimes(opened_at, r1_close, rounds=frozen_map(rounds))


def select_game6_variant(registrants: int) -> str:
    """§3: the Game 6 variant for ``registrants`` at the end of registration (RES-A22)."""
    if registrants < 8:
        return "no_game"
    if registrants <= 11:
        return "game6-8"
    if registrants <= 13:
        return "game6-10"
    return "game6-13"


class Game5(FamilyA):
    """游戏五: 10 players, a joint killer unit, bind success worded 杀手杀人失败 (§2)."""

    name = "game5"
    aliases = ("g5", "游戏五")
    info = GAME5
    LONE_KILLER_MAY_NOT_KILL_SELF = True
    BIND_SUCCESS_WORDING = "kill_failed"
    CYCLE = clock.GAME5_CYCLE

    def setup(self, registrants: int) -> Report:
        return Report(ruleset_selected="game5" if registrants >= GAME5.players else "no_game")


class Game6_8(FamilyA):
    """游戏六 8 人: alternating solo killers who cannot kill each other, x = 2 (§3.1)."""

    name = "game6-8"
    aliases = ("g6-8", "game6_8")
    info = GAME6_8
    FIXED_X = 2
    KILLERS_CANNOT_KILL_EACH_OTHER = True
    ALTERNATING_KILLERS = True
    settings = (
        *FamilyA.settings,
        Setting("killer_order", Kind.LIST, item=Setting("", Kind.TEXT), distinct=True,
                meaning="the killers' names in the order drawn by lot (RES-A1)"),
    )  # fmt: skip

    def kill_sources(self, state: GameState) -> list[KillSource]:
        on_duty = self.on_duty_killer(state)
        if on_duty is None:
            return []
        return [KillSource(on_duty, (state.seat(on_duty),), joint=False)]


class Game6_10(FamilyA):
    """游戏六 10 人: like game5, with Game 6 wording and clock (§3.2)."""

    name = "game6-10"
    aliases = ("g6-10", "game6_10")
    info = GAME6_10
    LONE_KILLER_MAY_NOT_KILL_SELF = True


class Game6_13(FamilyA):
    """游戏六 13 人: alliance unit + independent killer, joint seers and binders (§3.3)."""

    name = "game6-13"
    aliases = ("g6-13", "game6_13")
    info = GAME6_13

    def kill_sources(self, state: GameState) -> list[KillSource]:
        sources = [
            KillSource(self.unit_name("alliance_killer"), state.with_role("alliance_killer"), joint=True)
        ]
        sources += [KillSource(s.name, (s,), joint=False) for s in state.with_role("independent_killer")]
        return sources
