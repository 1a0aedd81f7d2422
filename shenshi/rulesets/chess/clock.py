"""The chess clock and lurking counter (RULES.md §4.8, C-D7, C-D8).

Map::

    paused(), advance(), rewind()   the weekend pause: Saturday 00:00 → Monday 00:00 (RES-C20)
    schedule()                      day/night ends, the night deadline (dawn − 10 min), round 2
    lurkers()                       <5 counted posts and <20% of the mean (RES-C19)

All times are naive local times of the forum's clock. Day and night lengths come from the
ruleset config (``day_hours``, ``night_hours``; default 24/24, RES-C1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

SATURDAY = 5  # datetime.weekday()
NIGHT_DEADLINE_LEAD = timedelta(minutes=10)  # targets may change until dawn − 10 min [CH:L96]
ROUND2 = timedelta(hours=24)  # 高票辩论投票 extends the day [CH:L105]
LURK_MIN_POSTS = 5  # fewer than 5 counted posts …
LURK_SHARE = (1, 5)  # … and fewer than 20% of the day's mean (both, RES-C19)


def _midnight(t: datetime) -> datetime:
    return t.replace(hour=0, minute=0, second=0, microsecond=0)


def paused(t: datetime) -> bool:
    """Whether the game clock stands still at ``t`` (Saturday and Sunday) [CH:L155]."""
    return t.weekday() >= SATURDAY


def _pause_start_after(t: datetime) -> datetime:
    """The next Saturday 00:00 at or after ``t`` (``t`` on a weekday)."""
    return _midnight(t) + timedelta(days=SATURDAY - t.weekday())


def advance(start: datetime, running: timedelta) -> datetime:
    """The time at which ``running`` game time has passed since ``start``, pauses skipped."""
    t, left = start, running
    while left > timedelta(0):
        if paused(t):
            t = _midnight(t) + timedelta(days=7 - t.weekday())  # Monday 00:00
            continue
        step = min(left, _pause_start_after(t) - t)
        t, left = t + step, left - step
    return t


def rewind(end: datetime, running: timedelta) -> datetime:
    """The time ``running`` game time before ``end``, pauses skipped (for dawn − 10 min)."""
    t, left = end, running
    while left > timedelta(0):
        before = t - timedelta(microseconds=1)
        if paused(before):
            t = _midnight(before) - timedelta(days=before.weekday() - SATURDAY)  # Saturday 00:00
            continue
        monday = _midnight(before) - timedelta(days=before.weekday())
        step = min(left, t - monday)
        t, left = t - step, left - step
    return t


def schedule(
    start: datetime,
    day_hours: float,
    night_hours: float,
    *,
    runoff: bool = False,
    cycles: int = 1,
) -> dict[str, datetime]:
    """The ends of day *n* and night *n* and the night's deadline, from the start of day 1.

    Chess starts with a day [CH:L102]. A round 2 on day 1 (``runoff``) adds 24 h to it. A
    night's deadline is dawn − 10 min of running clock (RES-C32). Labels: ``day1_end``,
    ``night1_end``, ``night1_deadline`` (FORMAT.md), then ``day2_end``… for more ``cycles``.
    """
    day, night = timedelta(hours=day_hours), timedelta(hours=night_hours)
    out: dict[str, datetime] = {}
    t = start
    for n in range(1, cycles + 1):
        t = advance(t, day)
        if runoff and n == 1:
            t = advance(t, ROUND2)
        out[f"day{n}_end"] = t
        t = advance(t, night)
        out[f"night{n}_end"] = t
        out[f"night{n}_deadline"] = rewind(t, NIGHT_DEADLINE_LEAD)
    return out


def lurkers(players: Sequence[str], counts: Mapping[str, int]) -> list[str]:
    """Players with <5 counted posts and <20% of the mean over ``players`` (unlisted: 0).

    Integer test: ``c < mean / 5``  ⇔  ``5·c·n < total``.
    """
    n = len(players)
    total = sum(counts.get(p, 0) for p in players)
    num, den = LURK_SHARE
    return [
        p
        for p in players
        if counts.get(p, 0) < LURK_MIN_POSTS and den * counts.get(p, 0) * n < num * total
    ]


def window_counts(
    events: Sequence[Mapping[str, object]], start: datetime, end: datetime | None
) -> dict[str, int]:
    """Counted posts per actor in ``[start, end]`` (a timeline ``lurk`` step's events)."""
    counts: dict[str, int] = {}
    for e in events:
        t = e["t"]
        assert isinstance(t, datetime)
        if e["kind"] == "post" and t >= start and (end is None or t <= end):
            actor = str(e["actor"])
            counts[actor] = counts.get(actor, 0) + 1
    return counts
