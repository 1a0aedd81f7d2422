"""A generic forum client that works on the real forums works on the sandbox.

``tests/forumctl.py`` is the client that played the players on the real Discuz X3.5 and phpwind
8.7 (browser-like: the login form, the new-thread page's ``form#postform``, the full PM page's
``form#pmform_0``, phpwind's compose page and ajax answers). Played against the sandbox, every
action must succeed and land where the real forum puts it.
"""

from __future__ import annotations

import pytest
from sandbox_helpers import START

from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve
from shenshi.adapters.sandbox.seed import GM_NAME
from tests.forumctl import Discuz, Phpwind, Web

CASES = [("discuz", "utf-8"), ("phpwind", "utf-8"), ("phpwind", "gbk")]


@pytest.mark.parametrize(("engine", "charset"), CASES, ids=["discuz", "phpwind", "phpwind-gbk"])
def test_the_real_forums_client_plays_a_player_on_the_sandbox(engine: str, charset: str) -> None:
    clock = ManualClock(START)
    forum = SandboxForum(engine, clock=clock, charset=charset)
    seed_demo(forum)
    vote = forum.create_thread(GM_NAME, 3, "【游戏】投票帖", "请投票")
    with serve(forum) as base_url:
        web = Web(base_url)
        player = Discuz(web) if engine == "discuz" else Phpwind(web)
        player.login("小明", "Player_pw1")
        assert player.uid == 3
        made = player.new_thread(3, "小明的分析", "我觉得老王很可疑，理由如下。")
        clock.advance(seconds=30)  # the sandbox's flood control runs on its clock
        reply = player.reply(vote.tid, "投票：老王 (>_<) & <装>")
        clock.advance(seconds=30)
        player.send_pm(GM_NAME, "占卜 夜行者")
        clock.advance(seconds=90)
        player.edit(vote.tid, reply["pid"], "投票：阿杰")
        inbox = player.list_inbox()
    new = forum.thread(made["tid"])
    assert (new.subject, forum.posts[new.pids[0]].text) == ("小明的分析", "我觉得老王很可疑，理由如下。")
    post = forum.posts[reply["pid"]]
    assert post.tid == vote.tid and post.text.endswith("投票：阿杰") and post.edited_by == 3
    assert [m.text for m in forum.messages.values() if m.sender_uid == 3] == ["占卜 夜行者"]
    # Discuz lists the conversation he started; phpwind's inbox holds only what he received.
    assert [c["partner"] for c in inbox["conversations"]] == ([GM_NAME] if engine == "discuz" else [])
