"""Looking for the PMs the GM sent a member the forum does not have (a substitute entered with
``--offline``, adversary4 A13) finds none: it is no forum outage (before: Discuz's "用户空间不存在"
failed the whole cycle, which backed off for hours)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shenshi.adapters.base import ForumSettings, make_adapter
from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve
from shenshi.adapters.sandbox.seed import GM_NAME, GM_PASSWORD


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_no_pm_was_sent_to_a_member_the_forum_does_not_have(engine: str) -> None:
    clock = ManualClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC))
    forum = SandboxForum(engine, clock=clock)
    seed_demo(forum)
    with serve(forum) as base_url:
        settings = ForumSettings(engine=engine, base_url=base_url, username=GM_NAME, password=GM_PASSWORD,
                                 min_interval=0)  # fmt: skip
        adapter = make_adapter(settings, clock=clock, sleep=lambda s: clock.advance(seconds=s))
        try:
            adapter.login()
            since = datetime(2026, 12, 1, tzinfo=UTC)
            assert adapter.find_sent_pms("替补丙", "你在《第1局》中的身份是", since) == []
            adapter.send_pm("小明", "已收到：今晚占卜 老王")
            assert len(adapter.find_sent_pms("小明", "已收到：今晚占卜 老王", since)) == 1
        finally:
            adapter.close()
