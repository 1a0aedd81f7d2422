"""Two daemon processes on one database (SQLite, and a real PostgreSQL): one runs the game, the
other leaves it alone and says who holds it; when the first is killed, the second takes over,
and nothing is sent twice."""

from __future__ import annotations

import os
from contextlib import contextmanager
from datetime import timedelta

import pytest

from shenshi.adapters.sandbox import SandboxForum, serve
from shenshi.adapters.sandbox.seed import GM_PASSWORD, seed_demo
from shenshi.demo.clockfile import FileClock
from shenshi.demo.runner import DaemonProcess
from shenshi.demo.tomlfile import dumps
from tests.daemon.helpers import START
from tests.daemon.test_run_command import PASSWORD_ENV
from tests.daemon.test_service_sandbox import ROLES

pytestmark = pytest.mark.slow  # (make e2e-ci: CI plays it; make test stays short)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'g.sqlite3'}"
    return request.getfixturevalue("new_postgresql_db")()


@contextmanager
def two_daemon_game(tmp_path, database: str):  # type: ignore[no-untyped-def]
    """A game6-10 game on a sandbox Discuz served on loopback, its configuration written for the
    daemon processes (live mode): ``(clock, forum, thread, config)``."""
    clock = FileClock(tmp_path / "clock.txt", START + timedelta(minutes=5))
    forum = SandboxForum("discuz", clock)
    accounts = {name: uid for name, _, uid in seed_demo(forum)}
    thread = forum.create_thread("神的使者", 3, "【游戏六】游戏者名单与投票帖", "名单", at=START)
    with serve(forum) as base_url:
        raw = {
            "forum": {"engine": "discuz", "base_url": base_url, "username": "神的使者",
                      "password_env": PASSWORD_ENV, "min_interval": 0},
            "game": {"name": "two daemons", "ruleset": "game6-10", "board": 3, "vote_thread": thread.tid,
                     "start": START.replace(tzinfo=None).isoformat(),
                     "players": [{"name": n, "uid": accounts[n], "role": r} for n, r in ROLES.items()]},
            "daemon": {"mode": "live", "database": database, "log": str(tmp_path / "dry.log")},
        }  # fmt: skip
        config = tmp_path / "shenshi.toml"
        config.write_text(dumps(raw), encoding="utf-8")
        os.chmod(config, 0o600)
        yield clock, forum, thread, config


def test_one_daemon_runs_the_game_the_other_leaves_it_alone(tmp_path, database) -> None:
    with two_daemon_game(tmp_path, database) as (clock, forum, thread, config):
        env = {PASSWORD_ENV: GM_PASSWORD}
        first = DaemonProcess(
            config, tmp_path / "clock.txt", auto_approve=False, env=env, stderr=tmp_path / "a.err"
        )
        second = DaemonProcess(
            config, tmp_path / "clock.txt", auto_approve=False, env=env, stderr=tmp_path / "b.err"
        )
        try:
            assert first.cycle().polled and first.held_by is None  # the night opens
            assert not second.cycle().polled
            assert second.held_by and f":{first.proc.pid}:" in second.held_by  # who holds it
            forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
            forum.send_pm("月光", "神的使者", "束魂 Tom_2", at=clock())
            clock.advance(minutes=10)
            assert not second.cycle().polled
            assert first.cycle().polled  # the receipts go out, once
            first.proc.kill()  # SIGKILL: the first daemon is gone …
            first.proc.wait()
            forum.send_pm("阿杰", "神的使者", "杀 小明\n" + "月黑风高夜，" * 30, at=clock())
            clock.advance(minutes=10)
            assert second.cycle().polled and second.held_by is None  # … the second takes over
            second.cycle()
        finally:
            first.close()
            second.close()
        gm = forum.user("神的使者").uid
        sent = [m.text for m in forum.messages.values() if m.sender_uid == gm]
        assert len(sent) == len(set(sent)) == 3  # three receipts, none twice
