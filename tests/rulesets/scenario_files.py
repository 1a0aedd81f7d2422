"""The scenario files the tests run: the shared ones (copied from the spec) and our own."""

from __future__ import annotations

import json
from pathlib import Path

SCENARIOS = Path(__file__).parent / "scenarios"


def scenario_files(prefix: str = "") -> list[Path]:
    """Every scenario file (shared and own) whose name starts with ``prefix``."""
    return sorted(
        p for p in SCENARIOS.glob(f"*/{prefix}*.json") if p.parent.name in ("shared", "own")
    )


def load(path: Path) -> dict:
    """A scenario document."""
    return json.loads(path.read_text(encoding="utf-8"))
