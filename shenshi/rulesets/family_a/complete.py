"""Family A early close (RULES.md §1.10 "Early close", decided 2026-12-01).

The GM may end a phase early once all activity for it is complete [G6:L33][G5:L54]. Complete
means that what stands would be resolved as a valid action by every holder, and that nothing
the actors were told they may still fix is outstanding:

    night_outstanding()   every living power holder has a valid PM in (the 8p killer whose
                          night it is not holds no power); his latest PM is not one that was
                          rejected and that he may send again; each joint unit agrees (A-J);
                          each kill has its 杀人宣言. A seer unit the GM has answered is
                          frozen (RES-A21): nothing it sends can change the night.
    vote_outstanding()    every elector (D-E: the living, not the bound survivor) has a
                          ballot that counts in the open round (first round or runoff); a
                          delegation counts, as the GM casts it once all have voted [G6:L119].
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shenshi.rulesets.base import GameState, Outstanding, Submission, Waiting
from shenshi.rulesets.catalog import DIVINE
from shenshi.rulesets.common import latest
from shenshi.rulesets.family_a import day, night
from shenshi.rulesets.family_a.memory import FamilyAMemory

if TYPE_CHECKING:
    from shenshi.rulesets.family_a.rules import FamilyA

# Rejections a PM cannot be fixed from: a change of an answered divination (the answered
# target stands, RES-A21).
FINAL = frozenset({"seer_locked"})
# What the night's collection reports that keeps the night open (A-J2, §1.8).
UNIT_PROBLEMS = {
    "joint_disagreement": Waiting.JOINT_DISAGREEMENT,
    "declaration_missing": Waiting.DECLARATION_MISSING,
}


def night_outstanding(rules: FamilyA, state: GameState) -> tuple[Outstanding, ...]:
    """What keeps the open night from being complete (empty: the GM may end it now)."""
    found: list[Outstanding] = []
    off_duty = _off_duty(rules, state)
    for seat in state.alive():
        if seat.name in off_duty:
            continue
        for action in rules.info.roles[seat.role].powers:
            if action == DIVINE and rules.divination_frozen(state, seat.name):
                continue
            found += _holder(rules, state, seat.name, action)
    seers = [s.name for s in state.with_role("seer")]
    frozen = {rules.unit_name("seer")} if any(rules.divination_frozen(state, n) for n in seers) else set()
    for problem in night.collect(rules, state).notes:
        why = UNIT_PROBLEMS.get(problem.rule)
        if why is not None and problem.who not in frozen:
            found.append(Outstanding(problem.who, why))
    return tuple(dict.fromkeys(found))


def _off_duty(rules: FamilyA, state: GameState) -> set[str]:
    """game6-8: the living killer whose night it is not holds no kill tonight (RES-A1)."""
    if not rules.ALTERNATING_KILLERS:
        return set()
    on_duty = rules.on_duty_killer(state)
    return {s.name for s in state.with_role("killer") if s.name != on_duty}


def _holder(rules: FamilyA, state: GameState, actor: str, action: str) -> list[Outstanding]:
    """A holder's own PM for ``action``: missing, or his latest one rejected (he may resend)."""
    own = [
        s for s in state.submissions
        if s.actor == actor and s.action == action and not s.extra.get("extra_divination")
    ]  # fmt: skip
    last: Submission | None = latest(own)
    if last is None:
        return [Outstanding(actor, Waiting.NO_ACTION, action)]
    problem = rules.check_submission(state, last)
    if problem is not None and problem.rule not in FINAL:
        return [Outstanding(actor, Waiting.REJECTED, problem.rule)]
    return []


def vote_outstanding(rules: FamilyA, state: GameState) -> tuple[Outstanding, ...]:
    """What keeps the open round (first round or runoff) from being complete."""
    mem: FamilyAMemory = state.memory
    candidates = {state.by_number(n).name for n in mem.runoff} if state.round == 2 else None
    counted, _ = day.counted_ballots(state, state.round, None, candidates)
    return tuple(
        Outstanding(s.name, Waiting.NO_BALLOT) for s in day.electorate(state) if s.name not in counted
    )
