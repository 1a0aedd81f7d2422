"""The daemon's own log (issue 23): each cycle that changed something is one line in Chinese on
the forum's clock (what it read, proposed, sent, alerted, the step it moved to); a quiet cycle
writes nothing; ``run --once`` says the same of its cycle."""

from __future__ import annotations

import logging
import re

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon.cycle import CycleResult
from shenshi.daemon.fleet import Fleet
from shenshi.daemon.gm_text import cycle_line, once_summary
from tests.console.conftest import KILL, feed
from tests.daemon.helpers import START, at, config, pm

LOGGER = "shenshi.daemon.cycle"


def lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == logging.INFO]


def test_a_cycle_that_changed_something_is_one_line_and_a_quiet_one_none(tmp_path, caplog) -> None:
    clock = ManualClock(START)
    game = bootstrap(config(tmp_path, mode="review"), clock=clock, forum=False)
    fleet = Fleet([game], clock)
    fleet.start()
    with caplog.at_level(logging.INFO, logger=LOGGER):
        clock.set(at(0.02))
        fleet.run()  # the night opens
        opened = lines(caplog)
        assert opened == ["12-01 20:01（论坛时间）进入 第1夜"], opened
        caplog.clear()
        clock.set(at(0.03))
        fleet.run()
        assert lines(caplog) == []  # quiet: nothing at all
        feed(game, pm("夜行者", KILL, 0.05))
        feed(game, pm("路人甲", "杀 小明", 0.3))
        clock.set(at(24.5))
        fleet.run()  # the night resolves: the result proposed, an alert raised
        [line] = lines(caplog)
    assert line.startswith("12-02 20:30（论坛时间）") and "进入 第1夜（已结算，待公布）" in line
    assert re.search(r"提出 #\d", line)
    assert "next cycle" not in caplog.text and "cycle" not in line
    for secret in ("杀手", "Rex", "夜行者"):  # what was proposed is named by id, never its text
        assert secret not in line
    game.close()


def test_the_lines_say_what_was_read_sent_and_alerted() -> None:
    result = CycleResult(polled=True, events=4, posts=3, pms=2, proposed=(12, 13, 14), alerts=(5,), sent_ids=(9,))
    from datetime import datetime
    from zoneinfo import ZoneInfo

    at_ = datetime(2026, 12, 2, 20, 15, tzinfo=ZoneInfo("Asia/Shanghai"))
    assert cycle_line(result, at_) == "12-02 20:15（论坛时间）读到 3 帖、2 条私信；提出 #12-14；发出 #9；提醒 #5"
    assert once_summary(result) == "读到 3 帖、2 条私信；新事件 4；提出 #12-14；发出 #9；提醒 #5"
    assert once_summary(CycleResult(polled=True)) == "论坛上没有新帖或私信"
    assert cycle_line(CycleResult(polled=True), at_) == ""
