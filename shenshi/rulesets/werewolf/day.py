"""The werewolf day vote, RULES.md §5.6 (RES-W5, RES-W6, RES-W16, RES-W17).

Map::

    counted_ballots()   every character not out and not sent off votes; maddened ones too
                        (RES-W17); the latest valid ballot before the close counts (RES-W6)
    tally()             weighted: the sheriff's ballot 2.1
    elect()             day 1: the top becomes sheriff, nobody goes out; a tie goes to whoever
                        reached the top count first in time (RES-W6)
    lone_blade()        【孤刀】 of the last living wolf voted out (RES-W16)
    close()             day n ≥ 2: a unique top goes out (no runoff), then 孤刀, 殉情, 殉职
    determined()        RES-W14: the ballots not yet cast could not change who leads
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from fractions import Fraction

from shenshi.rulesets.base import (
    Ballot,
    DaemonNote,
    Death,
    GameState,
    PublicFact,
    Report,
    Seat,
)
from shenshi.rulesets.catalog import LONE_BLADE, SHERIFF_SUCCESSOR
from shenshi.rulesets.common import note
from shenshi.rulesets.werewolf import camps
from shenshi.rulesets.werewolf.memory import DaySnapshot, WerewolfMemory
from shenshi.rulesets.werewolf.settle import Settled, go_out
from shenshi.rulesets.werewolf.submissions import choose, overridden_notes, valid


def electorate(state: GameState) -> list[Seat]:
    """Who must vote: every character not out and not sent off [WW:L95,L109] (RES-W14)."""
    return [s for s in state.seats if camps.active(state, s)]


def counted_ballots(
    state: GameState, close: datetime | None
) -> tuple[dict[str, Ballot], list[DaemonNote]]:
    """``{voter: the ballot that counts}`` and the notes on the others."""
    notes: list[DaemonNote] = []
    counted: dict[str, Ballot] = {}
    for b in sorted(state.ballots, key=Ballot.sort_key):
        if not state.is_alive(b.voter):
            notes.append(note(b.voter, "dead_voter", "rejected", log_only=True, seq=b.seq))
        elif camps.sent_off(state, state.seat(b.voter)):
            notes.append(note(b.voter, "sent_off", "rejected", "ballot", log_only=True, seq=b.seq))
        elif close is not None and b.t is not None and b.t > close:
            notes.append(note(b.voter, "late_ballot", "rejected", log_only=True, seq=b.seq))
        elif not b.format_ok or not state.is_alive(b.target):
            notes.append(
                note(b.voter, "invalid_ballot", "rejected", b.target, log_only=True, seq=b.seq)
            )
        elif b.voter not in counted or counted[b.voter].target != b.target:
            # Ascending order: the latest valid ballot stays. Re-posting the ballot that
            # stands is no new ballot: the vote stands from when it was first cast, which
            # the day-1 tie-break reads ("reached the top count earliest in time", RES-W6).
            counted[b.voter] = b
    scheduled = state.params.get("round1_close")
    sped_up = close is not None and scheduled is not None and close < scheduled  # 加速: all agreed to end it
    for seat in electorate(state):
        if seat.name not in counted and not sped_up:  # (no breach of 「必须投票」 with the day's hours to come)
            notes.append(note(seat.name, "missing_ballot", "flag", log_only=True))
    return counted, notes


def tally(state: GameState, counted: dict[str, Ballot]) -> dict[str, Fraction]:
    """Weighted votes per target (the sheriff's ballot weighs 2.1)."""
    out: dict[str, Fraction] = {}
    for voter, b in counted.items():
        out[b.target] = out.get(b.target, Fraction(0)) + camps.weight(state, state.seat(voter))
    return out


def as_number(value: Fraction) -> int | float:
    """A tally value as printed: an integer when whole."""
    return int(value) if value.denominator == 1 else float(value)


def printed(counts: dict[str, Fraction]) -> dict[str, int | float]:
    """The tally without zero entries."""
    return {name: as_number(v) for name, v in sorted(counts.items()) if v}


def top(counts: dict[str, Fraction]) -> tuple[Fraction, list[str]]:
    """The top count and who reaches it (sorted); ``(0, [])`` when nobody has a vote."""
    best = max(counts.values(), default=Fraction(0))
    if best <= 0:
        return Fraction(0), []
    return best, sorted(n for n, v in counts.items() if v == best)


def elect(state: GameState, counted: dict[str, Ballot], counts: dict[str, Fraction]) -> str | None:
    """Day 1: the sheriff. Among tied leaders, the one whose final ballots reached the top
    count earliest in time wins (RES-W6)."""
    best, leaders = top(counts)
    if len(leaders) <= 1:
        return leaders[0] if leaders else None

    def reached(name: str) -> tuple:
        running = Fraction(0)
        for b in sorted((b for b in counted.values() if b.target == name), key=Ballot.sort_key):
            running += camps.weight(state, state.seat(b.voter))
            if running >= best:
                return b.sort_key()
        return (True, datetime.max, 0)  # pragma: no cover - a leader reaches its own count

    return min(leaders, key=reached)


def lone_blade(
    state: GameState, voted_out: Seat
) -> tuple[list[Death], WerewolfMemory, list[DaemonNote]]:
    """【孤刀】 (RES-W16): the blade of the lone wolf about to go out by vote.

    Usable only by the lone wolf who is the last living member of the wolf camp; then it is
    spent, and the named character goes out with him only if it is of the village camp and
    every camp other than village and wolves has lost or does not exist.
    """
    mem = camps.memory(state)
    checked = valid(state, [LONE_BLADE])
    notes = list(checked.notes)
    chosen, overridden = choose(checked.of(LONE_BLADE, [voted_out.name]))
    notes += overridden_notes(overridden)
    if chosen is None:
        return [], mem, notes
    others = [
        s
        for s in state.seats
        if s.alive and s.team == camps.WOLVES and s.number != voted_out.number
    ]
    if voted_out.team != camps.WOLVES or others:
        notes.append(
            note(
                voted_out.name,
                "blade_unusable",
                "rejected",
                "not the last wolf",
                log_only=True,
                seq=chosen.seq,
            )
        )
        return [], mem, notes
    mem = replace(mem, blade_used=mem.blade_used | {voted_out.number})
    target = state.seat(chosen.target or "")
    rivals_down = all(
        camps.camp_down(state, camp)
        for camp in {s.team for s in state.seats} - {camps.VILLAGE, camps.WOLVES}
    )
    if target.team == camps.VILLAGE and rivals_down:
        return [Death(target.name, "lone_blade")], mem, notes
    notes.append(
        note(voted_out.name, "blade_no_effect", "void", target.name, log_only=True, seq=chosen.seq)
    )
    return [], mem, notes


def close(state: GameState, close_t: datetime | None) -> Settled:
    """Close the day's vote: the sheriff election on day 1, a vote-out on later days."""
    mem = camps.memory(state)
    settings = camps.settings(state)
    snapshot = DaySnapshot(
        state.number, state.seats, mem.madness, mem.blade_used, mem.out_order, mem.last_words
    )
    state = replace(state, memory=replace(mem, before_close=snapshot))
    counted, notes = counted_ballots(state, close_t)
    counts = tally(state, counted)
    report = Report(
        vote_tally=printed(counts),
        daemon=tuple(notes),
        produced=frozenset({"announce_order", "last_words"}),
    )
    forced = state.params.get("forced_execution")
    if forced is None and state.number == settings.sheriff_election_day:
        return _election(state, counted, counts, report)
    if forced is not None:
        name = forced[0]
    else:
        _, leaders = top(counts)
        name = leaders[0] if len(leaders) == 1 else None  # a tie: nobody goes out, no runoff
    if name is None or not state.is_alive(name):
        report = report.merge(Report(executed=None, public_facts=(PublicFact.of("no_execution"),)))
        return Settled(state, camps.outcome(state), report)
    seat = state.seat(name)
    blade, mem, more = lone_blade(state, seat)
    state = replace(state, memory=mem)
    successors = valid(state, [SHERIFF_SUCCESSOR]).of(SHERIFF_SUCCESSOR)
    settled = go_out(state, [Death(name, "vote_out"), *blade], successors)
    order = tuple(d.name for d in settled.report.deaths)
    report = report.merge(Report(executed=name, daemon=tuple(more), announce_order=order))
    report = report.merge(settled.report)
    return Settled(settled.state, settled.outcome, report)


def _election(
    state: GameState, counted: dict[str, Ballot], counts: dict[str, Fraction], report: Report
) -> Settled:
    """Day 1 (RES-W5): the sheriff is elected; nobody goes out."""
    chosen = elect(state, counted, counts)
    report = report.merge(Report(executed=None))
    if chosen is None:
        return Settled(state, None, report)
    seats = camps.with_sheriff(state, chosen)
    report = report.merge(Report(public_facts=(PublicFact.of("sheriff", name=chosen),)))
    return Settled(replace(state, seats=seats), None, report)


def determined(state: GameState, close: datetime | None = None) -> bool:
    """RES-W14 "uniquely determined" (decided 2026-12-01): with the ballots standing one
    character leads, and the ballots not yet cast could not change that even if every one of
    them, with its sheriff weight, went to the runner-up. Changes of ballots already cast are
    not considered (every player agreed to speed up).

    On the sheriff election (RES-W5) a tie at the top is broken by who reached it first
    (RES-W6): with every ballot in, the sheriff is known even from a tie, and a runner-up who
    could only draw level would reach the top after the leader (wolfadv W5)."""
    counted, _ = counted_ballots(state, close)
    counts = tally(state, counted)
    best, leaders = top(counts)
    to_come = sum(
        (camps.weight(state, s) for s in electorate(state) if s.name not in counted), Fraction(0)
    )
    election = (
        state.number == camps.settings(state).sheriff_election_day
        and state.params.get("forced_execution") is None
    )
    if election and leaders and not to_come:
        return True
    if len(leaders) != 1:
        return False
    runner_up = max((v for n, v in counts.items() if n != leaders[0]), default=Fraction(0))
    return best >= runner_up + to_come if election else best > runner_up + to_come
