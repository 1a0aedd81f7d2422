"""Nights n ≥ 1: the settlement P1–P6 of RULES.md §5.5 (RES-W3), one function per step.

The steps P1–P5 run in the order of the ``night_order`` setting (the spec's proposal by
default), each on the night's :class:`_Board`; P6 always comes last.

Map::

    guard()    P1  【守护】 kill-immunity (not for same-type lovers, slot used anyway, RES-W8);
                   【隔音】 pipe-immunity; each once per character ever
    kill()     P2  one 【杀人】 per kill group (first lock, else latest, RES-W7): dying unless
                   kill-immune
    witch()    P3  【通灵】 list (every kill target, RES-W9) while 【救药】 is unused; heal from the
                   list only, consumed even on a character who is not dying; poison recorded
    seer()     P4  【预言】 by the target's current camp (RES-W23)
    piper()    P5  【吹笛】: maddened unless a lover, silenced tonight, or the piper (RES-W18)
    settle()   P6  (a) poison unless the witch is dying from 【杀人】 (RES-W20), (b) the dying go
                   out, then :func:`settle.go_out` (c)–(g); the 06:00 announcement
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from shenshi.rulesets.base import (
    DaemonNote,
    Death,
    GameState,
    PrivateResult,
    PublicFact,
    Report,
    Saved,
    Seat,
    Submission,
)
from shenshi.rulesets.catalog import (
    DIVINE,
    GUARD,
    HEAL,
    KILL,
    PIPE,
    POISON,
    SHERIFF_SUCCESSOR,
    SILENCE_GUARD,
)
from shenshi.rulesets.common import note
from shenshi.rulesets.werewolf import camps
from shenshi.rulesets.werewolf.memory import WerewolfMemory
from shenshi.rulesets.werewolf.settle import Settled, go_out
from shenshi.rulesets.werewolf.submissions import (
    KillChoice,
    Valid,
    choose,
    kill_choices,
    overridden_notes,
    valid,
)

VILLAGE_ANSWER = "村民阵营"
OTHER_ANSWER = "非村民阵营"


@dataclass
class _Board:
    """The night being settled (local to :func:`resolve`; never part of the state)."""

    state: GameState
    checked: Valid
    memory: WerewolfMemory
    notes: list[DaemonNote] = field(default_factory=list)
    kill_immune: set[int] = field(default_factory=set)
    pipe_immune: set[int] = field(default_factory=set)
    kills: list[KillChoice] = field(default_factory=list)
    dying: list[str] = field(default_factory=list)  # in the order they entered the dying state
    saved: list[Saved] = field(default_factory=list)
    poisons: list[tuple[str, str]] = field(default_factory=list)  # (witch, target)
    private: list[PrivateResult] = field(default_factory=list)

    def acting(self, role: str) -> list[Seat]:
        """Characters of ``role`` alive at the start of the night (skills need more checks)."""
        return [s for s in self.state.seats if s.role == role and s.alive]

    def reply(self, action: str, actor: str) -> Submission | None:
        """The reply of ``actor`` that counts for ``action`` (first lock, else latest)."""
        chosen, overridden = choose(self.checked.of(action, [actor]))
        self.notes.extend(overridden_notes(overridden))
        return chosen


def guard(board: _Board) -> None:
    """P1: 【守护】 and 【隔音】."""
    state, mem = board.state, board.memory
    immune_lovers = camps.same_type_lovers(state)
    lovers = {s.number for s in camps.lovers(state)}
    for seat in board.acting("guard"):
        guarded = board.reply(GUARD, seat.name)
        if guarded is not None:
            target = state.seat(guarded.target or "").number
            mem = replace(mem, guarded=mem.guarded | {target})
            if not (immune_lovers and target in lovers):
                board.kill_immune.add(target)
        silenced = board.reply(SILENCE_GUARD, seat.name)
        if silenced is not None:
            target = state.seat(silenced.target or "").number
            mem = replace(mem, silenced=mem.silenced | {target})
            board.pipe_immune.add(target)
    board.memory = mem


def kill(board: _Board) -> None:
    """P2: each kill group's target becomes dying unless kill-immune."""
    board.kills = kill_choices(board.state, board.checked)
    for group in camps.kill_groups(board.state):
        names = [m.name for m in group.members]
        board.notes.extend(overridden_notes(choose(board.checked.of(KILL, names))[1]))
    for choice in board.kills:
        target = board.state.seat(choice.target)
        if target.number in board.kill_immune:
            board.saved.append(Saved(target.name, "guard"))
        elif target.name not in board.dying:
            board.dying.append(target.name)


def witch(board: _Board) -> None:
    """P3: the 【通灵】 list, 【救药】 and 【毒药】."""
    mem = board.memory
    listed = sorted({c.target for c in board.kills})
    for seat in board.acting("witch"):
        if seat.number in mem.heal_used:
            continue  # 【通灵】 is lost with the heal [WW:L142]
        board.private.append(PrivateResult(seat.name, "witch_vision", listed))
    for seat in board.acting("witch"):
        healed = board.reply(HEAL, seat.name)
        if healed is not None:
            mem = replace(mem, heal_used=mem.heal_used | {seat.number})
            if healed.target in board.dying:
                board.dying.remove(healed.target)
                board.saved.append(Saved(healed.target, "witch_heal"))
        poisoned = board.reply(POISON, seat.name)
        if poisoned is not None:
            mem = replace(mem, poison_used=mem.poison_used | {seat.number})
            board.poisons.append((seat.name, poisoned.target or ""))
    board.memory = mem


def seer(board: _Board) -> None:
    """P4: 【预言】 answers by the target's current camp."""
    for seat in board.acting("seer"):
        divined = board.reply(DIVINE, seat.name)
        if divined is not None:
            camp = board.state.seat(divined.target or "").team
            answer = VILLAGE_ANSWER if camp == camps.VILLAGE else OTHER_ANSWER
            board.private.append(PrivateResult(seat.name, "prophecy", answer, divined.target))


def piper(board: _Board) -> None:
    """P5: 【吹笛】 maddens its target, except lovers, the silenced and the piper himself."""
    lovers = {s.number for s in camps.lovers(board.state)}
    mem = board.memory
    for seat in board.acting("piper"):
        piped = board.reply(PIPE, seat.name)
        if piped is None:
            continue
        target = board.state.seat(piped.target or "").number
        if target in lovers or target in board.pipe_immune or target == seat.number:
            board.notes.append(
                note(seat.name, "pipe_no_effect", "void", log_only=True, seq=piped.seq)
            )
            continue
        mem = replace(mem, madness=mem.madness | {target})
    board.memory = mem


STEPS: dict[str, Callable[[_Board], None]] = {
    "guard": guard,
    "kill": kill,
    "witch": witch,
    "seer": seer,
    "piper": piper,
}


def resolve(state: GameState) -> Settled:
    """P1–P6 of night ``state.number`` (≥ 1)."""
    checked = valid(state)
    board = _Board(state, checked, camps.memory(state), notes=list(checked.notes))
    for step in camps.settings(state).night_order:
        STEPS[step](board)
    return settle(board)


def settle(board: _Board) -> Settled:
    """P6: poison, the dying go out, then everything that follows (settle.go_out)."""
    state = replace(board.state, memory=board.memory)
    poisoned: list[Death] = []
    for witch_name, target in board.poisons:
        if witch_name in board.dying:
            board.notes.append(
                note(witch_name, "poison_failed", "void", "the witch is dying", log_only=True)
            )
        elif target not in board.dying and all(d.name != target for d in poisoned):
            poisoned.append(Death(target, "poison"))
    # Outs in the order they entered the dying state; direct outs by the time they went out.
    outs = [Death(name, "kill") for name in board.dying] + poisoned
    successors = board.checked.of(SHERIFF_SUCCESSOR)
    settled = go_out(state, outs, successors)
    facts = settled.report.public_facts or (PublicFact.of("no_death"),)
    out = {d.name for d in settled.report.deaths}
    report = Report(
        # Only those who survive the night were saved (FORMAT saved): not a guarded character
        # who is poisoned, nor a healed one whose lover goes out.
        saved=tuple(s for s in board.saved if s.name not in out),
        private_results=tuple(board.private),
        daemon=tuple(board.notes),
        announce_order=tuple(d.name for d in settled.report.deaths),
        produced=frozenset({"announce_order", "last_words"}),
    ).merge(replace(settled.report, public_facts=facts))
    return Settled(settled.state, settled.outcome, report)
