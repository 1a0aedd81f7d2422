"""Every werewolf scenario (published and our own) through ``shenshi simulate``'s code path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shenshi.commands.simulate import simulate
from shenshi.rulesets.checking import mismatches

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("shared/ww-*.json")) + sorted(HERE.glob("own/ww-*.json"))


def test_the_scenarios_are_there() -> None:
    assert len([f for f in FILES if f.parent.name == "shared"]) >= 19
    assert len([f for f in FILES if f.parent.name == "own"]) >= 16


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["id"] == path.stem
    assert document["ruleset"] == "werewolf"
    printed = simulate(document)
    # The printed object is what `shenshi simulate` prints: JSON-serialisable as is.
    json.dumps(printed, ensure_ascii=False)
    assert mismatches(document["expect"], printed) == []
