"""``shenshi demo``: a whole scripted game, its summary, and its files."""

from __future__ import annotations

import json

import pytest

from shenshi.cli import main


def demo(out_dir, seed: int) -> int:
    args = ["demo", "--ruleset", "game6-8", "--engine", "phpwind", "--seed", str(seed)]
    return main([*args, "--output", str(out_dir)])


@pytest.mark.e2e
@pytest.mark.slow  # (make e2e-ci: CI plays it; make test stays short)
def test_the_demo_plays_a_game_and_says_where_its_files_are(tmp_path, capsys) -> None:
    out_dir = tmp_path / "out"
    assert demo(out_dir, 3) == 0
    out = capsys.readouterr().out
    assert "【第1夜结果】" in out and "winner: civilians" in out
    assert f"dry-run log: {out_dir.resolve() / 'shenshi-dryrun.log'}" in out
    assert "the outcome is the one the script's intended actions give" in out
    assert (out_dir / "shenshi.sqlite3").exists()
    # ``shenshi status`` as the summary says: on the game's clock, stopped at its end
    assert main(["status", "--json", "--config", str(out_dir / "shenshi.toml")]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["winner"] and status["health"]["ok"]
    assert status["now"] >= status["health"]["last_poll"]
    assert demo(out_dir, 4) == 0  # a second demo in the same place starts a new game


def test_an_unknown_ruleset_is_a_user_error(capsys) -> None:
    assert main(["demo", "--ruleset", "game7"]) == 2
    assert "规则 game7 没有演示" in capsys.readouterr().err
