"""What the forum refuses to deliver (issue 22): one ``send_failed`` alert per undelivered message,
however many tries fail, closed once it is delivered; phpwind's ambiguous "你已超过每日发送消息数
或你的消息总数已满" diagnosed (the GM's own box, which counts his sent PMs, or the day's limit) and
the GM told what to delete; a player whose box is full named in ``status``."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.adapters.errors import Rejected
from shenshi.adapters.sandbox.seed import player_name
from shenshi.commands.status import render as render_status
from shenshi.daemon.cycle import Cycle
from shenshi.daemon.status import build_status
from shenshi.store.outbox import AnnouncementState
from tests.daemon.helpers import START, alerts, announcements
from tests.daemon.test_service_sandbox import sandbox_game

S = AnnouncementState


def _retry(clock, service, cycle, times: int = 1) -> None:  # type: ignore[no-untyped-def]
    for _ in range(times):
        due = [a.retry_at for a in announcements(service, [S.FAILED]) if a.retry_at]
        clock.set(max([clock() + timedelta(minutes=1), *(d + timedelta(seconds=1) for d in due)]))
        cycle.run()


def test_one_alert_per_undelivered_message_closed_once_delivered(tmp_path, monkeypatch) -> None:
    with sandbox_game(tmp_path, monkeypatch) as (clock, forum, tid, service):
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
        clock.advance(minutes=10)
        send_pm = service.adapter.send_pm

        def full(*args, **kwargs):
            raise Rejected("小明消息数已满,不能接收你的消息")

        monkeypatch.setattr(service.adapter, "send_pm", full)
        cycle.run()
        _retry(clock, service, cycle, 4)
        [receipt] = [a for a in announcements(service) if a.kind == "receipt"]
        assert receipt.state is S.FAILED and receipt.attempts == 5
        [alert] = [a for a in alerts(service) if a.kind == "send_failed"]
        assert alert.resolved_at is None and f"#{receipt.id}" in alert.message and alert.subject == "小明"
        monkeypatch.setattr(service.adapter, "send_pm", send_pm)
        _retry(clock, service, cycle)
        assert [a.state for a in announcements(service) if a.kind == "receipt"] == [S.SENT]
        [alert] = [a for a in alerts(service) if a.kind == "send_failed"]
        assert alert.resolved_at is not None, "delivered, and its alert still open"
        service.close()


def test_the_gms_own_full_box_is_diagnosed_and_says_what_to_delete(tmp_path, monkeypatch) -> None:
    """phpwind counts the GM's sent PMs in his own box. Full, every receipt fails with the
    forum's ambiguous words; shenshi reads the box's figures and tells the GM it is *his* box,
    stops trying PMs for the round, and delivers all of them once he deleted his sent PMs."""
    with sandbox_game(tmp_path, monkeypatch, engine="phpwind") as (clock, forum, tid, service):
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        gm = forum.user("神的使者")
        players = [player_name(n, "phpwind") for n in ("小明", "月光", "夜行者", "阿杰", "老王")]
        for n in range(8):  # PMs of earlier games still in his box
            forum.send_pm(gm, players[n % 5], f"上一局的结果 {n}", at=START - timedelta(days=30))
        actions = ["占卜 老王", "束魂 阿杰", "诅咒 小明", "杀 小明\n" + "月黑风高，" * 30, "杀 小明"]
        for who, text in zip(players, actions, strict=True):
            forum.send_pm(who, "神的使者", text, at=clock())
        gm.pm_box = forum.pm_count(gm) + 2  # room for two more (his sent PMs count)
        clock.advance(minutes=10)
        before = len(forum.requests)
        cycle.run()
        sent = [m for m in forum.messages.values() if m.sender_uid == gm.uid and m.sent_at > START]
        assert len(sent) == 2
        posts_to_pm = sum(1 for m, t in forum.requests[before:] if m == "POST" and "action=post" in t)
        assert posts_to_pm == 3, "PMs were still tried after the box was found full"
        [own] = [a for a in alerts(service) if a.kind == "own_box_full"]
        assert f"最多 {gm.pm_box} 条" in own.message and "删除已发送的私信" in own.message
        failed = [a for a in alerts(service) if a.kind == "send_failed"]
        assert failed and all("天神账号自己的短消息箱满了" in a.message for a in failed[:1])
        assert "每日发送消息数" not in own.message
        forum.delete_sent_pms(gm)
        _retry(clock, service, cycle, 2)
        receipts = [a for a in announcements(service) if a.kind == "receipt"]
        assert receipts and all(a.state is S.SENT for a in receipts)
        assert all(a.resolved_at is not None for a in alerts(service) if a.kind == "send_failed")
        service.close()


def test_the_days_limit_is_not_called_a_full_box(tmp_path, monkeypatch) -> None:
    with sandbox_game(tmp_path, monkeypatch, engine="phpwind") as (clock, forum, tid, service):
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        forum.user("神的使者").pm_daily = 1
        for who in ("小明", "月光"):
            forum.send_pm(player_name(who, "phpwind"), "神的使者", "占卜 老王" if who == "小明" else "束魂 阿杰", at=clock())
        clock.advance(minutes=10)
        cycle.run()
        assert not [a for a in alerts(service) if a.kind == "own_box_full"]
        [failed] = [a for a in announcements(service) if a.state is S.FAILED]
        assert "1 PMs of today" not in failed.last_error
        service.close()


@pytest.mark.parametrize("engine", ["phpwind"])
def test_status_names_the_player_whose_box_is_full(tmp_path, monkeypatch, engine) -> None:
    with sandbox_game(tmp_path, monkeypatch, engine=engine) as (clock, forum, tid, service):
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        seer = forum.user(player_name("小明", engine))
        forum.send_pm(seer, "神的使者", "占卜 老王", at=clock())
        seer.pm_box = forum.pm_count(seer)  # full from now on
        clock.advance(minutes=10)
        cycle.run()
        [receipt] = announcements(service, [S.FAILED])
        assert "对方的短消息箱满了" in receipt.last_error
        text = "\n".join(render_status(build_status(service), 200))
        assert seer.name in text and "对方的短消息箱满了" in text
        service.close()
