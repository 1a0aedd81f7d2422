"""The chess32 scenario files: all published ones present, our own ones sound.

Every file is replayed and checked by ``tests/rulesets/test_scenarios.py``; this module checks
what is particular to chess: the published set is complete and the output keeps to FORMAT.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shenshi.commands.simulate import simulate
from tests.rulesets.scenario_files import load, scenario_files

FILES = scenario_files("c32-")
RUNNABLE = [f for f in FILES if "malformed" not in load(f)]
FORMAT_KEYS = {
    "deaths", "saved", "executed", "vote_tally", "runoff_tally", "private_results",
    "public_facts", "winner", "x", "states", "daemon", "schedule", "lurk_warnings", "replaced",
    "last_words",
}  # fmt: skip
RULE_IDS = {
    "dead_actor", "pm_window", "joint_disagreement", "format_r1", "change_limit_r1",
    "last_hour_change_r1", "general_target", "invalid_platform", "mutual_overlap_later",
    "imprison_cycle", "no_swaps_left", "kill_post_short", "lurking", "not_eligible_r1",
    "not_eligible_runoff",
}  # fmt: skip


def test_the_published_chess_scenarios_are_all_here():
    assert len([f for f in FILES if f.parent.name == "shared"]) == 36
    assert len([f for f in FILES if f.parent.name == "own"]) >= 20


@pytest.mark.parametrize("path", RUNNABLE, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_output_keeps_to_the_format(path: Path):
    document = load(path)
    assert document["ruleset"] == "chess32" and document["expect"]
    output = simulate(document)
    assert set(document["expect"]) <= set(output)
    for label, result in output.items():
        assert set(result) <= FORMAT_KEYS, label
        assert {d["rule"] for d in result.get("daemon", [])} <= RULE_IDS, label
        assert simulate(document)[label] == result  # deterministic
