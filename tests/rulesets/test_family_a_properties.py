"""Property tests over random legal family A games (game5, game6-8, game6-10, game6-13)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shenshi.rulesets.base import (
    CastBallot,
    CloseNight,
    CloseRound,
    GameState,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    PlayerSpec,
    Report,
    Submit,
)
from shenshi.rulesets.registry import find_ruleset

FAMILY_A = ("game5", "game6-8", "game6-10", "game6-13")


def deal(name: str, rng: random.Random) -> list[PlayerSpec]:
    info = find_ruleset(name).info
    roles = [role for role, count in info.composition.items() for _ in range(count)]
    rng.shuffle(roles)
    return [PlayerSpec(f"P{i}", r, info.roles[r].team) for i, r in enumerate(roles)]


def night_submissions(state: GameState, rng: random.Random) -> list[Submit]:
    info = find_ruleset(state.ruleset).info
    living = [s.name for s in state.alive()]
    subs = []
    for seat in state.seats:  # the dead try too: they must never matter
        for power in info.roles[seat.role].powers:
            if rng.random() < 0.8:
                target = rng.choice(living if rng.random() < 0.9 else [s.name for s in state.seats])
                subs.append(Submit(seat.name, power, target, {"declaration_chars": rng.choice([150, 150, 60])}))
    return subs


def play(name: str, seed: int, nights: int = 6):
    """Yield (kind, state_before, events, state_after) for every step of a random game."""
    rng = random.Random(seed)
    rules = find_ruleset(name)
    config = {}
    specs = deal(name, rng)
    if name == "game6-8":
        config["killer_order"] = [p.name for p in specs if p.role == "killer"]
    state = rules.new_game(specs, config)
    for n in range(1, nights + 1):
        state, _ = rules.apply(state, OpenNight(n))
        subs = night_submissions(state, rng)
        for sub in subs:
            state, _ = rules.apply(state, sub)
        before = state
        state, events = rules.apply(state, CloseNight())
        yield "night", before, events, state
        if state.phase is Phase.OVER:
            return
        state, _ = rules.apply(state, OpenDay(n))
        living = [s.name for s in state.alive()]
        for voter in living:
            if rng.random() < 0.95:
                state, _ = rules.apply(state, CastBallot(voter, rng.choice(living)))
        before = state
        state, events = rules.apply(state, CloseRound())
        yield "day", before, events, state
        while state.phase is Phase.DAY:
            candidates = list(state.memory.runoff) and [state.by_number(c).name for c in state.memory.runoff]
            for voter in [s.name for s in state.alive()]:
                state, _ = rules.apply(state, CastBallot(voter, rng.choice(candidates)))
            state, events = rules.apply(state, CloseRound())
            yield "round", before, events, state
        if state.phase is Phase.OVER:
            return


def merged(events) -> Report:
    report = Report()
    for e in events:
        report = report.merge(e.report)
    return report


games = given(ruleset=st.sampled_from(FAMILY_A), seed=st.integers(0, 2**31))


@games
def test_nobody_comes_back_to_life(ruleset: str, seed: int) -> None:
    for _, before, _, after in play(ruleset, seed):
        back = [s.name for s, t in zip(before.seats, after.seats, strict=True) if not s.alive and t.alive]
        assert not back


@games
def test_the_winner_is_set_once_and_then_only_gm_corrections(ruleset: str, seed: int) -> None:
    rules = find_ruleset(ruleset)
    outcome = None
    last = None
    for _, _, _, after in play(ruleset, seed):
        if outcome is not None:
            assert after.outcome == outcome
        outcome = after.outcome or outcome
        last = after
    if last is not None and last.outcome is not None:
        living = [s.name for s in last.seats]
        for command in (OpenNight(99), Submit(living[0], "pray", living[0]), CastBallot(living[0], living[0])):
            with pytest.raises(IllegalActionError):
                rules.decide(last, command)


@games
def test_first_round_tally_is_valid_ballots_plus_curse_and_bless(ruleset: str, seed: int) -> None:
    for kind, before, events, _ in play(ruleset, seed):
        if kind != "day":
            continue
        report = merged(events)
        bound = before.memory.bound
        counted = sum(
            1
            for b in before.ballots
            if before.is_alive(b.voter)
            and before.seat(b.voter).number != bound
            and before.is_alive(b.target)
        )
        kinds = [f.kind for f in report.public_facts]
        expected = counted + kinds.count("curse_applied") - kinds.count("bless_applied")
        assert sum(report.vote_tally.values()) == expected


@games
def test_dead_players_never_act(ruleset: str, seed: int) -> None:
    rules = find_ruleset(ruleset)
    for kind, before, events, _ in play(ruleset, seed):
        if kind != "night":
            continue
        living_only = replace(
            before, submissions=tuple(s for s in before.submissions if before.is_alive(s.actor))
        )
        _, again = rules.apply(living_only, CloseNight())
        assert _outcome(again) == _outcome(events)


@games
def test_night_result_does_not_depend_on_arrival_order(ruleset: str, seed: int) -> None:
    rules = find_ruleset(ruleset)
    rng = random.Random(seed)
    for kind, before, events, _ in play(ruleset, seed):
        if kind != "night":
            continue
        subs = list(before.submissions)
        rng.shuffle(subs)
        subs = [replace(s, seq=i + 1) for i, s in enumerate(subs)]
        _, again = rules.apply(replace(before, submissions=tuple(subs)), CloseNight())
        assert _outcome(again) == _outcome(events)


def _outcome(events) -> tuple:
    report = merged(events)
    resolved = events[0]
    return (
        sorted((d.name, d.cause) for d in report.deaths),
        sorted((s.name, s.by) for s in report.saved),
        sorted((r.to, r.value) for r in report.private_results),
        sorted(f.kind for f in report.public_facts),
        report.bound,
        [s.alive for s in resolved.seats],
        resolved.outcome,
    )
