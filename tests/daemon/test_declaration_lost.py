"""gmattack A10: a killer was told 「杀人宣言已由 老王 提交」; 老王 then left the game during the
night, the kill was voided at dawn for a missing declaration, and the killer never learnt he
could still send one. He is told, and the notice is withdrawn once he sends his own."""

from __future__ import annotations

from shenshi.daemon import gm_commands
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import announcements, at, pm, started
from tests.daemon.test_status import feed

DECLARATION = "杀人宣言：" + "月光下的小巷里，风吹过破旧的招牌，" * 8


def test_a_killer_whose_partners_declaration_left_with_him_is_told(tmp_path) -> None:
    svc, clock = started(tmp_path)
    clock.set(at(1))
    feed(svc, pm("夜行者", "杀 Rex\n" + DECLARATION, 1))
    feed(svc, pm("老王", "杀 Rex，宣言同上", 1.1))
    gm_commands.correct(svc, "exit", ["夜行者"], reason="本人申请退出")
    [told] = [a for a in announcements(svc, PENDING) if a.kind == "declaration_lost"]
    assert told.destination == "老王" and "夜行者 已出局" in told.text and "补交杀人宣言" in told.text
    feed(svc, pm("老王", DECLARATION, 2))
    assert not [a for a in announcements(svc, PENDING) if a.kind == "declaration_lost"]


def test_a_partner_gone_out_leaves_no_disagreement(tmp_path) -> None:
    """recheck2 A10: after the partner's exit the other killer chose another target; the GM's
    alert said the pair disagreed (「按规则本夜这一行动作废」) and his receipt promised no early
    close until they agreed, though the partner was out."""
    from tests.daemon.helpers import alerts

    svc, clock = started(tmp_path)
    clock.set(at(1))
    feed(svc, pm("夜行者", "杀 Rex\n" + DECLARATION, 1))
    feed(svc, pm("老王", "杀 Rex，宣言同上", 1.1))
    gm_commands.correct(svc, "exit", ["夜行者"], reason="本人申请退出")
    feed(svc, pm("老王", "杀 月光\n" + DECLARATION, 2))
    assert not svc.referee.disagreements(svc.referee.state)
    assert not [a for a in alerts(svc) if a.kind == "joint_disagreement" and a.resolved_at is None]
    [receipt] = [a for a in announcements(svc) if a.kind == "receipt" and a.destination == "老王"][-1:]
    assert "同伴选的目标与你不同" not in receipt.text, receipt.text
