"""Family A day (RULES.md §1.6): first round, 生死投票, 遗言计票, 招魂, execution.

Map::

    counted_ballots()  D-E, D-I, D-D   who may vote, first post is final, delegations
    first_round()      D-1             tally with curse/bless, execution or runoff
    runoff()           D-2, D-3        the runoff, then the last-words count
    summoning()        D-4             summoned victims' ballots
    day_result()       D-5, D-6, D-7   the execution (杀手/平民, the prize record) or none, and
                                       the day's no-ballot exits with it (RES-A18)
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
    Seat,
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
        if not state.is_alive(b.voter) and b.via == "summon":
            # a summoned victim's ballot before the summoning is no round-1 or runoff ballot
            notes.append(note(b.voter, "not_summoned", "rejected", log_only=True, seq=b.seq))
            continue
        if not state.is_alive(b.voter) or b.voter == bound:  # the dead and the bound survivor
            notes.append(note(b.voter, f"not_eligible_{_suffix(rnd)}", "rejected", seq=b.seq))
            continue
        if close is not None and b.t is not None and b.t > close:
            notes.append(note(b.voter, "late_ballot", "rejected", log_only=True, seq=b.seq))
            continue
        if not b.format_ok or not state.is_alive(b.target):
            notes.append(
                note(b.voter, "invalid_ballot", "rejected", b.target, log_only=True, seq=b.seq)
            )
            continue
        if candidates is not None and b.target not in candidates:
            notes.append(
                note(b.voter, "not_a_candidate", "rejected", b.target, log_only=True, seq=b.seq)
            )
            continue
        if b.via == "pm_delegate":
            delegated[b.voter] = b  # the latest PM before the close counts
        elif b.voter in posted:
            if rnd == 1:
                notes.append(note(b.voter, "vote_immutable_r1", "rejected", seq=b.seq))
            else:
                notes.append(
                    note(b.voter, "vote_immutable_runoff", "rejected", log_only=True, seq=b.seq)
                )
        else:
            posted[b.voter] = b
    counted = dict(posted)
    for voter, b in delegated.items():
        if voter in posted:
            notes.append(note(voter, "delegation_r1", "overridden", log_only=rnd != 1, seq=b.seq))
        else:
            counted[voter] = b
            notes.append(note(voter, "delegation_r1", "delegated", log_only=rnd != 1, seq=b.seq))
    return counted, notes


def electorate(state: GameState) -> list[Seat]:
    """D-E: every living player except this morning's bound survivor (round 1 and runoff)."""
    mem: FamilyAMemory = state.memory
    return [s for s in state.alive() if s.number != mem.bound]


def _missed(state: GameState, counted: dict[str, Ballot]) -> tuple[FamilyAMemory, list[DaemonNote]]:
    """A-D9: voters of this round with no ballot and no delegation, remembered for the day's
    result; one ``no_vote`` note per player and day (RES-A18)."""
    mem: FamilyAMemory = state.memory
    missed = list(mem.missed_ballot)
    notes = []
    for seat in electorate(state):
        if seat.name not in counted and seat.number not in missed:
            missed.append(seat.number)
            notes.append(note(seat.name, "no_vote", "exit"))
    return replace(mem, missed_ballot=tuple(missed)), notes


def _voters(state: GameState, counted: dict[str, Ballot]) -> tuple[tuple[int, str], ...]:
    return tuple((state.seat(v).number, b.target) for v, b in counted.items())


def first_round(rules: FamilyA, state: GameState, close: datetime | None) -> RoundOutcome:
    """D-1: the tally with curse and bless; an execution, the runoff, or (final day) a win."""
    counted, notes = counted_ballots(state, 1, close)
    mem, missing = _missed(state, counted)
    mem = replace(mem, first_round_voters=_voters(state, counted))
    state = replace(state, memory=mem)
    raw = tally(counted.values())
    adj, facts = _curse_and_bless(state, raw)
    report = Report(
        daemon=tuple(notes + missing), vote_tally=nonzero(adj), public_facts=tuple(facts)
    )
    forced = state.params.get("forced_execution")
    best, leaders = top(adj)
    if forced is not None:
        return day_result(rules, state, report, forced[0])
    if best > 0 and len(leaders) == 1:
        return day_result(rules, state, report, leaders[0])
    if mem.final_day or best == 0:
        # §1.7.3: on the final day a tie means the killers win at once (RES-A17).
        return day_result(rules, state, report, None)
    report = report.merge(
        Report(public_facts=(PublicFact.of("runoff", candidates=sorted(leaders)),))
    )
    mem = replace(mem, runoff=tuple(state.seat(n).number for n in leaders))
    return RoundOutcome(report, state.seats, mem, None, 2)


def _curse_and_bless(
    state: GameState, raw: dict[str, float]
) -> tuple[dict[str, float], list[PublicFact]]:
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
    """D-2 and D-3: the runoff without curse/bless; then the last-words count.

    The electorate is D-E's: a round-1 non-voter is still alive and votes (RES-A18).
    """
    candidates = {state.by_number(n).name for n in state.memory.runoff}
    counted, notes = counted_ballots(state, 2, close, candidates)
    mem, missing = _missed(state, counted)
    mem = replace(mem, runoff_voters=_voters(state, counted))
    state = replace(state, memory=mem)
    raw = {c: 0.0 for c in candidates} | tally(counted.values())
    report = Report(daemon=tuple(notes + missing), runoff_tally=nonzero(raw))
    forced = state.params.get("forced_execution")
    if forced is not None:  # the GM's correction during the runoff replaces its count
        return day_result(rules, state, report, forced[0])
    best, leaders = top(raw)
    if len(leaders) == 1:
        return day_result(rules, state, report, leaders[0])
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
    if len(leaders) == 1 or not summonable(mem):
        # D-5 at once where no night has had a victim: nobody could come to the summoning (D-4)
        return day_result(rules, state, report, leaders[0] if len(leaders) == 1 else None)
    memory = replace(
        mem,
        runoff=tuple(state.seat(n).number for n in leaders),
        final_counts=tuple((state.seat(n).number, int(v)) for n, v in final.items()),
    )
    return RoundOutcome(report, state.seats, memory, None, 3)


def summonable(mem: FamilyAMemory) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """D-4's order of summoning: each night that had victims (their seats), the latest first;
    empty when no night has had a victim (RES-A16: executed players are never summoned)."""
    return tuple((n, seats) for n, seats in sorted(mem.victims, reverse=True) if seats)


def _victims_of_night(mem: FamilyAMemory, n: int) -> tuple[int, ...]:
    for night, seats in mem.victims:
        if night == n:
            return seats
    return ()


def summoned_votes(state: GameState, online: tuple[str, ...]) -> tuple[list[str], dict[str, Ballot], list[DaemonNote]]:
    """D-4 (RES-A16, RES-A35): the victims the summoning counts (the latest night's that came
    online, ``online`` or by casting a ballot), the first ballot of each for a tied candidate,
    and why the other summoning ballots do not count."""
    mem: FamilyAMemory = state.memory
    tied = {state.by_number(n).name for n in mem.runoff}
    ballots = [b for b in sorted(state.ballots, key=Ballot.sort_key) if b.round == 3]
    came = set(online) | {b.voter for b in ballots}
    summoned: list[str] = []
    for _night, seats in summonable(mem):
        names = [state.by_number(s).name for s in seats]
        present = [n for n in names if n in came and not state.is_alive(n)]
        if present:
            summoned = present
            break
    notes: list[DaemonNote] = []
    cast: dict[str, Ballot] = {}
    victims = {state.by_number(s).name for _night, seats in summonable(mem) for s in seats}
    for b in ballots:
        if b.voter in cast:  # D-I: his first summoned ballot stands
            notes.append(note(b.voter, "summoned_twice", "rejected", log_only=True, seq=b.seq))
        elif b.voter not in summoned:
            # RES-A35: a victim of an earlier night whose later night's victim came online
            why = "summoned_later_night" if b.voter in victims and summoned else "not_summoned"
            notes.append(note(b.voter, why, "rejected", log_only=True, seq=b.seq))
        elif b.target not in tied:
            notes.append(
                note(b.voter, "not_a_candidate", "rejected", b.target, log_only=True, seq=b.seq)
            )
        else:
            cast[b.voter] = b
    return summoned, cast, notes


def summoning_counts(state: GameState, cast: dict[str, Ballot]) -> dict[str, float]:
    """The runoff's counts after the last words (D-3) with the summoned ballots ``cast`` added."""
    final = {state.by_number(s).name: float(c) for s, c in state.memory.final_counts}
    for b in cast.values():
        final[b.target] = final.get(b.target, 0) + 1
    return final


def summoning(rules: FamilyA, state: GameState, online: tuple[str, ...]) -> RoundOutcome:
    """D-4 (RES-A16): the most recent night whose victims came online casts the deciding ballots."""
    tied = {state.by_number(n).name for n in state.memory.runoff}
    summoned, cast, notes = summoned_votes(state, online)
    final = summoning_counts(state, cast)
    report = Report(daemon=tuple(notes), final_tally=nonzero(final))
    best, leaders = top({k: v for k, v in final.items() if k in tied})
    executed = leaders[0] if summoned and len(leaders) == 1 else None
    forced = state.params.get("forced_execution")
    return day_result(rules, state, report, forced[0] if forced is not None else executed)


def day_result(rules: FamilyA, state: GameState, report: Report, name: str | None) -> RoundOutcome:
    """The day's final result: the execution of ``name`` (D-6, D-7) or none (D-5), announced
    together with the day's no-ballot exits (RES-A18).

    The executed player is published as 杀手 or 平民 and dies by execution only, even if he
    missed a ballot. Every other player who missed a ballot today leaves: his seat dies, unless
    a substitute takes it over in this step. The win check follows; on the final day
    (§1.7.3) the vote alone decides: a tie means the killers win, an execution the side of the
    survivor.
    """
    mem: FamilyAMemory = state.memory
    decided = state
    if name is None:
        report = report.merge(Report(executed=None, public_facts=(PublicFact.of("no_execution"),)))
    else:
        seat = state.seat(name)
        if seat.team == "killers":
            voters = set(mem.first_round_voters) | set(mem.runoff_voters)
            mem = replace(mem, prize=mem.prize | {
                s for s, target in voters
                if target == name and state.by_number(s).team == "civilians"
            })  # fmt: skip
        decided = state.with_deaths([name])
        report = report.merge(
            Report(
                executed=name,
                deaths=(Death(name, "execution"),),
                public_facts=(rules.execution_fact(state, name),),
            )
        )
    leaving = {old for old, _ in state.pending_substitutions}
    exiting = [
        s.name for s in decided.alive() if s.number in mem.missed_ballot and s.name not in leaving
    ]
    after = replace(decided.with_deaths(exiting), memory=mem)
    report = report.merge(
        Report(
            deaths=tuple(Death(n, rules.exit_cause) for n in exiting),
            public_facts=tuple(PublicFact.of("exit", name=n) for n in exiting),
        )
    )
    if mem.final_day:
        if name is None:
            outcome: Outcome | None = Outcome("killers", "final_day_tie")
        else:
            outcome = rules.check_win(replace(decided, memory=mem))
    else:
        outcome = rules.check_win(after)
    return RoundOutcome(report, after.seats, mem, outcome, 0)
