"""The options every command takes (``--config``, ``--games``, ``--game``) before the command's
name as after it (newcomer N-12: ``shenshi --config rehearsal/shenshi.toml status`` was
refused as an unknown command); given on both sides, the one after the name wins."""

from __future__ import annotations

import pytest

import shenshi.console.server
from tests.commands.conftest import cli


@pytest.fixture
def elsewhere(cfg, monkeypatch):
    """The game of ``cfg`` seen from another folder (no ./shenshi.toml to fall back on)."""
    away = cfg / "elsewhere"
    away.mkdir()
    monkeypatch.chdir(away)
    return cfg / "shenshi.toml"


@pytest.fixture
def games(cfg, monkeypatch):
    """A folder of two games (第一局 first.toml, 第二局 second.toml), seen from elsewhere."""
    text = (cfg / "shenshi.toml").read_text(encoding="utf-8")
    folder = cfg / "games"
    folder.mkdir()
    for stem, name in (("first", "第一局"), ("second", "第二局")):
        (folder / f"{stem}.toml").write_text(
            text.replace('name = "cli game"', f'name = "{name}"').replace('"players.toml"', '"../players.toml"')
            .replace("sqlite:///game.sqlite3", "sqlite:///../game.sqlite3").replace('"dry.log"', f'"{stem}.log"'),
            encoding="utf-8",
        )  # fmt: skip
    (cfg / "shenshi.toml").unlink()
    monkeypatch.chdir(folder)
    return folder


@pytest.mark.parametrize("before", [True, False])
def test_config_before_or_after_the_command(capsys, elsewhere, before) -> None:
    argv = ["--config", str(elsewhere), "status"] if before else ["status", "--config", str(elsewhere)]
    code, out, err = cli(capsys, *argv)
    assert code == 0, err
    assert "《cli game》" in out


def test_the_config_after_the_command_wins(capsys, elsewhere) -> None:
    absent = str(elsewhere.parent / "absent.toml")
    code, out, err = cli(capsys, "--config", absent, "status", "--config", str(elsewhere))
    assert code == 0 and "《cli game》" in out, err
    code, out, err = cli(capsys, "--config", str(elsewhere), "status", "--config", absent)
    assert code == 2 and "absent.toml" in err and "《cli game》" not in out


def test_games_and_game_before_the_command(capsys, games) -> None:
    code, out, err = cli(capsys, "--games", str(games), "--game", "second", "status")
    assert code == 0 and "《第二局》" in out, err
    code, out, err = cli(capsys, "--games", str(games), "status", "--game", "第一局")  # one each side
    assert code == 0 and "《第一局》" in out, err
    code, out, err = cli(capsys, "--game", "second", "--games", str(games), "status", "--game", "first")
    assert code == 0 and "《第一局》" in out, err  # the one after the name
    code, out, err = cli(capsys, "--games", str(games), "status")
    assert code == 2 and "--game 局名" in err  # which one? as after the name
    code, out, err = cli(capsys, "--games", str(games), "--game", "second", "review")
    assert code == 0, err


def test_the_console_takes_them_too(capsys, games, monkeypatch) -> None:
    """``shenshi console`` serves the games the options name (it opened ./shenshi.toml,
    whatever ``--config`` said)."""
    served: list[list[str]] = []

    def prepare(services, host, port):  # type: ignore[no-untyped-def]
        served.append([s.config.game.name for s in services])
        raise OSError(98, "taken")  # (stops there: nothing is served)

    monkeypatch.setattr(shenshi.console.server, "prepare", prepare)
    cli(capsys, "--games", str(games), "console", "--port", "0")
    cli(capsys, "--games", str(games), "--game", "second", "console", "--port", "0")
    cli(capsys, "console", "--config", str(games / "second.toml"), "--port", "0")
    assert served == [["第一局", "第二局"], ["第二局"], ["第二局"]]


def test_the_help_says_so(capsys) -> None:
    with pytest.raises(SystemExit):
        cli(capsys, "--help")
    out = capsys.readouterr().out
    assert "shenshi --config 文件 status" in out and "以命令名之后的为准" in out
