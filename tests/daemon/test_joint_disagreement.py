"""Joint killers who disagree (issue 20, "#4 联合杀手意见不一 shows neither kill, no evidence and
no next step"): while the night is open the GM sees both kills with their times and can take
one (voiding the other), and the alert closes once they agree; at the close the rule's alert
names both kills too."""

from __future__ import annotations

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon.gm_commands import run_hint
from shenshi.daemon.status import build_status
from tests.daemon.helpers import START, alerts, at, config, pm
from tests.daemon.test_status import feed

DECLARATION = "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6


def night(tmp_path):
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path, mode="review"), clock=clock, forum=False)
    svc.start()
    clock.set(at(0.02))
    svc.tick()
    feed(svc, pm("夜行者", f"杀 Rex\n杀人宣言：{DECLARATION}", 1))
    feed(svc, pm("老王", f"杀 小明\n杀人宣言：{DECLARATION}", 2))
    return svc, clock


def test_the_gm_sees_both_kills_and_can_take_one(tmp_path) -> None:
    svc, _ = night(tmp_path)
    [alert] = [a for a in build_status(svc).alerts if a.kind == "joint_disagreement"]
    assert "夜行者 杀 Rex（12-01 21:00）" in alert.message and "老王 杀 小明（12-01 22:00）" in alert.message
    assert alert.evidence is not None  # the PM that made them disagree
    voids = [h for h in alert.advice.hints if h.args[:1] == ("void",)]
    assert [h.args[1] for h in voids] == ["夜行者", "老王"]
    run_hint(svc, voids[0])  # the GM takes 老王's kill
    [closed] = [a for a in alerts(svc) if a.kind == "joint_disagreement"]
    assert closed.resolved_at is not None and "作废 夜行者" in closed.resolution


def test_the_alert_closes_when_the_killers_agree(tmp_path) -> None:
    svc, _ = night(tmp_path)
    feed(svc, pm("夜行者", "杀 小明\n宣言同上", 3))
    [closed] = [a for a in alerts(svc) if a.kind == "joint_disagreement"]
    assert closed.resolved_at is not None


def test_at_the_close_the_rules_alert_names_both_kills(tmp_path) -> None:
    svc, clock = night(tmp_path)
    clock.set(at(24.5))
    svc.tick()
    [rule] = [a for a in alerts(svc) if a.kind.startswith("rule:joint_disagreement")]
    assert "夜行者 杀 Rex" in rule.message and "老王 杀 小明" in rule.message
    [view] = [a for a in build_status(svc).alerts if a.id == rule.id]
    assert view.advice.hints == () and "作废" in view.hint
