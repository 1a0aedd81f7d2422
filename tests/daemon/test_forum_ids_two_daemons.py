"""Two daemon processes on one database (SQLite, and a real PostgreSQL): the first is killed
(SIGKILL) right after the forum stored its dawn post, whose pid equals the PM id of a receipt
it sent before; the second takes the game over, finds the post and never posts it again (issue
22: on PostgreSQL with two daemons, 5 of 17 such trials posted twice)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.adapters.sandbox.seed import GM_PASSWORD
from shenshi.demo.runner import DaemonProcess
from tests.daemon.helpers import START
from tests.daemon.test_forum_ids import next_ids_collide
from tests.daemon.test_run_command import PASSWORD_ENV
from tests.daemon.test_two_daemons import two_daemon_game

pytestmark = pytest.mark.slow  # two daemon processes per trial (`make e2e`)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'g.sqlite3'}"
    return request.getfixturevalue("new_postgresql_db")()


@pytest.mark.parametrize("crash", ["after_post", "after_pm"])
def test_the_second_daemon_does_not_repeat_what_the_first_sent_before_it_died(tmp_path, database, crash) -> None:
    """``after_post``: the receipt is PM 1001, the dawn post is stored as post 1001 and the
    first daemon dies. ``after_pm``: the posts of the dawn are 1001-1011, the refusal sent by
    day is stored as PM 1002 and the first daemon dies. Either way the second daemon sends it
    never again."""
    with two_daemon_game(tmp_path, database) as (clock, forum, thread, config):
        env = {PASSWORD_ENV: GM_PASSWORD}
        first = DaemonProcess(config, tmp_path / "clock.txt", auto_approve=False, env=env, stderr=tmp_path / "a.err")
        second = DaemonProcess(config, tmp_path / "clock.txt", auto_approve=False, env=env, stderr=tmp_path / "b.err")
        try:
            assert first.cycle().polled  # the night opens
            if crash == "after_post":
                forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
                next_ids_collide(forum)
                clock.advance(minutes=10)
                assert first.cycle().polled  # the receipt: PM 1001
                clock.set(START + timedelta(hours=24, minutes=1))
            else:
                next_ids_collide(forum)
                clock.set(START + timedelta(hours=24, minutes=1))
                assert first.cycle().polled  # the dawn: posts 1001-1011
                first.cycle()  # the day opens
                forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())  # refused by day: PM 1002
                clock.advance(minutes=10)
            first.crash_at(crash)
            first.cycle()  # killed once the forum has it (the runner restarts it: kill it for good)
            first.proc.kill()
            first.proc.wait()
            clock.advance(minutes=10)
            assert second.cycle().polled and second.held_by is None  # the second takes over
            second.cycle()
        finally:
            first.close()
            second.close()
        gm = forum.user("神的使者").uid
        posts = [p.text for p in forum.visible_posts(thread.tid) if p.author_uid == gm]
        pms = [m.text for m in forum.messages.values() if m.sender_uid == gm]
        assert len(posts) == len(set(posts)), posts
        assert len(pms) == len(set(pms)), pms
        assert any("【第1夜结果】" in p for p in posts)
