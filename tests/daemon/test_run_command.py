"""``shenshi run`` as a process: it starts with the forum down (``--once``: one line), and
Ctrl-C or SIGTERM stop it at once, after the current write, saying so, with exit status 0."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from shenshi.adapters.sandbox import SandboxForum, serve
from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.adapters.sandbox.seed import GM_PASSWORD, PLAYERS, seed_demo
from shenshi.daemon.stopping import Stopped, StopSignal
from shenshi.demo import tomlfile
from shenshi.store import open_store
from tests.daemon.helpers import START
from tests.daemon.test_service_sandbox import ROLES
from tests.databases import database_url

PASSWORD_ENV = "SHENSHI_TEST_PASSWORD"


def _config(tmp_path: Path, base_url: str, tid: int = 1, accounts: dict | None = None) -> Path:
    raw = {
        "forum": {"engine": "discuz", "base_url": base_url, "username": "神的使者",
                  "password_env": PASSWORD_ENV, "min_interval": 0, "retries": 1, "timeout": 2},
        "game": {"name": "run game", "ruleset": "game6-10", "board": 3, "vote_thread": tid,
                 "start": START.replace(tzinfo=None).isoformat(),
                 "players": [{"name": n, "uid": (accounts or {}).get(n, str(i + 3)), "role": ROLES[n]}
                             for i, n in enumerate(PLAYERS)]},
        "daemon": {"mode": "dry-run", "database": database_url(tmp_path, "g.sqlite3"),
                   "log": str(tmp_path / "dry.log"), "poll_interval": 5},
    }  # fmt: skip
    path = tmp_path / "shenshi.toml"
    path.write_text(tomlfile.dumps(raw), encoding="utf-8")
    os.chmod(path, 0o600)
    return path


def _closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}/"


def _shenshi(*args: str) -> list[str]:
    return [sys.executable, "-m", "shenshi", *args]


def _env() -> dict[str, str]:
    return {**os.environ, PASSWORD_ENV: GM_PASSWORD, "PYTHONUNBUFFERED": "1"}


def test_run_once_with_the_forum_down_says_so_in_one_line(tmp_path) -> None:
    config = _config(tmp_path, _closed_port())
    done = subprocess.run(_shenshi("run", "--once", "--config", str(config)), capture_output=True,
                          text=True, env=_env(), timeout=120)  # fmt: skip
    assert done.returncode == 2 and not done.stdout
    lines = [line for line in done.stderr.splitlines() if "WARNING" not in line]  # the libraries' logs
    assert lines == [lines[0]] and lines[0].startswith("shenshi 出错：[forum] base_url: 连接被拒绝")
    assert "Traceback" not in done.stdout + done.stderr


def _until(proc: subprocess.Popen, path: Path, needle: str, limit: float = 60) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if path.exists() and needle in path.read_text(encoding="utf-8"):
            return
        if proc.poll() is not None:
            raise AssertionError(f"the daemon exited: {proc.communicate()}")
        time.sleep(0.1)
    raise AssertionError(f"{needle!r} never appeared in {path}")


def test_run_with_the_forum_down_starts_alerts_and_keeps_trying(tmp_path) -> None:
    config = _config(tmp_path, _closed_port())
    proc = subprocess.Popen(_shenshi("run", "--config", str(config)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env())  # fmt: skip
    try:
        _until(proc, tmp_path / "dry.log", "论坛无法访问")
        assert proc.poll() is None  # still running, backing off
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "已停止（SIGTERM）" in out and "Traceback" not in err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_daemon_at_once_saying_so(tmp_path, monkeypatch, signum) -> None:
    clock = ManualClock(START + timedelta(minutes=5))
    forum = SandboxForum("discuz", clock)
    accounts = {name: uid for name, _, uid in seed_demo(forum)}
    thread = forum.create_thread("神的使者", 3, "【游戏六】游戏者名单与投票帖", "名单", at=START)
    with serve(forum) as base_url:
        config = _config(tmp_path, base_url, thread.tid, accounts)
        proc = subprocess.Popen(_shenshi("run", "--config", str(config)), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=_env())  # fmt: skip
        first = ""
        try:
            first = proc.stdout.readline()
        finally:
            began = time.monotonic()
            proc.send_signal(signum)
            out, err = proc.communicate(timeout=30)
        assert first.startswith("shenshi：《run game》演练"), (first, out, err)  # (stopped first: never hangs)
        assert time.monotonic() - began < 10  # at once: not after the 5 s poll interval
    assert proc.returncode == 0, err
    assert f"已停止（{signal.Signals(signum).name}）" in out and "Traceback" not in err
    with open_store(database_url(tmp_path, "g.sqlite3")) as store, store.snapshot() as uow:
        game = uow.games.find("run game")
        assert uow.leases.holder(game.id) is None  # given up: another daemon may start at once


def test_a_signal_inside_a_write_waits_for_the_write_to_end(tmp_path) -> None:
    store = open_store(database_url(tmp_path, "g.sqlite3"))
    with StopSignal(store) as stop:
        with pytest.raises(Stopped, match="SIGTERM"), store.transaction() as uow:
            game = uow.games.create("g", "game5")
            stop._handle(signal.SIGTERM, None)  # as the signal arrives mid-write
            uow.games.add_player(game.id, 0, "甲", "killer", "killers")  # … the write goes on
        with pytest.raises(Stopped, match="SIGINT"):
            stop.requested = None
            stop._handle(signal.SIGINT, None)  # outside a write: at once
    with store.snapshot() as uow:
        assert [p.name for p in uow.games.players(uow.games.find("g").id)] == ["甲"]
    store.close()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_a_daemon_serving_many_games_cleanly(tmp_path, signum) -> None:
    clock = ManualClock(START + timedelta(minutes=5))
    forum = SandboxForum("discuz", clock)
    accounts = {name: uid for name, _, uid in seed_demo(forum)}
    paths = []
    for n in range(4):
        thread = forum.create_thread("神的使者", 3, f"第{n + 1}局 名单", "名单", at=START)
        folder = tmp_path / f"game{n}"
        folder.mkdir()
        path = _config(folder, base_url="", tid=thread.tid, accounts=accounts)
        paths.append(path)
    with serve(forum) as base_url:
        args = ["run"]
        for n, path in enumerate(paths):  # one database: four games in it, each its own log
            text = path.read_text(encoding="utf-8").replace('base_url = ""', f'base_url = "{base_url}"')
            text = text.replace('name = "run game"', f'name = "第{n + 1}局"')
            path.write_text(text.replace(database_url(path.parent, "g.sqlite3"), database_url(tmp_path, "g.sqlite3")),
                            encoding="utf-8")  # fmt: skip
            args += ["--config", str(path)]
        proc = subprocess.Popen(_shenshi(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=_env())  # fmt: skip
        lines: list[str] = []
        try:
            lines = [proc.stdout.readline() for _ in range(5)]
        finally:
            proc.send_signal(signum)
            out, err = proc.communicate(timeout=30)
        assert lines[-1].startswith("shenshi：共 4 局"), (lines, out, err)  # (stopped first: never hangs)
    assert proc.returncode == 0, err
    assert f"已停止（{signal.Signals(signum).name}）" in out and "Traceback" not in err
    with open_store(database_url(tmp_path, "g.sqlite3")) as store, store.snapshot() as uow:
        for n in range(4):
            game = uow.games.find(f"第{n + 1}局")
            assert game is not None and uow.leases.holder(game.id) is None  # every lease given up
