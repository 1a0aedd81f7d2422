"""The engines' time formats, computed against the injected clock in the forum's zone (UTC+8).

Discuz! ``dgmdate(ts, 'u')``: today ``N&nbsp;秒前`` / ``N&nbsp;分钟前`` / ``半小时前`` /
``N&nbsp;小时前`` / ``刚刚``; then ``昨天&nbsp;H:i``, ``前天&nbsp;H:i``, ``N&nbsp;天前`` (up to 7);
older posts show the absolute ``Y-n-j H:i:s``. A relative text is wrapped as
``<span title="ABSOLUTE">relative</span>``.

phpwind ``getLastDate``: today ``N秒前`` (≤ 60 s), ``N分钟前`` and ``N小时前`` (both rounded up:
``read_p7.html`` shows a post 7 h 26 min old as ``8小时前``); yesterday ``昨天 H:i``; this year ``m-d``; else ``Y-m-d``; the absolute time
(``Y-m-d H:i:s``) is in the ``title`` attribute.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from shenshi.adapters.sandbox.state import FORUM_TZ

NBSP = "&nbsp;"


def local(moment: datetime) -> datetime:
    """``moment`` in the forum's zone."""
    return moment.astimezone(FORUM_TZ)


def discuz_absolute(moment: datetime, *, seconds: bool = True, date_only: bool = False) -> str:
    """Discuz ``Y-n-j H:i:s`` (or ``Y-n-j H:i``, or ``Y-n-j``): month and day without zeros."""
    t = local(moment)
    day = f"{t.year}-{t.month}-{t.day}"
    if date_only:
        return day
    return f"{day} {t:%H:%M:%S}" if seconds else f"{day} {t:%H:%M}"


def discuz_relative(moment: datetime, now: datetime) -> str | None:
    """The relative text Discuz shows, or ``None`` when it shows the absolute time."""
    t, n = local(moment), local(now)
    today = n.replace(hour=0, minute=0, second=0, microsecond=0)
    if t >= today:
        diff = int(n.timestamp()) - int(t.timestamp())
        if diff > 3600:
            return f"{diff // 3600}{NBSP}小时前"
        if diff > 1800:
            return "半小时前"
        if diff > 60:
            return f"{diff // 60}{NBSP}分钟前"
        if diff > 0:
            return f"{diff}{NBSP}秒前"
        if diff == 0:
            return "刚刚"
        return None
    days = int((today - t).total_seconds() // 86400)
    if days == 0:
        return f"昨天{NBSP}{t:%H:%M}"
    if days == 1:
        return f"前天{NBSP}{t:%H:%M}"
    if days < 7:
        return f"{days + 1}{NBSP}天前"
    return None


def discuz_time(moment: datetime, now: datetime, *, seconds: bool = True,
                title_date_only: bool = False) -> str:
    """Discuz ``'u'`` format as HTML: ``<span title="ABS">REL</span>`` or the bare absolute."""
    absolute = discuz_absolute(moment, seconds=seconds)
    relative = discuz_relative(moment, now)
    if relative is None:
        return absolute
    title = discuz_absolute(moment, date_only=True) if title_date_only else absolute
    return f'<span title="{title}">{relative}</span>'


def discuz_time_text(moment: datetime, now: datetime, *, seconds: bool = True) -> str:
    """The same without the span (the mobile JSON API's ``dateline``/``vdateline``)."""
    return discuz_relative(moment, now) or discuz_absolute(moment, seconds=seconds)


def phpwind_absolute(moment: datetime, *, seconds: bool = True) -> str:
    """phpwind ``Y-m-d H:i:s`` (or ``Y-m-d H:i``)."""
    t = local(moment)
    return f"{t:%Y-%m-%d %H:%M:%S}" if seconds else f"{t:%Y-%m-%d %H:%M}"


def phpwind_relative(moment: datetime, now: datetime) -> str:
    """phpwind ``getLastDate`` text."""
    t, n = local(moment), local(now)
    today = n.replace(hour=0, minute=0, second=0, microsecond=0)
    decrease = int(n.timestamp()) - int(t.timestamp())
    if t >= today:
        if decrease <= 60:
            return f"{max(decrease, 0)}秒前"
        if decrease <= 3600:
            return f"{math.ceil(decrease / 60)}分钟前"
        return f"{math.ceil(decrease / 3600)}小时前"
    if t >= today - timedelta(days=1):
        return f"昨天 {t:%H:%M}"
    if t.year == n.year:
        return f"{t:%m-%d}"
    return f"{t:%Y-%m-%d}"
