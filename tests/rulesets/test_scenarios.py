"""Every scenario file passes through ``shenshi simulate``'s code path (FORMAT.md "Checking")."""

from __future__ import annotations

from pathlib import Path

import pytest

from shenshi.cli import main
from shenshi.commands.simulate import simulate
from shenshi.errors import UserError
from shenshi.rulesets.checking import mismatches
from shenshi.rulesets.registry import RULESETS
from tests.rulesets.scenario_files import load, scenario_files

REGISTERED = {r.name for r in RULESETS}
FILES = [p for p in scenario_files() if load(p)["ruleset"] in REGISTERED]


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario(path: Path) -> None:
    document = load(path)
    assert document["id"] == path.stem, "the id must equal the file name"
    if "malformed" in document:
        # FORMAT "Malformed files": the resolver refuses the file and prints no result.
        assert document["expect"] == {}
        with pytest.raises(UserError) as refused:
            simulate(document)
        assert "\n" not in str(refused.value)
        return
    output = simulate(document)
    problems = mismatches(document["expect"], output)
    assert not problems, "\n".join(problems)


def test_scenarios_cover_every_registered_ruleset() -> None:
    covered = {load(p)["ruleset"] for p in FILES}
    assert covered == REGISTERED


def test_checker_catches_a_wrong_answer() -> None:
    """The comparison itself can fail: a changed expectation is reported."""
    document = load(next(p for p in FILES if p.stem.startswith("g5-01")))
    output = simulate(document)
    wrong = {"night1": {"deaths": [{"name": "C2", "cause": "killer"}], "x": 3}}
    problems = mismatches(wrong, output)
    assert len(problems) == 2


def test_schedule_compares_only_the_asserted_labels() -> None:
    """FORMAT "Checking": each asserted schedule label equal; more labels may be printed."""
    printed = {"t": {"schedule": {"day1_end": "2024-03-02T20:00:00", "vote_open": "2024-03-02T08:00:00"}}}
    assert mismatches({"t": {"schedule": {"day1_end": "2024-03-02T20:00:00"}}}, printed) == []
    wrong = {"t": {"schedule": {"day1_end": "2024-03-02T21:00:00"}}}
    assert len(mismatches(wrong, printed)) == 1
    missing = {"t": {"schedule": {"night2_end": "2024-03-04T20:00:00"}}}
    assert len(mismatches(missing, printed)) == 1


MALFORMED = [p for p in FILES if "malformed" in load(p)]


def test_there_are_malformed_scenarios_of_every_family() -> None:
    assert {load(p)["ruleset"][:4] for p in MALFORMED} >= {"game", "ches", "were"}


@pytest.mark.parametrize("path", MALFORMED, ids=lambda p: p.stem)
def test_simulate_refuses_a_malformed_file_with_one_line(path: Path, capsys) -> None:
    """FORMAT "Malformed files": non-zero exit, a one-line reason, and no result printed."""
    code = main(["simulate", str(path)])
    out, err = capsys.readouterr()
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and err.startswith("shenshi 出错：")
