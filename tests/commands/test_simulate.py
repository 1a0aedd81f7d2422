"""``shenshi simulate``: prints the result JSON; a file it cannot run exits 2 with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shenshi.cli import main
from tests.rulesets.scenario_files import load, scenario_files

G5_01 = next(p for p in scenario_files("g5-01"))


def run(capsys, path: Path) -> tuple[int, str, str]:
    code = main(["simulate", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_prints_every_step(capsys) -> None:
    code, out, err = run(capsys, G5_01)
    assert code == 0 and err == ""
    result = json.loads(out)
    assert set(result) == {"night1", "day1"}
    assert result["day1"]["executed"] == "K2"
    assert result["night1"]["private_results"] == [{"to": "S", "text_kind": "divination", "value": "是"}]


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda d: d.update(ruleset="game7"), "unknown ruleset 'game7'"),
        (lambda d: d["players"][0].update(role="wizard"), "unknown role 'wizard'"),
        (lambda d: d["steps"][0].update(phase="dusk"), "step 1: 'phase' must be one of"),
        (lambda d: d["steps"][0].pop("n"), "step 1: a night step needs an integer 'n'"),
        (lambda d: d["steps"][0]["actions"][0].update(action="fly"), "unknown action 'fly'"),
        (lambda d: d["steps"][0]["actions"][0].update(actor="Zed"), "'Zed' is not a player"),
        (lambda d: d["steps"][1]["votes"][0].update(extra={"t": "yesterday"}), "not an ISO time"),
        (lambda d: d.pop("steps"), "missing top-level key 'steps'"),
    ],
)
def test_invalid_input_exits_non_zero_with_one_line(capsys, tmp_path, change, reason) -> None:
    document = load(G5_01)
    change(document)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code, out, err = run(capsys, path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and reason in err


def test_unreadable_and_non_json_files(capsys, tmp_path) -> None:
    code, _, err = run(capsys, tmp_path / "missing.json")
    assert code == 2 and "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, _, err = run(capsys, bad)
    assert code == 2 and "not valid JSON" in err
