"""The ``werewolf`` ruleset (狼人: 先知/女巫/守卫/爱神/狼人/吹笛 with add-ons), RULES.md §5.

The hooks of :class:`~shenshi.rulesets.base.Ruleset`; the algorithms live in :mod:`.night0`,
:mod:`.night`, :mod:`.day` and :mod:`.settle`, the camp logic in :mod:`.camps`, and the
settings a GM may change (composition, night order, win conditions…) in :mod:`.settings`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from types import MappingProxyType
from typing import Any

from shenshi.rulesets.base import (
    CloseNight,
    CloseRound,
    Command,
    Completion,
    DaemonNote,
    Death,
    DeclareExit,
    EarlyClose,
    Event,
    ExecutionForced,
    ForceExecution,
    GameState,
    GmRuling,
    IllegalActionError,
    LastWordsRecorded,
    Outcome,
    Outstanding,
    Phase,
    PhaseTimes,
    PrivateResult,
    PublicFact,
    RecordLastWords,
    Report,
    Resolved,
    Ruleset,
    RulesetError,
    RulingApplied,
    Seat,
    StandingVote,
    Submission,
    Submit,
    Waiting,
    frozen_map,
    standing,
)
from shenshi.rulesets.catalog import (
    HEAL,
    LONE_BLADE,
    LONE_WOLF,
    POISON,
    SHERIFF_SUCCESSOR,
    SPEED_UP,
    WEREWOLF,
)
from shenshi.rulesets.common import note
from shenshi.rulesets.profile import (
    BallotRules,
    ClockRules,
    LastWordsNotice,
    LastWordsRules,
    RulesetProfile,
    SkillChannel,
    SkillRules,
    SpeechRules,
    TargetRules,
)
from shenshi.rulesets.werewolf import camps, clock, day, night, night0, submissions
from shenshi.rulesets.werewolf.memory import DaySnapshot, WerewolfMemory
from shenshi.rulesets.werewolf.settings import DECLARED, default_config, settings_of
from shenshi.rulesets.werewolf.settle import Settled, go_out

ADDON_COUNTS = {camps.LOVER: (0, 2), camps.SHERIFF: (0, 1), camps.LONE_WOLF: (0, 1)}
SINGLE_USE = frozenset({HEAL, POISON, LONE_WOLF, LONE_BLADE})  # once a game (§5.2)


class Werewolf(Ruleset):
    """狼人 (§5): night 0, nights of two submission phases, sheriff election, camps."""

    name = "werewolf"
    aliases = ("ww", "狼人")
    info = WEREWOLF
    first_phase = Phase.NIGHT
    first_number = 0  # 第零日夜晚: cupid and 托孤
    cycle = (Phase.DAY, Phase.NIGHT)  # game day n is day n then night n [WW:L74]
    stored_types = MappingProxyType({"WerewolfMemory": WerewolfMemory, "DaySnapshot": DaySnapshot})
    gm_rulings = ("penalty", "send_off", "sheriff")  # the referee's and the host's (§5)

    def phase_times(
        self, state: GameState, phase: Phase, n: int, opened_at: datetime, substitutions: int = 0
    ) -> PhaseTimes:
        """§5.4: days end at 21:00 on the next calendar day, nights at 06:00 (clock.step_times)."""
        return clock.step_times(phase, opened_at, camps.settings(state))

    # -- setup -------------------------------------------------------------------------------

    settings = DECLARED  # [game.rules]: each proposal of §5, with its type and range

    def default_config(self) -> dict[str, Any]:
        """The spec's proposals (RES-W1..W3) as settings a GM may change."""
        return default_config()

    def declare(self, config: Mapping[str, Any]) -> RulesetProfile:
        """§5: skills as 功能树洞 replies, each in its step and night phase, single-use
        skills, latest ballots, last words of limited length, 加速, no seat count (RES-W1)."""
        settings = settings_of(config)  # a bad setting is refused here
        try:
            phases = {action: int(key) for action, key in settings.night_phase.items()}
        except ValueError:
            raise RulesetError("config.night_phases: the phases are numbered (1, 2)") from None
        return RulesetProfile(
            self.name,
            skills=SkillRules(
                channel=SkillChannel.ROLE_THREAD,
                night0=submissions.NIGHT_ZERO_SKILLS,
                day=frozenset({LONE_BLADE}),
                anytime=frozenset({SHERIFF_SUCCESSOR}),
                posthumous=frozenset({SHERIFF_SUCCESSOR}),
                single_use=SINGLE_USE,
                night_phases=MappingProxyType(phases),
                change_note="receipt_until_deadline_confirm",
                latest_line_counts=True,
            ),
            targets=TargetRules(no_self=frozenset({LONE_BLADE, SHERIFF_SUCCESSOR})),
            last_words=LastWordsRules(
                max_chars=settings.last_words_chars,
                notice=LastWordsNotice.PM,
                until_next_day=True,
                published=True,
            ),
            ballots=BallotRules(record_published=True),
            speech=SpeechRules(dead_posts=True),
            clock=ClockRules(
                speed_up=True,
                unannounced=frozenset({("night", 0)}),
                first_light="sheriff_election_opened",
                death_causes_public=False,
                settles_at_last_phase=True,
            ),
            players=None,
        )

    def initial_memory(self, state: GameState) -> WerewolfMemory:
        """Parse the settings and check the add-ons (two lovers, one sheriff, one lone wolf)."""
        settings_of(state.config)  # a bad setting raises RulesetError here, at setup
        for addon, allowed in ADDON_COUNTS.items():
            count = sum(1 for s in state.seats if addon in s.addons)
            if count not in allowed:
                raise RulesetError(
                    f"add-on {addon!r} is carried by {count} characters (allowed: {allowed})"
                )
        # Characters already out when the game is set up count for nothing in the first-four
        # last-words rule (RES-W15): the out order starts empty.
        return WerewolfMemory()

    # -- submissions -------------------------------------------------------------------------

    def check_submission(self, state: GameState, sub: Submission) -> DaemonNote | None:
        """Why a skill reply fails (W-D1..W-D3), or ``None``; intake uses it for receipts."""
        return submissions.check_submission(state, sub)

    def standing_vote(self, state: GameState) -> StandingVote:
        """The latest valid ballot of each character in play (RES-W6), the sheriff's weighted."""
        counted, _ = day.counted_ballots(state, None)
        counts = {name: float(v) for name, v in day.tally(state, counted).items()}
        return standing(counted, [s.name for s in day.electorate(state)], counts)

    def between_steps(self, state: GameState, command: Submit) -> Command | None:
        """【殉职】 after the settlement that put the sheriff out (RES-W21: chosen in the night's
        last-words phase, or at once by day): the sheriff who went out without naming a
        successor hands the badge to a living character, as the host's ``sheriff`` ruling
        would."""
        lost = {n.who for n in state.step_report.daemon if n.rule == "sheriff_default"}
        target = command.target or ""
        if (
            command.action != SHERIFF_SUCCESSOR
            or command.actor not in lost
            or target == command.actor
            or not state.is_alive(target)
            or camps.sheriff(state) is not None
        ):
            return None
        return GmRuling("sheriff", target, reason="殉职")

    def completion(self, state: GameState) -> Completion:
        """A day ends early only by 加速 (W-D7, RES-W14): every character in play agreed to
        speed this day up, and the ballots not yet cast could not change who leads even if
        all went to the runner-up. A night runs to its phases' deadlines (a 确定 lock fixes a
        target, not the night's end)."""
        if state.phase is not Phase.DAY:
            return Completion()
        latest: dict[str, bool] = {}  # the latest reply of each counts: agreed, or taken back
        for s in sorted(submissions.valid(state, [SPEED_UP]).subs, key=lambda s: s.sort_key()):
            if s.extra.get("day", state.number) == state.number:
                latest[s.actor] = not s.extra.get("withdrawn")
        agreed = {actor for actor, yes in latest.items() if yes}
        waiting = [
            Outstanding(s.name, Waiting.NO_CONSENT) for s in day.electorate(state) if s.name not in agreed
        ]
        if not day.determined(state):
            waiting.append(Outstanding("", Waiting.UNDECIDED))
        return Completion(EarlyClose.SPEED_UP, tuple(waiting))

    def night_phase_closed(self, state: GameState, key: str) -> tuple[PrivateResult, ...]:
        """When 夜晚1 closes the witch gets her 【通灵】 list at once (RES-W3); night 0 has no
        【杀人】, so nothing is sent then."""
        if key != "1" or state.number == 0:
            return ()
        return tuple(self.witch_vision(state))

    def witch_vision(self, state: GameState) -> list[PrivateResult]:
        """The 【通灵】 lists to send when 夜晚1 closes (RES-W3): one per witch who still has it."""
        mem = camps.memory(state)
        listed = submissions.vision(state)
        return [
            PrivateResult(s.name, "witch_vision", listed)
            for s in state.with_role("witch")
            if s.number not in mem.heal_used
        ]

    def intake_facts(self, state: GameState) -> dict[str, Any]:
        """What intake's single-post checks need (``PhaseFacts`` werewolf fields, by name).

        ``witch_vision`` is the 【通灵】 list as the replies stand; hand it to intake once it
        has been sent (when 夜晚1 closes).
        """
        mem = camps.memory(state)
        seats = state.seats
        spent = {
            "heal": bool(mem.heal_used), "poison": bool(mem.poison_used),
            "lone_wolf": mem.lone_wolf_given, "lone_blade": bool(mem.blade_used),
        }  # fmt: skip
        locked: dict[str, set[str]] = {}
        for sub in state.submissions:
            if sub.extra.get(submissions.CONFIRM):
                locked.setdefault(sub.actor, set()).add(sub.action)
        extra = {
            m.name: frozenset({"kill"})
            for g in camps.kill_groups(state)
            if g.who != camps.WOLVES
            for m in g.members
        }
        handed = camps.sheriff(state) is not None  # the badge passed already: no second 【殉职】 (gmattack W9)
        for n in state.step_report.daemon:  # the sheriff just put out (a settlement, an exit): 【殉职】 now
            if n.rule == "sheriff_default" and not handed:
                extra[n.who] = extra.get(n.who, frozenset()) | {SHERIFF_SUCCESSOR}
        waiting = [(n, day_n) for n, day_n in mem.last_words if n not in mem.last_words_received]
        granted = frozenset(state.by_number(n).name for n, day_n in waiting if day_n == state.number)
        # The next day has opened: last words of the day before are late from its opening
        # (W-D6), and intake refuses them as such (not as never granted).
        late = frozenset(
            state.by_number(n).name
            for n, day_n in waiting
            if state.phase is Phase.DAY and day_n == state.number - 1
        )
        deadline = state.params.get("opened_at") if late and not granted else None
        vision = None
        if state.phase is Phase.NIGHT and state.number > 0:
            vision = frozenset(submissions.vision(state))
        return {
            "maddened": frozenset(s.name for s in seats if s.alive and s.number in mem.madness),
            "sent_off": frozenset(s.name for s in seats if s.alive and camps.sent_off(state, s)),
            "guarded_before": frozenset(state.by_number(n).name for n in mem.guarded),
            "silenced_before": frozenset(state.by_number(n).name for n in mem.silenced),
            "used_skills": frozenset(k for k, used in spent.items() if used),
            # spent in the night just settled: a change sent after its phase closed is late,
            # not a second use (wolfadv W10)
            "settled_skills": frozenset(
                s.action for s in state.submissions if state.phase is Phase.DAWN and spent.get(s.action)
            ),
            "witch_vision": vision,
            "locked": {actor: frozenset(actions) for actor, actions in locked.items()},
            "extra_powers": extra,
            "last_words_granted": granted | (late if deadline is not None else frozenset()),
            "last_words_deadline": deadline,
        }

    # -- resolution ----------------------------------------------------------------------------

    def resolve_night(self, state: GameState, command: CloseNight) -> Iterable[Event]:
        out = night0.resolve(state) if state.number == 0 else night.resolve(state)
        return self.finish_step(state, self._resolved(out))

    def close_round(self, state: GameState, command: CloseRound) -> Iterable[Event]:
        out = day.close(state, command.t or state.params.get("round1_close"))
        return self.finish_step(state, self._resolved(out))

    @staticmethod
    def _resolved(out: Settled) -> Resolved:
        after = out.state
        report = out.report.merge(camps.status(after))
        return Resolved(after.seats, after.memory, out.outcome, report=report)

    def check_win(self, state: GameState) -> Outcome | None:
        """§5.7 (RES-W2) as far as the settings keep it."""
        return camps.outcome(state)

    def carried_over(self, state: GameState, seat: Seat) -> tuple[tuple[str, Mapping[str, str]], ...]:
        """The badge (【领导】 2.1, 【殉职】 when he goes out) and the lover: a substitute inherits
        them (RES-W25) and must know them (recheck R7c: his PM quoted his lover and never said he
        was 警长; gmattack W8: a lover's substitute was never told whom he loves)."""
        carried: list[tuple[str, Mapping[str, str]]] = []
        if camps.SHERIFF in seat.addons and seat.alive:
            carried.append(("substitute_sheriff", {}))
        partner = camps.partner(state, seat)
        if partner is not None:  # (gmattack W8: a lover's seat taken over, the lover never named)
            carried.append(("lover_partner", {"name": partner.name}))
        return tuple(carried)

    def substitute(self, state: GameState, old: str, new: str) -> Any:
        # RES-W25: everything is the character's and is keyed by seat; penalty points are
        # keyed by the player's name and stay with the player who left.
        return state.memory

    # -- GM corrections ------------------------------------------------------------------------

    def _decide_DeclareExit(self, state: GameState, c: DeclareExit) -> Iterable[Event]:
        """A character leaves with no substitute: out, with 殉情, madness and badge following."""
        if not state.is_alive(c.name):
            raise IllegalActionError(f"{c.name!r} is not a living character")
        settled = go_out(state, [Death(c.name, self.exit_cause)])
        report = settled.report.merge(
            Report(public_facts=(PublicFact.of("exit", name=c.name),))
        ).merge(camps.status(settled.state))
        yield RulingApplied(
            "exit",
            c.name,
            settled.state.seats,
            settled.state.memory,
            settled.outcome,
            c.reason,
            report=report,
        )

    def _decide_ForceExecution(self, state: GameState, c: ForceExecution) -> Iterable[Event]:
        """Force or cancel today's vote-out; after the close, the day is settled again. The
        day that elects the sheriff has no vote-out to force (RES-W5; gmattack W5)."""
        if state.number == camps.settings(state).sheriff_election_day:  # (cancelling it too: recheck2)
            raise IllegalActionError("today's vote elects the sheriff: nobody goes out today")
        if state.phase is Phase.DAY:
            yield from super()._decide_ForceExecution(state, c)
            return
        mem = camps.memory(state)
        snapshot = mem.before_close
        if snapshot is None or snapshot.number != state.number:
            raise IllegalActionError("only today's vote-out can be corrected")
        seats = snapshot.seats
        memory = replace(
            mem,
            madness=snapshot.madness,
            blade_used=snapshot.blade_used,
            out_order=snapshot.out_order,
            last_words=snapshot.last_words,
            before_close=None,
        )
        if any(s.name != state.by_number(s.number).name for s in seats):
            raise IllegalActionError("a substitute entered at today's close: correct by hand")
        if c.name is not None and not any(s.name == c.name and s.alive for s in seats):
            raise IllegalActionError(f"{c.name!r} was not a living character today")
        params = frozen_map({**state.params, "forced_execution": (c.name,)})
        before = replace(
            state, seats=seats, memory=memory, outcome=None, phase=Phase.DAY, params=params
        )
        done = self._resolved(day.close(before, state.params.get("round1_close")))
        yield ExecutionForced(
            c.name, done.seats, done.memory, done.outcome, c.reason, report=done.report
        )

    def gm_ruling(self, state: GameState, command: GmRuling) -> Iterable[Event]:
        """Referee and host rulings: ``penalty`` (``points``), ``send_off``, ``sheriff``.

        Penalty points are the player's (RES-W25); at ``sent_off_points`` the character is
        sent off (罚下): alive, but no vote and no <常规>/<单次>/<强制> skill. ``sheriff`` hands
        the badge to a living character (the host's default, or a late 【殉职】 reply).
        """
        mem = camps.memory(state)
        name = command.name
        if command.kind in ("penalty", "send_off"):
            if not state.is_alive(name):
                raise IllegalActionError(f"{name!r} is out: only characters in play are penalised")
            threshold = camps.settings(state).sent_off_points
            points = command.params.get("points")
            if command.kind == "send_off":
                points = max(threshold - mem.points(name), 0)
            if not isinstance(points, int) or points < 0:
                raise IllegalActionError("a penalty needs a whole number of points")
            was_off = mem.points(name) >= threshold
            mem = mem.with_points(name, points)
            # A direct 罚下 is published as such, not as the points it took (wolfadv W11: a
            # player with 6 points was announced as 「累计 12 分」).
            facts = [] if command.kind == "send_off" else [PublicFact.of("penalty", name=name, points=mem.points(name))]
            if not was_off and mem.points(name) >= threshold:
                facts.append(PublicFact.of("sent_off", name=name))
            after = replace(state, memory=mem)
            report = Report(public_facts=tuple(facts)).merge(camps.status(after))
            yield RulingApplied(command.kind, name, state.seats, mem, None, command.reason, report=report)
            return
        if command.kind == "sheriff":
            if not state.is_alive(name):
                raise IllegalActionError(f"{name!r} is out and cannot be sheriff")
            election = camps.settings(state).sheriff_election_day
            if state.number < election:  # no badge before the election (gmattack W2)
                raise IllegalActionError(f"day {election}'s vote elects the first sheriff: no badge before it")
            holder = camps.sheriff(state)
            if holder is not None and holder.alive:  # (gmattack W6; to himself: a second 「成为警长」, recheck2)
                raise IllegalActionError(f"{holder.name!r} is the sheriff in play: the badge passes when he goes out")
            if state.phase is Phase.DAY and state.number == election and camps.sheriff(state) is None:
                # the vote open today elects him (RES-W5): a badge handed out now would weigh
                # 2.1 in the election and be taken back by it (adversary7 D1)
                raise IllegalActionError("today's vote elects the sheriff: the badge is handed over after it")
            seats = camps.with_sheriff(state, name)
            after = replace(state, seats=seats)
            report = Report(public_facts=(PublicFact.of("sheriff", name=name),)).merge(
                camps.status(after)
            )
            yield RulingApplied("sheriff", name, seats, mem, None, report=report)
            return
        yield from super().gm_ruling(state, command)

    # -- last words ----------------------------------------------------------------------------

    def _decide_RecordLastWords(self, state: GameState, c: RecordLastWords) -> Iterable[Event]:
        if not state.has_player(c.author):
            raise IllegalActionError(f"{c.author!r} is not a player of this game")
        problem = self.last_words_problem(state, c.author, c.chars)
        report = Report(daemon=(problem,)) if problem else Report()
        yield LastWordsRecorded(c.author, tuple(c.accused), c.t, c.chars, c.text, report=report)

    def last_words_problem(
        self, state: GameState, author: str, chars: int | None
    ) -> DaemonNote | None:
        """W-D6: last words only for the first four out, ≤ 3000 characters, before the next
        day's discussion thread opens (void otherwise)."""
        mem = camps.memory(state)
        seat = state.seat(author).number
        days = [n for s, n in mem.last_words if s == seat]
        if not days:
            return note(author, "last_words_not_granted", "void", log_only=True)
        if seat in mem.last_words_received:
            return note(author, "last_words_twice", "void", log_only=True)
        if state.number != days[0]:  # the next day (number + 1) has opened
            return note(author, "last_words_late", "void", log_only=True)
        if chars is not None and chars > camps.settings(state).last_words_chars:
            return note(author, "last_words_long", "void", f"{chars} characters", log_only=True)
        return None

    def remember(self, state: GameState, event: Event) -> Any:
        if (
            isinstance(event, LastWordsRecorded)
            and self.last_words_problem(state, event.author, event.chars) is None
        ):
            mem = camps.memory(state)
            seat = state.seat(event.author).number
            return replace(mem, last_words_received=mem.last_words_received + (seat,))
        return state.memory

    # -- timeline ------------------------------------------------------------------------------

    def timeline(self, state: GameState, step: Mapping[str, Any]) -> Report:
        if step["check"] != "schedule":
            return super().timeline(state, step)
        return Report(schedule=clock.first_game_day(step["start"], camps.settings(state)))
