"""recheck2 W1: roles dealt after the game's first step had closed (werewolf night 0: 金箭,
托孤) said nothing; the cupid never had a chance. `deal` warns."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.commands.conftest import PLAYERS, cli


def _game(folder, start: datetime) -> None:
    (folder / "players.toml").write_text("".join(f'[[player]]\nname = "{n}"\n\n' for n in PLAYERS), encoding="utf-8")
    (folder / "shenshi.toml").write_text(f"""
[forum]
engine = "discuz"
base_url = "http://127.0.0.1:1/"
username = "神的使者"
password_env = "SHENSHI_CHECK_TEST_PASSWORD"
timezone = "UTC"

[game]
name = "late"
ruleset = "game6-10"
board = 3
vote_thread = 2
start = "{start.replace(tzinfo=None).isoformat()}"
players_file = "players.toml"

[daemon]
database = "sqlite:///g.sqlite3"
log = "dry.log"
""", encoding="utf-8")


def test_dealing_after_the_first_step_closed_warns(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    _game(tmp_path, datetime.now(UTC) - timedelta(days=3))
    code, out, _ = cli(capsys, "deal", "--seed", "x")
    assert code == 0 and "第一阶段已在" in out and "来不及用" in out, out


def test_dealing_in_time_says_nothing_of_it(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    _game(tmp_path, datetime.now(UTC) - timedelta(minutes=30))
    code, out, _ = cli(capsys, "deal", "--seed", "x")
    assert code == 0 and "第一阶段" not in out, out
