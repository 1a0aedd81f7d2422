"""A correction that does not replace what it corrects tells the GM which names and why: a
correction inside a post that is asked, conditional or after an edit note, and a bare change
right after a cannon's platform (issue 24)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shenshi.intake.batch import run_case

_CASES = [
    json.loads(line)
    for line in (Path(__file__).parent / "corpus" / "classes-i24c.jsonl").open(encoding="utf-8")
]
_POST = next(c for c in _CASES if c["source"] == "i24c/self-correction")
_CANNON = next(c for c in _CASES if c["source"] == "i24c/platform-change")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("投票：白菜。更正：投糖糖？", "带条件或是疑问"),
        ("投票：白菜，要是他明天不跳就改投糖糖", "带条件或是疑问"),
        ("投票：白菜（编辑：更正：投糖糖）", "编辑说明"),
        ("投票：白菜\n编辑：改投糖糖", "编辑说明"),
    ],
)
def test_a_correction_that_did_not_count_names_both_ballots_and_why(text: str, why: str) -> None:
    result = run_case({**_POST, "text": text})
    assert result.commands == ()
    [alert] = result.alerts
    assert alert.kind == "vote_conflict"
    assert "白菜" in alert.message and "糖糖" in alert.message and why in alert.message


@pytest.mark.parametrize(
    ("text", "before"),
    [("炮打樊哙，炮架子乌骓，换成周勃", "樊哙"), ("炮架子乌骓，改为周勃", "未写")],
)
def test_a_bare_change_after_a_platform_names_the_change_the_platform_and_the_target(
    text: str, before: str
) -> None:
    result = run_case({**_CANNON, "text": text})
    assert result.commands == ()
    [alert] = result.alerts
    assert alert.kind == "conditional_action"
    assert all(word in alert.message for word in ("周勃", "乌骓", before, "炮架子"))
    [receipt] = result.receipts
    assert "改打 周勃" in receipt.text and "炮架改成 周勃" in receipt.text
