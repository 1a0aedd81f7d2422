"""End-to-end fixtures: whole games on the sandbox, and clean reference runs to compare with."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from shenshi.demo.game import GameRun, play
from tests.databases import database_url

SEED = 7


@pytest.fixture(scope="session")
def clean_run(tmp_path_factory) -> Callable[[str, str], GameRun]:
    """``clean_run(ruleset, engine)``: the game played without faults (once per worker)."""
    cache: dict[tuple[str, str], GameRun] = {}

    def get(ruleset: str, engine: str) -> GameRun:
        if (ruleset, engine) not in cache:
            workdir = tmp_path_factory.mktemp(f"clean-{ruleset}-{engine}")
            cache[ruleset, engine] = play(
                ruleset, engine, seed=SEED, workdir=workdir, database=database_url(workdir)
            )
        return cache[ruleset, engine]

    return get
