"""The service over real HTTP on the sandbox: what a poll does with what it reads, and sending."""

from __future__ import annotations

from datetime import timedelta

from shenshi.bootstrap import bootstrap
from shenshi.rulesets.base import Phase
from shenshi.store.outbox import AnnouncementState
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import START, alerts, announcement, announcements, open_vote_on_forum

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode
DECLARATION = "那一夜风雨交加，" + "杀手潜入了小明的房间，留下了一张黑色的纸条。" * 6


def night_one(clock, forum, service) -> None:
    """Night 1 played and its result sent: the forum shows the dawn post; the day is due."""
    clock.set(START + timedelta(minutes=5))
    service.tick()
    forum.send_pm("阿杰", "神的使者", "杀 小明\n" + DECLARATION, at=clock())
    clock.set(START + timedelta(hours=24, minutes=1))
    service.poll()
    service.tick()
    assert service.publish() >= 1


def test_a_pm_written_after_the_dawn_post_belongs_to_the_day(world) -> None:
    clock, forum, tid, service = world
    night_one(clock, forum, service)
    assert service.referee.state.phase is Phase.DAWN  # no tick since the dawn post
    clock.advance(minutes=30)
    forum.send_pm("老王", "神的使者", "委托投票：阿杰", at=clock())
    service.poll()  # the same poll opens the day first, then reads the PM
    state = service.referee.state
    assert state.phase is Phase.DAY
    assert [(b.voter, b.target, b.via) for b in state.ballots] == [("老王", "阿杰", "pm_delegate")]
    kinds = [a.kind for a in alerts(service)]
    assert "not_in_phase" not in kinds


def ballot_then_edit(clock, forum, tid, service) -> None:
    """Day 1: Tom_2 votes 阿杰 (read), then edits the post to 投票：老王 (not read yet)."""
    night_one(clock, forum, service)
    service.poll()
    clock.advance(hours=13)
    open_vote_on_forum(service, clock)  # ballots count from its opening post
    vote = forum.post("Tom_2", tid, "投票：阿杰", at=clock())
    clock.advance(minutes=5)
    service.poll()
    clock.advance(minutes=30)
    forum.edit_post(vote.pid, "投票：老王", by="Tom_2")
    clock.advance(minutes=30)


def test_an_edited_ballot_reaches_the_gm_and_the_first_seen_counts(world) -> None:
    clock, forum, tid, service = world
    ballot_then_edit(clock, forum, tid, service)
    report = service.poll()
    assert report.revisions == 1
    edited = [a for a in alerts(service) if a.kind == "edited_vote"]
    assert len(edited) == 1 and "投票：老王" in edited[0].message
    assert [(b.voter, b.target) for b in service.referee.state.ballots] == [("Tom_2", "阿杰")]
    clock.advance(minutes=30)
    assert service.poll().revisions == 0  # seen once, raised once


def test_a_second_edit_of_the_same_ballot_is_a_second_alert(world) -> None:
    clock, forum, tid, service = world
    ballot_then_edit(clock, forum, tid, service)
    service.poll()
    pid = next(p.pid for p in forum.visible_posts(int(tid)) if "投票：老王" in p.text)
    forum.edit_post(pid, "投票：小明", by="Tom_2")
    clock.advance(minutes=30)
    assert service.poll().revisions == 1
    edited = [a.message for a in alerts(service) if a.kind == "edited_vote"]
    assert len(edited) == 2 and "投票：小明" in edited[1], edited
    assert [(b.voter, b.target) for b in service.referee.state.ballots] == [("Tom_2", "阿杰")]


def test_an_edit_after_an_early_close_reaches_the_gm(world) -> None:
    """Issue 13: every ballot in closes the round early; an edit then is still re-read."""
    clock, forum, tid, service = world
    night_one(clock, forum, service)
    service.poll()
    clock.advance(hours=13)
    open_vote_on_forum(service, clock)  # ballots count from its opening post
    living = [s.name for s in service.referee.state.alive()]
    posts = {name: forum.post(name, tid, "投票：阿杰" if name != "阿杰" else "投票：老王", at=clock())
             for name in living}  # fmt: skip
    clock.advance(minutes=5)
    service.poll()
    service.tick()
    assert service.referee.state.phase is Phase.DUSK  # closed early, before its deadline
    clock.advance(minutes=30)
    forum.edit_post(posts["Tom_2"].pid, "投票：老王", by="Tom_2")
    clock.advance(minutes=30)
    assert service.poll().revisions == 1
    edited = [a for a in alerts(service) if a.kind == "edited_vote"]
    assert len(edited) == 1 and "投票：老王" in edited[0].message


def test_status_counts_each_players_posts_by_uid(world) -> None:
    clock, forum, tid, service = world
    clock.set(START + timedelta(hours=2))
    forum.post("Tom_2", tid, "签到", at=clock())
    forum.post("Tom_2", tid, "今天先听听大家的意见。", at=clock())
    clock.advance(minutes=10)
    service.poll()
    activity = {name: posts for name, posts, _ in service.status().activity}
    assert activity["Tom_2"] == 2 and activity["小明"] == 0
    sent = announcements(service, [AnnouncementState.SENT])
    assert all(a.kind == "receipt" for a in sent)


def killed_while_sending(clock, service, announcement, send):
    """The forum gets ``announcement``, the daemon dies before recording it, and a new one
    starts and publishes."""
    with service.store.transaction() as uow:
        uow.outbox.approve(announcement.id)
        uow.outbox.mark_sending(announcement.id)
    send(announcement.destination, announcement.text)  # … and the daemon dies here
    clock.advance(minutes=10)
    again = bootstrap(service.config, clock=clock, sleep=lambda s: clock.advance(seconds=s))
    again.adapter.login()
    again.start()
    again.publish()
    return again


def test_a_pm_sent_just_before_a_crash_is_not_sent_again(world) -> None:
    clock, forum, tid, service = world
    clock.set(START + timedelta(minutes=5))
    service.tick()
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    clock.advance(minutes=10)
    service.poll()
    receipt = announcements(service, [AnnouncementState.PROPOSED])[0]
    again = killed_while_sending(clock, service, receipt, service.adapter.send_pm)
    gm = forum.user("神的使者").uid
    sent = [m for m in forum.messages.values() if m.sender_uid == gm and m.text == receipt.text]
    assert len(sent) == 1
    after = announcement(again, receipt.key)
    again.close()
    assert after.state is AnnouncementState.SENT and after.forum_id == str(sent[0].mid)


def test_a_post_made_just_before_a_crash_is_not_made_again(world) -> None:
    clock, forum, tid, service = world
    clock.set(START + timedelta(minutes=5))
    service.tick()
    clock.set(START + timedelta(hours=24, minutes=1))
    service.tick()  # nobody acted: 无人死亡
    dawn = announcement(service, "g1:night1:public")
    again = killed_while_sending(clock, service, dawn, service.adapter.post_reply)
    titles = [p for p in forum.visible_posts(tid) if p.text.startswith("【第1夜结果】")]
    assert len(titles) == 1
    after = announcement(again, dawn.key)
    again.close()
    assert after.state is AnnouncementState.SENT and after.forum_id == str(titles[0].pid)



def test_the_first_poll_on_a_board_of_older_games_reads_only_this_games_threads(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 13: the first poll on a board with old games read every page of every thread."""
    old: list[int] = []

    def older_game(forum) -> None:  # type: ignore[no-untyped-def]
        thread = forum.create_thread("神的使者", 3, "【上一局】投票帖", "上一局的游戏者名单", at=START - timedelta(days=30))
        for n in range(25):  # three pages, and a player's post there a minute before this game
            forum.post("小明", thread.tid, f"上一局的第 {n + 1} 条分析", at=START - timedelta(minutes=25 - n))
        old.append(thread.tid)

    with test_service_sandbox.sandbox_game(tmp_path, monkeypatch, older_game) as (clock, forum, tid, service):
        mark = len(forum.requests)
        clock.set(START + timedelta(minutes=5))
        service.poll()
        paths = [path for _, path in forum.requests[mark:]]
    assert not [p for p in paths if f"tid={old[0]}&" in p or p.endswith(f"tid={old[0]}")]
    assert any(f"tid={tid}&" in p for p in paths)  # this game's vote thread was read
