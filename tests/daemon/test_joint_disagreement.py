"""Joint killers who disagree (issue 20, "#4 联合杀手意见不一 shows neither kill, no evidence and
no next step"): while the night is open the GM sees both kills with their times and can take
one (voiding the other), and the alert closes once they agree; at the close the rule's alert
names both kills too."""

from __future__ import annotations

from shenshi.daemon.gm_commands import run_hint
from shenshi.daemon.status import build_status
from tests.daemon.helpers import alerts, at, pm, started
from tests.daemon.test_status import feed

DECLARATION = "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6


def night(tmp_path):
    svc, clock = started(tmp_path)
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


def test_a_partners_declaration_read_in_the_same_poll_covers_the_first_killers(tmp_path) -> None:
    """Seen on real forums: 老王's kill PM (no declaration) and 夜行者's with it, read in one
    poll: 老王 was told to send one although it had arrived, and the alert stayed after the
    kill went through."""
    from tests.daemon.helpers import announcements

    svc, clock = started(tmp_path)
    with svc.store.transaction() as uow:  # one poll finds both
        uow.evidence.record(svc.game_id, [(pm("老王", "杀 Rex", 1), None),
                                          (pm("夜行者", f"杀 Rex\n杀人宣言：{DECLARATION}", 1.1), None)])  # fmt: skip
    svc.process()
    from shenshi.store.outbox import PENDING

    [receipt] = [a for a in announcements(svc, PENDING) if a.kind == "receipt" and a.destination == "老王"]
    assert receipt.text == "已收到：今晚杀 Rex（杀人宣言已由 夜行者 提交），结算前可更改（行动全部到齐后会提前结算）"
    missing = [a for a in alerts(svc) if a.kind == "declaration_missing"]
    assert all(a.resolved_at is not None for a in missing)


def test_a_short_declaration_is_one_alert_the_rules_raise_at_the_close(tmp_path) -> None:
    from tests.daemon.helpers import announcements

    svc, clock = started(tmp_path)
    feed(svc, pm("夜行者", "杀 Rex\n杀人宣言：月黑风高，夜行者来了。", 1))
    [receipt] = [a for a in announcements(svc) if a.kind == "receipt"]
    assert "不足 100 字" in receipt.text  # the player is told at once
    assert not [a for a in alerts(svc) if "declaration_short" in a.kind]
    clock.set(at(24.5))
    svc.tick()
    assert [a.kind for a in alerts(svc) if "declaration_short" in a.kind] == ["rule:declaration_short"]


def test_status_shows_a_disagreement_and_a_kill_without_declaration_while_the_night_is_open(tmp_path) -> None:
    """Issue 20: the GM sees, during the night (not after it settled), that the two killers
    named different targets and that a recorded kill has no declaration; both go once fixed."""
    from shenshi.commands.status import render
    from shenshi.daemon.status import build_status
    from tests.daemon.helpers import pm, started
    from tests.daemon.test_status import feed

    svc, clock = started(tmp_path)
    feed(svc, pm("夜行者", "杀 Rex", 0.1))
    feed(svc, pm("老王", "杀 Tom_2", 0.2))
    status = build_status(svc)
    assert status.phase == "night"
    text = "\n".join(render(status, 300))
    assert "!! 联合行动意见不一（夜行者、老王）：夜行者 杀 Rex、老王 杀 Tom_2" in text, text
    assert "!! 夜行者 杀 Rex 还没有杀人宣言" in text and "!! 老王 杀 Tom_2 还没有杀人宣言" in text
    feed(svc, pm("老王", "杀 Rex\n杀人宣言：" + "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6, 0.3))
    status = build_status(svc)
    assert status.phase == "night" and status.night.troubles == ()  # they agree; 老王's declaration covers both
