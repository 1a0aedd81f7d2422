"""A joint unit told that it disagreed (A-J2: 「…否则本夜这一行动作废」) whose choices agree again
while the night is open — a partner changed his, or the GM voided one (gmattack3 F3: the other
killer was never told, and his kill went through at dawn) — is told what stands now."""

from __future__ import annotations

import pytest

from shenshi.daemon import gm_commands
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import announcements, pm, started
from tests.daemon.test_hints_walk import deliver
from tests.daemon.test_status import feed

DECLARATION = "杀人宣言：" + "月光下的小巷里，风吹过破旧的招牌，" * 8


def disagreeing(tmp_path):
    svc, clock = started(tmp_path, mode="review")
    feed(svc, pm("夜行者", f"杀 Rex\n{DECLARATION}", 0.5))
    feed(svc, pm("老王", f"杀 小明\n{DECLARATION}", 0.6))
    told = [a for a in announcements(svc, PENDING) if a.kind == "joint_disagreement"]
    assert {a.destination for a in told} == {"夜行者", "老王"}
    gm_commands.outbox_action(svc, "approve", [a.id for a in announcements(svc, PENDING)])
    deliver(svc)  # they read that it is void unless they agree
    return svc, clock


def agreed(svc) -> dict[str, str]:
    return {a.destination: a.text for a in announcements(svc, PENDING) if a.kind == "joint_agreed"}


@pytest.mark.parametrize("how", ["partner", "void"])
def test_a_unit_that_agrees_again_is_told_what_stands(tmp_path, how) -> None:
    svc, clock = disagreeing(tmp_path)
    if how == "partner":
        feed(svc, pm("老王", "改杀 Rex", 0.8))
        stands = "夜行者 杀 Rex、老王 杀 Rex"
    else:
        gm_commands.correct(svc, "void", ["老王", "杀"])
        stands = "夜行者 杀 Rex"
    told = agreed(svc)
    assert set(told) == {"夜行者", "老王"}, told
    assert all(f"现在一致了：{stands}" in text for text in told.values()), told


def test_nothing_is_said_while_they_still_disagree_or_were_never_told(tmp_path) -> None:
    svc, clock = started(tmp_path, mode="review")
    feed(svc, pm("夜行者", f"杀 Rex\n{DECLARATION}", 0.5))
    feed(svc, pm("老王", f"杀 小明\n{DECLARATION}", 0.6))
    feed(svc, pm("老王", "改杀 Rex", 0.8))  # they agree before any notice went out
    assert not agreed(svc)
    assert not [a for a in announcements(svc, PENDING) if a.kind == "joint_disagreement"]  # withdrawn
