"""wolfadv W10: after 夜晚2 closed (03:00) and the night settled, the witch's 「改成 毒药 X」 was
refused as 「该技能已经用过」 (spent that very night: the real reason is the deadline), and a
guard's late reply as 「请在下一阶段开始后重新发送」. A reply after its night phase closed is
late for that phase, whatever settled since."""

from __future__ import annotations

from tests.daemon.helpers import alerts, announcements, at, post, werewolf_night_one
from tests.daemon.test_stream import _fed


def test_replies_after_the_night_settled_are_late_for_their_phase(tmp_path) -> None:
    svc, clock = werewolf_night_one(tmp_path, {"witch": "44", "guard": "45"}, sheriff_role="witch")
    witch = next(s.name for s in svc.referee.state.seats if s.role == "witch")
    guard = next(s.name for s in svc.referee.state.seats if s.role == "guard")
    clock.set(at(53))  # 夜晚2 is open (夜晚1 closed at 00:00)
    svc.tick()
    _fed(svc, post(witch, "毒药 Rex", 53.1, tid="44"))
    clock.set(at(55.5))  # 03:30: 夜晚2 closed, the night settled
    svc.tick()
    assert svc.referee.state.phase.value == "dawn"
    _fed(svc, post(witch, "改成 毒药 月光", 55.8, tid="44"))
    _fed(svc, post(guard, "守护 月光", 55.85, tid="45"))
    late = {a.subject: a for a in alerts(svc) if a.kind == "phase_deadline"}
    assert set(late) >= {witch, guard}, [(a.kind, a.message) for a in alerts(svc)]
    assert not [a for a in alerts(svc) if a.kind == "skill_used"]
    receipts = [a.text for a in announcements(svc) if a.kind == "receipt" and a.destination in (witch, guard)]
    refused = [t for t in receipts if t.startswith("未受理")]
    assert len(refused) == 2 and all("截止时间" in t and "重新发送" not in t for t in refused), refused


def test_a_correction_after_the_night_settled_says_what_can_still_be_done(tmp_path) -> None:
    """wolfadv W9: between 03:00 and 06:00 `override action|void` were refused with
    「夜晚结算后（待公布）不能这样做」 and nothing about what the GM could do instead."""
    import pytest

    from shenshi.daemon import gm_commands
    from shenshi.errors import UserError

    svc, clock = werewolf_night_one(tmp_path, {})
    seer = next(s.name for s in svc.referee.state.seats if s.role == "seer")
    clock.set(at(55.5))
    svc.tick()
    assert svc.referee.state.phase.value == "dawn"
    for what, args in (("action", [seer, "预言", "Rex"]), ("void", [seer, "预言"])):
        with pytest.raises(UserError) as refused:
            gm_commands.correct(svc, what, args, reason="补录")
        assert "已按截止时的提交结算" in str(refused.value) and "shenshi edit" in str(refused.value), refused.value
