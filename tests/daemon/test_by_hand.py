"""PMs the GM sent by hand in dry-run are recognised as published, like his posts: from the
inbox where the engine lists both directions (Discuz!), from his outbox where it does not
(phpwind), on the loopback sandbox over real HTTP."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.adapters.sandbox import SandboxForum, serve
from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.adapters.sandbox.seed import GM_PASSWORD, PLAYERS, player_name, seed_demo
from shenshi.bootstrap import bootstrap
from shenshi.config import parse_config
from shenshi.daemon.cycle import Cycle
from shenshi.store.outbox import AnnouncementState
from tests.daemon.helpers import START, announcements
from tests.databases import database_url

ROLES = dict(zip(PLAYERS, ["seer", "killer", "commoner", "commoner", "killer", "blesser",
                           "curser", "commoner", "binder", "commoner"], strict=True))  # fmt: skip


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_a_pm_the_gm_sent_by_hand_is_recognised(tmp_path, monkeypatch, engine: str) -> None:
    clock = ManualClock(START - timedelta(hours=1))
    forum = SandboxForum(engine, clock)
    accounts = {name: uid for name, _, uid in seed_demo(forum)}
    names = {n: player_name(n, engine) for n in PLAYERS}
    thread = forum.create_thread(
        "神的使者", 3, "游戏者名单", "游戏者名单：" + "、".join(names.values()), at=START
    )
    monkeypatch.setenv("SHENSHI_TEST_PASSWORD", GM_PASSWORD)
    with serve(forum) as base_url:
        raw = {
            "forum": {"engine": engine, "base_url": base_url, "username": "神的使者",
                      "password_env": "SHENSHI_TEST_PASSWORD", "min_interval": 0},
            "game": {"name": "by hand", "ruleset": "game6-10", "board": 3, "vote_thread": thread.tid,
                     "start": START.replace(tzinfo=None).isoformat(),
                     "players": [{"name": names[n], "uid": accounts[names[n]], "role": ROLES[n]} for n in PLAYERS]},
            "daemon": {"database": database_url(tmp_path), "log": str(tmp_path / "dry.log")},
        }  # fmt: skip
        service = bootstrap(
            parse_config(raw, tmp_path), clock=clock, sleep=lambda s: clock.advance(seconds=s)
        )
        service.adapter.login()
        service.start()
        try:
            cycle = Cycle(service, clock)
            clock.set(START + timedelta(minutes=5))
            cycle.run()
            forum.send_pm(names["小明"], "神的使者", "占卜 老王", at=clock())
            clock.advance(minutes=10)
            cycle.run()  # the seer's PM read: a receipt is proposed (dry-run: nothing is sent)
            [receipt] = [a for a in announcements(service) if a.kind == "receipt"]
            assert receipt.state is AnnouncementState.PROPOSED and receipt.published_at is None
            clock.advance(minutes=3)
            forum.send_pm("神的使者", receipt.destination, receipt.text, at=clock())  # by hand
            sent_at = clock()
            clock.advance(minutes=20)
            cycle.run()
            [receipt] = [a for a in announcements(service) if a.kind == "receipt"]
            assert receipt.state is AnnouncementState.PUBLISHED and receipt.forum_id
            if engine == "discuz":  # read from the conversation: the time it was sent
                assert receipt.published_at in (sent_at, sent_at.replace(second=0))
        finally:
            service.close()
