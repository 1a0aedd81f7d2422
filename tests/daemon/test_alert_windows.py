"""Alerts cite the right window (issue 20, seen on real Discuz and phpwind): a night action sent
by day cites the night's PM window, never the vote's; a ballot cites the vote's."""

from __future__ import annotations

from shenshi.daemon.gm_commands import mark_published
from tests.daemon.helpers import TZ, alerts, announcement, at, pm, post, started
from tests.daemon.test_status import feed


def day_one(tmp_path):
    svc, clock = started(tmp_path)
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
    # A-S1: the night's window closed when its result was announced (published at 20:30)
    assert "上一夜的提交时间 12-01 20:00:00 – 12-02 20:30:00" in alert.message, alert.message
    assert "12-03 08:30" not in alert.message and "12-04" not in alert.message  # not the vote window


def test_a_night_pm_refused_by_day_is_told_when_the_next_window_opens(tmp_path) -> None:
    from tests.daemon.helpers import announcements

    svc, _ = day_one(tmp_path)
    ident = feed(svc, pm("小明", "占卜 老王", 37.5))
    [receipt] = [a for a in announcements(svc) if a.kind == "receipt" and ident in a.evidence_ids]
    assert receipt.text.startswith("未受理：占卜") and "不在提交时间内" in receipt.text
    closes = svc.referee.times().closes.astimezone(TZ).strftime("%m-%d %H:%M")
    assert f"下一夜的私信时间从今天的投票结果公布时开始（最早 {closes}）" in receipt.text, receipt.text


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


def test_a_werewolf_window_names_each_night_phases_deadline() -> None:
    """adversary6 C14: 「（窗口 … 截止 12-03 00:00:00，截止 12-03 03:00:00；…）」: two bare 截止."""
    from datetime import datetime, timedelta

    from shenshi.daemon.timeline import Window, moment_of, window_text

    t = datetime(2026, 12, 2, 21, 0, tzinfo=TZ)
    window = Window(t, t + timedelta(hours=9), (t + timedelta(hours=3), t + timedelta(hours=6)))
    text = window_text(window, moment=moment_of(t + timedelta(hours=4), timedelta(seconds=1)), tz=TZ)
    assert "夜晚1截止 12-03 00:00:00" in text and "夜晚2截止 12-03 03:00:00" in text
    single = window_text(Window(t, t + timedelta(hours=9), (t,)), moment=moment_of(t, timedelta(seconds=1)), tz=TZ)
    assert "，截止 12-02 21:00:00" in single
