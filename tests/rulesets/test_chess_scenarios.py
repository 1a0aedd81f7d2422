"""Every chess32 scenario (the published ones and ours) through ``shenshi simulate``'s code path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shenshi.commands.simulate import simulate
from shenshi.rulesets.checking import mismatches

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(SCENARIOS.glob("shared/c32-*.json")) + sorted(SCENARIOS.glob("own/c32-*.json"))


def test_the_published_chess_scenarios_are_all_here():
    assert len([f for f in FILES if f.parent.name == "shared"]) == 36
    assert len([f for f in FILES if f.parent.name == "own"]) >= 20


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario(path: Path):
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["id"] == path.stem
    assert document["ruleset"] == "chess32"
    assert document["expect"], "a scenario that asserts nothing is a defect"
    assert mismatches(document["expect"], simulate(document)) == []


@pytest.mark.parametrize("path", FILES[:3], ids=lambda p: p.stem)
def test_simulate_is_deterministic(path: Path):
    document = json.loads(path.read_text(encoding="utf-8"))
    assert simulate(document) == simulate(document)
