"""A sandbox forum (phpwind) with the demo cast, and a game configuration pointing at it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from shenshi.adapters.sandbox import SandboxForum, serve
from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.adapters.sandbox.seed import GM_PASSWORD, PLAYERS, seed_demo

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
