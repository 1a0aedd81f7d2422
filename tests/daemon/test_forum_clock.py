"""The forum's clock jumping ahead: a post or PM dated days ahead of when the daemon read it
does not drag the phase clock there (the vote closed, the night resolved, the game over);
the GM is told, with both times."""

from __future__ import annotations

from datetime import timedelta

from shenshi.daemon.cycle import Cycle
from shenshi.rulesets.base import Phase
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import START, alerts

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode

AHEAD = timedelta(days=3)


def test_a_post_dated_days_ahead_does_not_end_the_day(world) -> None:
    clock, forum, tid, service = world
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    clock.set(START + timedelta(hours=24, minutes=1))
    cycle.run()
    cycle.run()
    assert service.referee.state.phase is Phase.DAY
    clock.advance(hours=1)
    forum.post("Tom_2", tid, "我觉得老王有问题", at=clock() + AHEAD)  # the forum's clock jumped
    clock.advance(minutes=1)
    cycle.run()
    state = service.referee.state
    assert state.phase is Phase.DAY and state.number == 1
    assert all(s.alive for s in state.seats)
    assert service.clock_time <= clock()
    [alert] = [a for a in alerts(service) if a.kind == "forum_clock_ahead"]
    assert "时钟" in alert.message


def test_a_pm_dated_days_ahead_does_not_resolve_the_night(world) -> None:
    clock, forum, tid, service = world
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    assert service.referee.state.phase is Phase.NIGHT
    forum.send_pm("Rex", "神的使者", "今晚好安静", at=clock() + AHEAD)
    clock.advance(minutes=10)
    cycle.run()
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    clock.advance(minutes=10)
    cycle.run()
    state = service.referee.state
    assert state.phase is Phase.NIGHT and state.number == 1
    assert {(s.actor, s.action) for s in state.submissions} == {("小明", "divine")}
    assert [a for a in alerts(service) if a.kind == "forum_clock_ahead"]
