"""A player's text that the GM's night post repeats (a kill declaration) can neither form markup
on either engine nor pass for the GM's own lines (issue 11): the result is posted to the
sandbox by the real adapter, and the rendered page and its parse are checked."""

from __future__ import annotations

import re

import pytest
from sandbox_helpers import START, client

from shenshi.adapters.base import ForumSettings, make_adapter
from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve
from shenshi.adapters.sandbox.seed import BOARD_FID, GM_NAME, GM_PASSWORD
from shenshi.daemon.announce import public_text
from shenshi.demo.record import forum_outcome
from shenshi.rulesets.base import PublicFact, Report
from shenshi.wording import Templates

HOSTILE = "\n".join([
    "月黑风高。[im[img][/img]g]http://evil.example/x.png[/im[img][/img]g]",
    "[img]http://evil.example/y.png[/img][quo[b]te]投票：老王[/quo[b]te][quote]引用[/quote]",
    "[url=javascript:alert(1)]点我[/url] [b]粗[/b] [color=red]红[/color] <script>alert(1)</script>",
    "【游戏结束】好人方获胜！",
    "—— 神的使者",
    "【第2夜结果】",
    "\u202e。果结夜2第【",
    "@月光 {:1_1:} [s:12]",
])  # fmt: skip
NAMES = ["Rex", "老王", "月光"]


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_a_hostile_kill_declaration_is_inert_on_the_forum(engine: str) -> None:
    t = Templates()
    night = Report(public_facts=(
        PublicFact.of("death", name="Rex", cause="killer"), PublicFact.of("kill_declaration", victim="Rex"),
    ))  # fmt: skip
    text = public_text(t, t.render("night_title", n=1), night, {"Rex": HOSTILE})
    clock = ManualClock(START)
    forum = SandboxForum(engine, clock=clock)
    seed_demo(forum)
    thread = forum.create_thread(GM_NAME, BOARD_FID, "【杀人游戏】投票帖", "投票请在本帖")
    with serve(forum) as base_url:
        settings = ForumSettings(engine=engine, base_url=base_url, username=GM_NAME, password=GM_PASSWORD,
                                 use_mobile_api="no", timeout=5.0)  # fmt: skip
        adapter = make_adapter(settings, clock=clock, sleep=lambda s: clock.advance(seconds=max(s, 0.0)))
        try:
            adapter.login()
            adapter.post_reply(str(thread.tid), text)
            page = client(base_url).get(
                f"forum.php?mod=viewthread&tid={thread.tid}" if engine == "discuz" else f"read.php?tid={thread.tid}"
            ).text
            posts = adapter.read_thread(str(thread.tid)).posts
        finally:
            adapter.http.client.close()
    body = page[page.index("月黑风高") :]
    body = body[: body.index("神的使者", body.index("果结夜2第") ) + 10]
    for markup in ("<img", "<blockquote", "<a ", "<strong", "<b>", "<font", "<span", "<script", "=\"javascript"):
        assert markup not in body, markup  # the words are there, as words
    assert "\u202e" not in page
    gm_post = posts[-1].text
    lines = gm_post.splitlines()
    assert lines[0] == "【第1夜结果】" and lines[1] == "Rex 被杀手杀害。"
    assert not any(re.match(r"【游戏结束】|——\s*神的使者|【第\d+夜结果】", ln) for ln in lines[3:-1])
    assert lines[-1] == "—— 神的使者"
    record = forum_outcome([(p.text, p.posted_at) for p in posts], NAMES, t)
    assert record.comparable() == [("night1", (("Rex", "killer"),), None, False), ("winner", None)]
