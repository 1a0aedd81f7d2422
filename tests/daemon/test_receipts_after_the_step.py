"""wolfadv W1: a 金箭 reply written before night 0's deadline and read after it (the daemon was
busy) got a receipt 「夜晚1截止（06:00）前可更改」 proposed at 06:03, the night settled and day
1 open. A receipt whose step is over says so, whatever step is open now."""

from __future__ import annotations

from shenshi.store.outbox import PENDING
from tests.daemon.helpers import START, announcements, at, post, werewolf_with_tree_holes
from tests.daemon.test_stream import _fed


def test_a_receipt_read_after_its_night_closed_promises_no_change(tmp_path) -> None:
    svc, clock = werewolf_with_tree_holes(tmp_path, {"cupid": "31"})
    svc.tick()
    cupid = next(s.name for s in svc.referee.state.seats if s.role == "cupid")
    a, b = [s.name for s in svc.referee.state.seats if s.role == "villager"][:2]
    times = svc.referee.times()
    due = min([*times.phase_deadlines.values(), times.closes])
    clock.set(times.closes + (at(0.05) - at(0)))  # read a few minutes after the dawn
    _fed(svc, post(cupid, f"金箭 {a} {b}", (due - START).total_seconds() / 3600 - 0.5, tid="31"))
    svc.tick()
    assert svc.referee.state.phase.value != "night"
    [receipt] = [x for x in announcements(svc, PENDING) if x.kind == "receipt" and x.destination == cupid]
    assert "可更改" not in receipt.text and "不能再更改" in receipt.text, receipt.text
