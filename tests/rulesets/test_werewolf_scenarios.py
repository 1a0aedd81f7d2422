"""The werewolf scenarios are all here (``test_scenarios.py`` runs every file through simulate)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("shared/ww-*.json")) + sorted(HERE.glob("own/ww-*.json"))


def test_the_scenarios_are_there() -> None:
    assert len([f for f in FILES if f.parent.name == "shared"]) >= 19
    assert len([f for f in FILES if f.parent.name == "own"]) >= 16
