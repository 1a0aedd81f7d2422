"""Shared helpers: every time format of FORUMS.md, HTML to text, charset by declaration."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shenshi.adapters.text import decode_page, element_text, fragment_tree, parse_forum_time

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 29, 18, 42, 12, tzinfo=TZ)


@pytest.mark.parametrize(
    ("text", "title", "expected"),
    [
        ("发表于 2026-11-20 18:39:46", None, "2026-11-20T18:39:46"),
        ("2026-11-9 8:05", None, "2026-11-09T08:05:00"),
        ("7\xa0天前", "2026-11-22 02:16:46", "2026-11-22T02:16:46"),  # title wins
        ("刚刚", None, "2026-11-29T18:42:12"),
        ("59\xa0秒前", None, "2026-11-29T18:41:13"),
        ("55秒前", None, "2026-11-29T18:41:17"),
        ("3\xa0分钟前", None, "2026-11-29T18:39:12"),
        ("半小时前", None, "2026-11-29T18:12:12"),
        ("16\xa0小时前", None, "2026-11-29T02:42:12"),
        ("发表于: 8小时前", None, "2026-11-29T10:42:12"),
        ("昨天\xa019:31", None, "2026-11-28T19:31:00"),
        ("前天\xa002:25", None, "2026-11-27T02:25:00"),
        ("今天 09:00", None, "2026-11-29T09:00:00"),
        ("3\xa0天前", None, "2026-11-26T18:42:12"),
        ("发表于: 11-24", None, "2026-11-24T00:00:00"),
        ("12-31", None, "2025-12-31T00:00:00"),  # a month-day after now is last year
    ],
)
def test_forum_time_formats(text: str, title: str | None, expected: str) -> None:
    got = parse_forum_time(text, title=title, tz=TZ, now=NOW)
    assert got == datetime.fromisoformat(expected).replace(tzinfo=TZ)
    assert got.utcoffset().total_seconds() == 8 * 3600


def test_unknown_time_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_forum_time("很久以前", tz=TZ, now=NOW)


@given(st.integers(min_value=0, max_value=10_000), st.sampled_from(["秒", "分钟", "小时", "天"]))
def test_relative_times_are_never_after_now(amount: int, unit: str) -> None:
    assert parse_forum_time(f"{amount}\xa0{unit}前", tz=TZ, now=NOW) <= NOW


def test_html_to_text_keeps_line_breaks_and_drops_markup() -> None:
    body = fragment_tree('<strong>投票：阿杰</strong><br />\n理由：<font color="Red">他</font>太急了<br />\n<br />\n&nbsp;')
    assert element_text(body) == "投票：阿杰\n理由：他太急了"


def test_block_elements_break_lines_once() -> None:
    assert element_text(fragment_tree("<div>a</div><div>b</div><p>c</p>")) == "a\nb\nc"


@pytest.mark.parametrize("declaration", ['<meta charset="gbk" />', '<meta http-equiv="Content-Type" content="text/html; charset=GB2312" />'])
def test_decode_by_the_pages_own_declaration(declaration: str) -> None:
    page = f"<html><head>{declaration}</head><body>投票：白色的猫</body></html>"
    assert "投票：白色的猫" in decode_page(page.encode("gbk"))


def test_undeclared_gbk_falls_back_from_utf8() -> None:
    assert decode_page("杀 老王".encode("gbk")) == "杀 老王"
