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


def check_matching(case: dict[str, Any]) -> None:
    """Assert ``case`` as its ``expect.match`` says (the third held-out corpus's modes):
    ``exact`` (as :func:`check_case`, alerts in any order), ``alerts_include`` (the commands,
    and at least these alert kinds), ``alerts`` (these alert kinds, whatever is read) and
    ``any_alert`` (nothing read and at least one alert, or else exactly the commands expected
    and no alert: the writer accepted either)."""
    result = run_case(case)
    expect = case["expect"]
    mode = expect.get("match", "exact")
    kinds = sorted({a.kind for a in result.alerts})
    got = sorted((c.action, c.target) for c in result.commands)
    wanted = sorted((c["action"], c["target"]) for c in expect["commands"])
    seen = (got, [a.message for a in result.alerts])
    if mode == "any_alert":
        assert (not got and kinds) or (got == wanted and wanted and not kinds), seen
        return
    if mode in ("exact", "alerts_include"):
        assert got == wanted, seen
        for want in expect["commands"]:
            cmd = next(c for c in result.commands if (c.action, c.target) == (want["action"], want["target"]))
            for key, value in want.get("extra", {}).items():
                assert cmd.extra.get(key) == value, (key, seen)
    if mode in ("exact", "alerts"):
        assert kinds == sorted(set(expect["alerts"])), seen
    else:
        assert set(expect["alerts"]) <= set(kinds), seen
