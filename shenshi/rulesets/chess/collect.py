"""Step 1 of the chess night (RULES.md §4.3, §4.6): which submissions count.

Map::

    check_sender()     the actor is alive, has the power, and sent it before dawn − 10 min
    check_target()     §4.3 target rules: self bans, general bans, the platform, swaps left
    check_submission() both, for one submission (intake uses it for receipts)
    collect()          the latest on-time submission per actor and power, then validity;
                       the horse pair's joint check (RES-C3); swaps consumed (RES-C13);
                       short kill posts flagged (RES-C18)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shenshi.rulesets.base import DaemonNote, GameState, Seat, Submission
from shenshi.rulesets.catalog import (
    CANNON_KILL,
    CHECK,
    CHESS32,
    IMPRISON,
    KILL,
    PRAY,
    PROTECT,
    SWAP_GENERAL,
)
from shenshi.rulesets.chess.memory import ChessMemory
from shenshi.rulesets.common import about, joint_choice, note

CAMPS = ("chu", "han")  # 楚, 汉
KILL_POST_MIN = 150  # kill posts of general and cannons: ≥150 characters [CH:L100] (RES-C18)
NO_SELF_TARGET = frozenset({KILL, CANNON_KILL, IMPRISON, CHECK})  # [CH:L98]
NOT_ON_GENERALS = frozenset({IMPRISON, PROTECT, PRAY})  # [CH:L69][CH:L75][CH:L87]


def enemy_of(camp: str) -> str:
    """The other camp."""
    return CAMPS[1] if camp == CAMPS[0] else CAMPS[0]


def unit_name(camp: str, role: str) -> str:
    """How a unit is named in daemon notes: ``{camp}_{role}s`` (``chu_horses``), FORMAT
    "Naming in daemon entries"."""
    return f"{camp}_{role}s"


def check_sender(state: GameState, sub: Submission) -> DaemonNote | None:
    """Why ``sub`` cannot count whatever its target: dead actor, no such power, too late."""
    if not state.has_player(sub.actor) or not state.seat(sub.actor).alive:
        return note(sub.actor, "dead_actor", "rejected")
    seat = state.seat(sub.actor)
    if sub.action not in CHESS32.roles[seat.role].powers:
        return note(sub.actor, "no_power", "rejected", sub.action, log_only=True)
    deadline = state.params.get("deadline")
    if deadline is not None and sub.t is not None and sub.t > deadline:
        # RES-C32: first submissions and changes alike are ignored after dawn − 10 min.
        return note(sub.actor, "pm_window", "rejected", "after dawn − 10 min")
    return None


def check_target(state: GameState, sub: Submission) -> DaemonNote | None:
    """§4.3: why the target of ``sub`` is not allowed, or ``None``."""
    mem: ChessMemory = state.memory
    actor = state.seat(sub.actor)
    target = sub.target
    if sub.action == SWAP_GENERAL:
        if mem.swaps_left(actor.number) == 0:
            return note(actor.name, "no_swaps_left", "rejected")
        if target is None or not state.has_player(target) or target == actor.name:
            return note(actor.name, "invalid_target", "rejected", str(target), log_only=True)
        return None  # an enemy or dead grabbed player makes the swap fail when it triggers
    if target is None or not state.is_alive(target):
        return note(actor.name, "target_not_alive", "rejected", str(target), log_only=True)
    seat = state.seat(target)
    if sub.action in NO_SELF_TARGET and target == actor.name:
        return note(actor.name, "self_target", "rejected", log_only=True)
    if sub.action == CHECK and seat.role == "horse" and seat.team == actor.team:
        return note(actor.name, "self_target", "rejected", "the partner horse", log_only=True)
    if sub.action in NOT_ON_GENERALS and seat.role == "general":
        return note(actor.name, "general_target", "forfeit")
    if sub.action == CANNON_KILL:
        platform = sub.extra.get("platform")
        if (
            not isinstance(platform, str)
            or not state.is_alive(platform)
            or platform in (actor.name, target)
            or state.seat(platform).role == "general"
        ):
            return note(actor.name, "invalid_platform", "forfeit", str(platform))
    return None


def check_submission(state: GameState, sub: Submission) -> DaemonNote | None:
    """Why a night submission cannot count, or ``None``; intake uses it for receipts."""
    return check_sender(state, sub) or check_target(state, sub)


@dataclass
class Collected:
    """The night's effective actions after step 1."""

    notes: list[DaemonNote] = field(default_factory=list)
    actions: dict[str, dict[str, Submission]] = field(default_factory=dict)  # action → actor → sub
    checks: dict[str, tuple[tuple[Seat, ...], Submission]] = field(default_factory=dict)  # camp
    swaps_consumed: list[str] = field(default_factory=list)  # generals who used a swap tonight

    def of(self, action: str) -> dict[str, Submission]:
        """``{actor: submission}`` for one power."""
        return self.actions.get(action, {})


def collect(state: GameState) -> Collected:
    """Step 1: the latest on-time submission per actor and power, if valid (§4.6)."""
    out = Collected()
    latest: dict[tuple[str, str], Submission] = {}
    for sub in sorted(state.submissions, key=Submission.sort_key):
        problem = check_sender(state, sub)
        if problem:
            out.notes.append(about(problem, sub))
        else:
            latest[(sub.actor, sub.action)] = sub
    for (actor, action), sub in sorted(
        latest.items(), key=lambda kv: (state.seat(kv[0][0]).number, kv[0][1])
    ):
        problem = check_target(state, sub)
        if action == SWAP_GENERAL and not (problem and problem.rule == "no_swaps_left"):
            out.swaps_consumed.append(actor)  # any submitted swap consumes one use (RES-C13)
        if problem:
            out.notes.append(about(problem, sub))
            continue
        if action in (KILL, CANNON_KILL):
            chars = sub.extra.get("declaration_chars")
            if isinstance(chars, int) and chars < KILL_POST_MIN:
                out.notes.append(
                    note(actor, "kill_post_short", "flag", f"{chars} characters", seq=sub.seq)
                )
        out.actions.setdefault(action, {})[actor] = sub
    for camp in CAMPS:
        horses = tuple(s for s in state.with_role("horse") if s.team == camp)
        mine = {h.name: out.of(CHECK)[h.name] for h in horses if h.name in out.of(CHECK)}
        choice = joint_choice(horses, mine)
        if choice.disagreement:
            out.notes.append(note(unit_name(camp, "horse"), "joint_disagreement", "forfeit"))
        elif choice.submission is not None:
            out.checks[camp] = (horses, choice.submission)
    return out
