"""recheck: a sheriff the GM's exit put out by day was PMed to reply 「【殉职】角色名」 and his
reply was refused as 「你已出局，不能再行动」: the badge was lost. By day, as at dawn, the out
sheriff's 【殉职】 hands the badge over (RES-W21: 【殉职】 is <强制>, at once by day)."""

from __future__ import annotations

from shenshi.daemon import gm_commands
from shenshi.rulesets.werewolf import camps
from tests.daemon.helpers import announcements, at, post, werewolf_night_one
from tests.daemon.test_stream import _fed


def test_a_sheriff_put_out_by_an_exit_names_his_successor_by_day(tmp_path) -> None:
    svc, clock = werewolf_night_one(tmp_path, {"seer": "41"})
    seer = next(s.name for s in svc.referee.state.seats if s.role == "seer")
    living = [s.name for s in svc.referee.state.alive()]
    heir = next(n for n in living if n != seer)
    gm_commands.correct(svc, "exit", [seer], reason="本人申请退出")
    assert camps.sheriff(svc.referee.state) is None
    clock.set(at(49.3))
    _fed(svc, post(seer, f"【殉职】{heir}", 49.25, tid="41"))
    assert camps.sheriff(svc.referee.state) is not None and camps.sheriff(svc.referee.state).name == heir
    refused = [a for a in announcements(svc) if a.destination == seer and "不能再行动" in a.text]
    assert not refused, [a.text for a in refused]


def test_the_successor_named_is_final_and_a_change_is_refused(tmp_path) -> None:
    """gmattack W9: 「【殉职】小红」 was announced at once, yet its receipt said 「截止前可更改」,
    and 「【殉职】大卫，改一下」 was received (「已收到」) and ignored."""
    svc, clock = werewolf_night_one(tmp_path, {"seer": "41"})
    seer = next(s.name for s in svc.referee.state.seats if s.role == "seer")
    living = [s.name for s in svc.referee.state.alive()]
    first, second = [n for n in living if n != seer][:2]
    gm_commands.correct(svc, "exit", [seer], reason="本人申请退出")
    clock.set(at(49.3))
    _fed(svc, post(seer, f"【殉职】{first}", 49.25, tid="41"))
    receipts = [a.text for a in announcements(svc) if a.destination == seer and a.kind == "receipt"]
    assert receipts and "立即生效" in receipts[-1] and "可更改" not in receipts[-1], receipts
    _fed(svc, post(seer, f"【殉职】{second}，改一下", 49.28, tid="41"))
    assert camps.sheriff(svc.referee.state).name == first
    receipts = [a.text for a in announcements(svc) if a.destination == seer and a.kind == "receipt"]
    assert receipts[-1].startswith("未受理"), receipts


def test_a_successor_who_is_out_is_refused_for_whom_he_names(tmp_path) -> None:
    """gmattack2 F7: the out sheriff's 【殉职】 naming a character also out was refused as
    「你已出局，不能再行动」 (he was asked to act as one out): what is wrong is whom he named."""
    svc, clock = werewolf_night_one(tmp_path, {"seer": "41"})
    seer = next(s.name for s in svc.referee.state.seats if s.role == "seer")
    gone, heir = [s.name for s in svc.referee.state.alive() if s.name != seer and s.role == "villager"][:2]
    gm_commands.correct(svc, "exit", [gone], reason="本人申请退出")
    gm_commands.correct(svc, "exit", [seer], reason="本人申请退出")
    clock.set(at(49.3))
    _fed(svc, post(seer, f"【殉职】{gone}", 49.25, tid="41"))
    [receipt] = [a.text for a in announcements(svc) if a.destination == seer and a.kind == "receipt"]
    assert receipt.startswith("未受理") and f"{gone} 已出局" in receipt and "你已出局" not in receipt, receipt
    _fed(svc, post(seer, f"【殉职】{heir}", 49.27, tid="41"))  # he tries again, as told
    assert camps.sheriff(svc.referee.state).name == heir


def test_a_substitute_naming_his_own_seat_for_the_badge_is_told_it_is_himself(tmp_path, monkeypatch) -> None:
    """gmattack2 F8: 「【殉职】小红」 from 小红's substitute was answered 「如果确实要对自己使用，请写
    你的名字」, a self-target the rules forbid (【殉职】 never on oneself)."""
    from tests.daemon.helpers import UIDS
    from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = werewolf_night_one(tmp_path, {"seer": "41"})
    seer = next(s.name for s in svc.referee.state.seats if s.role == "seer")
    gm_commands.substitute(svc, seer, NEWCOMER, uid=NEWCOMER_UID)
    gm_commands.correct(svc, "exit", [NEWCOMER], reason="本人申请退出")
    clock.set(at(49.3))
    _fed(svc, post(NEWCOMER, f"【殉职】{seer}", 49.25, tid="41"))
    receipts = [a.text for a in announcements(svc) if a.destination == NEWCOMER and a.kind == "receipt"]
    assert receipts and "不能以自己为对象" in receipts[-1] and "请写你的名字" not in receipts[-1], receipts
