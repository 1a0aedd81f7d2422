"""A ballot posted outside the vote thread (issue 20, newcomer3 N13/N14; D-I: only the vote
thread's ballots count): in a discussion thread or the 灌水 chat thread a ballot in command
form (``投票：X``) is one alert for the GM, whose hint offers ``override ballot VOTER X`` while
the round is open; the voter gets a PM (vote in the vote thread before the close) while the
round is open, withdrawn once he voted there, the GM counted it, or the round is over. A
remark (``Rex 很可疑，今天投他。``) stays talk. The chat thread is read (it never counts for
activity)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from shenshi.commands.status import render
from shenshi.daemon.gm_commands import run_hint
from shenshi.daemon.hints import advise
from shenshi.daemon.situation import facts_of, situation_of
from shenshi.daemon.status import build_status
from shenshi.rulesets.base import Phase
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import GAME6_10, START, alerts, announcements, at, config, pm, post
from tests.daemon.test_proposals_follow_the_state import day_one, feed, publish
from tests.daemon.test_service_sandbox import restarted, world  # noqa: F401 - the fixture

DISCUSSION, CHAT = "9", "5"
WHERE = {DISCUSSION: "讨论帖", CHAT: "灌水帖"}
VOTE_OPENS = 37  # day 1 opened at at(25); its vote opens at the 13th hour


def game(tmp_path, mode: str):
    """A game6-10 in ``mode`` on day 1 (night 1 published), a discussion and a chat thread."""
    cfg = config(tmp_path, mode=mode)
    cfg = replace(cfg, game=replace(cfg.game, counted_threads=("2", DISCUSSION), uncounted_threads=(CHAT,)))
    return day_one(cfg, [name for name, _ in GAME6_10])


def open_the_vote(svc, clock) -> None:
    clock.set(at(VOTE_OPENS))
    svc.tick()
    publish(svc, "vote_opened", clock)
    svc.tick()


def strays(svc, who: str) -> list:
    return [a for a in alerts(svc) if a.kind == "vote_wrong_thread" and a.subject == who]


def notices(svc, who: str, states=PENDING) -> list:
    return [a for a in announcements(svc, states) if a.kind == "vote_wrong_thread" and a.destination == who]


def advice(svc, alert):
    return advise(facts_of(alert), situation_of(svc))


@pytest.mark.parametrize("mode", ["review", "dry-run", "live"])
@pytest.mark.parametrize("tid", [DISCUSSION, CHAT])
def test_a_stray_ballot_is_told_to_the_voter_and_the_gm_may_count_it(tmp_path, mode, tid) -> None:
    svc, clock = game(tmp_path, mode)
    open_the_vote(svc, clock)
    feed(svc, post("Lily99", "投票：Tom_2 ，顺手投了", VOTE_OPENS + 0.2, tid=tid))
    [alert] = strays(svc, "Lily99")
    assert not svc.referee.state.ballots  # it does not count
    # the voter reads: that ballot in that thread did not count; vote in the vote thread before the close
    [pm] = notices(svc, "Lily99")
    closes = svc.referee.times().rounds[1][1].astimezone(svc.referee.tz).strftime("%Y-%m-%d %H:%M")
    assert WHERE[tid] in pm.text and "没有计入" in pm.text and "投票帖" in pm.text and closes in pm.text, pm.text
    # the GM reads: it does not count, the PM, and the correction that counts it
    said = advice(svc, alert)
    text = said.text()
    assert "不计票" in said.note and "无需操作" not in text, text
    assert said.hints[0].text() == "shenshi override ballot Lily99 Tom_2", text
    waits = {"review": f"shenshi approve {pm.id}", "dry-run": f"shenshi published {pm.id}", "live": "会自动发出"}
    assert waits[mode] in text, text
    status = "\n".join(render(build_status(svc), 400))
    assert "override ballot Lily99 Tom_2" in status, status
    # running the hint: taken, the ballot counts, the alert is resolved, the PM withdrawn
    assert run_hint(svc, said.hints[0], offline=True).refused == ()
    assert [(b.voter, b.target) for b in svc.referee.state.ballots] == [("Lily99", "Tom_2")]
    [alert] = strays(svc, "Lily99")
    assert alert.resolved_at is not None
    assert notices(svc, "Lily99") == [] and notices(svc, "Lily99", None)[0].state.value == "superseded"


def test_voting_in_the_vote_thread_settles_it_and_withdraws_the_pm(tmp_path) -> None:
    svc, clock = game(tmp_path, "review")
    open_the_vote(svc, clock)
    feed(svc, post("kk_大侠", "投票：Tom_2 ，灌水帖顺手投了", VOTE_OPENS + 0.2, tid=CHAT))
    assert len(notices(svc, "kk_大侠")) == 1
    feed(svc, post("kk_大侠", "投票：Tom_2", VOTE_OPENS + 0.3))
    [alert] = strays(svc, "kk_大侠")
    assert alert.resolved_at is not None and notices(svc, "kk_大侠") == []


def test_the_pm_is_withdrawn_once_the_round_closes_and_none_is_proposed_then(tmp_path) -> None:
    svc, clock = game(tmp_path, "review")
    open_the_vote(svc, clock)
    feed(svc, post("Lily99", "投票：Tom_2", VOTE_OPENS + 0.2, tid=DISCUSSION))
    assert len(notices(svc, "Lily99")) == 1
    closes = svc.referee.times().rounds[1][1]
    clock.set(closes + timedelta(minutes=30))  # the round closed
    svc.tick()
    assert (svc.referee.state.phase, svc.referee.state.round) != (Phase.DAY, 1)
    assert notices(svc, "Lily99") == []  # never sent after the close
    late = (closes - START).total_seconds() / 3600 + 0.6
    feed(svc, post("Tom_2", "投票：Rex", late, tid=DISCUSSION))
    assert strays(svc, "Tom_2") and notices(svc, "Tom_2") == []
    text = advice(svc, strays(svc, "Lily99")[0]).text()
    assert "override ballot Lily99" not in text and "不计票" in text, text


def test_before_the_vote_opens_a_stray_ballot_is_told_when_and_where_and_never_counted(tmp_path) -> None:
    """newcomer2 F10: a stray ballot before the vote opened got no PM (its voter believed he
    voted, and a missing ballot costs his seat), and once the vote opened the GM was offered
    「仍然计票」 for a ballot written before the hour."""
    svc, clock = game(tmp_path, "review")
    clock.set(at(30))
    feed(svc, post("Lily99", "投票：Tom_2", 29.9, tid=CHAT))
    [alert] = strays(svc, "Lily99")
    [told] = notices(svc, "Lily99")
    assert "投票开始后的投票才计票" in told.text and "灌水帖" in told.text, told.text
    assert "override ballot" not in advice(svc, alert).text()
    open_the_vote(svc, clock)  # the vote opens: the ballot before the hour is still none
    [alert] = strays(svc, "Lily99")
    said = advice(svc, alert)
    assert "override ballot" not in said.text() and "投票开始之前" in said.text(), said.text()
    feed(svc, post("Lily99", "投票：Tom_2", VOTE_OPENS + 0.1))  # in the vote thread: the PM is moot
    assert notices(svc, "Lily99") == []


@pytest.mark.parametrize("remark", ["Rex 很可疑，今天投他。", "要不要投Rex？", "我想投老王"])
def test_a_remark_in_the_chat_thread_stays_talk(tmp_path, remark) -> None:
    svc, clock = game(tmp_path, "review")
    open_the_vote(svc, clock)
    before = (len(alerts(svc)), len(announcements(svc)))
    feed(svc, post("月光", remark, VOTE_OPENS + 0.2, tid=CHAT))
    assert (len(alerts(svc)), len(announcements(svc))) == before


def test_the_chat_thread_is_read(world) -> None:  # noqa: F811
    """N13: the configured 灌水 thread is polled; a ballot posted there reaches the GM."""
    clock, forum, tid, daemon = world
    chat = forum.create_thread("神的使者", 3, "【游戏六】灌水帖", "灌水专用", at=START).tid
    service = restarted(world, uncounted_threads=(str(chat),))
    try:
        clock.set(START + timedelta(minutes=5))
        forum.post("小明", chat, "投票：老王", at=clock())
        clock.advance(minutes=1)
        report = service.poll()
        service.process()
        assert report.posts >= 1
        assert [a.subject for a in alerts(service) if a.kind == "vote_wrong_thread"] == ["小明"]
    finally:
        service.close()


@pytest.mark.parametrize("mode", ["review", "live"])
def test_a_ballot_for_a_player_already_out_is_told_to_the_voter(tmp_path, mode) -> None:
    """gmattack3 F4: 「投票：夜行者」 for a player killed and announced was refused with no word to
    the voter, who was then removed for not voting (RES-A18). He is told while the round is open."""
    from tests.daemon.test_proposals_follow_the_state import night_one, to_day_one

    cfg = config(tmp_path, mode=mode)
    cfg = replace(cfg, game=replace(cfg.game, counted_threads=("2", DISCUSSION)))
    svc, clock = night_one(cfg, [name for name, _ in GAME6_10])
    feed(svc, pm("夜行者", "杀 Rex\n杀人宣言：" + "月光下的小巷里，风吹过破旧的招牌，" * 8, 2))
    to_day_one(svc, clock)
    assert not svc.referee.state.seat("Rex").alive
    open_the_vote(svc, clock)
    feed(svc, post("Lily99", "投票：Rex，理由见讨论帖", VOTE_OPENS + 0.3))
    [notice] = [a for a in announcements(svc, PENDING) if a.kind == "vote_unread" and a.destination == "Lily99"]
    assert "Rex 已经出局" in notice.text and "重新投票" in notice.text, notice.text
    feed(svc, post("Lily99", "投票：老王", VOTE_OPENS + 0.5))  # he votes again: the PM is moot
    assert not [a for a in announcements(svc, PENDING) if a.kind == "vote_unread" and a.destination == "Lily99"]


def test_the_gm_sees_that_the_voter_is_told(tmp_path) -> None:
    from tests.daemon.test_proposals_follow_the_state import night_one, to_day_one

    svc, clock = night_one(config(tmp_path, mode="review"), [name for name, _ in GAME6_10])
    feed(svc, pm("夜行者", "杀 Rex\n杀人宣言：" + "月光下的小巷里，风吹过破旧的招牌，" * 8, 2))
    to_day_one(svc, clock)
    open_the_vote(svc, clock)
    feed(svc, post("Lily99", "投票：Rex", VOTE_OPENS + 0.3))
    [notice] = [a for a in announcements(svc, PENDING) if a.kind == "vote_unread"]
    [alert] = [a for a in alerts(svc) if a.kind == "dead_target"]
    said = advice(svc, alert)
    assert f"#{notice.id}" in said.text() and "没有回执" not in said.text(), said.text()


def test_a_ballot_before_the_vote_opened_is_settled_by_his_ballot_after(tmp_path) -> None:
    """newcomer4 G9: the alert for a ballot posted before the vote opened stayed open after the
    voter cast a valid one."""
    svc, clock = game(tmp_path, "review")
    feed(svc, post("Lily99", "投票：Tom_2", VOTE_OPENS - 2))  # in the vote thread, too early
    [early] = [a for a in alerts(svc) if a.kind == "no_vote_open" and a.subject == "Lily99"]
    assert early.resolved_at is None
    open_the_vote(svc, clock)
    feed(svc, post("Lily99", "投票：Tom_2", VOTE_OPENS + 0.2))
    [after] = [a for a in alerts(svc) if a.id == early.id]
    assert after.resolved_at is not None, after
