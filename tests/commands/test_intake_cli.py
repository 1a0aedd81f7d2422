"""``shenshi intake --batch``: JSON lines in, one JSON line out per case, errors per line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from shenshi.cli import main

BASE = {
    "ruleset": "game5",
    "players": ["小明", "阿杰", "Lily99", "夜行者", "月光"],
    "roles": {
        "Lily99": "killer",
        "夜行者": "killer",
        "月光": "seer",
        "小明": "commoner",
        "阿杰": "commoner",
    },
    "dead": [],
}


def _case(**kw) -> str:
    return json.dumps({**BASE, **kw}, ensure_ascii=False)


def _run(tmp_path: Path, lines: list[str], *extra: str, capsys) -> tuple[int, list[dict], str]:
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["intake", "--batch", str(path), *extra])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def test_batch_outputs_one_line_per_case(tmp_path: Path, capsys) -> None:
    lines = [
        _case(id=1, channel="post", **{"from": "小明"}, text="投票：Ｌｉｌｙ９９"),
        _case(id="pm-2", channel="pm", **{"from": "月光"}, text="占卜 夜行者"),
        _case(id=3, channel="pm", **{"from": "阿杰"}, text="GM 你好，请问几点截票？"),
        _case(id=4, channel="pm", **{"from": "Lily99"}, text="杀 阿杰\n杀人宣言：短"),
    ]
    code, out, err = _run(tmp_path, lines, capsys=capsys)
    assert code == 0 and err == ""
    assert out[0] == {
        "id": 1,
        "commands": [{"action": "vote", "target": "Lily99", "extra": {}}],
        "alerts": [],
    }
    assert out[1]["commands"] == [{"action": "divine", "target": "夜行者", "extra": {}}]
    assert (out[2]["commands"], [a["kind"] for a in out[2]["alerts"]]) == ([], ["not_a_command"])
    kill = out[3]["commands"][0]
    assert (kill["action"], kill["target"], kill["extra"]["declaration"], kill["extra"]["declaration_chars"]) == (
        "kill", "阿杰", "短", 1,
    )  # fmt: skip
    assert [a["kind"] for a in out[3]["alerts"]] == ["declaration_short"]


def test_malformed_lines_do_not_stop_the_others(tmp_path: Path, capsys) -> None:
    lines = [
        "{not json",
        _case(id=2, channel="pm", **{"from": "月光"}, text="占卜 阿杰"),
        json.dumps({"id": 3, "ruleset": "game5"}),
        _case(id=4, channel="fax", **{"from": "月光"}, text="占卜 阿杰"),
        _case(id=5, ruleset="game7", channel="pm", **{"from": "月光"}, text="占卜 阿杰"),
        _case(id=6, channel="pm", **{"from": "月光"}, text="占卜 阿杰", t="yesterday"),
    ]
    code, out, err = _run(tmp_path, lines, capsys=capsys)
    assert code == 1
    assert [o.get("id") for o in out] == [None, 2, 3, 4, 5, 6]
    assert out[0]["error"].startswith("line 1: not valid JSON")
    assert out[1]["commands"][0]["target"] == "阿杰"
    assert "missing key(s)" in out[2]["error"] and "line 3" in out[2]["error"]
    assert "channel" in out[3]["error"] and "unknown ruleset" in out[4]["error"]
    assert "not an ISO time" in out[5]["error"]
    assert len(err.splitlines()) == 5 and all(
        line.startswith("shenshi intake: line ") for line in err.splitlines()
    )


def test_nicknames_in_the_configuration_s_shape_are_read_and_bad_ones_reported(
    tmp_path: Path, capsys
) -> None:
    lines = [
        _case(id=1, channel="post", **{"from": "阿杰"}, text="投票：光光", nicknames={"月光": ["光光"]}),
        _case(id=2, channel="post", **{"from": "阿杰"}, text="投票：光光", nicknames={"光光": "月光"}),
        _case(id=3, channel="post", **{"from": "阿杰"}, text="投票：光光", nicknames={"月光": 7}),
        _case(id=4, channel="post", **{"from": "阿杰"}, text="投票：光光", nicknames={"光光": "老张"}),
    ]
    code, out, err = _run(tmp_path, lines, capsys=capsys)
    assert code == 1
    assert [c["target"] for c in out[0]["commands"]] == ["月光"] == [c["target"] for c in out[1]["commands"]]
    assert out[2]["error"].startswith("line 3: nicknames must be") and "{name: [nicknames]}" in out[2]["error"]
    assert "not a player: 老张" in out[3]["error"]
    assert len(err.splitlines()) == 2


def test_receipts_flag_adds_receipts(tmp_path: Path, capsys) -> None:
    code, out, _ = _run(
        tmp_path,
        [_case(id=1, channel="pm", **{"from": "月光"}, text="占卜 阿杰")],
        "--receipts",
        capsys=capsys,
    )
    assert code == 0
    assert out[0]["receipts"][0]["to"] == "月光" and out[0]["receipts"][0]["text"].startswith(
        "已收到"
    )


def test_stdin_and_missing_file(monkeypatch, capsys) -> None:
    monkeypatch.setattr(
        "sys.stdin",
        io.StringIO(_case(id=9, channel="post", **{"from": "阿杰"}, text="投 小明") + "\n"),
    )
    assert main(["intake", "--batch", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["commands"][0]["target"] == "小明"
    assert main(["intake", "--batch", "/nonexistent/cases.jsonl"]) == 2
    assert "no such cases file" in capsys.readouterr().err


@pytest.mark.parametrize("corpus", ["captured.jsonl", "written.jsonl"])
def test_cli_runs_the_corpus(corpus: str, tmp_path: Path, capsys) -> None:
    path = Path(__file__).parents[1] / "intake" / "corpus" / corpus
    code = main(["intake", "--batch", str(path), "-o", str(tmp_path / "out.jsonl")])
    assert code == 0
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    outs = [
        json.loads(line)
        for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert [o["id"] for o in outs] == [c["id"] for c in cases]
    for case, out in zip(cases, outs, strict=True):
        assert [a["kind"] for a in out["alerts"]] == case["expect"]["alerts"]
        assert [(c["action"], c["target"]) for c in out["commands"]] == [
            (c["action"], c["target"]) for c in case["expect"]["commands"]
        ]
