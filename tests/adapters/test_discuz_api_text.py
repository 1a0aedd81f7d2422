"""The Discuz mobile API gives the text the page shows: it escapes posts twice and plain fields
once (real X3.5 captures: fixtures/REALFORUM.md), and the adapter undoes exactly that."""

from __future__ import annotations

import json
from datetime import datetime

from adapter_world import ENGINE_DIRS, TZ

from shenshi.adapters import discuz_parse

DZ = ENGINE_DIRS["discuz"]
NOW = datetime(2026, 12, 1, 23, 9, 50, tzinfo=TZ)


def test_api_posts_read_as_the_page_shows_them() -> None:
    html = discuz_parse.parse_thread_page((DZ / "viewthread_entities.html").read_bytes(), tz=TZ, now=NOW)
    api = discuz_parse.parse_api_thread((DZ / "api_viewthread_entities_double_escaped.json").read_bytes(), tz=TZ, now=NOW)
    assert [p.text for p in api.posts] == [p.text for p in html.posts]
    texts = {p.pid: p.text for p in api.posts}
    assert texts["3"] == "投票：小明 (>_<) 我觉得他在 <装> 好人 & 划水"
    # What a player typed as entities stays as typed (the page shows "&quot;" too).
    assert texts["4"] == "投票：阿杰 理由见上 &quot; 引号 &amp; 实体 &lt;tag&gt;"


def test_api_plain_fields_are_unescaped_once() -> None:
    found = json.loads((DZ / "api_mypm_list.json").read_text(encoding="utf-8"))
    found["Variables"]["list"][0]["tousername"] = "A&amp;B"
    rows = discuz_parse.parse_api_inbox(found, tz=TZ, now=NOW)
    assert rows[0].partner == "A&B"
    board = json.loads((DZ / "api_forumdisplay_fresh_board.json").read_text(encoding="utf-8"))
    board["Variables"]["forum_threadlist"][0]["subject"] = "第一局 &lt;测试&gt; &amp; 复盘"
    assert discuz_parse.parse_api_board(board, tz=TZ, now=NOW)[0].subject == "第一局 <测试> & 复盘"


def test_api_pm_text_is_escaped_once_like_the_page() -> None:
    html = discuz_parse.parse_conversation((DZ / "pm_conversation_entities_touid11.html").read_bytes(), tz=TZ, now=NOW)
    api = discuz_parse.parse_api_conversation((DZ / "api_mypm_view_entities_touid11.json").read_bytes(), tz=TZ, now=NOW)
    assert api[0].text == html[0].text == "请问法官，平票的时候怎么处理？(>_<) 还有 <b>加粗</b> & 符号"
