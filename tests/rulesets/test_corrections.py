"""GM corrections are events too: void an action, force or cancel an execution, an exit."""

from __future__ import annotations

import pytest

from shenshi.rulesets.base import (
    CastBallot,
    CloseNight,
    CloseRound,
    DeclareExit,
    ForceExecution,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    PlayerSpec,
    Submit,
    VoidAction,
)
from shenshi.rulesets.registry import find_ruleset
from tests.rulesets.test_phases import TABLE


def game(*dead: str):
    rules = find_ruleset("game5")
    return rules, rules.new_game([PlayerSpec(n, r, t, alive=n not in dead) for n, r, t in TABLE])


def night(rules, state, *subs):
    state, _ = rules.apply(state, OpenNight(1))
    for s in subs:
        state, _ = rules.apply(state, s)
    return state


def test_a_voided_kill_kills_nobody() -> None:
    rules, state = game()
    state = night(rules, state, Submit("K1", "kill", "C1"))
    state, events = rules.apply(state, VoidAction("K1", "kill", "sent by mistake"))
    assert not state.submissions
    with pytest.raises(IllegalActionError, match="no kill submission"):
        rules.decide(state, VoidAction("K1", "kill"))
    state, events = rules.apply(state, CloseNight())
    assert state.is_alive("C1")
    with pytest.raises(IllegalActionError, match="not allowed during the dawn"):
        rules.decide(state, VoidAction("K1", "kill"))  # after the dawn it is too late


def day_with_votes(votes):
    rules, state = game()
    state = night(rules, state)
    state, _ = rules.apply(state, CloseNight())
    state, _ = rules.apply(state, OpenDay(1))
    for voter, target in votes:
        state, _ = rules.apply(state, CastBallot(voter, target))
    return rules, state


ALL_FOR_K2 = [(n, "K2") for n, _, _ in TABLE if n != "K2"] + [("K2", "C1")]


def test_forcing_an_execution_before_the_close_overrides_the_tally() -> None:
    rules, state = day_with_votes(ALL_FOR_K2)
    state, _ = rules.apply(state, ForceExecution("C3", "the GM's ruling"))
    state, events = rules.apply(state, CloseRound())
    report = events[0].report
    assert report.executed == "C3" and not state.is_alive("C3") and state.is_alive("K2")


def test_forcing_an_execution_during_the_runoff_overrides_its_count() -> None:
    tie = [(n, "K2" if i % 2 else "C1") for i, (n, _, _) in enumerate(TABLE)]
    rules, state = day_with_votes(tie)
    state, _ = rules.apply(state, CloseRound())
    assert state.round == 2
    for voter in [s.name for s in state.alive()]:
        state, _ = rules.apply(state, CastBallot(voter, "K2"))
    state, _ = rules.apply(state, ForceExecution("C1", "the GM's ruling"))
    state, events = rules.apply(state, CloseRound())
    assert events[0].report.executed == "C1" and state.is_alive("K2")


def test_cancelling_before_the_close() -> None:
    rules, state = day_with_votes(ALL_FOR_K2)
    state, _ = rules.apply(state, ForceExecution(None))
    state, events = rules.apply(state, CloseRound())
    assert events[0].report.executed is None and state.is_alive("K2")


def test_correcting_after_the_close_brings_the_wrong_one_back() -> None:
    rules, state = day_with_votes(ALL_FOR_K2)
    state, _ = rules.apply(state, CloseRound())
    assert state.phase is Phase.DUSK and not state.is_alive("K2")
    state, events = rules.apply(state, ForceExecution("C2", "a vote was miscounted"))
    assert state.is_alive("K2") and not state.is_alive("C2")
    assert events[0].report.executed == "C2"
    state, events = rules.apply(state, ForceExecution(None))
    assert state.is_alive("C2") and state.is_alive("K2")


def test_an_exit_without_substitute_kills_the_seat_and_can_end_the_game() -> None:
    rules, state = game("S", "B", "Cu", "Bl", "C2", "C3", "C4")
    state, events = rules.apply(state, DeclareExit("C1", "lurking 48 h"))
    assert not state.is_alive("C1")
    assert [f.kind for f in events[0].report.public_facts] == ["exit"]
    assert state.winner == "killers" and state.phase is Phase.OVER
