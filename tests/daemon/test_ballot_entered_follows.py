"""The PM telling a voter what the GM recorded for him (``override ballot``) follows the GM's
latest entry (gmattack3 F7: after three corrections it still said 「记为 英布」, and once sent,
a further correction claimed 「已提出公告 #63」 and proposed nothing)."""

from __future__ import annotations

from shenshi.daemon import gm_commands
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import announcements
from tests.daemon.test_hints_walk import deliver
from tests.daemon.test_rejected_result import day_one_voting


def told(svc, states=PENDING) -> list[str]:
    return [a.text for a in announcements(svc, states) if a.kind == "ballot_entered"]


def test_each_entry_replaces_the_pm_still_waiting_and_a_sent_one_is_followed(tmp_path) -> None:
    svc, clock = day_one_voting(tmp_path)
    for target in ("Rex", "老王", "小明"):
        gm_commands.correct(svc, "ballot", ["Tom_2", target])
    assert told(svc) == ["天神已把你本轮的投票记为 小明，这一票有效，不必再投。"]
    gm_commands.outbox_action(svc, "approve", [a.id for a in announcements(svc, PENDING)])
    deliver(svc)
    said = gm_commands.correct(svc, "ballot", ["Tom_2", "Rex"])
    [pending] = [a for a in announcements(svc, PENDING) if a.kind == "ballot_entered"]
    assert "记为 Rex" in pending.text and f"#{pending.id}" in " ".join(said.lines), said.lines

