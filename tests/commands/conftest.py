"""A sandbox forum (phpwind) with the demo cast, and a game configuration pointing at it; an
offline game configuration (``cfg``) and the command line as the GM types it (``cli``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from shenshi.adapters.sandbox import SandboxForum, serve
from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.adapters.sandbox.seed import GM_PASSWORD, PLAYERS, seed_demo
from shenshi.cli import main
from tests.daemon.helpers import GAME6_10, START, UIDS

ROLES = [
    "seer",
    "killer",
    "commoner",
    "commoner",
    "killer",
    "blesser",
    "curser",
    "commoner",
    "binder",
    "commoner",
]
CHINESE = ["占卜者", "杀手", "庶民", "庶民", "杀手", "庇佑者", "诅咒者", "庶民", "束魂者", "庶民"]


def write_config(folder, base_url: str, vote_thread: int, *, engine: str = "phpwind",
                 roles=ROLES, extra: str = "", ruleset: str = "game6-10") -> None:  # fmt: skip
    players = "".join(
        f'[[player]]\nname = "{n}"\nrole = "{r}"\n\n' for n, r in zip(PLAYERS, roles, strict=True)
    )
    (folder / "players.toml").write_text(players, encoding="utf-8")
    start = (datetime.now(UTC) - timedelta(minutes=30)).replace(tzinfo=None).isoformat()
    (folder / "shenshi.toml").write_text(
        f"""
[forum]
engine = "{engine}"
base_url = "{base_url}"
username = "神的使者"
password_env = "SHENSHI_CHECK_TEST_PASSWORD"
min_interval = 0
timezone = "UTC"

[game]
name = "check"
ruleset = "{ruleset}"
board = 3
vote_thread = {vote_thread}
start = "{start}"
players_file = "players.toml"
{extra}

[daemon]
database = "sqlite:///g.sqlite3"
log = "dry.log"
""",
        encoding="utf-8",
    )


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A phpwind sandbox with the demo cast and a player-list thread; the GM's password set."""
    now = datetime.now(UTC).replace(microsecond=0)
    forum = SandboxForum("phpwind", ManualClock(now))
    seed_demo(forum)
    thread = forum.create_thread(
        "神的使者",
        3,
        "游戏者名单",
        "游戏者名单：" + "、".join(PLAYERS),
        at=now - timedelta(hours=1),
    )
    monkeypatch.setenv("SHENSHI_CHECK_TEST_PASSWORD", GM_PASSWORD)
    monkeypatch.chdir(tmp_path)
    with serve(forum) as base_url:
        yield forum, base_url, thread.tid, tmp_path


CONFIG = """
[forum]
engine = "discuz"
base_url = "http://127.0.0.1:9/"
username = "神的使者"
password_env = "SHENSHI_CLI_TEST_PASSWORD"

[game]
name = "cli game"
ruleset = "game6-10"
board = 3
vote_thread = 2
start = "{start}"
players_file = "players.toml"

[daemon]
database = "sqlite:///game.sqlite3"
log = "dry.log"
"""


@pytest.fixture
def cfg(tmp_path, monkeypatch):
    """A game6-10 game with roles, offline (the forum is a closed port), in ``tmp_path``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "shenshi.toml").write_text(CONFIG.format(start=START.replace(tzinfo=None).isoformat()), encoding="utf-8")
    players = "".join(f'[[player]]\nname = "{n}"\nuid = {UIDS[n]}\nrole = "{r}"\n\n' for n, r in GAME6_10)
    (tmp_path / "players.toml").write_text(players, encoding="utf-8")
    return tmp_path


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    """``shenshi ARGV…`` as the GM types it: the exit code, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
