"""Which skill replies count (RULES.md §5.4, W-D1..W-D3), and the 确定 lock.

Map::

    check_submission()   why one reply fails (dead, sent off, no such skill, wrong night, late,
                         before its phase opens, target, once-per-character, single-use, not on the 【通灵】 list)
    choose()             among one actor's (or one group's) valid replies: the first locked by
                         "确定", else the latest (RES-W7)
    valid()              every submission of some actions that passes the checks, plus notes
    kill_choices()       P2's input: one effective 【杀人】 per kill group
    vision()             the 【通灵】 list: every 【杀人】 target of the night (RES-W9)

A reply before its phase opens (the witch's, before 夜晚1 closes) fails like a late one
(``phase_not_open``, a note for the GM's log: the scenario format has no id for it).
Only lateness, the once-per-character guards and the 【通灵】 list have daemon rule ids in the
scenario format; every other rejection is a note for the GM's log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from shenshi.rulesets.base import DaemonNote, GameState, Phase, Submission
from shenshi.rulesets.catalog import (
    ADDON_POWERS,
    DIVINE,
    GUARD,
    HEAL,
    KILL,
    LONE_BLADE,
    LONE_WOLF,
    PAIR_LOVERS,
    PIPE,
    POISON,
    SHERIFF_SUCCESSOR,
    SILENCE_GUARD,
    SPEED_UP,
    WEREWOLF,
)
from shenshi.rulesets.common import about, note
from shenshi.rulesets.werewolf import camps

NIGHT_ZERO_SKILLS = frozenset({PAIR_LOVERS, LONE_WOLF})  # 第零日夜晚: 【金箭】, 【托孤】
NIGHT_SKILLS = frozenset({GUARD, SILENCE_GUARD, KILL, DIVINE, PIPE, HEAL, POISON})
# 【孤刀】 at the vote-out; 【殉职】; 加速 (W-D7: agreeing to close the discussion at once)
DAY_SKILLS = frozenset({LONE_BLADE, SHERIFF_SUCCESSOR, SPEED_UP})
CONFIRM = "confirm"  # "确定" on a new line locks the target [WW:L183]


def powers(state: GameState, name: str) -> frozenset[str]:
    """The skills ``name`` holds now: identity, add-ons, and 【杀人】 as a kill-group member."""
    seat = state.seat(name)
    held = set(WEREWOLF.roles[seat.role].powers) - {KILL}
    for addon in seat.addons:
        held |= set(ADDON_POWERS.get(addon, ()))
    if any(seat.number in {m.number for m in g.members} for g in camps.kill_groups(state)):
        held.add(KILL)
    if state.phase is Phase.DAY:
        held.add(SPEED_UP)  # every character in play may agree to speed the day up
    return frozenset(held)


def check_submission(state: GameState, sub: Submission) -> DaemonNote | None:
    """Why ``sub`` fails, or ``None`` if it counts (so far: locks are judged by :func:`choose`).

    ``state`` is the open night or day; intake uses this for receipts.
    """
    if not state.has_player(sub.actor) or not state.seat(sub.actor).alive:
        return note(sub.actor, "dead_actor", "rejected")
    seat = state.seat(sub.actor)
    if camps.sent_off(state, seat):  # FORMAT dead_actor: out or sent off
        return note(sub.actor, "dead_actor", "rejected", f"sent off: {sub.action}")
    if sub.action not in powers(state, sub.actor):
        return note(sub.actor, "no_power", "rejected", sub.action, log_only=True)
    problem = _timing(state, sub)
    if problem:
        return problem
    return _target(state, sub)


def _timing(state: GameState, sub: Submission) -> DaemonNote | None:
    if state.phase is Phase.DAY:
        allowed = DAY_SKILLS
    elif state.number == 0:
        allowed = NIGHT_ZERO_SKILLS
    else:
        allowed = NIGHT_SKILLS | {SHERIFF_SUCCESSOR}
    if sub.action not in allowed:
        return note(sub.actor, "not_now", "rejected", sub.action, log_only=True)
    key = camps.settings(state).night_phase.get(sub.action)
    deadlines = state.params.get("phase_deadlines") or {}
    deadline = deadlines.get(key) if key else None
    if deadline is not None and sub.t is not None and sub.t > deadline:
        return note(sub.actor, "phase_deadline", "rejected", f"phase {key}")
    opens = phase_opens(deadlines, key)
    if opens is not None and sub.t is not None and sub.t < opens:
        # A reply must come within its phase's validity period [WW:L183]: 夜晚2 opens when
        # 夜晚1 closes and the witch has her 【通灵】 list (§5.4, RES-W3), not before.
        return note(sub.actor, "phase_not_open", "rejected", f"phase {key}", log_only=True)
    return None


def phase_opens(deadlines: Mapping[str, datetime], key: str | None) -> datetime | None:
    """When night phase ``key`` opens: when the phase before it closes (夜晚1: with the night)."""
    if key is None or not key.isdigit():
        return None
    return deadlines.get(str(int(key) - 1))


def _target(state: GameState, sub: Submission) -> DaemonNote | None:
    mem = camps.memory(state)
    seat = state.seat(sub.actor)
    if sub.action in (SHERIFF_SUCCESSOR, SPEED_UP):
        return None  # 殉职: judged at the settlement; 加速 names no target
    once = _once_per_character(state, sub)
    if once is not None:  # whether or not that character is still in play (FORMAT)
        return once
    if sub.target is None or not state.is_alive(sub.target):
        return note(sub.actor, "target_not_alive", "rejected", str(sub.target), log_only=True)
    target = state.seat(sub.target)
    match sub.action:
        case "pair_lovers":
            second = sub.extra.get("target2")
            if not isinstance(second, str) or not state.is_alive(second) or second == sub.target:
                return note(sub.actor, "bad_target", "rejected", "two characters", log_only=True)
            if camps.lovers(state):
                return note(sub.actor, "lovers_exist", "rejected", log_only=True)
        case "lone_wolf":
            if mem.lone_wolf_given:
                return note(sub.actor, "single_use", "rejected", sub.action, log_only=True)
            if seat.team != camps.WOLVES or camps.identity(state, target) != "werewolf":
                return note(sub.actor, "bad_target", "rejected", "a werewolf", log_only=True)
        case "lone_blade":
            if seat.number in mem.blade_used:
                return note(sub.actor, "single_use", "rejected", sub.action, log_only=True)
            if target.number == seat.number:
                return note(sub.actor, "bad_target", "rejected", "another character", log_only=True)
        case "heal":
            if seat.number in mem.heal_used:
                return note(sub.actor, "single_use", "rejected", sub.action, log_only=True)
            if sub.target not in vision(state):
                return note(sub.actor, "heal_not_in_vision", "rejected")
        case "poison":
            if seat.number in mem.poison_used:
                return note(sub.actor, "single_use", "rejected", sub.action, log_only=True)
    return None


def _once_per_character(state: GameState, sub: Submission) -> DaemonNote | None:
    """W-D2: 【守护】 and 【隔音】 take each character once per game [WW:L145-146]; a character
    already guarded (silenced) is rejected as such, even one who is out by now."""
    if sub.action not in (GUARD, SILENCE_GUARD) or not sub.target or not state.has_player(sub.target):
        return None
    mem = camps.memory(state)
    number = state.seat(sub.target).number
    if sub.action == GUARD and number in mem.guarded:
        return note(sub.actor, "guard_once", "rejected")
    if sub.action == SILENCE_GUARD and number in mem.silenced:
        return note(sub.actor, "silence_once", "rejected")
    return None


def choose(subs: Iterable[Submission]) -> tuple[Submission | None, list[Submission]]:
    """The reply that counts among valid replies, and the ones a lock overrode.

    The first reply marked "确定" (by time) wins and later ones are ignored; without a lock the
    latest counts (RES-W7; the same rule for one actor and for the pack).
    """
    ordered = sorted(subs, key=Submission.sort_key)
    for i, sub in enumerate(ordered):
        if sub.extra.get(CONFIRM):
            return sub, ordered[i + 1 :]
    return (ordered[-1] if ordered else None), []


@dataclass(frozen=True)
class Valid:
    """The submissions that passed :func:`check_submission`, and the notes on the rest."""

    subs: tuple[Submission, ...]
    notes: tuple[DaemonNote, ...]

    def of(self, action: str, actors: Iterable[str] | None = None) -> list[Submission]:
        """Valid submissions of ``action`` (by ``actors`` if given)."""
        wanted = None if actors is None else set(actors)
        return [
            s for s in self.subs if s.action == action and (wanted is None or s.actor in wanted)
        ]

    def per_actor(self, action: str) -> dict[str, Submission]:
        """``{actor: the reply that counts}`` for one action, locks applied."""
        actors = sorted({s.actor for s in self.subs if s.action == action})
        out = {}
        for actor in actors:
            chosen, _ = choose(self.of(action, [actor]))
            if chosen is not None:
                out[actor] = chosen
        return out


def valid(state: GameState, actions: Iterable[str] | None = None) -> Valid:
    """Check every submission of ``actions`` (all if ``None``) of the open phase."""
    wanted = None if actions is None else set(actions)
    good: list[Submission] = []
    notes: list[DaemonNote] = []
    for sub in state.submissions:
        if wanted is not None and sub.action not in wanted:
            continue
        problem = check_submission(state, sub)
        if problem:
            notes.append(about(problem, sub))
        else:
            good.append(sub)
    return Valid(tuple(good), tuple(notes))


@dataclass(frozen=True)
class KillChoice:
    """One kill group's 【杀人】 tonight."""

    group: camps.KillGroup
    submission: Submission

    @property
    def target(self) -> str:
        """The named character."""
        assert self.submission.target is not None
        return self.submission.target


def kill_choices(state: GameState, checked: Valid | None = None) -> list[KillChoice]:
    """P2's input: each kill group's effective 【杀人】 (first lock, else latest), in time order."""
    checked = checked or valid(state, [KILL])
    taken: set[str] = set()
    out: list[KillChoice] = []
    for group in camps.kill_groups(state):
        names = [m.name for m in group.members if m.name not in taken]
        taken |= set(names)
        chosen, _ = choose(checked.of(KILL, names))
        if chosen is not None:
            out.append(KillChoice(group, chosen))
    return sorted(out, key=lambda c: c.submission.sort_key())


def vision(state: GameState) -> list[str]:
    """The 【通灵】 list: every 【杀人】 target tonight, immune or not (RES-W9), sorted."""
    if state.phase is not Phase.NIGHT or state.number == 0:
        return []
    return sorted({c.target for c in kill_choices(state)})


def overridden_notes(subs: Sequence[Submission]) -> list[DaemonNote]:
    """Log notes for replies a "确定" lock overrode."""
    return [note(s.actor, "locked", "rejected", s.action, log_only=True, seq=s.seq) for s in subs]
