"""The werewolf game-day clock, RULES.md §5.4 [WW:L74].

A game day lasts two calendar days: the day from 06:00 on D to 21:00 on D+1 (39 h), then the
night until 06:00 on D+2 (9 h). Night 0 runs from the start until the first 06:00.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from shenshi.rulesets.base import Phase, PhaseTimes, frozen_map
from shenshi.rulesets.werewolf.settings import WerewolfSettings

SCHEDULE_LABELS = ("day1_start", "day1_end", "night1_end")  # a timeline step's labels (FORMAT.md)


def first_day_start(start: datetime, settings: WerewolfSettings) -> datetime:
    """Day 1 opens at the first ``day_starts`` (06:00) at or after ``start``."""
    opening = datetime.combine(start.date(), settings.day_start_time, tzinfo=start.tzinfo)
    return opening if opening >= start else opening + timedelta(days=1)


def step_times(phase: Phase, opened_at: datetime, settings: WerewolfSettings) -> PhaseTimes:
    """The clock of a step that opened at ``opened_at`` (the daemon's deadlines).

    A day ends at 21:00 of the next calendar day whenever it opened; a night (night 0 too)
    ends at the next 06:00. Its phases 夜晚1/夜晚2 close at the configured times of day
    (00:00 and 03:00 by default), whatever minute the night opened: :func:`phase_deadlines`.
    Substitutes extend nothing in werewolf.
    """
    if phase is Phase.DAY:
        day_start = datetime.combine(
            opened_at.date(), settings.day_start_time, tzinfo=opened_at.tzinfo
        )
        closes = day_start + timedelta(hours=settings.day_hours)
        return PhaseTimes(opened_at, closes, rounds=frozen_map({1: (opened_at, closes)}))
    closes = first_day_start(opened_at + timedelta(microseconds=1), settings)
    deadlines = phase_deadlines(opened_at, closes, settings)
    return PhaseTimes(opened_at, closes, phase_deadlines=frozen_map(deadlines))


def phase_deadlines(
    opened_at: datetime, dawn: datetime, settings: WerewolfSettings
) -> dict[str, datetime]:
    """Each night phase's deadline: the first time its configured time of day comes after
    the night opened, never before the phase ahead of it closes.

    A night opened after a phase's time (the day's result posted after 00:00) would have that
    phase run to the dawn and the witch get her 【通灵】 list with the morning's post: such a
    night shares what is left of it as a whole night does, one equal part for each phase and
    one for 殉职 and last words before the dawn (opened 01:00: 夜晚1 02:40, 夜晚2 04:20),
    each on the minute."""
    phases = sorted(settings.night_phase_times.items(), key=lambda kv: _phase_order(kv[0]))
    out: dict[str, datetime] = {}
    before = opened_at
    for key, at in phases:
        deadline = datetime.combine(opened_at.date(), at, tzinfo=opened_at.tzinfo)
        if deadline <= opened_at:
            deadline += timedelta(days=1)
        if deadline > dawn:
            return _shared(opened_at, dawn, [k for k, _ in phases])
        out[key] = before = max(deadline, before)
    return out


def _shared(opened_at: datetime, dawn: datetime, keys: list[str]) -> dict[str, datetime]:
    """The phases ``keys`` of a night opened late: equal parts of the time to the dawn, one
    more part left for the night's end, each deadline on a whole minute."""
    part = (dawn - opened_at) / (len(keys) + 1)
    out = {}
    for i, key in enumerate(keys):
        at = opened_at + part * (i + 1)
        if at.second or at.microsecond:  # (up to the minute: never before the night opened)
            at = at.replace(second=0, microsecond=0) + timedelta(minutes=1)
        out[key] = min(dawn, at)
    return out


def _phase_order(key: str) -> tuple[int, str]:
    return (int(key), key) if key.isdigit() else (0, key)


def schedule(start: datetime, settings: WerewolfSettings, cycles: int = 3) -> dict[str, datetime]:
    """Phase boundaries from ``start`` (the player list; night 0 runs until day 1)."""
    day, night = timedelta(hours=settings.day_hours), timedelta(hours=settings.night_hours)
    t = first_day_start(start, settings)
    out = {"night0_start": start, "night0_end": t}
    for n in range(1, cycles + 1):
        suffix = "" if n == 1 else str(n)
        out[f"day{n}_start"] = t
        out[f"vote_open{suffix}"] = t  # the day thread takes ballots all day [WW:L95]
        t += day
        out[f"day{n}_end"] = t
        out[f"vote_close{suffix}"] = t
        out[f"night{n}_start"] = t
        t += night
        out[f"night{n}_end"] = t
    return out


def first_game_day(start: datetime, settings: WerewolfSettings) -> dict[str, datetime]:
    """The labels a ``schedule`` timeline step prints: day 1 and night 1 of the first game day."""
    full = schedule(start, settings, cycles=1)
    return {label: full[label] for label in SCHEDULE_LABELS}
