"""Nights off the script (issue 20, newcomer3 N4 N5 N7): joint killers who disagree are told so
and no receipt promises the early close the rules forbid (RULES.md "Early close", A-J2); a
declaration closes only the alerts of kills it covers (A-J3); a declaration sent apart is not
a second kill."""

from __future__ import annotations

from shenshi.daemon.gm_commands import enter_action
from shenshi.daemon.status import build_status
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import alerts, announcements, at, pm, started
from tests.daemon.test_status import feed

DECLARATION = "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6
EARLY = "行动全部到齐后会提前结算"


def pending_pms(svc, to: str) -> list[str]:
    return [a.text for a in announcements(svc, PENDING) if a.destination == to]


def test_killers_who_disagree_are_told_and_no_receipt_promises_an_early_close(tmp_path) -> None:
    svc, clock = started(tmp_path, "game6-10")
    feed(svc, pm("夜行者", f"杀 Rex\n杀人宣言：{DECLARATION}", 0.05))
    assert any(EARLY in text for text in pending_pms(svc, "夜行者"))  # alone, it may close early
    feed(svc, pm("老王", "杀 月光", 0.1))
    for killer in ("夜行者", "老王"):
        texts = pending_pms(svc, killer)
        assert not any(EARLY in text for text in texts), texts
        [notice] = [t for t in texts if "意见不一" in t]
        assert "夜行者 杀 Rex" in notice and "老王 杀 月光" in notice and "作废" in notice
    # the GM's correction is a choice as well: they agree now, the notices are withdrawn
    clock.set(at(0.5))
    enter_action(svc, ["老王", "杀", "Rex"])
    for killer in ("夜行者", "老王"):
        texts = pending_pms(svc, killer)
        assert not any("意见不一" in text for text in texts), texts
    assert any(EARLY in text for text in pending_pms(svc, "夜行者"))


def test_a_disagreement_the_gm_enters_is_told_too(tmp_path) -> None:
    svc, _ = started(tmp_path, "game6-10")
    feed(svc, pm("夜行者", f"杀 Rex\n杀人宣言：{DECLARATION}", 0.05))
    enter_action(svc, ["老王", "杀", "月光"], declaration=DECLARATION)
    assert [t for t in pending_pms(svc, "老王") if "意见不一" in t]
    assert [t for t in pending_pms(svc, "夜行者") if "意见不一" in t]


def test_a_partners_declaration_for_another_target_leaves_the_missing_one_open(tmp_path) -> None:
    svc, _ = started(tmp_path, "game6-10")
    feed(svc, pm("老王", "杀 月光", 0.05))  # no declaration
    [missing] = [a for a in alerts(svc) if a.kind == "declaration_missing"] or [None]
    feed(svc, pm("夜行者", f"杀 Rex\n杀人宣言：{DECLARATION}", 0.1))
    status = build_status(svc)
    still = [a for a in alerts(svc) if "杀人宣言" in a.message and a.resolved_at is None]
    troubles = " ".join(status.night.troubles)
    assert "老王 杀 月光 还没有杀人宣言" in troubles
    if missing is not None:
        assert still, [(a.kind, a.message, a.resolution) for a in alerts(svc)]
    receipts = pending_pms(svc, "老王")
    assert not any("夜行者" in t and "杀人宣言" in t and "已由" in t for t in receipts), receipts
    # the same target: the partner's declaration covers it (A-J3)
    feed(svc, pm("老王", "杀 Rex", 0.15))
    assert all(a.resolved_at is not None for a in alerts(svc) if a.kind == "declaration_missing")


def test_a_declaration_sent_apart_is_not_a_second_kill(tmp_path) -> None:
    svc, _ = started(tmp_path, "game6-10")
    feed(svc, pm("夜行者", "杀 Rex", 0.05))
    feed(svc, pm("老王", "杀 月光", 0.1))
    feed(svc, pm("夜行者", f"杀人宣言：{DECLARATION}", 0.2))
    # one disagreement, one alert (newcomer N-21): the declaration changed no one's choice
    [view] = [a for a in alerts(svc) if a.kind == "joint_disagreement"]
    assert view.message.count("夜行者") == 1 and view.resolved_at is None, view.message
    actions = [v.words for v in build_status(svc).night.submitted]
    assert actions.count("夜行者 杀 Rex") == 1 and "夜行者 补交杀人宣言（杀 Rex）" in actions, actions
