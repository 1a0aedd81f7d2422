"""Name resolution: exact, folded (case, full-width, traditional), nicknames, ambiguity."""

from __future__ import annotations

import pytest

from shenshi.intake.names import NameIndex
from shenshi.intake.text import Folded

PLAYERS = ["小明", "阿杰", "Tom_2", "白色的猫", "Lily99", "kk_大侠", "Mia", "mia", "小明明"]
INDEX = NameIndex(PLAYERS, {"猫猫": "白色的猫", "杰哥": "阿杰"})


@pytest.mark.parametrize(
    ("written", "player"),
    [
        ("小明", "小明"),
        ("tom_2", "Tom_2"),
        ("TOM_2", "Tom_2"),
        ("Ｌｉｌｙ９９", "Lily99"),
        ("白色的貓", "白色的猫"),
        ("猫猫", "白色的猫"),
        ("杰哥", "阿杰"),
        ("KK_大俠", "kk_大侠"),
        ("小明明", "小明明"),
        ("Mia", "Mia"),
        ("mia", "mia"),
    ],
)
def test_resolves(written: str, player: str) -> None:
    match = INDEX.resolve(written)
    assert match is not None and match.player == player


@pytest.mark.parametrize("written", ["MIA", "ｍｉａ"])
def test_case_folded_collision_is_ambiguous(written: str) -> None:
    match = INDEX.resolve(written)
    assert match is not None and match.player is None
    assert set(match.ambiguous) == {"Mia", "mia"}


def test_ascii_names_need_a_word_boundary() -> None:
    assert INDEX.match_at(Folded.of("tom_23"), 0) is None
    assert INDEX.match_at(Folded.of("Tom_2，理由"), 0).player == "Tom_2"


def test_longest_name_wins() -> None:
    assert INDEX.match_at(Folded.of("小明明今天"), 0).player == "小明明"


def test_unknown_names_get_suggestions_only() -> None:
    assert INDEX.resolve("小鸣") is None
    assert "白色的猫" in INDEX.suggest("白色的狗")
    assert INDEX.suggest("完全无关的字") == ()


def test_find_all_reads_every_name() -> None:
    found = INDEX.find_all(Folded.of("剩下的杀手在 小明、Tom_2、白色的猫 里面"))
    assert [m.player for _, m in found] == ["小明", "Tom_2", "白色的猫"]
