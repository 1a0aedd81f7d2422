"""Pure parts of the sandbox: time formats, BBCode rendering, clocks, state and persistence."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shenshi.adapters.sandbox import AcceleratedClock, ManualClock, SandboxForum, seed_demo
from shenshi.adapters.sandbox.bbcode import discuz_html, phpwind_html
from shenshi.adapters.sandbox.timefmt import discuz_time, phpwind_relative

NOW = datetime(2026, 11, 29, 10, 42, 12, tzinfo=UTC)  # 18:42:12 at UTC+8


@pytest.mark.parametrize(("ago", "expected"), [
    (timedelta(0), '<span title="2026-11-29 18:42:12">刚刚</span>'),
    (timedelta(seconds=59), '<span title="2026-11-29 18:41:13">59&nbsp;秒前</span>'),
    (timedelta(minutes=2), '<span title="2026-11-29 18:40:12">2&nbsp;分钟前</span>'),
    (timedelta(minutes=40), '<span title="2026-11-29 18:02:12">半小时前</span>'),
    (timedelta(hours=16, minutes=52), '<span title="2026-11-29 01:50:12">16&nbsp;小时前</span>'),
    (timedelta(hours=23), '<span title="2026-11-28 19:42:12">昨天&nbsp;19:42</span>'),
    (timedelta(days=2), '<span title="2026-11-27 18:42:12">前天&nbsp;18:42</span>'),
    (timedelta(days=7), '<span title="2026-11-22 18:42:12">7&nbsp;天前</span>'),
    (timedelta(days=9), "2026-11-20 18:42:12"),
])
def test_discuz_u_format(ago: timedelta, expected: str) -> None:
    assert discuz_time(NOW - ago, NOW) == expected


@pytest.mark.parametrize(("ago", "expected"), [
    (timedelta(seconds=55), "55秒前"), (timedelta(minutes=3, seconds=1), "4分钟前"),
    (timedelta(hours=10, minutes=38), "11小时前"), (timedelta(hours=20, minutes=9), "昨天 22:33"),
    (timedelta(days=4), "11-25"), (timedelta(days=400), "2025-10-25"),
])
def test_phpwind_last_date(ago: timedelta, expected: str) -> None:
    assert phpwind_relative(NOW - ago, NOW) == expected


def test_bbcode_matches_the_captured_markup() -> None:
    assert discuz_html("[b]投票：阿杰[/b]", "http://x/") == "<strong>投票：阿杰</strong>"
    assert discuz_html("[color=Red][b]杀手[/b][/color]！\n[size=4]胜利[/size]", "http://x/") == (
        '<font color="Red"><strong>杀手</strong></font>！<br />\n<font size="4">胜利</font>')
    assert phpwind_html("[color=Red][b]杀手[/b][/color]！\n[size=4]胜利[/size]", "http://x") == (
        '<span style="color:Red "><b>杀手</b></span>！<br /><font size="4">胜利</font>')
    assert discuz_html("<script>", "http://x/") == "&lt;script&gt;"


def test_clocks_only_move_forward() -> None:
    manual = ManualClock(NOW)
    assert manual.advance(seconds=15) == NOW + timedelta(seconds=15)
    with pytest.raises(ValueError):
        manual.advance(seconds=-1)
    ticks = iter([100.0, 100.0, 102.0])
    fast = AcceleratedClock(NOW, factor=600, monotonic=lambda: next(ticks))
    assert fast() == NOW
    assert fast() == NOW + timedelta(minutes=20)
    with pytest.raises(ValueError):
        ManualClock(datetime(2026, 1, 1))


def test_edit_history_deletion_and_pm_conversations(tmp_path: Path) -> None:
    clock = ManualClock(NOW)
    forum = SandboxForum("discuz", clock=clock, db_path=tmp_path / "forum.sqlite3")
    seed_demo(forum)
    thread = forum.create_thread("神的使者", 3, "第一局", "开始")
    post = forum.post("小明", thread.tid, "投票：阿杰")
    clock.advance(minutes=5)
    forum.edit_post(post.pid, "改票：月光")
    assert [r.text for r in post.revisions][0] == "投票：阿杰"
    assert post.text.startswith("[i=s] 本帖最后由 小明 于 2026-11-29 18:47 编辑 [/i]\n\n")
    forum.delete_post(post.pid)
    assert [p.pid for p in forum.visible_posts(thread.tid)] == [thread.pids[0]]
    first = forum.send_pm("月光", "神的使者", "占卜 夜行者")
    second = forum.send_pm("神的使者", "月光", "好人")
    assert first.cid == second.cid  # Discuz: one conversation per pair
    with pytest.raises(ValueError):
        forum.send_pm("月光", "月光", "自言自语")
    reloaded = SandboxForum("discuz", clock=clock, db_path=tmp_path / "forum.sqlite3")
    assert reloaded.find_user("小明") is not None
    assert reloaded.posts[post.pid].deleted and reloaded.posts[post.pid].revisions[0].text == "投票：阿杰"
    assert len(reloaded.conversation_messages(first.cid)) == 2


def test_phpwind_keeps_emoji_as_question_marks_and_starts_a_conversation_per_message() -> None:
    forum = SandboxForum("phpwind", clock=ManualClock(NOW))
    seed_demo(forum)
    thread = forum.create_thread("神的使者", 3, "第一局", "开始 😀")
    assert forum.posts[thread.pids[0]].text == "开始 ????"
    a = forum.send_pm("月光", "神的使者", "占卜 夜行者", subject="夜间行动")
    b = forum.send_pm("月光", "神的使者", "占卜 Lily99", subject="夜间行动")
    assert a.cid != b.cid
