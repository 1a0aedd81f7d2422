"""Property tests over random legal-looking chess32 nights, days and games (hypothesis, "ci").

Actions are drawn with any target (legal or not: an illegal one must become a daemon note, never
an error); one submission per actor and power, so arrival order can only matter through the
one rule that uses submission time (mutual 重叠炮, RES-C8).
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from shenshi.rulesets.base import (
    ABSTAIN,
    CastBallot,
    CloseNight,
    CloseRound,
    Command,
    ForceExecution,
    GameState,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    Report,
    Submit,
    frozen_map,
)
from shenshi.rulesets.catalog import CHESS32
from tests.rulesets.commands import apply_all
from tests.rulesets.test_chess_rules import NAMES, RULES, table  # the 32-seat table

ROLE = {s.name: s.role for s in table().seats}
SEATS = [(s.name, s.role, s.team) for s in table().seats]
NOT_GENERALS = [n for n in NAMES if ROLE[n] != "general"]
T0 = datetime(2024, 3, 5, 8, 0)


def run(state: GameState, commands: list[Command]) -> tuple[GameState, Report]:
    return apply_all(RULES, state, commands)


@st.composite
def dead_sets(draw: Any) -> frozenset[str]:
    dead = set(draw(st.sets(st.sampled_from(NOT_GENERALS), max_size=10)))
    for camp in ("Chu", "Han"):  # sometimes a general may be killed
        if draw(st.integers(0, 3)) == 0:
            dead |= {f"{camp}Soldier{i}" for i in range(1, 6)}
    return frozenset(dead)


@st.composite
def actions(draw: Any, state: GameState, timed: bool = False) -> list[Submit]:
    """At most one submission per actor and power; dead actors submit sometimes too."""
    out = []
    times = draw(st.permutations(range(64))) if timed else None
    for name, role, _ in SEATS:
        for power in CHESS32.roles[role].powers:
            if not draw(st.integers(0, 2)):
                continue
            extra: dict[str, Any] = {}
            if power == "cannon_kill":
                extra["platform"] = draw(st.sampled_from(NAMES))
            t = T0 + timedelta(minutes=times[len(out)]) if times else None
            out.append(Submit(name, power, draw(st.sampled_from(NAMES)), frozen_map(extra), t))
    return out


@st.composite
def nights(draw: Any, timed: bool = False) -> tuple[GameState, list[Submit]]:
    state = table(tuple(draw(dead_sets())))
    return state, draw(actions(state, timed))


def resolve(state: GameState, subs: list[Submit]) -> tuple[GameState, Report]:
    return run(state, [OpenNight(1), *subs, CloseNight()])


@given(nights())
def test_only_the_living_die_and_nobody_comes_back(case: tuple[GameState, list[Submit]]):
    before, subs = case
    after, report = resolve(before, subs)
    alive_before = {s.name for s in before.alive()}
    alive_after = {s.name for s in after.alive()}
    died = [d.name for d in report.deaths]
    assert len(died) == len(set(died))
    assert set(died) <= alive_before
    assert alive_after == alive_before - set(died)
    assert all(s.name in alive_before for s in report.saved)
    fallen_generals = {d.name for d in report.deaths if ROLE[d.name] == "general"}
    assert (after.winner is not None) == bool(fallen_generals)
    if len(fallen_generals) == 2:
        assert after.winner == "draw"


@given(nights())
def test_dead_players_never_act(case: tuple[GameState, list[Submit]]):
    state, subs = case
    living = [s for s in subs if state.is_alive(s.actor)]
    _, with_dead = resolve(state, subs)
    _, without = resolve(state, living)
    dead_notes = [n for n in with_dead.daemon if n.rule == "dead_actor"]
    assert {n.who for n in dead_notes} == {s.actor for s in subs if not state.is_alive(s.actor)}
    kept = tuple(replace(n, seq=None) for n in with_dead.daemon if n.rule != "dead_actor")
    assert with_dead.to_json() | {"daemon": []} == without.to_json() | {"daemon": []}
    assert kept == tuple(replace(n, seq=None) for n in without.daemon)  # arrival numbers differ


@given(nights(), st.randoms(use_true_random=False))
def test_arrival_order_matters_only_for_mutual_overlapping_cannons(
    case: tuple[GameState, list[Submit]], rnd: random.Random
):
    state, subs = case
    shuffled = list(subs)
    rnd.shuffle(shuffled)
    first_state, first = resolve(state, subs)
    second_state, second = resolve(state, shuffled)
    if any(n.rule == "mutual_overlap_later" for n in first.daemon + second.daemon):
        return  # RES-C8: without timestamps, arrival decides which cannon fires
    assert _canonical(first) == _canonical(second)
    assert first_state.seats == second_state.seats and first_state.memory == second_state.memory


@given(nights(timed=True), st.randoms(use_true_random=False))
def test_with_timestamps_arrival_order_never_matters(
    case: tuple[GameState, list[Submit]], rnd: random.Random
):
    state, subs = case
    shuffled = list(subs)
    rnd.shuffle(shuffled)
    assert _canonical(resolve(state, subs)[1]) == _canonical(resolve(state, shuffled)[1])


def _canonical(report: Report) -> dict[str, Any]:
    out = report.to_json()
    return {k: sorted(map(str, v)) if isinstance(v, list) else v for k, v in out.items()}


@given(nights())
def test_after_the_win_only_gm_corrections_are_accepted(case: tuple[GameState, list[Submit]]):
    state, subs = case
    after, _ = resolve(state, subs)
    if after.winner is None:
        return
    assert after.phase is Phase.OVER
    living = [s.name for s in after.alive()]
    for command in (
        OpenDay(2),
        OpenNight(2),
        Submit(living[0], "pray", living[0]),
        CastBallot(living[0], ABSTAIN),
    ):
        try:
            RULES.decide(after, command)
        except IllegalActionError:
            continue
        raise AssertionError(f"{type(command).__name__} accepted after the end")
    try:  # a GM correction is never refused because the game is over
        RULES.decide(after, ForceExecution(None, "GM"))
    except IllegalActionError as exc:
        assert "over" not in str(exc)


VOTE_TARGETS = st.sampled_from([*NAMES, ABSTAIN, ABSTAIN])


@st.composite
def days(draw: Any) -> tuple[GameState, list[CastBallot]]:
    state = table(tuple(draw(dead_sets())))
    curses = [
        Submit(adv, power, draw(st.sampled_from(NAMES)))
        for adv, power in (
            ("ChuLeftAdv", "curse"),
            ("HanLeftAdv", "curse"),
            ("ChuRightAdv", "bless"),
            ("HanRightAdv", "bless"),
        )
        if draw(st.booleans())
    ]
    state, _ = resolve(state, curses)
    ballots = []
    for name in NAMES:
        if draw(st.integers(0, 4)):
            ballots.append(
                CastBallot(name, draw(VOTE_TARGETS), format_ok=draw(st.integers(0, 9)) > 0)
            )
    return state, ballots


@given(days())
def test_a_tally_is_the_valid_ballots_plus_curse_and_bless(
    case: tuple[GameState, list[CastBallot]],
):
    state, ballots = case
    if state.winner is not None:
        return
    after, report = run(state, [OpenDay(2), *ballots, CloseRound()])
    valid = [
        b for b in ballots
        if state.is_alive(b.voter) and b.format_ok and b.target != ABSTAIN and state.is_alive(b.target)
    ]  # fmt: skip
    curses = len({f.get("name") for f in report.public_facts if f.kind == "curse_applied"})
    blesses = len({f.get("name") for f in report.public_facts if f.kind == "bless_applied"})
    applied_curses = [n for n in state.memory.curse if state.by_number(n).alive]
    assert curses == len({state.by_number(n).name for n in applied_curses})  # facts are per player
    tally = report.vote_tally
    assert sum(tally.values()) == len(valid) + len(applied_curses) - _bless_count(
        state, valid, applied_curses
    )
    assert blesses == len({s.name for s in map(state.by_number, state.memory.bless) if s.alive})
    assert set(tally) <= {s.name for s in state.alive()}


def _bless_count(state: GameState, valid: list[CastBallot], curses: list[int]) -> int:
    """Blesses that change a tally: on a living player whose tally is still above 0."""
    tally: dict[str, int] = {}
    for b in valid:
        tally[b.target] = tally.get(b.target, 0) + 1
    for n in curses:
        name = state.by_number(n).name
        tally[name] = tally.get(name, 0) + 1
    used = 0
    for n in state.memory.bless:
        name = state.by_number(n).name
        if state.by_number(n).alive and tally.get(name, 0) > 0:
            tally[name] -= 1
            used += 1
    return used


@given(days())
def test_dead_voters_are_never_counted(case: tuple[GameState, list[CastBallot]]):
    state, ballots = case
    if state.winner is not None:
        return
    living = [b for b in ballots if state.is_alive(b.voter)]
    _, with_dead = run(state, [OpenDay(2), *ballots, CloseRound()])
    _, without = run(state, [OpenDay(2), *living, CloseRound()])
    assert with_dead.vote_tally == without.vote_tally
    assert with_dead.executed == without.executed


@given(st.data())
def test_whole_games_keep_their_invariants(data: st.DataObject):
    state = table(tuple(data.draw(dead_sets())))
    ever_dead = {s.name for s in state.seats if not s.alive}
    winner = None
    for n in range(1, 5):
        if state.phase is Phase.OVER:
            break
        ballots = [CastBallot(s.name, data.draw(VOTE_TARGETS)) for s in state.alive()]
        state, _ = run(state, [OpenDay(n), *ballots, CloseRound()])
        while state.phase is Phase.DAY:
            runoff = [CastBallot(s.name, data.draw(VOTE_TARGETS)) for s in state.alive()]
            state, _ = run(state, [*runoff, CloseRound()])
        assert ever_dead <= {s.name for s in state.seats if not s.alive}, "nobody comes back"
        ever_dead = {s.name for s in state.seats if not s.alive}
        if state.phase is Phase.OVER:
            break
        state, _ = resolve_at(state, data.draw(actions(state)), n)
        assert ever_dead <= {s.name for s in state.seats if not s.alive}, "nobody comes back"
        ever_dead = {s.name for s in state.seats if not s.alive}
        if winner is not None:
            assert state.winner == winner
        winner = state.winner


def resolve_at(state: GameState, subs: list[Submit], n: int) -> tuple[GameState, Report]:
    return run(state, [OpenNight(n), *subs, CloseNight()])
