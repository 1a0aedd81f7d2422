"""One registry: every ruleset is found by its name or an alias, wherever a name is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from shenshi.config import ConfigError, parse_config
from shenshi.intake.batch import CaseError, build_context
from shenshi.rulesets.registry import RULESETS, find_ruleset

FORUM = {"engine": "discuz", "base_url": "http://127.0.0.1:9/", "username": "神的使者"}


def game_config(ruleset: str) -> dict:
    return {
        "forum": FORUM,
        "game": {
            "ruleset": ruleset, "board": 3, "vote_thread": 2, "start": "2026-12-01T20:00",
            "players": [{"name": "小明"}],
        },
    }  # fmt: skip


def test_find_ruleset_by_name_and_alias() -> None:
    assert find_ruleset("game6-13").name == "game6-13"
    assert find_ruleset("G5").name == "game5"
    assert find_ruleset(" 楚汉 ").name == "chess32"
    with pytest.raises(KeyError, match="known: game5"):
        find_ruleset("game7")


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_the_static_description_comes_with_the_ruleset(ruleset) -> None:
    assert ruleset.info.name == ruleset.name
    assert find_ruleset(ruleset.name) is ruleset
    for alias in ruleset.aliases:
        assert find_ruleset(alias) is ruleset


@pytest.mark.parametrize(("written", "name"), [("g6-10", "game6-10"), ("楚汉", "chess32"), ("WW", "werewolf")])
def test_the_configuration_takes_an_alias_and_keeps_the_name(written: str, name: str) -> None:
    config = parse_config(game_config(written), Path("."))
    assert config.game.ruleset == name


def test_an_unknown_ruleset_in_the_configuration_names_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r'\[game\] ruleset: 应为 "game5" 或 .*得到 "game7"'):
        parse_config(game_config("game7"), Path("."))


def test_the_batch_tool_takes_an_alias() -> None:
    case = {"ruleset": "g5", "players": ["小明"], "roles": {"小明": "seer"}, "dead": [], "from": "小明"}
    assert build_context(case).ruleset == "game5"
    with pytest.raises(CaseError, match="unknown ruleset 'game7'"):
        build_context({**case, "ruleset": "game7"})
