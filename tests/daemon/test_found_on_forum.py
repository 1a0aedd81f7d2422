"""Our own post recognised on the forum after an unclear answer or a crash, whatever the forum
did to its text on the way (padding to the minimum length, …): never posted twice."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import httpx

from shenshi.bootstrap import bootstrap
from shenshi.daemon.cycle import Cycle
from shenshi.store.outbox import AnnouncementState
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import START, announcement
from tests.daemon.test_sending import SavedThen502, _night_over

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode

S = AnnouncementState


def _restarted_with(transport, service, clock, **templates):
    service.close()
    config = replace(service.config, templates={**service.config.templates, **templates})
    service = bootstrap(config, clock=clock, sleep=lambda s: clock.advance(seconds=s),
                        client=httpx.Client(transport=transport, follow_redirects=False))  # fmt: skip
    service.adapter.login()
    service.start()
    return service


def test_a_padded_post_saved_then_answered_502_is_not_posted_twice(world) -> None:
    """The GM shortened the dawn post below the forum's minimum: it went out padded, the forum
    saved it and answered 502; the forum's copy (text + padding) is the announcement."""
    clock, forum, tid, service = world
    transport = SavedThen502()
    service = _restarted_with(transport, service, clock)
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
    service = _restarted_with(transport, service, clock, night_title=title)
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
    service.close()
    config = replace(
        service.config,
        daemon=replace(service.config.daemon, mode="dry-run"),
        templates={"night_title": "[size=5][b][color=Red]【第${n}夜结果】[/color][/b][/size]",
                   "no_death": "[i][color=Gray]平安夜，无人死亡[/color][/i]"},
    )  # fmt: skip
    service = bootstrap(config, clock=clock, sleep=lambda s: clock.advance(seconds=s))
    service.adapter.login()
    service.start()
    _night_over(clock, service)
    dawn = announcement(service, "g1:night1:public")
    forum.post("神的使者", tid, dawn.text, at=clock())
    clock.advance(minutes=2)
    service.poll()
    assert announcement(service, dawn.key).state is S.PUBLISHED
    service.close()
