"""chess32 (楚汉, 32 players in two camps): the ruleset, RULES.md §4 and §6.2.

The hooks of :class:`~shenshi.rulesets.base.Ruleset`; the algorithms live in :mod:`.collect`
(step 1), :mod:`.structure` (steps 2, 3, 6), :mod:`.states` (steps 4, 5), :mod:`.night`
(steps 7–10), :mod:`.day` (§4.7, lurking) and :mod:`.clock` (§4.8).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from shenshi.rulesets.base import (
    ActivityRecorded,
    CloseNight,
    CloseRound,
    DaemonNote,
    Event,
    GameState,
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
    Seat,
    StandingVote,
    Submission,
    Submit,
    standing,
)
from shenshi.rulesets.catalog import CANNON_KILL, CHECK, CHESS32, KILL, SWAP_GENERAL
from shenshi.rulesets.chess import clock, collect, day, night
from shenshi.rulesets.chess.collect import CAMPS, enemy_of
from shenshi.rulesets.chess.memory import ChessMemory, PendingSwap
from shenshi.rulesets.common import note
from shenshi.rulesets.profile import (
    BallotRules,
    ClockRules,
    KillPost,
    LastWordsNotice,
    LastWordsPost,
    LastWordsRules,
    Refusal,
    RulesetProfile,
    SkillRules,
    SpeechRules,
    TargetRules,
)
from shenshi.rulesets.settings import Kind, Setting

LAST_HOUR = timedelta(hours=1)  # no change of ballot in a round's last hour (RES-C28)


class Chess32(Ruleset):
    """楚汉: generals, chariots, horses, cannons, elephants, advisors and soldiers (§4)."""

    name = "chess32"
    aliases = ("chess", "c32", "楚汉")
    info = CHESS32
    first_phase = Phase.DAY  # the game starts with day 1 [CH:L102]
    cycle = (Phase.DAY, Phase.NIGHT)  # a game day is day n then night n
    stored_types = MappingProxyType({"ChessMemory": ChessMemory, "PendingSwap": PendingSwap})

    # -- setup -------------------------------------------------------------------------------

    # [game.rules]: the lengths of day and night, blank in the source (RES-C1).
    settings = (
        Setting("day_hours", Kind.HOURS, meaning="hours of a day (weekends pause the clock)"),
        Setting("night_hours", Kind.HOURS, meaning="hours of a night"),
    )

    def declare(self, config: Mapping[str, Any]) -> RulesetProfile:
        """§4: privileges by PM at night until dawn − 10 min, a 杀人帖 with each kill, the
        target rules of §4.3, 弃权 and one change of ballot a round, last words as one post,
        the game-room rules (dead players, spectators, empty posts) and post counts."""
        return RulesetProfile(
            self.name,
            skills=SkillRules(
                out_of_step=Refusal("pm_window", "alert_why_day_privilege"),
                change_note="receipt_until_dawn_10",
            ),
            targets=TargetRules(
                no_self=collect.NO_SELF_TARGET | {SWAP_GENERAL},
                not_on_partner=frozenset({CHECK}),
                not_on_roles=MappingProxyType(
                    {action: frozenset({"general"}) for action in collect.NOT_ON_GENERALS}
                ),
            ),
            kill_post=KillPost("杀人帖", collect.KILL_POST_MIN, frozenset({KILL, CANNON_KILL})),
            ballots=BallotRules(
                abstain=True, changes=1, no_change_before_close=LAST_HOUR, runoff_template="round2"
            ),
            last_words=LastWordsRules(post=LastWordsPost.WHOLE, notice=LastWordsNotice.PUBLIC),
            speech=SpeechRules(dead_posts=True, spectators=True, content=True),
            clock=ClockRules(records_activity=True, death_causes_public=False, day_minimum=clock.LURK_MIN_POSTS),
            players=self.info.players,
        )

    def default_config(self) -> dict[str, Any]:
        """Day and night lengths in hours: blank in the source, 24/24 by default (RES-C1)."""
        return {"day_hours": 24, "night_hours": 24}

    def initial_memory(self, state: GameState) -> ChessMemory:
        for key in ("day_hours", "night_hours"):
            value = state.config.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise RulesetError(
                    f"config.{key} must be a positive number of hours, not {value!r}"
                )
        for camp in CAMPS:
            for role, most in self.info.composition.items():
                count = sum(1 for s in state.seats if s.team == camp and s.role == role)
                if count > most:
                    raise RulesetError(
                        f"{camp} has {count} players with role {role!r} (at most {most})"
                    )
        return ChessMemory()

    # -- submissions ---------------------------------------------------------------------------

    def standing_vote(self, state: GameState) -> StandingVote:
        """C-D4: each voter's ballot after at most one change; round 2 only for its candidates."""
        mem: ChessMemory = state.memory
        candidates = {state.by_number(n).name for n in mem.runoff} if state.round > 1 else None
        counted, _ = day.counted_ballots(state, state.round, None, candidates)
        return standing(counted, [s.name for s in state.alive()])

    def intake_facts(self, state: GameState) -> dict[str, Any]:
        """Swaps left per general (抽将, 2 per game); the night victims who may still leave
        their last words (once: one thread or reply, [CH:L152]; after that a post is C-D9)."""
        mem: ChessMemory = state.memory
        return {
            "swaps_left": {s.name: mem.swaps_left(s.number) for s in state.with_role("general")},
            "last_words_granted": frozenset(state.by_number(n).name for n in mem.last_words),
        }

    def check_submission(self, state: GameState, sub: Submission) -> DaemonNote | None:
        """Why a night submission cannot count (§4.3, C-D1, C-D2), or ``None``.

        Intake uses it for receipts. A later submission replaces an earlier one until
        dawn − 10 min, so a valid receipt is not yet a promise that the action works.
        """
        return collect.check_submission(state, sub)

    def _decide_Submit(self, state: GameState, c: Submit) -> Iterable[Event]:
        events = list(super()._decide_Submit(state, c))
        if state.phase is Phase.DAY:  # chess has no day powers
            submitted = events[-1]
            assert isinstance(submitted, PowerSubmitted)
            rejected = note(c.actor, "pm_window", "rejected", "no power by day", log_only=True)
            events[-1] = replace(submitted, report=Report(daemon=(rejected,)))
        return events

    # -- resolution ----------------------------------------------------------------------------

    def resolve_night(self, state: GameState, command: CloseNight) -> Iterable[Event]:
        out = night.resolve(state)
        after = replace(state, seats=out.seats, memory=out.memory)
        resolved = Resolved(out.seats, out.memory, self.check_win(after), report=out.report)
        return self.finish_step(state, self._with_due(state, resolved))

    def close_round(self, state: GameState, command: CloseRound) -> Iterable[Event]:
        if state.round == 1:
            out = day.first_round(self, state, command.t or state.params.get("round1_close"))
        elif state.round == 2:
            out = day.second_round(self, state, command.t or state.params.get("round2_close"))
        else:  # pragma: no cover - rounds come from close_round itself
            raise IllegalActionError(f"no round {state.round} in {self.name}")
        resolved = Resolved(out.seats, out.memory, out.outcome, out.next_round, report=out.report)
        return [resolved] if out.next_round else self.finish_step(state, self._with_due(state, resolved))

    def _with_due(self, state: GameState, resolved: Resolved) -> Resolved:
        """The step's ``replaced``: everyone due for replacement once it is over (C-D7), not
        only those newly due; a seat a substitute takes over at the step's end is not."""
        after = self.evolve(state, resolved)
        leaving = () if after.outcome is not None else [old for old, _ in after.pending_substitutions]
        return replace(resolved, report=replace(resolved.report, replaced=day.due(after, leaving)))

    def remember(self, state: GameState, event: Event) -> Any:
        mem: ChessMemory = state.memory
        if isinstance(event, ActivityRecorded):
            counts = {str(k): int(v) for k, v in event.post_counts.items()}
            return mem.with_post_counts(counts)
        if isinstance(event, LastWordsRecorded):  # once: the victim is silenced afterwards
            seat = state.seat(event.author).number
            return replace(mem, last_words=tuple(n for n in mem.last_words if n != seat))
        return state.memory

    def carried_over(self, state: GameState, seat: Seat) -> tuple[tuple[str, Mapping[str, str]], ...]:
        """Lurking warnings are the person's, not the seat's (RES-C33): the substitute is told
        he starts with none (gmattack C1)."""
        return (("substitute_warnings_fresh", {}),)

    def substitute(self, state: GameState, old: str, new: str) -> Any:
        # RES-C33: role, camp, horse pairing, swaps and a pending swap, curse or bless are all
        # kept by seat number; warnings are kept by the person's name and stay behind.
        return state.memory

    def execution_fact(self, state: GameState, name: str) -> PublicFact:
        """§4.7: the executed player's camp is published."""
        return PublicFact.of("executed", name=name, camp=state.seat(name).team)

    def execution_messages(self, state: GameState, name: str) -> tuple[PrivateResult, ...]:
        """§4.7: the executed player's identity goes by PM to his camp's general [CH:L13]."""
        return tuple(night.identity_messages(state, [name]))

    def check_win(self, state: GameState) -> Outcome | None:
        """A camp wins when the enemy general dies; both at once is a draw (和棋, RES-C22)."""
        fallen = {s.team for s in state.with_role("general", alive_only=False) if not s.alive}
        if len(fallen) == 2:
            return Outcome("draw", "both_generals_dead")
        if fallen:
            return Outcome(enemy_of(fallen.pop()), "general_killed")
        return None

    # -- the clock -------------------------------------------------------------------------------

    def phase_times(
        self, state: GameState, phase: Phase, n: int, opened_at: datetime, substitutions: int = 0
    ) -> PhaseTimes:
        """§4.8: ``night_hours``/``day_hours`` of running clock (weekends paused, RES-C20).

        A night's inputs stop at dawn − 10 min (RES-C32). Round 1 closes with the day; a
        round 2 adds 24 h [CH:L105]. Substitutions do not extend a chess phase.
        """
        hours = "night_hours" if phase is Phase.NIGHT else "day_hours"
        closes = clock.advance(opened_at, timedelta(hours=float(state.config[hours])))
        if phase is Phase.NIGHT:
            deadline = clock.rewind(closes, clock.NIGHT_DEADLINE_LEAD)
            return PhaseTimes(opened_at, closes, input_deadline=deadline)
        round2 = clock.advance(closes, clock.ROUND2)
        rounds = {1: (opened_at, closes), 2: (closes, round2)}
        return PhaseTimes(opened_at, closes, rounds=MappingProxyType(rounds))

    # -- timeline --------------------------------------------------------------------------------

    def timeline(self, state: GameState, step: Mapping[str, Any]) -> Report:
        if step["check"] == "schedule":
            return Report(
                schedule=clock.schedule(
                    step["start"],
                    float(state.config["day_hours"]),
                    float(state.config["night_hours"]),
                    runoff=step["runoff"],
                )
            )
        if step["check"] == "lurk":
            players = [s.name for s in state.alive()]
            counts = clock.window_counts(step["events"], step["start"], step["now"])
            mem: ChessMemory = state.memory
            lurkers = clock.lurkers(players, counts)
            after = replace(state, memory=mem.with_warnings(lurkers))
            return day.warn(lurkers, mem).merge(Report(replaced=day.due(after)))
        return super().timeline(state, step)
