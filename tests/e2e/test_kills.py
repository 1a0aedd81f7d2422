"""Random SIGKILLs during whole games (issue 11): at least 20 per game, at arbitrary moments
(between two cycles; at a random step of a cycle: a write transaction ending, an HTTP request
going out or answered; at a random instant of real time), on both engines and several
rulesets. The game must end with the same events, and the forum must show the same posts and
PMs (the same texts in the same order; ids and times may differ), as a run never killed.

Every game here is a long run (``slow``; ``make e2e`` plays every ruleset on both engines,
``.ci/run`` the game5 one on phpwind): with twenty restarts of the daemon each, two of them were
half of ``make test`` (issue 22). ``make test`` keeps the quick one of this kind:
``tests/e2e/test_faults.py::test_the_daemon_killed_and_restarted`` (a kill at each named moment
of a game, both engines).
"""

from __future__ import annotations

import random

import pytest

from shenshi.demo.director import Director
from shenshi.demo.game import GameRun, play
from shenshi.rulesets.registry import RULESETS
from tests.e2e.checks import assert_as_scripted, assert_nothing_lost_or_doubled, daemon_errors
from tests.e2e.conftest import SEED

pytestmark = pytest.mark.e2e
KILLS = 20  # at least, per game
IN_CI = [("game6-10", "discuz"), ("game5", "phpwind")]  # .ci/run: the second
SLOW = [(r.name, e) for r in RULESETS for e in ("discuz", "phpwind") if (r.name, e) not in IN_CI]


class Chaos:
    """After a cycle, now and then, arm a kill for the next one: at once, at a random step of
    it, or at a random instant of it (seeded: a failure can be replayed)."""

    def __init__(self, seed: str, rate: float) -> None:
        self.rng = random.Random(seed)
        self.rate = rate
        self.armed: list[str] = []

    def __call__(self, director: Director) -> None:
        daemon = director.daemon
        x = self.rng.random() / self.rate
        if x < 1 / 3:
            self.armed.append("between cycles")
            daemon.kill()
        elif x < 2 / 3:
            step = self.rng.randint(1, 40)
            self.armed.append(f"step {step}")
            daemon.crash_at(f"ops:{step}")
        elif x < 1:
            instant = self.rng.uniform(0.0, 0.25)
            self.armed.append(f"{instant * 1000:.0f} ms in")
            daemon.kill_during_next_cycle(instant)


def _killed_game(ruleset: str, engine: str, tmp_path, rate: float) -> GameRun:
    chaos = Chaos(f"{ruleset}/{engine}", rate)
    return play(ruleset, engine, seed=SEED, workdir=tmp_path, subprocess=True, hooks=[chaos])


def _same_as_never_killed(run: GameRun, reference: GameRun) -> None:
    assert run.kills >= KILLS, f"only {run.kills} kills"
    assert not daemon_errors(run)
    assert_as_scripted(run)
    assert_nothing_lost_or_doubled(run, reference)
    assert run.gm_posts == reference.gm_posts  # the same texts in the same order
    assert run.gm_pms == reference.gm_pms


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "engine"), IN_CI)
def test_random_kills_change_nothing(clean_run, tmp_path, ruleset: str, engine: str) -> None:
    run = _killed_game(ruleset, engine, tmp_path, rate=0.5)
    _same_as_never_killed(run, clean_run(ruleset, engine))


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "engine"), SLOW)
def test_random_kills_change_nothing_in_any_game(
    clean_run, tmp_path, ruleset: str, engine: str
) -> None:
    run = _killed_game(ruleset, engine, tmp_path, rate=0.5)
    _same_as_never_killed(run, clean_run(ruleset, engine))
