"""Invariants every game must keep, whatever the spec's details (issue 10), checked on a scenario
document played through the rules core. Used by ``test_random_games.py`` on random games.

    check_all(document) -> list[str]      every problem found, as readable lines (empty: fine)

The invariants:

* ``dies_once``: a seat dies at most once, never after it was dead, and each death is listed once
  in its step;
* ``the_saved_survive``: a player listed as saved survives the step (and is listed once);
* ``same_for_any_seat_order``: the result does not depend on the order of the player list (the
  one order the rules give a meaning to, RES-A1's killer order, is pinned in the config first);
* ``same_for_any_list_order_when_timed``: lists whose entries all have distinct times give the
  same result in any order (FORMAT "Time stamps");
* ``nothing_after_the_winner``: no event follows the one that decides the game, and a further
  night or day step makes the file malformed (FORMAT "Game over");
* ``one_verdict_each``: every PM and ballot gets at most one verdict, and one from a player who
  was dead when the step began gets exactly one;
* ``replay_gives_the_same_state``: folding ``evolve`` over the events gives the final state again,
  and playing the document twice prints the same thing.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping
from typing import Any

from shenshi.rulesets.base import BallotCast, GameState, PhaseOpened, PowerSubmitted
from shenshi.rulesets.checking import mismatches
from shenshi.rulesets.scenario import ScenarioError, ScenarioRun, play_scenario, step_label

Check = Callable[[Mapping[str, Any], ScenarioRun], list[str]]


def dies_once(document: Mapping[str, Any], run: ScenarioRun) -> list[str]:
    """A seat dies at most once (RES-A18, RES-C35, FORMAT ``deaths``: "each once")."""
    problems = []
    seat_of = {p["name"]: i for i, p in enumerate(document["players"])}
    dead = {i for i, p in enumerate(document["players"]) if not p.get("alive", True)}
    for step in document["steps"]:
        label = step_label(step)
        names = [d["name"] for d in run.results.get(label, {}).get("deaths", ())]
        if len(names) != len(set(names)):
            problems.append(f"{label}: a death listed twice: {sorted(names)}")
        for name in names:
            seat = seat_of.get(name)
            if seat is None or seat in dead:
                problems.append(f"{label}: {name} dies again (or was never a living seat)")
            dead.add(seat)  # type: ignore[arg-type]
        for sub in step.get("substitutions") or ():
            if seat_of.get(sub["out"]) not in dead:
                seat_of[sub["in"]] = seat_of[sub["out"]]
    return problems


def the_saved_survive(document: Mapping[str, Any], run: ScenarioRun) -> list[str]:
    """FORMAT ``saved``: only players who survive the step; each one once."""
    problems = []
    for label, result in run.results.items():
        saved = [s["name"] for s in result.get("saved", ())]
        dead = {d["name"] for d in result.get("deaths", ())}
        if dead & set(saved) or len(saved) != len(set(saved)):
            problems.append(f"{label}: saved {saved}, deaths {sorted(dead)}")
    return problems


def same_for_any_seat_order(
    document: Mapping[str, Any], run: ScenarioRun, seed: int = 0
) -> list[str]:
    """The same result for a shuffled player list (RES-A1's killer order pinned first)."""
    shuffled = copy.deepcopy(dict(document))
    if shuffled["ruleset"] == "game6-8" and not (shuffled.get("config") or {}).get("killer_order"):
        killers = [p["name"] for p in shuffled["players"] if p["role"] == "killer"]
        shuffled["config"] = {**(shuffled.get("config") or {}), "killer_order": killers}
    random.Random(seed).shuffle(shuffled["players"])
    other = play_scenario(shuffled).results
    return [
        f"seat order: {p}" for p in mismatches(run.results, other) + mismatches(other, run.results)
    ]


def same_for_any_list_order_when_timed(
    document: Mapping[str, Any], run: ScenarioRun, seed: int = 0
) -> list[str]:
    """FORMAT "Time stamps": where every entry of a list has its own time, the time orders
    them, so listing them in another order changes nothing."""
    shuffled = copy.deepcopy(dict(document))
    rng = random.Random(seed)
    changed = False
    for step in shuffled["steps"]:
        for key in ("actions", "votes", "runoff_votes"):
            entries = step.get(key) or []
            times = [(e.get("extra") or {}).get("t") for e in entries]
            if len(entries) > 1 and None not in times and len(set(times)) == len(times):
                rng.shuffle(entries)
                changed = True
    if not changed:
        return []
    other = play_scenario(shuffled).results
    return [
        f"list order: {p}" for p in mismatches(run.results, other) + mismatches(other, run.results)
    ]


def nothing_after_the_winner(document: Mapping[str, Any], run: ScenarioRun) -> list[str]:
    """No event after the deciding one; another step after the winner is refused."""
    problems = []
    state = run.start
    for i, event in enumerate(run.events):
        state = run.ruleset.evolve(state, event)
        if state.outcome is not None and i + 1 < len(run.events):
            later = ", ".join(type(e).__name__ for e in run.events[i + 1 :])
            problems.append(f"events after the winner ({state.outcome.winner}): {later}")
            break
    if run.state.outcome is not None:
        last = document["steps"][-1]
        more = copy.deepcopy(dict(document))
        phase = "day" if last["phase"] == "night" else "night"
        more["steps"] = [*more["steps"], {"phase": phase, "n": last.get("n", 0) + 1}]
        try:
            play_scenario(more)
        except ScenarioError:
            pass
        else:
            problems.append("a step after the winner was played")
    return problems


def one_verdict_each(document: Mapping[str, Any], run: ScenarioRun) -> list[str]:
    """Every PM and ballot gets at most one verdict; one by a player dead at the start of the
    step (a summoned victim's ballot aside) gets exactly one."""
    problems = []
    state: GameState = run.start
    opened: GameState = state
    items: dict[int, Any] = {}
    verdicts: dict[int, list[str]] = {}

    def close_step() -> None:
        for seq, item in items.items():
            got = verdicts.get(seq, [])
            who = getattr(item, "actor", None) or getattr(item, "voter", None)
            summoned = getattr(item, "via", "") == "summon"
            dead = not opened.is_alive(who) and not summoned
            if len(got) > 1 or (dead and len(got) != 1):
                problems.append(f"{opened.phase.value}{opened.number}: {item} got {got}")
        for seq in set(verdicts) - set(items):
            problems.append(
                f"{opened.phase.value}{opened.number}: a verdict on no item: {verdicts[seq]}"
            )

    for event in run.events:
        if isinstance(event, PhaseOpened):
            close_step()
            items, verdicts = {}, {}
        item = None
        if isinstance(event, PowerSubmitted):
            item = event.submission
        elif isinstance(event, BallotCast):
            item = event.ballot
        if item is not None:
            items[item.seq] = item
        for n in event.report.daemon:
            seq = n.seq if n.seq is not None else (item.seq if item is not None else None)
            if seq is not None and n.verdict != "flag":
                verdicts.setdefault(seq, []).append(f"{n.rule}/{n.verdict}")
        state = run.ruleset.evolve(state, event)
        if isinstance(event, PhaseOpened):
            opened = state
    close_step()
    return problems


def replay_gives_the_same_state(document: Mapping[str, Any], run: ScenarioRun) -> list[str]:
    """The events alone rebuild the game; the document alone reprints the same results."""
    problems = []
    state = run.start
    for event in run.events:
        state = run.ruleset.evolve(state, event)
    if state != run.state:
        problems.append("replaying the events gives another state")
    if play_scenario(document).results != run.results:
        problems.append("playing the document twice prints different results")
    return problems


CHECKS: tuple[Check, ...] = (
    dies_once,
    the_saved_survive,
    same_for_any_seat_order,
    same_for_any_list_order_when_timed,
    nothing_after_the_winner,
    one_verdict_each,
    replay_gives_the_same_state,
)


def check_all(document: Mapping[str, Any]) -> list[str]:
    """Every invariant on ``document`` played once (a refused document is one problem)."""
    try:
        run = play_scenario(document)
    except ScenarioError as exc:
        return [f"the core refused a legal document: {exc}"]
    return [f"{check.__name__}: {p}" for check in CHECKS for p in check(document, run)]
