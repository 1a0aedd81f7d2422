"""What the GM reads: terminal layout (CJK counted as two cells, no name split across lines),
ids and ranges, the status text at any width, the rehearsal clock, the GM's words."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shenshi.commands._common import ids_of
from shenshi.commands._layout import atoms, cells, listing, table, wrap
from shenshi.daemon import gm_text
from shenshi.errors import UserError
from shenshi.rehearsal import RehearsalClock
from shenshi.rulesets.base import DaemonNote

NAMES = ["夜行者", "老王", "小明", "月光", "阿杰", "Lily99", "Tom_2", "白色的猫", "kk_大侠", "Rex",
         "一个名字很长很长的玩家"]  # fmt: skip


def test_cells_count_wide_characters_twice() -> None:
    assert (cells("Rex"), cells("老王"), cells("kk_大侠"), cells("Ｔｏｍ")) == (3, 4, 7, 6)


def test_atoms_keep_names_and_words_whole() -> None:
    assert atoms("老王投票：kk_大侠 ok", NAMES) == ["老王", "投", "票", "：", "kk_大侠 ", "ok"]


@pytest.mark.parametrize("width", [12, 20, 33, 41, 80])
def test_wrapped_and_listed_names_are_never_split(width: int) -> None:
    text = "、".join(NAMES) + "。" + "这是一段很长的说明文字，" * 4
    for lines in (wrap(text, width, NAMES), listing("存活（11）：", NAMES, width)):
        for line in lines:
            long_name = any(cells(n) > width - 8 for n in NAMES if n in line)
            assert cells(line) <= width or long_name, line
        joined = "\n".join(lines)
        for name in NAMES:
            assert name in joined  # each name whole on one line


@pytest.mark.parametrize("width", [40, 60, 100])
def test_a_table_fits_the_width_and_keeps_names_whole(width: int) -> None:
    rows = [(f"#{i}", "20:15", "带条件的投票", f"{NAMES[i]} 投票给 {NAMES[-1]}，理由写得很长很长很长很长")
            for i in range(len(NAMES))]  # fmt: skip
    lines = table(("编号", "时间", "类型", "内容"), rows, width, NAMES)
    assert all(cells(line) <= width for line in lines), [
        line for line in lines if cells(line) > width
    ]
    joined = "\n".join(lines)
    assert joined.count(NAMES[-1]) == sum(row[-1].count(NAMES[-1]) for row in rows)  # never cut


@pytest.mark.parametrize(
    ("given", "ids"),
    [
        (["3"], [3]),
        (["3", "5-9"], [3, 5, 6, 7, 8, 9]),
        (["#12", "5-6,7"], [12, 5, 6, 7]),
        (["4", "4-5"], [4, 5]),
    ],
)
def test_ids_and_ranges(given: list[str], ids: list[int]) -> None:
    assert ids_of(given) == ids


@pytest.mark.parametrize(
    ("given", "says"), [("9-5", "倒着的：请写 5-9"), ("x", "「x」不是编号"), ("1-9999", "最多 500")]
)
def test_bad_ids_are_refused(given: str, says: str) -> None:
    with pytest.raises(UserError, match=says):
        ids_of([given])


def test_the_rehearsal_clock_is_shared_through_its_file(tmp_path: Path) -> None:
    now = [1000.0]
    start = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
    path = tmp_path / "clock.json"
    sandbox = RehearsalClock.start(path, 60, at=start, real=lambda: now[0])
    daemon = RehearsalClock.open(path, real=lambda: now[0])
    now[0] += 10  # ten real seconds: ten forum minutes
    assert sandbox() == daemon() == start + timedelta(minutes=10)
    sandbox.advance(hours=5)  # the sandbox jumps: the other process follows
    assert daemon() == start + timedelta(hours=5, minutes=10)
    assert "60 倍速" in daemon.describe()
    with pytest.raises(UserError, match="no rehearsal clock"):
        RehearsalClock.open(tmp_path / "absent.json")
    with pytest.raises(UserError, match="positive"):
        RehearsalClock.start(path, 0)


def test_rule_decisions_and_refusals_are_in_the_gms_words() -> None:
    from shenshi.daemon.keys import GameKeys
    from shenshi.daemon.referee import _note_alert
    from shenshi.rulesets.registry import find_ruleset
    from shenshi.wording import Templates

    state = find_ruleset("game5").new_game([])  # only its phase and number are read
    note = DaemonNote("老王", "delegation_r1", "delegated", "kk_大侠")
    delegated = _note_alert(Templates(), GameKeys("g1"), state, note, 0, None).message
    assert delegated == "老王：委托投票，已计入（kk_大侠）"
    assert "delegation" not in delegated and "→" not in delegated
    assert gm_text.refusal("VoidAction is not allowed during the setup") == "开局前不能这样做"
    assert gm_text.refusal("老王 has no kill submission to void") == "老王 本阶段没有「杀」可以作废"
    assert gm_text.alert_name("rule:not_eligible_r1") == "今天不能投票"


def test_every_rule_id_the_rules_core_raises_has_words() -> None:
    """Each ``note(who, "rule", "verdict")`` in the rules core has Chinese words here."""
    import re

    core = Path(gm_text.__file__).parents[1] / "rulesets"
    found = set()
    for path in core.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= {
            m[0]
            for m in re.findall(r'note\(\s*[\w.]+,\s*f?"([a-z_]+)(\{\w+\})?",\s*"([a-z_]+)"', text)
        }
    assert found, "no rule ids found"
    missing = sorted(r for r in found if gm_text.rule_name(r) == r.removesuffix("_"))
    assert not missing, missing
