"""The demo's small file helpers: a clock in a file, and TOML written back."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime, timedelta

import pytest

from shenshi.demo.clockfile import FileClock
from shenshi.demo.tomlfile import dumps

START = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def test_two_handles_on_one_file_share_the_time(tmp_path) -> None:
    ours = FileClock(tmp_path / "clock.txt", START)
    theirs = FileClock(tmp_path / "clock.txt")
    theirs.advance(seconds=90)
    assert ours() == START + timedelta(seconds=90)
    ours.set(START + timedelta(hours=1))
    assert theirs() == START + timedelta(hours=1)
    with pytest.raises(ValueError):
        theirs.set(START)
    with pytest.raises(ValueError):
        FileClock(tmp_path / "naive.txt", START.replace(tzinfo=None))


def test_toml_round_trips_a_configuration() -> None:
    config = {
        "forum": {
            "engine": "discuz",
            "min_interval": 0,
            "timeout": 10.0,
            "base_url": 'http://x/"q"',
        },
        "game": {
            "name": "demo 游戏",
            "players": [
                {"name": "小明", "uid": 3, "role": "seer"},
                {"name": "Tom_2", "addons": ["lover"]},
            ],
            "rules": {"killer_order": ["a", "b"], "composition": {"seer": 1}},
            "role_threads": {"seer": 5},
            "counted_threads": [2, 3],
        },
        "daemon": {"mode": "review", "early_close": True},
    }
    assert tomllib.loads(dumps(config)) == config
