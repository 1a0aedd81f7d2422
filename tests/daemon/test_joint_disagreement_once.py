"""newcomer N-19/N-21: a killer of a disagreeing pair sent his declaration on its own; both
were sent the disagreement notice again word for word (the notice named the choices in time
order, and the declaration re-dated his kill), and the GM's alert was marked 「已解决」 by a
declaration that resolved nothing, beside a new alert saying the same. A disagreement is told
once, and its alert closes when the unit agrees."""

from __future__ import annotations

from shenshi.daemon.gm_commands import outbox_action
from tests.daemon.helpers import alerts, announcements, at, pm, started
from tests.daemon.test_status import feed

DECLARATION = "杀人宣言：" + "月光下的小巷里，" * 20


def _disagreeing(tmp_path):
    svc, clock = started(tmp_path, "game6-10")
    clock.set(at(1))
    feed(svc, pm("夜行者", "杀 Rex", 1))
    clock.set(at(1.2))
    feed(svc, pm("老王", "杀 月光\n" + DECLARATION, 1.2))
    outbox_action(svc, "approve", [a.id for a in announcements(svc) if a.state.value == "proposed"])
    return svc, clock


def test_a_declaration_on_its_own_tells_no_disagreement_again(tmp_path) -> None:
    svc, clock = _disagreeing(tmp_path)
    told = [a for a in announcements(svc) if a.kind == "joint_disagreement"]
    assert {a.destination for a in told} == {"夜行者", "老王"}
    clock.set(at(2))
    feed(svc, pm("夜行者", DECLARATION, 2))
    again = [a for a in announcements(svc) if a.kind == "joint_disagreement" and a not in told]
    assert not again, [(a.destination, a.text) for a in again]
    assert all(a.state.value == "approved" for a in announcements(svc) if a.id in {t.id for t in told})
    [open_one] = [a for a in alerts(svc) if a.kind == "joint_disagreement"]
    assert open_one.resolved_at is None, open_one.resolution


def test_the_disagreement_alert_closes_when_the_pair_agrees_and_not_before(tmp_path) -> None:
    svc, clock = _disagreeing(tmp_path)
    clock.set(at(2))
    feed(svc, pm("夜行者", "杀 小明", 2))  # another choice: still no agreement
    first, second = [a for a in alerts(svc) if a.kind == "joint_disagreement"]
    assert first.resolved_at is not None and "仍不一致" in first.resolution, first.resolution
    assert second.resolved_at is None and "小明" in second.message
    clock.set(at(3))
    feed(svc, pm("夜行者", "杀 月光", 3))  # they agree
    [last] = [a for a in alerts(svc) if a.kind == "joint_disagreement" and a.id == second.id]
    assert last.resolved_at is not None and "仍不一致" not in last.resolution, last.resolution
    assert len([a for a in alerts(svc) if a.kind == "joint_disagreement"]) == 2
