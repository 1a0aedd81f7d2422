"""newcomer2 F16/F17: one killer PMs 「杀 X」, his partner the declaration alone (he 执笔s it,
A-J3). The partner was told 「已收到杀人宣言」, the first killer that it was missing, the night
did not close early and the kill was voided at dawn. The declaration goes with the unit's kill
(RES-A5): the kill stands, nobody is told it is missing; a declaration with no kill to go with
is not 已收到."""

from __future__ import annotations

from tests.daemon.helpers import alerts, announcements, pm, started
from tests.daemon.test_status import feed

DECLARATION = "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6
OTHERS = [("小明", "占卜 老王"), ("月光", "束魂 老王"), ("阿杰", "诅咒 kk_大侠"), ("Tom_2", "祈祷 Rex"),
          ("白色的猫", "祈祷 Rex"), ("kk_大侠", "祈祷 Rex"), ("Rex", "祈祷 老王"), ("Lily99", "庇佑 Tom_2")]  # fmt: skip


def test_the_partners_declaration_goes_with_the_units_kill(tmp_path) -> None:
    svc, clock = started(tmp_path)
    feed(svc, pm("夜行者", "杀 月光", 0.1))
    missing = [a.kind for a in alerts(svc) if a.resolved_at is None]
    assert "declaration_missing" in missing, missing  # (told to send it: his partner may)
    feed(svc, pm("老王", f"杀人宣言：{DECLARATION}", 0.2))
    kills = [s for s in svc.referee.state.submissions if s.action == "kill"]
    assert {(s.actor, s.target) for s in kills} == {("夜行者", "月光"), ("老王", "月光")}
    assert not [a for a in alerts(svc) if a.kind in ("declaration_missing",) and a.resolved_at is None]
    receipts = {a.destination: a.text for a in announcements(svc) if a.kind == "receipt"}
    assert "已收到杀人宣言" in receipts["老王"]
    for i, (who, text) in enumerate(OTHERS):
        feed(svc, pm(who, text, 0.3 + i / 100))
    svc.tick()
    assert svc.referee.state.phase.value == "dawn"  # complete: one agreed kill with its declaration
    result = next(a for a in announcements(svc) if a.kind == "night_result")
    assert "月光" in result.text and DECLARATION[:20] in result.text, result.text


def test_a_declaration_before_any_kill_is_not_taken(tmp_path) -> None:
    svc, clock = started(tmp_path)
    feed(svc, pm("老王", f"杀人宣言：{DECLARATION}", 0.2))
    assert not [s for s in svc.referee.state.submissions if s.action == "kill"]
    [receipt] = [a for a in announcements(svc) if a.kind == "receipt" and a.destination == "老王"]
    assert receipt.text.startswith("未受理") and "还没有收到你们的杀人指令" in receipt.text, receipt.text


def test_a_declaration_refused_before_the_kill_says_to_send_it_again_once_the_kill_came(tmp_path) -> None:
    """recheck3 F1: the partner's declaration came seconds before the kill: its refusal
    (「还没有收到你们的杀人指令」) stayed beside the kill's receipt."""
    svc, clock = started(tmp_path)
    feed(svc, pm("老王", f"杀人宣言：{DECLARATION}", 0.2))
    feed(svc, pm("夜行者", "杀 月光", 0.21))
    [receipt] = [a for a in announcements(svc) if a.kind == "receipt" and a.destination == "老王"
                 and a.state.value == "proposed"]  # fmt: skip
    assert "还没有收到你们的杀人指令" not in receipt.text and "现在请再发一次宣言" in receipt.text, receipt.text
    feed(svc, pm("老王", f"杀人宣言：{DECLARATION}", 0.3))  # he does: the kill has it
    assert not [a for a in alerts(svc) if a.kind == "declaration_missing" and a.resolved_at is None]
