"""Alerts cite the right window (issue 20, seen on real Discuz and phpwind): a night action sent
by day cites the night's PM window, never the vote's; a ballot cites the vote's."""

from __future__ import annotations

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon.gm_commands import mark_published
from tests.daemon.helpers import START, alerts, announcement, at, config, pm, post
from tests.daemon.test_status import feed


def day_one(tmp_path):
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path, mode="review"), clock=clock, forum=False)
    svc.start()
    clock.set(at(0.02))
    svc.tick()
    clock.set(at(24.5))
    svc.tick()  # night 1 ends
    mark_published(svc, [announcement(svc, svc.referee.gate_key()).id])
    clock.set(at(37))
    svc.tick()  # day 1, its vote open from 36:30
    assert svc.referee.state.phase.value == "day" and svc.referee.state.round == 1
    return svc, clock


def test_a_divination_sent_by_day_cites_the_nights_pm_window(tmp_path) -> None:
    svc, _ = day_one(tmp_path)
    ident = feed(svc, pm("小明", "占卜 老王", 37.5))
    [alert] = [a for a in alerts(svc) if a.evidence_id == ident]
    assert "上一夜的私信时间 12-01 20:00:00 – 12-02 20:00:00" in alert.message, alert.message
    assert "12-03 08:30" not in alert.message and "12-04" not in alert.message  # not the vote window


def test_a_ballot_outside_the_vote_cites_the_vote_window(tmp_path) -> None:
    svc, clock = day_one(tmp_path)
    clock.set(at(61))
    svc.tick()  # the vote has closed
    ident = feed(svc, post("老王", "投 Rex", 61.5))
    found = [a for a in alerts(svc) if a.evidence_id == ident]
    assert found and all("私信" not in a.message for a in found)


def test_late_last_words_cite_the_deadline_the_player_was_told(tmp_path) -> None:
    """Werewolf: a night victim is told to leave his last words before the night's close
    (06:00); refused as late, the alert cites that deadline, not the day's window that holds
    the post's own time."""
    from datetime import datetime, timedelta

    from shenshi.daemon.referee import Clockwork
    from shenshi.daemon.timeline import moment_of, window_text
    from tests.daemon.helpers import TZ
    from tests.daemon.test_referee_werewolf import START as WW_START
    from tests.daemon.test_referee_werewolf import werewolf

    ref, _ = werewolf(tmp_path)
    ref.tick(WW_START, Clockwork())  # night 0
    ref.tick(datetime(2026, 12, 8, 6, 1, 39, tzinfo=TZ), Clockwork())  # settled; day 1 opens at 06:01:39
    posted = datetime(2026, 12, 8, 6, 5, tzinfo=TZ)
    window, name = ref.window_for("last_words_late", "last_words")
    text = window_text(window, name, moment=moment_of(posted, timedelta(seconds=1)), tz=TZ)
    assert text == "（遗言截止 12-08 06:00:00；时间 12-08 06:05:00）"
