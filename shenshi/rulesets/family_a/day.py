"""Family A day (RULES.md §1.6): first round, 生死投票, 遗言计票, 招魂, execution.

Map::

    counted_ballots()  D-E, D-I, D-D   who may vote, first post is final, delegations
    first_round()      D-1             tally with curse/bless, execution or runoff; exits
    runoff()           D-2, D-3        the runoff, then the last-words count
    summoning()        D-4             summoned victims' ballots
    execute()          D-6, D-7        the execution, 杀手/平民, the prize record
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from shenshi.rulesets.base import (
    Ballot,
    DaemonNote,
    Death,
    GameState,
    Outcome,
    PublicFact,
    Report,
)
from shenshi.rulesets.common import RoundOutcome, nonzero, note, tally, top
from shenshi.rulesets.family_a.memory import FamilyAMemory

if TYPE_CHECKING:
    from shenshi.rulesets.family_a.rules import FamilyA


def _suffix(rnd: int) -> str:
    return "r1" if rnd == 1 else "runoff"


def counted_ballots(
    state: GameState,
    rnd: int,
    close: datetime | None,
    candidates: set[str] | None = None,
) -> tuple[dict[str, Ballot], list[DaemonNote]]:
    """D-E/D-I/D-D: the one ballot that counts per voter in round ``rnd``, and the notes."""
    mem: FamilyAMemory = state.memory
    notes: list[DaemonNote] = []
    bound = state.by_number(mem.bound).name if mem.bound is not None else None
    posted: dict[str, Ballot] = {}
    delegated: dict[str, Ballot] = {}
    ballots = sorted((b for b in state.ballots if b.round == rnd), key=Ballot.sort_key)
    for b in ballots:
        if not state.is_alive(b.voter):
            notes.append(note(b.voter, "dead_voter", "rejected", log_only=True))
            continue
        if b.voter == bound:
            notes.append(note(b.voter, f"not_eligible_{_suffix(rnd)}", "rejected"))
            continue
        if close is not None and b.t is not None and b.t > close:
            notes.append(note(b.voter, "late_ballot", "rejected", log_only=True))
            continue
        if not b.format_ok or not state.is_alive(b.target):
            notes.append(note(b.voter, "invalid_ballot", "rejected", b.target, log_only=True))
            continue
        if candidates is not None and b.target not in candidates:
            notes.append(note(b.voter, "not_a_candidate", "rejected", b.target, log_only=True))
            continue
        if b.via == "pm_delegate":
            delegated[b.voter] = b  # the latest PM before the close counts
        elif b.voter in posted:
            if rnd == 1:
                notes.append(note(b.voter, "vote_immutable_r1", "rejected"))
            else:
                notes.append(note(b.voter, "vote_immutable_runoff", "rejected", log_only=True))
        else:
            posted[b.voter] = b
    counted = dict(posted)
    for voter, b in delegated.items():
        if voter in posted:
            notes.append(note(voter, "delegation_r1", "overridden", log_only=rnd != 1))
        else:
            counted[voter] = b
            notes.append(note(voter, "delegation_r1", "delegated", log_only=rnd != 1))
    return counted, notes


def _electorate(state: GameState) -> list[str]:
    mem: FamilyAMemory = state.memory
    return [s.name for s in state.alive() if s.number != mem.bound]


def _exits(rules: FamilyA, state: GameState, counted: dict[str, Ballot]) -> tuple[list[DaemonNote], list[str]]:
    """A-D9: a missing ballot with no delegation is an automatic exit (RES-A18).

    The seat dies only if no substitute takes it over in this step.
    """
    notes, dying = [], []
    substituted = {old for old, _ in state.pending_substitutions}
    for name in _electorate(state):
        if name not in counted:
            notes.append(note(name, "no_vote", "exit"))
            if name not in substituted:
                dying.append(name)
    return notes, dying


def _apply_exits(state: GameState, report: Report, exiting: list[str]) -> tuple[GameState, Report]:
    """The seats of players who left by a missing ballot die at the announcement (RES-A18)."""
    if not exiting:
        return state, report
    exits = Report(
        deaths=tuple(Death(n, "auto_exit") for n in exiting),
        public_facts=tuple(PublicFact.of("exit", name=n) for n in exiting),
    )
    return state.with_deaths(exiting), report.merge(exits)


def first_round(rules: FamilyA, state: GameState, close: datetime | None) -> RoundOutcome:
    """D-1: the tally with curse and bless; an execution, the runoff, or (final day) a win."""
    mem: FamilyAMemory = state.memory
    counted, notes = counted_ballots(state, 1, close)
    exit_notes, exiting = _exits(rules, state, counted)
    raw = tally(counted.values())
    adj, facts = _curse_and_bless(state, raw)
    report = Report(daemon=tuple(notes + exit_notes), vote_tally=nonzero(adj))
    outcome = None
    after, report = _apply_exits(state, report, exiting)
    forced = state.params.get("forced_execution")
    best, leaders = top(adj)
    report = report.merge(Report(public_facts=tuple(facts)))
    if forced is not None:
        return execute(rules, after, report, forced[0], counted, {})
    if best > 0 and len(leaders) == 1:
        return execute(rules, after, report, leaders[0], counted, {})
    if mem.final_day or best == 0:
        # §1.7.3: on the final day a tie means the killers win at once (RES-A17).
        report = report.merge(Report(executed=None, public_facts=(PublicFact.of("no_execution"),)))
        if mem.final_day:
            outcome = Outcome("killers", "final_day_tie")
        else:
            outcome = rules.check_win(after)
        return RoundOutcome(report, after.seats, mem, outcome, 0)
    report = report.merge(Report(public_facts=(PublicFact.of("runoff", candidates=sorted(leaders)),)))
    outcome = rules.check_win(after) if exiting else None
    return RoundOutcome(report, after.seats, _with_runoff(mem, after, leaders, counted), outcome, 2)


def _with_runoff(mem: FamilyAMemory, state: GameState, leaders: list[str], counted: dict[str, Ballot]) -> FamilyAMemory:
    return replace(
        mem,
        runoff=tuple(state.seat(n).number for n in leaders),
        first_round_voters=tuple((state.seat(v).number, b.target) for v, b in counted.items()),
    )


def _curse_and_bless(state: GameState, raw: dict[str, float]) -> tuple[dict[str, float], list[PublicFact]]:
    """D-1: +1 curse, −1 bless, floored at 0; cancel and publication rules (RES-A13)."""
    mem: FamilyAMemory = state.memory
    adj = dict(raw)
    cu = state.by_number(mem.curse).name if mem.curse is not None else None
    bl = state.by_number(mem.bless).name if mem.bless is not None else None
    cu = cu if cu and state.is_alive(cu) else None
    bl = bl if bl and state.is_alive(bl) else None
    facts: list[PublicFact] = []
    if cu and cu == bl:
        return adj, facts  # they cancel, and neither is announced
    if cu:
        adj[cu] = adj.get(cu, 0) + 1
        facts.append(PublicFact.of("curse_applied", name=cu))
    if bl and raw.get(bl, 0) > 0:
        adj[bl] = adj[bl] - 1
        facts.append(PublicFact.of("bless_applied", name=bl))
    return adj, facts


def runoff(rules: FamilyA, state: GameState, close: datetime | None) -> RoundOutcome:
    """D-2 and D-3: the runoff without curse/bless; then the last-words count."""
    mem: FamilyAMemory = state.memory
    candidates = {state.by_number(n).name for n in mem.runoff}
    counted, notes = counted_ballots(state, 2, close, candidates)
    exit_notes, exiting = _exits(rules, state, counted)
    raw = {c: 0.0 for c in candidates} | tally(counted.values())
    report = Report(daemon=tuple(notes + exit_notes), runoff_tally=nonzero(raw))
    after, report = _apply_exits(state, report, exiting)
    voters = dict(mem.first_round_voters)
    voters |= {state.seat(v).number: b.target for v, b in counted.items()}
    best, leaders = top(raw)
    if len(leaders) == 1:
        return execute(rules, after, report, leaders[0], counted, voters)
    # D-3: each last-words text of last night's victims gives +1 per accused candidate.
    final = dict(raw)
    victims = set(_victims_of_night(mem, state.number))
    for lw in mem.last_words:
        if lw.author in victims:
            for accused in set(lw.accused):
                if accused in final:
                    final[accused] += 1
    report = report.merge(Report(final_tally=nonzero(final)))
    best, leaders = top(final)
    if len(leaders) == 1:
        return execute(rules, after, report, leaders[0], counted, voters)
    memory = replace(
        mem,
        runoff=tuple(state.seat(n).number for n in leaders),
        final_counts=tuple((state.seat(n).number, int(v)) for n, v in final.items()),
    )
    return RoundOutcome(report, after.seats, memory, rules.check_win(after) if exiting else None, 3)


def _victims_of_night(mem: FamilyAMemory, n: int) -> tuple[int, ...]:
    for night, seats in mem.victims:
        if night == n:
            return seats
    return ()


def summoning(
    rules: FamilyA, state: GameState, online: tuple[str, ...]
) -> RoundOutcome:
    """D-4 (RES-A16): the most recent night whose victims came online casts the deciding ballots."""
    mem: FamilyAMemory = state.memory
    tied = {state.by_number(n).name for n in mem.runoff}
    final = {state.by_number(s).name: float(c) for s, c in mem.final_counts}
    ballots = [b for b in sorted(state.ballots, key=Ballot.sort_key) if b.round == 3]
    came = set(online) | {b.voter for b in ballots}
    summoned: list[str] = []
    for _night, seats in sorted(mem.victims, reverse=True):
        names = [state.by_number(s).name for s in seats]
        present = [n for n in names if n in came and not state.is_alive(n)]
        if present:
            summoned = present
            break
    notes: list[DaemonNote] = []
    cast: set[str] = set()
    for b in ballots:
        if b.voter not in summoned or b.voter in cast:
            notes.append(note(b.voter, "not_summoned", "rejected", log_only=True))
        elif b.target not in tied:
            notes.append(note(b.voter, "not_a_candidate", "rejected", b.target, log_only=True))
        else:
            cast.add(b.voter)
            final[b.target] = final.get(b.target, 0) + 1
    report = Report(daemon=tuple(notes), final_tally=nonzero(final))
    best, leaders = top({k: v for k, v in final.items() if k in tied})
    if summoned and len(leaders) == 1:
        return execute(rules, state, report, leaders[0], {}, dict(mem.first_round_voters))
    return _no_execution(rules, state, report)


def _no_execution(rules: FamilyA, state: GameState, report: Report) -> RoundOutcome:
    """D-5: nobody is executed; the night follows."""
    report = report.merge(Report(executed=None, public_facts=(PublicFact.of("no_execution"),)))
    return RoundOutcome(report, state.seats, state.memory, rules.check_win(state), 0)


def execute(
    rules: FamilyA,
    state: GameState,
    report: Report,
    name: str | None,
    counted: dict[str, Ballot],
    earlier_voters: dict[int, str],
) -> RoundOutcome:
    """D-6/D-7: the execution, published as 杀手 or 平民, and the prize record."""
    if name is None:
        return _no_execution(rules, state, report)
    mem: FamilyAMemory = state.memory
    seat = state.seat(name)
    value = "杀手" if seat.team == "killers" else "平民"
    after = state.with_deaths([name])
    prize = mem.prize
    if seat.team == "killers":
        voters = dict(earlier_voters) | {state.seat(v).number: b.target for v, b in counted.items()}
        prize = prize | {
            s for s, target in voters.items()
            if target == name and state.by_number(s).team == "civilians"
        }  # fmt: skip
    report = report.merge(
        Report(
            executed=name,
            deaths=(Death(name, "execution"),),
            public_facts=(PublicFact.of("executed", name=name, value=value),),
        )
    )
    memory = replace(mem, prize=prize)
    return RoundOutcome(report, after.seats, memory, rules.check_win(replace(after, memory=memory)), 0)
