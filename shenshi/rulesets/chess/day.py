"""The chess day (RULES.md §4.7, §4.8): two voting rounds, the execution, lurking.

Map::

    counted_ballots()   format, living target or ABSTAIN, one change per round, none in the
                        last hour (RES-C28, RES-C29); round 2: candidates only (RES-C16)
    first_round()       试探性投票: curse/bless (RES-C15, RES-C17), the 30% test in integers,
                        round 2 for a tie at ≥30% only (RES-C30)
    second_round()      高票辩论投票: raw ballots, a unique maximum is executed
    execute()           the general's kill condition at tally time (RES-C14) and a pending swap
                        (RES-C13); camp public, identity to the camp's general
    end_of_day()        lurking warnings (not voting counts too), memory for the night
    due()               who is due for replacement: 2+ warnings, alive, still in the seat
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from shenshi.rulesets.base import (
    ABSTAIN,
    Ballot,
    DaemonNote,
    Death,
    GameState,
    PublicFact,
    Report,
    Saved,
    Seat,
)
from shenshi.rulesets.chess import clock
from shenshi.rulesets.chess.memory import ChessMemory
from shenshi.rulesets.chess.night import identity_messages, kill_condition_met
from shenshi.rulesets.common import RoundOutcome, nonzero, note, tally, top

if TYPE_CHECKING:
    from shenshi.rulesets.chess.rules import Chess32

LAST_HOUR = timedelta(hours=1)  # no ballot changes in the round's last hour [CH:L117]
THRESHOLD = (3, 10)  # round 1 executes only at ≥ 30% of the ballots: 10·M ≥ 3·T [CH:L111]
REPLACE_AT = 2  # warnings that make the GM replace a player [CH:L144]


def counted_ballots(
    state: GameState, rnd: int, close: datetime | None, candidates: set[str] | None = None
) -> tuple[dict[str, Ballot], list[DaemonNote]]:
    """C-D4: the ballot that counts per voter in round ``rnd``, and the daemon's notes.

    The first valid post is the vote; the next valid post naming someone else is the one
    change; later changes are rejected, as is a change in the last hour before ``close``.
    Re-posting the current target changes nothing; a malformed post consumes nothing.
    """
    suffix, hidden = ("r1", False) if rnd == 1 else ("r2", True)
    current: dict[str, Ballot] = {}
    changed: set[str] = set()
    notes: list[DaemonNote] = []
    for b in sorted((b for b in state.ballots if b.round == rnd), key=Ballot.sort_key):
        if not state.is_alive(b.voter):  # a dead player may not vote
            rule = "not_eligible_r1" if rnd == 1 else "not_eligible_runoff"
            notes.append(note(b.voter, rule, "rejected", seq=b.seq))
            continue
        if close is not None and b.t is not None and b.t > close:
            notes.append(note(b.voter, "late_ballot", "rejected", log_only=True, seq=b.seq))
            continue
        allowed = b.target == ABSTAIN or (
            state.is_alive(b.target) and (candidates is None or b.target in candidates)
        )
        if not b.format_ok or not allowed:
            notes.append(
                note(b.voter, f"format_{suffix}", "rejected", b.target, log_only=hidden, seq=b.seq)
            )
            continue
        before = current.get(b.voter)
        if before is None:
            current[b.voter] = b
        elif before.target == b.target:
            continue  # re-posting the current target is not a change (RES-C28)
        elif b.voter in changed:
            notes.append(
                note(b.voter, f"change_limit_{suffix}", "rejected", log_only=hidden, seq=b.seq)
            )
        elif close is not None and b.t is not None and b.t >= close - LAST_HOUR:
            notes.append(
                note(b.voter, f"last_hour_change_{suffix}", "rejected", log_only=hidden, seq=b.seq)
            )
        else:
            current[b.voter] = b
            changed.add(b.voter)
    return current, notes


def _absent(state: GameState, counted: dict[str, Ballot], mem: ChessMemory) -> tuple[int, ...]:
    """Seats of living players without a counted ballot (a lurking day, [CH:L118]).

    Only judged once the vote thread has ballots at all: a day without any recorded ballot
    has no tracked vote to miss.
    """
    if not any(b.round == 1 for b in state.ballots):
        return mem.absent
    missing = {s.number for s in state.alive() if s.name not in counted}
    return tuple(sorted(set(mem.absent) | missing))


def first_round(rules: Chess32, state: GameState, close: datetime | None) -> RoundOutcome:
    """试探性投票: tallies with curse/bless; the 30% test; an execution or round 2."""
    mem: ChessMemory = state.memory
    counted, notes = counted_ballots(state, 1, close)
    mem = replace(mem, absent=_absent(state, counted, mem))
    raw = tally(b for b in counted.values() if b.target != ABSTAIN)
    adjusted, facts = curse_and_bless(state, raw)
    report = Report(daemon=tuple(notes), vote_tally=nonzero(adjusted), public_facts=tuple(facts))
    forced = state.params.get("forced_execution")
    if forced is not None:
        return execute(rules, replace(state, memory=mem), report, forced[0])
    ballots = len(counted)  # T: every valid ballot, abstentions included (RES-C15)
    best, leaders = top(adjusted)
    num, den = THRESHOLD
    if best <= 0 or den * best < num * ballots:
        return execute(rules, replace(state, memory=mem), report, None)
    if len(leaders) == 1:
        return execute(rules, replace(state, memory=mem), report, leaders[0])
    runoff = Report(public_facts=(PublicFact.of("runoff", candidates=sorted(leaders)),))
    mem = replace(mem, runoff=tuple(state.seat(n).number for n in leaders))
    return RoundOutcome(report.merge(runoff), state.seats, mem, None, 2)


def curse_and_bless(
    state: GameState, raw: dict[str, float]
) -> tuple[dict[str, float], list[PublicFact]]:
    """+1 per valid curse, −1 per valid bless, floored at 0 (RES-C15). Every curse and bless
    on a living player is announced with its source [CH:L80,L82]: chess has no suppression
    clause, so a curse and a bless on one player are both announced (RES-C17), and so is a
    bless on a player without votes, whose tally stays 0."""
    mem: ChessMemory = state.memory
    adjusted = dict(raw)
    facts: list[PublicFact] = []
    for seat in (state.by_number(n) for n in mem.curse):
        if seat.alive:
            adjusted[seat.name] = adjusted.get(seat.name, 0) + 1
            facts.append(PublicFact.of("curse_applied", name=seat.name))
    for seat in (state.by_number(n) for n in mem.bless):
        if seat.alive:
            adjusted[seat.name] = max(0, adjusted.get(seat.name, 0) - 1)
            facts.append(PublicFact.of("bless_applied", name=seat.name))
    return adjusted, facts


def second_round(rules: Chess32, state: GameState, close: datetime | None) -> RoundOutcome:
    """高票辩论投票: only the tied players, no curse/bless, no threshold; a tie executes nobody."""
    mem: ChessMemory = state.memory
    candidates = {state.by_number(n).name for n in mem.runoff}
    counted, notes = counted_ballots(state, 2, close, candidates)
    missing = {s.number for s in state.alive() if s.name not in counted}
    if any(b.round == 1 for b in state.ballots):
        mem = replace(mem, absent=tuple(sorted(set(mem.absent) | missing)))
    raw = {c: 0.0 for c in candidates} | tally(b for b in counted.values() if b.target != ABSTAIN)
    report = Report(daemon=tuple(notes), runoff_tally=nonzero(raw))
    forced = state.params.get("forced_execution")
    best, leaders = top(raw)
    if forced is not None:
        name = forced[0]
    else:
        name = leaders[0] if best > 0 and len(leaders) == 1 else None
    return execute(rules, replace(state, memory=mem), report, name)


def execute(rules: Chess32, state: GameState, report: Report, name: str | None) -> RoundOutcome:
    """The day's execution (or none), then the end of the day.

    A general: with the kill condition unmet nothing happens and nothing is explained; with a
    swap from last night whose grabbed player is a living own-camp player, that player is
    executed instead (RES-C13); otherwise the general dies and the other camp wins.
    """
    mem: ChessMemory = state.memory
    victim: Seat | None = state.seat(name) if name is not None else None
    saved: tuple[Saved, ...] = ()
    cause = "execution"
    if victim is not None and victim.role == "general":
        general = victim
        swap = mem.pending_swap(general.number)
        if not kill_condition_met(state, general):
            victim, saved = None, (Saved(general.name, "general_condition"),)
        elif swap is not None:
            grabbed = state.by_number(swap.grabbed)
            if grabbed.team == general.team and grabbed.alive:
                victim, cause, saved = grabbed, "swap", (Saved(general.name, "swap"),)
    if victim is None:
        report = report.merge(
            Report(executed=None, saved=saved, public_facts=(PublicFact.of("no_execution"),))
        )
        return end_of_day(rules, state, report, state)
    after = state.with_deaths([victim.name])
    report = report.merge(
        Report(
            executed=victim.name,
            deaths=(Death(victim.name, cause),),
            saved=saved,
            public_facts=(rules.execution_fact(state, victim.name),),
            private_results=tuple(identity_messages(state, [victim.name])),
        )
    )  # executed players leave no last words [CH:L152]
    return end_of_day(rules, state, report, after)


def end_of_day(rules: Chess32, before: GameState, report: Report, after: GameState) -> RoundOutcome:
    """Lurking warnings for the day's players; the night's memory starts clean."""
    mem: ChessMemory = before.memory
    players = [s.name for s in before.alive()]
    lurking: set[str] = set()
    if mem.post_counts:
        lurking |= set(clock.lurkers(players, dict(mem.post_counts)))
    lurking |= {before.by_number(n).name for n in mem.absent if before.by_number(n).alive}
    report = report.merge(warn([p for p in players if p in lurking], mem))
    mem = mem.with_warnings([p for p in players if p in lurking])
    mem = replace(mem, curse=(), bless=(), runoff=(), pending_swaps=(), post_counts=(), absent=())
    return RoundOutcome(report, after.seats, mem, rules.check_win(after), 0)


def warn(lurkers: list[str], mem: ChessMemory) -> Report:
    """C-D7: one warning per lurking day; the second means replacement [CH:L144]. A second
    lurking day is still a warning: it gives both ``warning`` and ``replaced`` (FORMAT).
    Who is due for replacement after the step is :func:`due` (the report's ``replaced``)."""
    notes = []
    for person in lurkers:
        count = mem.warnings_of(person) + 1
        notes.append(note(person, "lurking", "warning"))
        if count >= REPLACE_AT:
            notes.append(note(person, "lurking", "replaced", f"{count} warnings"))
    warnings = mem.with_warnings(lurkers).warnings
    return Report(daemon=tuple(notes), lurk_warnings=dict(warnings))


def due(state: GameState, leaving: Iterable[str] = ()) -> tuple[str, ...]:
    """FORMAT ``replaced``: every player due for replacement in ``state``: alive, still in the
    seat (not ``leaving`` it for a substitute), with 2 or more warnings. A due player stays
    listed until a substitute takes the seat or he dies (RES-C33: the substitute starts at 0)."""
    mem: ChessMemory = state.memory
    gone = set(leaving)
    return tuple(
        s.name
        for s in state.seats
        if s.alive and s.name not in gone and mem.warnings_of(s.name) >= REPLACE_AT
    )
