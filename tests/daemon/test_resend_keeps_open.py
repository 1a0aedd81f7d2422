"""A refused PM its sender was told to send again keeps the step from closing early (issue 21,
adversary3 A2 A8; RULES.md §1.10 "Early close"): no result post while the refusal stands, the
result once he resends (or the GM enters or voids his action); the same after a restart
between the refused PM and the next; status says why the night waits. Which refusals keep it
open is what their receipts say: those that ask for a resend."""

from __future__ import annotations

import re

import pytest

from shenshi.daemon.gm_commands import correct
from shenshi.daemon.resend import RESENDABLE
from shenshi.daemon.status import build_status
from shenshi.wording.defaults import TEMPLATES
from tests.daemon.helpers import announcements, at, pm, started
from tests.daemon.test_status import feed

DECLARATION = "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6
# Everyone but Lily99 (the blesser) acts in night 1 of game6-10.
OTHERS = [("夜行者", f"杀 Rex\n杀人宣言：{DECLARATION}"), ("老王", "杀 Rex"), ("小明", "占卜 老王"),
          ("月光", "束魂 老王"), ("阿杰", "诅咒 kk_大侠"), ("Tom_2", "祈祷 Rex"), ("白色的猫", "祈祷 Rex"),
          ("kk_大侠", "祈祷 Rex")]  # fmt: skip


def result_posts(svc) -> list[str]:
    return [a.text for a in announcements(svc) if a.kind != "receipt" and "第1夜" in a.text and "结果" in a.text]


def refused_in_the_last_cycle(tmp_path, refused: str = "庇佑 周八八"):
    """A8: every holder has a valid action in except Rex; Lily99 (with a valid 庇佑 already)
    sends a PM that is refused and asks for a resend, and in the same poll Rex's PM completes
    what the rules core sees."""
    svc, clock = started(tmp_path)
    for i, (who, text) in enumerate(OTHERS):
        feed(svc, pm(who, text, 0.1 + i / 1000))
    feed(svc, pm("Lily99", "庇佑 Tom_2", 0.15))
    with svc.store.transaction() as uow:  # one poll finds both
        uow.evidence.record(svc.game_id, [(pm("Lily99", refused, 0.3), None), (pm("Rex", "祈祷 老王", 0.31), None)])
    svc.process()
    svc.tick()
    return svc, clock


def test_a_refusal_asking_for_a_resend_keeps_the_night_open_until_the_resend(tmp_path) -> None:
    svc, _ = refused_in_the_last_cycle(tmp_path)
    assert svc.referee.state.phase.value == "night"
    assert result_posts(svc) == []
    [receipt] = [a.text for a in announcements(svc) if a.kind == "receipt" and a.destination == "Lily99" and "未受理" in a.text]
    assert "请写对名字后重新发送" in receipt
    rex = next(a.text for a in announcements(svc) if a.kind == "receipt" and a.destination == "Rex")
    assert "提前结算" not in rex or "行动全部到齐后" in rex  # never "已提前结算" while a resend is awaited
    assert "已提前结算" not in rex
    troubles = build_status(svc).night.troubles
    assert any("Lily99" in t and "重新发送" in t and "不提前结束" in t for t in troubles), troubles
    feed(svc, pm("Lily99", "庇佑 Tom_2", 0.4))  # the resend
    svc.tick()
    assert svc.referee.state.phase.value == "dawn"
    assert len(result_posts(svc)) == 1


def test_a_restart_between_the_refused_pm_and_the_next_keeps_the_night_waiting(tmp_path) -> None:
    svc, clock = refused_in_the_last_cycle(tmp_path)
    svc.rebuild()  # the daemon restarted: the referee comes back from the store
    svc.tick()
    assert svc.referee.awaited.holders() == ("Lily99",)
    assert svc.referee.state.phase.value == "night" and result_posts(svc) == []
    feed(svc, pm("Lily99", "庇佑 Tom_2", 0.4))
    svc.tick()
    assert svc.referee.state.phase.value == "dawn" and len(result_posts(svc)) == 1
    svc.rebuild()
    assert svc.referee.awaited.holders() == ()


def test_an_earlier_action_read_after_a_restart_does_not_clear_a_later_refusal(tmp_path) -> None:
    """Lily99's valid 庇佑 was sent before her refused PM: after a restart it does not count as
    her resend."""
    svc, _ = refused_in_the_last_cycle(tmp_path)
    svc.rebuild()
    svc.rebuild()
    assert svc.referee.awaited.holders() == ("Lily99",)


@pytest.mark.parametrize("what,args,then", [("action", ["Lily99", "庇佑", "Tom_2"], "dawn"),
                                           ("void", ["Lily99", "庇佑"], "night")])  # (no 庇佑 left: it waits)
def test_the_gms_entry_or_void_ends_the_wait(tmp_path, what, args, then) -> None:
    svc, clock = refused_in_the_last_cycle(tmp_path)
    clock.set(at(0.5))
    correct(svc, what, args)
    svc.read_corrections()
    svc.tick()
    assert svc.referee.awaited.holders() == ()
    assert svc.referee.state.phase.value == then and len(result_posts(svc)) == (then == "dawn")


def test_a_refusal_nothing_can_fix_does_not_keep_the_night_open(tmp_path) -> None:
    svc, _ = refused_in_the_last_cycle(tmp_path, refused="占卜 Tom_2")  # a blesser has no divination
    assert svc.referee.awaited.holders() == ()
    assert svc.referee.state.phase.value == "dawn" and len(result_posts(svc)) == 1


RESEND = re.compile(r"重新发送|重发|请换一个对象|请投给|请直接把|请写明")


@pytest.mark.parametrize("name", sorted(n for n in TEMPLATES if n.startswith("reason_") or n == "receipt_which_game"))
def test_a_refusal_keeps_the_step_open_exactly_when_its_receipt_asks_for_a_resend(name) -> None:
    """Every refusal's receipt: the kinds that keep the step open are those whose text asks
    the player to send it again (a next-window note or a next-step resend aside)."""
    # (the reasons given under another alert kind's name: an unknown game, a name written as 他)
    kind = {"receipt_which_game": "pm_game_unknown", "reason_pronoun_target": "unknown_name"}.get(
        name, name.removeprefix("reason_"))
    text = TEMPLATES[name].default
    asks = bool(RESEND.search(text)) and name not in ("receipt_next_window", "reason_not_in_phase")
    assert (kind in RESENDABLE) == asks, (name, text)


def test_status_says_why_a_night_with_everything_in_stays_open(tmp_path) -> None:
    """gmattack A12: every action was in, the night ran to its deadline, and status said only
    「到时：…结算这一夜」. An exit not announced yet keeps it open: status says so."""
    svc, clock = started(tmp_path)
    for i, (who, text) in enumerate(OTHERS):
        feed(svc, pm(who, text, 0.1 + i / 1000))
    correct(svc, "exit", ["Lily99"], reason="本人申请退出")  # her exit post not out yet
    feed(svc, pm("Rex", "祈祷 老王", 0.3))
    svc.tick()
    assert svc.referee.state.phase.value == "night"
    troubles = build_status(svc).night.troubles
    assert any("Lily99" in t and "退出公告还没发出" in t for t in troubles), troubles
