"""A games folder holds game configurations, and the other TOML files beside them (the players
file the example names ``players.toml``, notes) are told apart: never "unknown section" for
every command (issue 22)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from shenshi.config import ConfigError
from shenshi.games import game_configs, toml_kind

GAME = """\
[forum]
engine = "discuz"
base_url = "http://bbs.example/"
username = "神的使者"

[game]
name = "{name}"
ruleset = "game5"
board = 3
vote_thread = {tid}
start = "2026-12-01T20:00"
players_file = "players.toml"
"""


@pytest.fixture
def games(tmp_path: Path) -> Path:
    (tmp_path / "players.toml").write_text('[[player]]\nname = "小明"\nuid = 3\n', encoding="utf-8")
    (tmp_path / "a.toml").write_text(GAME.format(name="第一局", tid=2), encoding="utf-8")
    (tmp_path / "b.toml").write_text(GAME.format(name="第二局", tid=4), encoding="utf-8")
    return tmp_path


def test_the_players_file_beside_the_games_is_left_alone(games: Path, caplog) -> None:
    caplog.set_level(logging.WARNING)
    assert [c.game.name for c in game_configs(folder=games)] == ["第一局", "第二局"]
    assert [c.game.players[0].name for c in game_configs(folder=games)] == ["小明", "小明"]
    assert not caplog.records  # a players file is no surprise: nothing to say
    assert toml_kind(games / "players.toml") == "players"


def test_another_toml_file_is_skipped_with_its_name(games: Path, caplog) -> None:
    caplog.set_level(logging.WARNING)
    (games / "notify.toml").write_text('[webhook]\nurl = "http://x/"\n', encoding="utf-8")
    assert len(game_configs(folder=games)) == 2
    assert [r.getMessage() for r in caplog.records] == [f"{games / 'notify.toml'}：不是游戏配置（没有 [forum] 或 [game] 表），跳过"]


def test_a_broken_game_configuration_names_its_file(games: Path) -> None:
    (games / "c.toml").write_text(GAME.format(name="第三局", tid='"x"'), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        game_configs(folder=games)
    assert str(caught.value).startswith(f"{games / 'c.toml'}: [game] vote_thread: ")
    (games / "c.toml").write_text("[game\nname = 1", encoding="utf-8")  # not TOML: meant as a game, named
    with pytest.raises(ConfigError, match="c.toml: 不是有效的 TOML"):
        game_configs(folder=games)


def test_a_folder_of_players_files_only_has_no_game(tmp_path: Path) -> None:
    (tmp_path / "players.toml").write_text('[[player]]\nname = "小明"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="里面没有 \\*.toml 游戏配置"):
        game_configs(folder=tmp_path)


def test_a_players_file_named_as_the_configuration_names_itself(games: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        game_configs([games / "players.toml"])
    assert str(caught.value).startswith(f"{games / 'players.toml'}: ") and "[player]" in str(caught.value)
