"""Many games from one folder: ``shenshi run --games DIR`` serves them all, ``shenshi games``
lists them, and every other command picks one with ``--game NAME`` (or refuses, listing them)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from shenshi.adapters.sandbox.seed import PLAYERS
from shenshi.cli import main
from tests.commands.conftest import write_config


@pytest.fixture
def two_games(sandbox):
    """Two game6-10 games of the same GM on the same board: two vote threads, one database."""
    forum, base_url, tid, folder = sandbox
    second = forum.create_thread("神的使者", 3, "第二局 游戏者名单", "名单：" + "、".join(PLAYERS),
                                 at=forum.clock() - timedelta(minutes=50))  # fmt: skip
    write_config(folder, base_url, tid)
    text = (folder / "shenshi.toml").read_text(encoding="utf-8")
    games = folder / "games"
    games.mkdir()
    (games / "first.toml").write_text(text.replace('name = "check"', 'name = "第一局"')
                                      .replace('"players.toml"', '"../players.toml"')
                                      .replace("sqlite:///g.sqlite3", "sqlite:///../g.sqlite3")
                                      .replace('"dry.log"', '"first.log"'), encoding="utf-8")  # fmt: skip
    (games / "second.toml").write_text(text.replace('name = "check"', 'name = "第二局"')
                                       .replace(f"vote_thread = {tid}", f"vote_thread = {second.tid}")
                                       .replace('"players.toml"', '"../players.toml"')
                                       .replace("sqlite:///g.sqlite3", "sqlite:///../g.sqlite3")
                                       .replace('"dry.log"', '"second.log"'), encoding="utf-8")  # fmt: skip
    (folder / "shenshi.toml").unlink()
    return forum, folder, games


def test_one_daemon_serves_every_game_and_the_commands_pick_one(two_games, capsys) -> None:
    forum, folder, games = two_games
    assert main(["games", "--games", str(games)]) == 0
    out, _ = capsys.readouterr()
    assert "第一局" in out and "第二局" in out and "尚未开始" in out

    code = main(["run", "--once", "--games", str(games)])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert out.count("日志：") == 2  # one line per game
    assert (games / "first.log").exists() and (games / "second.log").exists()  # each its own log

    assert main(["games", "--games", str(games)]) == 0
    out, _ = capsys.readouterr()
    assert out.count("第1夜") >= 2 and "尚未开始" not in out  # each game's step and deadline

    assert main(["status", "--games", str(games)]) == 2  # which one?
    _, err = capsys.readouterr()
    assert "--game 局名" in err and "第一局" in err and "第二局" in err
    assert main(["status", "--games", str(games), "--game", "second"]) == 0  # by its file's name
    out, _ = capsys.readouterr()
    assert "《第二局》" in out
    assert main(["status", "--games", str(games), "--game", "第三局"]) == 2
    _, err = capsys.readouterr()
    assert "没有叫这个名字的游戏" in err

    assert main(["status", "--json", "--games", str(games)]) == 0  # every game, a health check
    out, _ = capsys.readouterr()
    assert sorted(s["game"] for s in json.loads(out)) == ["第一局", "第二局"]


def test_two_games_of_one_name_in_one_database_are_refused(two_games, capsys) -> None:
    forum, folder, games = two_games
    second = games / "second.toml"
    second.write_text(second.read_text(encoding="utf-8").replace("第二局", "第一局"), encoding="utf-8")
    assert main(["run", "--once", "--games", str(games)]) == 2
    _, err = capsys.readouterr()
    assert "第一局" in err and "同一个数据库" in err
