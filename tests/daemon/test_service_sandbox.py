"""The whole pipeline on the loopback sandbox forum: adapters, intake, core, store, outbox."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import replace
from datetime import timedelta

import pytest

from shenshi.adapters.sandbox import SandboxForum, serve
from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.adapters.sandbox.seed import GM_PASSWORD, PLAYERS, player_name, seed_demo
from shenshi.bootstrap import bootstrap
from shenshi.config import parse_config
from shenshi.daemon.cycle import Cycle
from shenshi.rulesets.base import Phase
from shenshi.store.outbox import AnnouncementState
from tests.daemon.helpers import START, announcements, open_vote_on_forum
from tests.databases import database_url

ROLES = dict(zip(PLAYERS, ["seer", "killer", "commoner", "commoner", "killer", "blesser",
                           "curser", "commoner", "binder", "commoner"], strict=True))  # fmt: skip
DECLARATION = "那一夜风雨交加，" + "杀手潜入了小明的房间，留下了一张黑色的纸条。" * 6


@pytest.fixture
def world(tmp_path, monkeypatch):
    with sandbox_game(tmp_path, monkeypatch) as found:
        yield found


def restarted(world, **game):  # type: ignore[no-untyped-def]
    """The world's daemon stopped and another started, logged in, on its game changed by
    ``game`` (threads the test made on the forum)."""
    clock, _, _, daemon = world
    config = replace(daemon.config, game=replace(daemon.config.game, **game))
    daemon.close()
    service = bootstrap(config, clock=clock, sleep=lambda s: clock.advance(seconds=s))
    service.adapter.login()
    service.start()
    return service


@contextmanager
def sandbox_game(  # type: ignore[no-untyped-def]
    tmp_path, monkeypatch, before: Callable[[SandboxForum], object] | None = None, engine: str = "discuz",
    mode: str = "live",
):
    """A game6-10 game on the sandbox forum of ``engine``, live mode (or ``mode``): ``(clock, forum, tid,
    service)``; the players' names as the engine stores them (phpwind: lower case); ``before``
    fills the board first (older games: smaller tids)."""
    clock = ManualClock(START - timedelta(hours=1))
    forum = SandboxForum(engine, clock)
    accounts = {name: uid for name, _, uid in seed_demo(forum)}
    if before is not None:
        before(forum)
    names = {n: player_name(n, engine) for n in PLAYERS}
    thread = forum.create_thread("神的使者", 3, "【游戏六】游戏者名单与投票帖", "游戏者名单：" + "、".join(names.values()), at=START)
    monkeypatch.setenv("SHENSHI_TEST_PASSWORD", GM_PASSWORD)
    with serve(forum) as base_url:
        raw = {
            "forum": {"engine": engine, "base_url": base_url, "username": "神的使者",
                      "password_env": "SHENSHI_TEST_PASSWORD", "min_interval": 0},
            "game": {"name": "sandbox game", "ruleset": "game6-10", "board": 3, "vote_thread": thread.tid,
                     "start": START.replace(tzinfo=None).isoformat(),
                     "players": [{"name": names[n], "uid": accounts[names[n]], "role": ROLES[n]} for n in PLAYERS]},
            "daemon": {"mode": mode, "database": database_url(tmp_path),
                       "log": str(tmp_path / "dry.log")},
        }  # fmt: skip
        config = parse_config(raw, tmp_path)
        service = bootstrap(config, clock=clock, sleep=lambda s: clock.advance(seconds=s))
        service.adapter.login()
        service.start()
        yield clock, forum, thread.tid, service
        service.close()


def test_a_night_and_a_day_over_real_http(world) -> None:
    clock, forum, tid, service = world
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    assert service.referee.state.phase is Phase.NIGHT
    forum.send_pm("阿杰", "神的使者", "杀 小明\n" + DECLARATION, at=clock())
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    forum.send_pm("夜行者", "神的使者", "诅咒 阿杰", at=clock())
    clock.advance(minutes=10)
    cycle.run()
    assert len(service.referee.state.submissions) == 3
    clock.set(START + timedelta(hours=24, minutes=1))
    cycle.run()
    sent = announcements(service, [AnnouncementState.SENT])
    dawn = [a for a in sent if a.key.endswith("night1:public")]
    assert dawn, [a.key for a in announcements(service)]
    posts = forum.visible_posts(tid)
    assert any("小明 被杀手杀害" in p.text for p in posts)
    # the day opened at the publication of the dawn post
    cycle.run()
    assert service.referee.state.phase is Phase.DAY
    clock.advance(hours=13)
    open_vote_on_forum(service, clock)  # ballots count from its opening post
    voters = [n for n in PLAYERS if n != "小明"]
    for n in voters:
        forum.post(n, tid, "投票：阿杰" if n != "阿杰" else "投票：老王", at=clock())
        clock.advance(minutes=1)
    cycle.run()  # early close: everyone has voted
    assert service.referee.state.phase in (Phase.DUSK, Phase.NIGHT)
    assert any("阿杰 被处决，身份：杀手" in p.text for p in forum.visible_posts(tid))
    assert not service.replay_differences()
    with service.store.snapshot() as uow:
        assert not next(p for p in uow.games.players(service.game_id) if p.name == "阿杰").alive


def test_players_own_threads_count_for_activity_but_not_for_votes(world) -> None:
    clock, forum, tid, service = world
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    own = forum.create_thread("Tom_2", 3, "Tom_2 的第一天分析", "我觉得阿杰很可疑。\n投票：阿杰", at=clock())
    forum.post("白色的猫", own.tid, "同意楼主的分析", at=clock())
    clock.advance(minutes=3)
    cycle.run()
    by_thread = [e for e in service.store.stream_evidence(service.game_id) if e.source == str(own.tid)]
    assert {e.author for e in by_thread} == {"Tom_2", "白色的猫"}
    ctx = service.referee.context(clock())
    assert ctx.threads.get(str(own.tid), ctx.other_threads) == "discussion"  # ballots there do not count
    report = service.poll()
    assert report.requests <= 2 and report.posts == 0  # a quiet poll: board listing + inbox
