"""Our own post recognised on the forum after an unclear answer or a crash, whatever the forum
did to its text on the way (padding to the minimum length, …): never posted twice."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import httpx
import pytest

from shenshi.adapters.sandbox.seed import GM_PASSWORD, player_name
from shenshi.bootstrap import bootstrap
from shenshi.daemon.cycle import Cycle
from shenshi.store.outbox import AnnouncementState
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import START, alerts, announcement, announcements
from tests.daemon.test_sending import SavedThen502, _night_over
from tests.daemon.test_service_sandbox import sandbox_game

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode

S = AnnouncementState


def restarted(service, clock, transport=None, *, mode: str | None = None, **templates):
    """The game's daemon stopped and started again (through ``transport``; in ``mode``; with
    these template overrides)."""
    service.close()
    config = replace(service.config, templates={**service.config.templates, **templates})
    if mode is not None:
        config = replace(config, daemon=replace(config.daemon, mode=mode))
    client = httpx.Client(transport=transport, follow_redirects=False) if transport else None
    service = bootstrap(
        config, clock=clock, sleep=lambda s: clock.advance(seconds=s), client=client
    )
    service.adapter.login()
    service.start()
    return service


def test_a_padded_post_saved_then_answered_502_is_not_posted_twice(world) -> None:
    """The GM shortened the dawn post below the forum's minimum: it went out padded, the forum
    saved it and answered 502; the forum's copy (text + padding) is the announcement."""
    clock, forum, tid, service = world
    transport = SavedThen502()
    service = restarted(service, clock, transport)
    _night_over(clock, service)
    dawn = announcement(service, "g1:night1:public")
    with service.store.transaction() as uow:
        uow.outbox.edit(dawn.id, "平安夜")  # 9 bytes: Discuz wants 10
    transport.armed = 1
    service.publish()
    assert announcement(service, dawn.key).state is S.FAILED
    clock.set(max(clock(), announcement(service, dawn.key).retry_at + timedelta(seconds=1)))
    Cycle(service, clock).run()
    mine = [p for p in forum.visible_posts(tid) if p.text.startswith("平安夜")]
    assert len(mine) == 1, [p.text for p in mine]
    assert announcement(service, dawn.key).state in (S.SENT, S.PUBLISHED)
    service.close()


def test_a_post_in_the_gms_bbcode_saved_then_answered_502_is_not_posted_twice(world) -> None:
    """The GM's template colours the title: the forum shows it rendered (plain text), and that
    is still the announcement sent."""
    clock, forum, tid, service = world
    transport = SavedThen502()
    title = "[b][color=Red]【第${n}夜结果】[/color][/b]"
    service = restarted(service, clock, transport, night_title=title)
    _night_over(clock, service)
    dawn = announcement(service, "g1:night1:public")
    assert dawn.text.startswith("[b][color=Red]【第1夜结果】")
    transport.armed = 1
    service.publish()
    assert announcement(service, dawn.key).state is S.FAILED
    clock.set(max(clock(), announcement(service, dawn.key).retry_at + timedelta(seconds=1)))
    Cycle(service, clock).run()
    mine = [p for p in forum.visible_posts(tid) if "【第1夜结果】" in p.text]
    assert len(mine) == 1, [p.text for p in mine]
    assert announcement(service, dawn.key).state in (S.SENT, S.PUBLISHED)
    service.close()


def test_the_gms_own_post_in_bbcode_publishes_the_draft(world) -> None:
    """Dry-run: the GM posts the proposed dawn post by hand, with the BBCode of his templates;
    the forum shows it rendered, and it is recognised as published (the day opens)."""
    clock, forum, tid, service = world
    service = restarted(
        service, clock, mode="dry-run",
        night_title="[size=5][b][color=Red]【第${n}夜结果】[/color][/b][/size]",
        no_death="[i][color=Gray]平安夜，无人死亡[/color][/i]",
    )  # fmt: skip
    _night_over(clock, service)
    dawn = announcement(service, "g1:night1:public")
    forum.post("神的使者", tid, dawn.text, at=clock())
    clock.advance(minutes=2)
    service.poll()
    assert announcement(service, dawn.key).state is S.PUBLISHED
    service.close()


class Killed(BaseException):
    """The daemon process dies here (nothing catches it, as nothing survives a SIGKILL)."""


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_a_second_identical_receipt_killed_before_its_send_is_still_sent(
    tmp_path, monkeypatch, engine: str
) -> None:
    """小明 sends the same action twice: two receipts with the same text. The daemon dies as it
    is about to send the second; after the restart, the first one on the forum is not taken
    for it (phpwind gives no PM id: the first is recorded without the forum's id)."""
    with sandbox_game(tmp_path, monkeypatch, engine=engine) as (clock, forum, tid, service):
        seer = player_name("小明", engine)
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        forum.send_pm(seer, "神的使者", "占卜 老王", at=clock())
        clock.advance(minutes=1)
        forum.send_pm(seer, "神的使者", "占卜 老王", at=clock())  # again, to be sure
        clock.advance(minutes=10)
        send_pm = service.adapter.send_pm

        def die_at_the_second(*args, **kwargs):
            if any(a.state is S.SENT for a in announcements(service)):
                raise Killed
            return send_pm(*args, **kwargs)

        monkeypatch.setattr(service.adapter, "send_pm", die_at_the_second)
        with pytest.raises(Killed):
            cycle.run()
        first, second = [a for a in announcements(service) if a.kind == "receipt"]
        assert (first.state, second.state) == (S.SENT, S.SENDING)
        assert second.text == first.text
        service.close()
        monkeypatch.undo()
        monkeypatch.setenv("SHENSHI_TEST_PASSWORD", GM_PASSWORD)
        again = restarted(service, clock)
        clock.advance(minutes=10)
        Cycle(again, clock).run()
        gm = forum.user("神的使者").uid
        out = [m for m in forum.messages.values() if m.sender_uid == gm and m.text == first.text]
        assert len(out) == 2, "the second receipt was taken for the first"
        again.close()


def test_a_receipt_edited_after_an_unclear_answer_is_not_sent_again(world) -> None:
    """The forum saved the receipt and answered 502; the GM then edited its text (as the alert
    allows). The forum's copy has the old text: the new one is not sent after it, and the GM
    is told where the old one is."""
    clock, forum, tid, service = world
    transport = SavedThen502()
    service = restarted(service, clock, transport)
    clock.set(START + timedelta(minutes=5))
    service.tick()
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    clock.advance(minutes=10)
    service.poll()
    [receipt] = [a for a in announcements(service) if a.kind == "receipt"]
    transport.armed = 1
    service.publish()
    assert announcement(service, receipt.key).state is S.FAILED
    clock.advance(minutes=1)
    with service.store.transaction() as uow:
        uow.outbox.edit(receipt.id, receipt.text + "（天神：收到）")
    clock.set(max(clock(), announcement(service, receipt.key).retry_at + timedelta(seconds=1)))
    Cycle(service, clock).run()
    gm = forum.user("神的使者").uid
    out = [m for m in forum.messages.values() if m.sender_uid == gm and m.text.startswith("已收到")]
    assert len(out) == 1, [m.text for m in out]
    [alert] = [a for a in alerts(service) if a.kind == "earlier_version_on_forum"]
    assert f"shenshi published {receipt.id}" in alert.message
    service.close()


def test_the_gms_post_publishes_only_the_draft_it_is(world) -> None:
    """Dry-run: ten sign-in notices wait, alike but for the name. The GM posts 老王's by hand:
    that one is published, not the nine others that merely look like it; and since the players
    read it, it confirms 老王's exit (issue 20: the notice waited for the GM's confirmation),
    which his post publishes too."""
    clock, forum, tid, service = world
    service = restarted(service, clock, mode="dry-run")
    clock.set(START + timedelta(hours=24, minutes=1))
    service.tick()
    notices = [a for a in announcements(service) if a.kind == "signin"]
    assert len(notices) > 2
    laowang = next(a for a in notices if a.text.startswith("老王"))
    forum.post("神的使者", tid, laowang.text, at=clock())
    clock.advance(minutes=2)
    service.poll()
    published = [a.key for a in announcements(service, [S.PUBLISHED])]
    assert published == [laowang.key, "g1:exit:老王"]
    assert not service.referee.state.is_alive("老王")
    assert all(a.state is S.UNCONFIRMED for a in announcements(service) if a.kind == "signin" and a.key != laowang.key)
    service.close()
