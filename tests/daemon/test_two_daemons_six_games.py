"""Two daemon processes serving six games on one PostgreSQL: they split the games (three each),
each game is served by exactly one of them at a time (the per-game lease), nothing is sent
twice, and when one daemon is killed the other one takes every game over."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest

from shenshi.adapters.sandbox import SandboxForum, serve
from shenshi.adapters.sandbox.seed import GM_PASSWORD, seed_demo
from shenshi.demo.clockfile import FileClock
from shenshi.demo.runner import DaemonProcess
from shenshi.demo.tomlfile import dumps
from tests.daemon.helpers import START
from tests.daemon.test_run_command import PASSWORD_ENV

GAMES = 6
ROLES = ["seer", "killer", "commoner", "commoner", "killer", "blesser", "curser", "commoner",
         "binder", "commoner"]  # fmt: skip


def cast(game: int) -> list[str]:
    """The ten players of one game (nobody plays in two: every PM has one game)."""
    return [f"{'甲乙丙丁戊己'[game]}{n}号" for n in range(1, 11)]


def served_once(first: DaemonProcess, second: DaemonProcess) -> None:
    """Every game was polled by exactly one of the two daemons in their last rounds."""
    for name in first.games:
        polled = [d.games[name]["polled"] for d in (first, second) if d.games]
        assert polled.count(True) == 1, (name, first.games[name], second.games.get(name))


@pytest.mark.slow  # (make e2e-ci: CI plays it; make test stays short)
def test_two_daemons_split_six_games_and_one_takes_over(tmp_path, new_postgresql_db) -> None:
    database = new_postgresql_db()
    clock = FileClock(tmp_path / "clock.txt", START + timedelta(minutes=5))
    forum = SandboxForum("discuz", clock)
    seed_demo(forum)
    uids = {name: forum.add_user(name, "Player_pw1").uid for g in range(GAMES) for name in cast(g)}
    with serve(forum) as base_url:
        configs = []
        for g in range(GAMES):
            thread = forum.create_thread("神的使者", 3, f"第{g + 1}局 名单", "名单", at=START)
            raw = {
                "forum": {"engine": "discuz", "base_url": base_url, "username": "神的使者",
                          "password_env": PASSWORD_ENV, "min_interval": 0},
                "game": {"name": f"第{g + 1}局", "ruleset": "game6-10", "board": 3, "vote_thread": thread.tid,
                         "start": START.replace(tzinfo=None).isoformat(),
                         "players": [{"name": n, "uid": uids[n], "role": r} for n, r in zip(cast(g), ROLES, strict=True)]},
                "daemon": {"mode": "live", "database": database, "log": str(tmp_path / f"dry{g}.log")},
            }  # fmt: skip
            path = tmp_path / f"game{g}.toml"
            path.write_text(dumps(raw), encoding="utf-8")
            os.chmod(path, 0o600)
            configs.append(path)
        env = {PASSWORD_ENV: GM_PASSWORD}
        first = DaemonProcess(configs, tmp_path / "clock.txt", auto_approve=False, env=env,
                              stderr=tmp_path / "a.err")  # fmt: skip
        second = DaemonProcess(configs, tmp_path / "clock.txt", auto_approve=False, env=env,
                               stderr=tmp_path / "b.err")  # fmt: skip
        try:
            first.cycle()  # every night opens: the first daemon takes every game …
            second.cycle()
            assert len(first.games) == GAMES
            served_once(first, second)
            first.cycle()  # … sees the second one alive and gives it half of them …
            second.cycle()  # … which it takes
            served_once(first, second)
            assert sum(v["polled"] for v in first.games.values()) == GAMES // 2
            assert sum(v["polled"] for v in second.games.values()) == GAMES // 2
            for g in range(GAMES):  # each game's seer asks: a receipt each, from whoever serves it
                forum.send_pm(cast(g)[0], "神的使者", f"占卜 {cast(g)[2]}", at=clock())
            clock.advance(minutes=10)
            second.cycle()
            first.cycle()
            served_once(first, second)
            assert first.proc is not None
            first.proc.kill()  # SIGKILL: the second daemon takes its three games over
            first.proc.wait()
            survivor = second
            for g in range(GAMES):
                forum.send_pm(cast(g)[8], "神的使者", f"束魂 {cast(g)[3]}", at=clock())
            clock.advance(minutes=10)
            survivor.cycle()
            assert all(v["polled"] and not v["errors"] for v in survivor.games.values()), survivor.games
            survivor.cycle()
        finally:
            first.close()
            second.close()
        gm = forum.user("神的使者").uid
        sent = [(m.recipient_uid, m.text) for m in forum.messages.values() if m.sender_uid == gm]
        assert len(sent) == len(set(sent)) == 2 * GAMES  # two receipts a game, none twice
        assert {uid for uid, _ in sent} == {uids[cast(g)[i]] for g in range(GAMES) for i in (0, 8)}
