"""recheck R7a/R7d: a werewolf seat taken over by a substitute during a night (the takeover
completes when the step resolves, RES-W25) is played by the substitute at once: his replies
count for the seat, the departed player's no longer do. The PMs the rules send to the seat in
that time (【殉职】 request, last words, the seer's answer) went to the player who left, who
could not act on them; the one who plays the seat never learnt of them."""

from __future__ import annotations

from shenshi.daemon import gm_commands
from shenshi.daemon.gm_commands import enter_action, mark_published
from shenshi.rulesets.werewolf import camps
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import (
    UIDS,
    announcements,
    at,
    elect_sheriff,
    post,
    werewolf_with_tree_holes,
)
from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID
from tests.daemon.test_stream import _fed


def _night_one(tmp_path, sheriff_role: str = "seer"):
    svc, clock = werewolf_with_tree_holes(tmp_path, {"seer": "41", "cupid": "42"})
    clock.set(at(0.02))  # night 0 is open
    svc.tick()
    seats = svc.referee.state.seats
    sheriff = next(s.name for s in seats if s.role == sheriff_role)
    cupid = next(s.name for s in seats if s.role == "cupid")
    lover = next(s.name for s in seats if s.team == "village" and s.role not in ("cupid", sheriff_role))
    enter_action(svc, [cupid, "pair_lovers", sheriff, lover])
    elect_sheriff(svc, clock, sheriff)
    mark_published(svc, [a.id for a in announcements(svc) if a.kind == "day_result"])
    clock.set(at(49.2))
    svc.tick()
    assert svc.referee.state.phase.value == "night"
    return svc, clock, sheriff, lover


def test_the_substitute_of_a_seat_that_follows_its_lover_is_asked_for_the_successor(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock, sheriff, lover = _night_one(tmp_path)
    gm_commands.substitute(svc, sheriff, NEWCOMER, uid=NEWCOMER_UID)
    gm_commands.correct(svc, "exit", [lover], reason="本人申请退出")  # the sheriff's seat follows by 殉情
    assert not svc.referee.state.is_alive(sheriff)
    pending = announcements(svc, PENDING)
    to_seat = {(a.kind, a.destination) for a in pending if a.kind in ("successor_notice", "last_words_notice")}
    assert ("successor_notice", NEWCOMER) in to_seat and ("last_words_notice", NEWCOMER) in to_seat, to_seat
    assert not any(a.destination == sheriff for a in pending if a.destination_kind.value == "user"), [
        (a.kind, a.destination) for a in pending if a.destination == sheriff]
    heir = next(s.name for s in svc.referee.state.alive() if s.name != lover)
    clock.set(at(49.4))
    _fed(svc, post(NEWCOMER, f"【殉职】{heir}", 49.35, tid="41"))
    assert camps.sheriff(svc.referee.state) is not None and camps.sheriff(svc.referee.state).name == heir


def test_the_seers_answer_goes_to_his_substitute(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock, seer, _ = _night_one(tmp_path)
    target = next(s.name for s in svc.referee.state.alive() if s.team == "wolves")
    enter_action(svc, [seer, "divine", target])
    gm_commands.substitute(svc, seer, NEWCOMER, uid=NEWCOMER_UID)
    clock.set(at(58.1))  # past 06:00: the night resolves
    svc.tick()
    answers = [a for a in announcements(svc) if a.kind == "prophecy" and a.state != "superseded"]
    assert answers and {a.destination for a in answers} == {NEWCOMER}, [(a.destination, a.text) for a in answers]


def test_the_gm_names_a_substitute_whose_seat_went_out_as_its_seat(tmp_path, monkeypatch) -> None:
    """recheck R7a: `override sheriff 路人甲` answered 「路人甲 的座位已由 Rex 接替」 and `substitute X
    路人甲` 「曾在本局坐过一个座位、已经离开（由替补接替）」: both backwards (he took Rex's seat over)."""
    import pytest

    from shenshi.errors import UserError

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock, sheriff, lover = _night_one(tmp_path)
    gm_commands.substitute(svc, sheriff, NEWCOMER, uid=NEWCOMER_UID)
    gm_commands.correct(svc, "exit", [lover], reason="本人申请退出")
    with pytest.raises(UserError) as refused:
        gm_commands.correct(svc, "sheriff", [NEWCOMER])
    assert f"{sheriff} 已出局" in str(refused.value) and "接替：请写" not in str(refused.value), refused.value
    other = next(s.name for s in svc.referee.state.alive())
    with pytest.raises(UserError) as refused:
        gm_commands.substitute(svc, other, NEWCOMER, uid=NEWCOMER_UID)
    assert "已是本局的替补" in str(refused.value), refused.value


def test_lovers_substituted_on_night_0_are_told_each_other_as_they_play_now(tmp_path, monkeypatch) -> None:
    """gmattack W3: both lovers' seats changed hands during night 0; at 06:00 「你的情侣是：Tom_2」
    went to the two players who had left (a PM proposed by the clock alone was not brought in
    line with the seats), naming each other by names nobody plays."""
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    monkeypatch.setitem(UIDS, "admin", "91")
    svc, clock = werewolf_with_tree_holes(tmp_path, {})
    clock.set(at(0.02))
    svc.tick()
    cupid = next(s.name for s in svc.referee.state.seats if s.role == "cupid")
    a, b = [s.name for s in svc.referee.state.seats if s.role not in ("cupid",)][:2]
    enter_action(svc, [cupid, "pair_lovers", a, b])
    clock.set(at(1))
    gm_commands.substitute(svc, b, NEWCOMER, uid=NEWCOMER_UID)
    gm_commands.substitute(svc, a, "admin", uid="91")
    for hours in (7.1, 10.01):  # 夜晚1 closed at 00:00 and settled at 03:00; 06:00 its PMs
        clock.set(at(hours))
        svc.tick()
    told = {x.destination: x.text for x in announcements(svc, PENDING) if x.kind == "lover_partner"}
    assert told == {"admin": f"你的情侣是：{NEWCOMER}。", NEWCOMER: "你的情侣是：admin。"}, told


def test_night_0_with_corrections_still_opens_day_1(tmp_path) -> None:
    """gmattack W4: an exit and a penalty during night 0 (each with its own post) left the game
    at 「第0夜（已结算，06:00 公布）」 for good, waiting for a night-0 post the rules never make."""
    svc, clock = werewolf_with_tree_holes(tmp_path, {})
    clock.set(at(0.02))
    svc.tick()
    villagers = [s.name for s in svc.referee.state.seats if s.role == "villager"]
    gm_commands.correct(svc, "exit", [villagers[0]], reason="本人申请退出")
    gm_commands.correct(svc, "penalty", [villagers[1], "5"], reason="刷屏")
    for hours in (9.0, 10.05):
        clock.set(at(hours))
        svc.tick()
    assert (svc.referee.state.phase.value, svc.referee.state.number) == ("day", 1)


def test_a_lovers_substitute_is_told_whom_he_loves(tmp_path, monkeypatch) -> None:
    """gmattack W8: the role PM of a substitute in a lover's seat named the wolves and never
    the lover (the seat's own 情侣告知 had not reached him)."""
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = werewolf_with_tree_holes(tmp_path, {})
    clock.set(at(0.02))
    svc.tick()
    seats = svc.referee.state.seats
    cupid = next(s.name for s in seats if s.role == "cupid")
    wolf = next(s.name for s in seats if s.role == "werewolf")
    villager = next(s.name for s in seats if s.role == "villager")
    enter_action(svc, [cupid, "pair_lovers", villager, wolf])
    clock.set(at(10.6))  # day 1: the pairing settled; its PMs not sent yet
    svc.tick()
    gm_commands.substitute(svc, wolf, NEWCOMER, uid=NEWCOMER_UID)
    [role] = [a for a in announcements(svc, PENDING) if a.kind == "role" and a.destination == NEWCOMER]
    assert f"你的情侣是：{villager}。" in role.text, role.text
    assert role.text.count("你的情侣是") == 1, role.text
