"""The phase graph (PHASE_GRAPH): phase × happening → next phase, read by evolve and the clock."""

from __future__ import annotations

import pytest

from shenshi.rulesets.base import (
    PHASE_GRAPH,
    TRANSITIONS,
    CloseNight,
    CloseRound,
    Due,
    Happening,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    phase_after,
)
from shenshi.rulesets.registry import RULESETS, find_ruleset


def test_every_phase_has_a_row_and_the_game_can_end_from_each() -> None:
    assert set(PHASE_GRAPH) == set(Phase)
    for phase, row in PHASE_GRAPH.items():
        assert row.after[Happening.DECIDED] is Phase.OVER, phase


@pytest.mark.parametrize("phase", list(Phase))
def test_the_graph_opens_exactly_the_steps_the_command_table_lets_open(phase: Phase) -> None:
    after = PHASE_GRAPH[phase].after
    assert (Happening.NIGHT_OPENED in after) == (OpenNight in TRANSITIONS[phase])
    assert (Happening.DAY_OPENED in after) == (OpenDay in TRANSITIONS[phase])


def test_the_clock_closes_what_the_command_table_allows() -> None:
    for phase, row in PHASE_GRAPH.items():
        if row.due is Due.NIGHT_CLOSE:
            assert CloseNight in TRANSITIONS[phase]
        if row.due is Due.ROUND_CLOSE:
            assert CloseRound in TRANSITIONS[phase]
        assert (row.finished is not None) == (row.due is Due.PUBLICATION)


def test_a_happening_the_graph_does_not_have_is_illegal() -> None:
    assert phase_after(Phase.NIGHT, Happening.RESOLVED) is Phase.DAWN
    assert phase_after(Phase.DAY, Happening.NEXT_ROUND) is Phase.DAY
    with pytest.raises(IllegalActionError, match="next_round cannot happen during the night"):
        phase_after(Phase.NIGHT, Happening.NEXT_ROUND)


@pytest.mark.parametrize(
    ("name", "steps"),
    [
        ("game6-10", [(Phase.NIGHT, 1), (Phase.DAY, 1), (Phase.NIGHT, 2), (Phase.DAY, 2)]),
        ("chess32", [(Phase.DAY, 1), (Phase.NIGHT, 1), (Phase.DAY, 2), (Phase.NIGHT, 2)]),
        ("werewolf", [(Phase.NIGHT, 0), (Phase.DAY, 1), (Phase.NIGHT, 1), (Phase.DAY, 2)]),
    ],
)
def test_each_ruleset_walks_its_cycle(name: str, steps: list[tuple[Phase, int]]) -> None:
    ruleset = find_ruleset(name)
    walked = [(ruleset.first_phase, ruleset.first_number)]
    while len(walked) < len(steps):
        walked.append(ruleset.next_step(*walked[-1]))
    assert walked == steps


def test_every_ruleset_starts_with_a_step_of_its_cycle() -> None:
    for ruleset in RULESETS:
        assert ruleset.first_phase in ruleset.cycle
