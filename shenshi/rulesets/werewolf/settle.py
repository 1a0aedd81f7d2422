"""Characters going out, night or day: RULES.md §5.5 P6 (c)–(g) and §5.6.

Map::

    go_out()       the primary outs (kill, poison, vote-out, 孤刀, a GM exit), then
                   (c) 【殉情】: the partner of a lover who went out goes out right after
                   (d) the piper out: all madness lifted, and announced
                   (e) 【殉职】: the sheriff who went out names a successor who is not out
                       (the host's default otherwise; none if the game ended, RES-W21)
                   (f) camp-loss checks and the win (RES-W2); 复仇 and 遗志 follow from the
                       camps (:func:`camps.kill_groups`) at the next night
                   (g) last words for the first four characters ever out (RES-W15)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from shenshi.rulesets.base import (
    DaemonNote,
    Death,
    GameState,
    Outcome,
    PublicFact,
    Report,
    Submission,
)
from shenshi.rulesets.common import note
from shenshi.rulesets.werewolf import camps
from shenshi.rulesets.werewolf.submissions import choose

LOVERS_SUICIDE = "lovers_suicide"  # 殉情


@dataclass(frozen=True)
class Settled:
    """The state after the outs, the outcome, and what the outs published."""

    state: GameState
    outcome: Outcome | None
    report: Report


def with_partners(state: GameState, outs: Sequence[Death]) -> list[Death]:
    """(c) 【殉情】: ``outs`` (living, once each), then each out lover's partner."""
    order: list[Death] = []
    for death in outs:
        if state.is_alive(death.name) and all(d.name != death.name for d in order):
            order.append(death)
    for death in list(order):
        other = camps.partner(state, state.seat(death.name))
        if other is not None and other.alive and all(d.name != other.name for d in order):
            order.append(Death(other.name, LOVERS_SUICIDE))
    return order


def go_out(
    state: GameState, outs: Sequence[Death], successor_subs: Sequence[Submission] = ()
) -> Settled:
    """Apply ``outs`` in order with everything that follows from them (P6 c–g).

    ``successor_subs`` are the step's valid 【殉职】 replies (the sheriff may name his
    successor before the settlement; the name must not be out afterwards).
    """
    order = with_partners(state, outs)
    if not order:
        return Settled(state, camps.outcome(state), Report())
    mem = camps.memory(state)
    chief = camps.sheriff(state)
    after = state.with_deaths(d.name for d in order)
    out_seats = tuple(after.seat(d.name).number for d in order)
    facts = [PublicFact.of("out", name=d.name) for d in order]
    notes: list[DaemonNote] = []

    # Madness is a state of living characters: whoever goes out loses it (RES-W27).
    # (d) the piper out: madness lifted for everyone, announced even if nobody was maddened.
    madness = mem.madness - set(out_seats)
    if any(after.by_number(n).role == "piper" for n in out_seats):
        madness = frozenset()
        facts.append(PublicFact.of("madness_lifted"))

    # (g) last words: the first N characters ever to go out.
    limit = camps.settings(state).last_words_limit
    ever = mem.out_order + out_seats
    granted = tuple(n for n in out_seats if ever.index(n) < limit)
    mem = replace(
        mem,
        madness=madness,
        out_order=ever,
        last_words=mem.last_words + tuple((n, state.number) for n in granted),
    )
    after = replace(after, memory=mem)

    # (f) camp-loss and win checks; (e) the successor only while the game goes on.
    outcome = camps.outcome(after)
    if chief is not None and chief.number in out_seats:
        after, successor, more = _succession(after, chief.number, successor_subs, outcome)
        notes += more
        if successor:
            facts.append(PublicFact.of("sheriff", name=successor))
    report = Report(
        deaths=tuple(order),
        public_facts=tuple(facts),
        daemon=tuple(notes),
        last_words=tuple(after.by_number(n).name for n in granted),
        produced=frozenset({"last_words"}),
    )
    return Settled(after, outcome, report)


def _succession(
    state: GameState, seat: int, subs: Sequence[Submission], outcome: Outcome | None
) -> tuple[GameState, str | None, list[DaemonNote]]:
    """(e) 【殉职】: the badge passes to the named character who is not out (RES-W21)."""
    old = state.by_number(seat)
    state = state.with_seat(replace(old, addons=old.addons - {camps.SHERIFF}))
    if outcome is not None:
        return state, None, []  # no successor once the game has ended
    named = [s for s in subs if s.actor == old.name and s.target and s.target != old.name]
    fit = [s for s in named if state.is_alive(s.target or "")]
    notes = [
        note(s.actor, "successor_out", "rejected", str(s.target), log_only=True, seq=s.seq)
        for s in named
        if s not in fit
    ]
    chosen, _ = choose(fit)
    if chosen is None:
        # The host's pre-announced default ("none": the badge is lost).
        notes.append(note(old.name, "sheriff_default", "flag", "no successor named", log_only=True))
        return state, None, notes
    heir = state.seat(chosen.target or "")
    state = state.with_seat(replace(heir, addons=heir.addons | {camps.SHERIFF}))
    return state, heir.name, notes
