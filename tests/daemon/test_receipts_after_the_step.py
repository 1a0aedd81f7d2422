"""wolfadv W1: a 金箭 reply written before night 0's deadline and read after it (the daemon was
busy) got a receipt 「夜晚1截止（06:00）前可更改」 proposed at 06:03, the night settled and day
1 open. A receipt whose step is over says so, whatever step is open now."""

from __future__ import annotations

import pytest

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


COMMONERS = ("Tom_2", "白色的猫", "kk_大侠", "Rex")
DECLARATION = "杀人宣言：" + "月光下的小巷里，风吹过破旧的招牌，" * 8


def _night_one(tmp_path):
    from tests.daemon.helpers import started

    return started(tmp_path)


def test_a_refusal_after_the_night_settled_invites_no_resend(tmp_path) -> None:
    """recheck3 F3: after the night settled (its result not yet out), a conditional PM was told
    「如要行动，请直接写明对象重新发送」: nothing sent now counts; the receipt says why."""
    from tests.daemon.helpers import pm
    from tests.daemon.test_status import feed

    svc, clock = _night_one(tmp_path)
    clock.set(at(24.1))
    svc.tick()
    assert svc.referee.state.phase.value == "dawn"
    for who, text in (("Lily99", "我想改成祈祷 Rex 可以吗"), ("小明", "占卜 老五"), ("月光", "束魂 老王或者Rex")):
        feed(svc, pm(who, text, 24.2))
        [receipt] = [x for x in announcements(svc, PENDING) if x.kind == "receipt" and x.destination == who]
        assert "重新发送" not in receipt.text and "结算" in receipt.text, receipt.text
        assert receipt.text.startswith("未受理："), receipt.text


def test_while_the_night_is_open_the_refusal_still_invites_a_resend(tmp_path) -> None:
    from tests.daemon.helpers import pm
    from tests.daemon.test_status import feed

    svc, clock = _night_one(tmp_path)
    feed(svc, pm("Lily99", "我想祈祷 Rex 可以吗", 0.5))
    [receipt] = [x for x in announcements(svc, PENDING) if x.kind == "receipt" and x.destination == "Lily99"]
    assert "重新发送" in receipt.text, receipt.text


@pytest.mark.parametrize("last", ["杀 Rex\n" + DECLARATION, DECLARATION])
def test_a_killers_receipt_covered_by_the_declaration_that_closed_the_night_says_it_settled(tmp_path, last) -> None:
    """recheck3 F2: the partner's kill with its declaration was the PM that completed the night:
    the first killer's waiting receipt, rewritten to 「杀人宣言已由 老王 提交」, still said
    「结算前可更改」 while every other receipt of the night said it had settled."""
    from tests.daemon.helpers import pm
    from tests.daemon.test_status import feed

    svc, clock = _night_one(tmp_path)
    feed(svc, pm("夜行者", "杀 Rex", 0.1))  # no declaration: his partner writes it
    for i, (who, text) in enumerate([("小明", "占卜 老王"), ("月光", "束魂 阿杰"), ("阿杰", "诅咒 小明"),
                                     ("Lily99", "庇佑 白色的猫"), *((n, "祈祷 小明") for n in COMMONERS)]):  # fmt: skip
        feed(svc, pm(who, text, 0.2 + i / 100))
    feed(svc, pm("老王", last, 0.5))
    svc.tick()
    assert svc.referee.state.phase.value == "dawn"  # the night closed early on the last PM
    [first] = [x for x in announcements(svc, PENDING) if x.kind == "receipt" and x.destination == "夜行者"]
    assert "已由 老王 提交" in first.text and "可更改" not in first.text and "已提前结算" in first.text, first.text


def test_an_exit_withdraws_the_receipt_of_the_action_it_voids(tmp_path) -> None:
    """gmattack3 F12: after `override exit`, his receipt 「已收到：今晚占卜 …，天神答复前可更改」 stayed
    to approve, and at dawn he was offered both 「你已出局」 and 「已收到…本阶段已结算」."""
    from shenshi.daemon import gm_commands
    from tests.daemon.helpers import pm
    from tests.daemon.test_status import feed

    svc, clock = _night_one(tmp_path)
    feed(svc, pm("小明", "占卜 老王", 0.5))
    [receipt] = [x for x in announcements(svc, PENDING) if x.kind == "receipt" and x.destination == "小明"]
    assert receipt.text.startswith("已收到")
    gm_commands.correct(svc, "exit", ["小明"], reason="本人申请退出")
    assert not [x for x in announcements(svc, PENDING) if x.kind == "receipt" and x.destination == "小明"]
    feed(svc, pm("小明", "占卜 Rex", 1.0))  # out: refused, and told so
    clock.set(at(24.1))
    svc.tick()
    told = [x.text for x in announcements(svc, PENDING) if x.destination == "小明"]
    assert not [t for t in told if t.startswith("已收到")], told


def test_a_night_deadlines_post_approved_late_says_only_what_is_ahead(tmp_path) -> None:
    """newcomer4 W6: the night's deadlines post, approved after 夜晚1 had closed, went out
    promising 「00:00 前」; once every deadline it names has passed it is withdrawn."""
    svc, clock = werewolf_with_tree_holes(tmp_path, {"cupid": "31"})
    svc.tick()
    [post_] = [x for x in announcements(svc, PENDING) if x.kind == "night_deadlines"]
    first = min(svc.referee.times().phase_deadlines.values())
    assert first.strftime("%H:%M") in post_.text
    clock.set(first + (at(0.05) - at(0)))
    svc.tick()
    assert not [x for x in announcements(svc, PENDING) if x.kind == "night_deadlines"]
