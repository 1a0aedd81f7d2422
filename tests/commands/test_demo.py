"""``shenshi demo``: a whole scripted game, its summary, and its files."""

from __future__ import annotations

import pytest

from shenshi.cli import main


@pytest.mark.e2e
def test_the_demo_plays_a_game_and_says_where_its_files_are(tmp_path, capsys) -> None:
    out_dir = tmp_path / "out"
    assert (
        main(
            [
                "demo",
                "--ruleset",
                "game6-8",
                "--engine",
                "phpwind",
                "--seed",
                "3",
                "--output",
                str(out_dir),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "【第1夜结果】" in out and "winner: civilians" in out
    assert f"dry-run log: {out_dir.resolve() / 'shenshi-dryrun.log'}" in out
    assert "the outcome is the one the script's intended actions give" in out
    assert (out_dir / "shenshi.sqlite3").exists()
    # a second demo in the same place starts a new game
    assert (
        main(
            [
                "demo",
                "--ruleset",
                "game6-8",
                "--engine",
                "phpwind",
                "--seed",
                "4",
                "--output",
                str(out_dir),
            ]
        )
        == 0
    )


def test_an_unknown_ruleset_is_a_user_error(capsys) -> None:
    assert main(["demo", "--ruleset", "game7"]) == 2
    assert "no demo for ruleset 'game7'" in capsys.readouterr().err
