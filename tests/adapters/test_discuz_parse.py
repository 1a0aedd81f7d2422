"""Discuz parsers on variations of the captured markup that the forum produces over time."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from shenshi.adapters.discuz_parse import parse_conversation

FIXTURES = Path(__file__).parents[2] / "fixtures" / "discuz" / "x3.5"
TZ = ZoneInfo("Asia/Shanghai")


def test_a_conversation_older_than_a_week_shows_the_absolute_time() -> None:
    """After seven days Discuz prints the time itself in span.xg1, with no titled span."""
    page = (FIXTURES / "pm_conversation_view_touid11_yueguang.html").read_text(encoding="utf-8")
    old = re.sub(r'<span title="([^"]+)">[^<]*</span>', r"\1", page)
    assert old != page
    recent = parse_conversation(page, tz=TZ, now=datetime(2026, 11, 29, 19, 0, tzinfo=TZ))
    later = parse_conversation(old, tz=TZ, now=datetime(2026, 12, 20, 19, 0, tzinfo=TZ))
    assert recent and [m.sent_at for m in later] == [m.sent_at for m in recent]


def test_an_inbox_row_older_than_a_week_keeps_its_time() -> None:
    from shenshi.adapters.discuz_parse import parse_inbox

    page = (FIXTURES / "pm_inbox_unread.html").read_text(encoding="utf-8")
    old = re.sub(r'<span title="([^"]+)">[^<]*</span>', r"\1", page)
    recent = parse_inbox(page, tz=TZ, now=datetime(2026, 11, 29, 19, 0, tzinfo=TZ))
    later = parse_inbox(old, tz=TZ, now=datetime(2026, 12, 20, 19, 0, tzinfo=TZ))
    assert [c.last_at for c in later] == [c.last_at for c in recent] and all(c.last_at for c in later)
