"""Whole games over real HTTP on the loopback sandbox: the scripted players' intended actions
must give the outcome written in the script, as the forum shows it and as the daemon stored it.

game6-10 runs in ``make test`` on both engines; chess32 (32 seats, a minute or more a game) in
``.ci/run`` and ``make e2e``, with the other rulesets.
"""

from __future__ import annotations

import pytest

from shenshi.rulesets.registry import RULESETS
from tests.e2e.checks import (
    assert_as_scripted,
    assert_files_private,
    assert_mistakes_read_right,
    assert_nothing_lost_or_doubled,
)

pytestmark = pytest.mark.e2e
ENGINES = ("discuz", "phpwind")
IN_CI = ("game6-10", pytest.param("chess32", marks=pytest.mark.slow))
SLOW = tuple(r.name for r in RULESETS if r.name not in ("game6-10", "chess32"))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("ruleset", IN_CI)
def test_a_whole_game_plays_as_scripted(clean_run, ruleset: str, engine: str) -> None:
    run = clean_run(ruleset, engine)
    assert_as_scripted(run)
    assert_nothing_lost_or_doubled(run)
    assert_mistakes_read_right(run)
    assert_files_private(run)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("ruleset", SLOW)
def test_every_ruleset_plays_as_scripted(clean_run, ruleset: str, engine: str) -> None:
    run = clean_run(ruleset, engine)
    assert_as_scripted(run)
    assert_nothing_lost_or_doubled(run)
    assert_mistakes_read_right(run)
