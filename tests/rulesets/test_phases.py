"""The phase table: an illegal command raises IllegalActionError and leaves the state as it was."""

from __future__ import annotations

import pytest

from shenshi.rulesets.base import (
    CastBallot,
    CloseNight,
    CloseRound,
    ForceExecution,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    PlayerSpec,
    RulesetError,
    Submit,
    Substitute,
)
from shenshi.rulesets.registry import find_ruleset

TABLE = [
    ("K1", "killer", "killers"), ("K2", "killer", "killers"), ("S", "seer", "civilians"),
    ("B", "binder", "civilians"), ("Cu", "curser", "civilians"), ("Bl", "blesser", "civilians"),
    ("C1", "commoner", "civilians"), ("C2", "commoner", "civilians"),
    ("C3", "commoner", "civilians"), ("C4", "commoner", "civilians"),
]  # fmt: skip


def new_game():
    rules = find_ruleset("game5")
    return rules, rules.new_game([PlayerSpec(*p) for p in TABLE])


def test_find_ruleset_by_name_and_alias() -> None:
    assert find_ruleset("game6-13").name == "game6-13"
    assert find_ruleset("G5").name == "game5"
    with pytest.raises(KeyError, match="known: game5"):
        find_ruleset("game7")


@pytest.mark.parametrize(
    "command",
    [
        CastBallot("K1", "C1"),
        CloseNight(),
        CloseRound(),
        Submit("K1", "kill", "C1"),
        ForceExecution("C1"),
    ],
    ids=lambda c: type(c).__name__,
)
def test_illegal_before_the_first_step_leaves_state_untouched(command) -> None:
    rules, state = new_game()
    before = state
    with pytest.raises(IllegalActionError):
        rules.decide(state, command)
    assert state == before
    assert state.phase is Phase.SETUP


def test_ballot_at_night_is_illegal_and_changes_nothing() -> None:
    rules, state = new_game()
    state, _ = rules.apply(state, OpenNight(1))
    state, _ = rules.apply(state, Submit("K1", "kill", "C1"))
    before = state
    with pytest.raises(IllegalActionError, match="CastBallot is not allowed during the night 1"):
        rules.decide(state, CastBallot("S", "K1"))
    assert state == before and len(state.submissions) == 1


def test_after_the_winner_only_gm_corrections() -> None:
    rules = find_ruleset("game5")
    table = [PlayerSpec(n, r, t, alive=n in ("K1", "C1", "C2")) for n, r, t in TABLE]
    state = rules.new_game(table)
    state, _ = rules.apply(state, OpenNight(1))
    state, _ = rules.apply(state, Submit("K1", "kill", "C1"))
    state, events = rules.apply(state, CloseNight())
    assert state.phase is Phase.OVER and state.winner == "killers"
    for command in (OpenDay(1), Submit("K1", "kill", "C2"), Substitute("C2", "X")):
        with pytest.raises(IllegalActionError, match="game is over"):
            rules.decide(state, command)


def test_unknown_player_and_role_are_clear_errors() -> None:
    rules, state = new_game()
    state, _ = rules.apply(state, OpenNight(1))
    with pytest.raises(IllegalActionError, match="'Nobody' is not a player"):
        rules.decide(state, Submit("Nobody", "kill", "C1"))
    with pytest.raises(RulesetError, match="unknown role 'wizard'"):
        rules.new_game([PlayerSpec("A", "wizard", "civilians")])
    with pytest.raises(RulesetError, match="listed twice"):
        rules.new_game([PlayerSpec("A", "seer", "civilians")] * 2)


def test_a_day_cannot_open_before_the_night_is_resolved() -> None:
    rules, state = new_game()
    state, _ = rules.apply(state, OpenNight(1))
    with pytest.raises(IllegalActionError):
        rules.decide(state, OpenDay(1))
    state, _ = rules.apply(state, CloseNight())
    assert state.phase is Phase.DAWN
    with pytest.raises(IllegalActionError):
        rules.decide(state, CloseNight())
    state, _ = rules.apply(state, OpenDay(1))
    assert state.phase is Phase.DAY and state.round == 1
