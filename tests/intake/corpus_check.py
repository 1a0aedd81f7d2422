"""Run one corpus case and compare it with its expectation (shared by the corpus tests)."""

from __future__ import annotations

from typing import Any

from shenshi.intake.batch import run_case


def check_case(case: dict[str, Any]) -> None:
    """Assert that ``case`` gives exactly the expected commands (with the extras named) and
    alert kinds, in order."""
    result = run_case(case)
    expect = case["expect"]
    got_alerts = [a.kind for a in result.alerts]
    got = [(c.action, c.target, dict(c.extra)) for c in result.commands]
    assert got_alerts == expect["alerts"], (got, [a.message for a in result.alerts])
    assert len(result.commands) == len(expect["commands"]), got
    for cmd, want in zip(result.commands, expect["commands"], strict=True):
        assert (cmd.action, cmd.target) == (want["action"], want["target"]), got
        for key, value in want.get("extra", {}).items():
            assert cmd.extra.get(key) == value, (key, got)
