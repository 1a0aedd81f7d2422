"""Driving the rules core command by command in unit tests."""

from __future__ import annotations

from collections.abc import Iterable

from shenshi.rulesets.base import Command, GameState, Report, Ruleset


def apply_all(
    rules: Ruleset, state: GameState, commands: Iterable[Command]
) -> tuple[GameState, Report]:
    """The state after ``commands`` and the merged report of every event they caused."""
    report = Report()
    for command in commands:
        state, events = rules.apply(state, command)
        for event in events:
            report = report.merge(event.report)
    return state, report
