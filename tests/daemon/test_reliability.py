"""Reliability on the sandbox: the forum down for an hour, 5xx bursts, an expired session."""

from __future__ import annotations

from datetime import timedelta

from shenshi.daemon.cycle import Cycle
from shenshi.rulesets.base import Phase
from shenshi.store.records import EvidenceKind
from tests.daemon.helpers import START, announcements
from tests.daemon.test_service_sandbox import world  # noqa: F401  (the sandbox fixture)


def test_the_forum_down_for_an_hour_then_everything_is_caught_up(world) -> None:  # noqa: F811
    clock, forum, tid, service = world
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    assert service.referee.state.phase is Phase.NIGHT
    forum.faults.maintenance(True)
    delays = []
    for i, (name, text) in enumerate([("小明", "占卜 老王"), ("夜行者", "诅咒 阿杰"), ("阿杰", "杀 Rex\n" + "月黑风高，" * 30)]):
        forum.send_pm(name, "神的使者", text, at=clock())
        forum.post("Tom_2", tid, f"第{i + 1}条分析：我觉得老王很可疑", at=clock())
        result = cycle.run()
        assert result.errors and not result.polled  # a WARNING, not a crash
        delays.append(cycle.next_delay())
        clock.advance(minutes=20)
    assert delays[-1] > delays[0]  # the back-off grows
    forum.faults.maintenance(False)
    result = cycle.run()
    assert result.polled and not result.errors
    actions = {(s.actor, s.action) for s in service.referee.state.submissions}
    assert actions == {("小明", "divine"), ("夜行者", "curse"), ("阿杰", "kill")}
    posts = list(service.store.stream_evidence(service.game_id, kind=EvidenceKind.POST))
    assert sum("分析" in e.text for e in posts) == 3
    assert not list(service.store.stream_evidence(service.game_id, unprocessed=True))


def test_a_5xx_burst_and_an_expired_session_lose_nothing(world) -> None:  # noqa: F811
    clock, forum, tid, service = world
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    forum.faults.fail_next(3, status=502)
    cycle.run()
    forum.faults.expire_sessions()
    forum.send_pm("月光", "神的使者", "束魂 Tom_2", at=clock())
    cycle.run()
    done = {(s.actor, s.action) for s in service.referee.state.submissions}
    assert done == {("小明", "divine"), ("月光", "bind")}
    clock.set(START + timedelta(hours=24))
    cycle.run()
    assert service.referee.state.phase in (Phase.DAWN, Phase.DAY)
    assert any(a.kind == "divination" for a in announcements(service))
