"""The chess clock: weekend pause, schedule, night deadline, lurking counter (§4.8)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shenshi.rulesets.chess import clock

FRIDAY_20 = datetime(2024, 3, 8, 20, 0)  # a Friday
SATURDAY_00 = datetime(2024, 3, 9)
MONDAY_00 = datetime(2024, 3, 11)


@pytest.mark.parametrize(
    ("t", "paused"),
    [
        (FRIDAY_20, False),
        (SATURDAY_00, True),
        (datetime(2024, 3, 10, 23, 59), True),
        (MONDAY_00, False),
    ],
)
def test_paused(t: datetime, paused: bool):
    assert clock.paused(t) is paused


def test_advance_skips_the_weekend():
    assert clock.advance(FRIDAY_20, timedelta(hours=24)) == datetime(2024, 3, 11, 20, 0)
    assert clock.advance(FRIDAY_20, timedelta(hours=4)) == SATURDAY_00  # ends as the pause begins
    assert clock.advance(datetime(2024, 3, 9, 12), timedelta(hours=1)) == datetime(2024, 3, 11, 1)


def test_rewind_skips_the_weekend():
    assert clock.rewind(datetime(2024, 3, 11, 20), timedelta(minutes=10)) == datetime(
        2024, 3, 11, 19, 50
    )
    assert clock.rewind(datetime(2024, 3, 11, 0, 5), timedelta(minutes=10)) == datetime(
        2024, 3, 8, 23, 55
    )
    assert clock.rewind(MONDAY_00, timedelta(minutes=10)) == datetime(2024, 3, 8, 23, 50)


running = st.datetimes(datetime(2024, 1, 1), datetime(2026, 1, 1)).filter(
    lambda t: not clock.paused(t)
)
durations = st.timedeltas(timedelta(0), timedelta(days=20))


@given(running, durations)
def test_rewind_undoes_advance(t: datetime, d: timedelta):
    end = clock.advance(t, d)
    assert not clock.paused(end) or end.weekday() == clock.SATURDAY and end.time().hour == 0
    assert clock.rewind(end, d) == t


@given(running, durations, durations)
def test_advance_adds_up(t: datetime, a: timedelta, b: timedelta):
    assert clock.advance(clock.advance(t, a), b) == clock.advance(t, a + b)
    assert clock.advance(t, a) - t >= a


def test_schedule_default_lengths_and_round2():
    out = clock.schedule(FRIDAY_20, 24, 24)
    assert out == {
        "day1_end": datetime(2024, 3, 11, 20),
        "night1_end": datetime(2024, 3, 12, 20),
        "night1_deadline": datetime(2024, 3, 12, 19, 50),
    }
    runoff = clock.schedule(FRIDAY_20, 24, 24, runoff=True)
    assert runoff["day1_end"] == datetime(2024, 3, 12, 20)
    assert clock.schedule(FRIDAY_20, 24, 24, cycles=2)["day2_end"] == datetime(2024, 3, 13, 20)


def test_lurkers_need_both_conditions():
    players = [f"p{i}" for i in range(10)]
    counts = {p: 20 for p in players} | {"p0": 2, "p1": 4, "p2": 6}
    # total 162, mean 16.2, 20% = 3.24: p0 (2) lurks; p1 (4) is above 20%; p2 has ≥5.
    assert clock.lurkers(players, counts) == ["p0"]
    assert clock.lurkers(players, {}) == []  # nobody posted: nobody is below 20% of 0
    assert clock.lurkers(players, {"p9": 100}) == players[:9]  # unlisted players have 0 posts


def test_lurk_boundary_is_strict():
    # mean 25 → 20% = 5; 4 posts < 5 lurks, and exactly 20% would not.
    players = ["a", "b", "c", "d"]
    assert clock.lurkers(players, {"a": 4, "b": 32, "c": 32, "d": 32}) == ["a"]
    assert clock.lurkers(players, {"a": 4, "b": 26, "c": 25, "d": 25}) == []  # 4 = 20% of 20


def test_window_counts():
    t0 = datetime(2024, 3, 5, 12)
    events = [
        {"kind": "post", "actor": "a", "t": t0},
        {"kind": "post", "actor": "a", "t": t0 + timedelta(hours=30)},
        {"kind": "signin", "actor": "b", "t": t0},
    ]
    assert clock.window_counts(events, t0, t0 + timedelta(hours=24)) == {"a": 1}
    assert clock.window_counts(events, t0, None) == {"a": 2}
