"""A substitute taking a werewolf seat (RES-W25: everything attached to the character) is told
what the seat's players are told: where skills are sent (the 功能树洞, never a PM), and every
werewolf who shares the pack's kill, the one who eloped into 〖情侣阵营〗 too (RES-W26).
(adversary6 C6: 「你可以私信提交」 and the eloped wolf left out.)"""

from __future__ import annotations

from shenshi.daemon import gm_commands
from shenshi.daemon.gm_commands import enter_action, mark_published
from shenshi.demo.script import load_script
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import START, UIDS, announcement, announcements, at, started
from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID


def test_a_substitute_in_a_wolf_seat_is_told_the_tree_hole_and_the_whole_pack(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    enter_action(svc, ["白色的猫", "pair_lovers", "老王", "月光"])  # a wolf and a villager: they elope
    for hours in (10.6, 49.1):  # night 0; day 1 from 06:00 to 21:00 the next day
        clock.set(at(hours))
        svc.tick()
    assert svc.referee.state.seat("老王").team != svc.referee.state.seat("Lily99").team
    result = announcement(svc, svc.referee.gate_key())
    if result is not None:
        mark_published(svc, [result.id])
    clock.set(at(49.2))
    svc.tick()
    assert svc.referee.state.phase.value == "night"
    enter_action(svc, ["Lily99", "kill", "Rex"])
    gm_commands.substitute(svc, "Lily99", NEWCOMER, uid=NEWCOMER_UID)
    [role] = [a for a in announcements(svc, PENDING) if a.kind == "role" and a.destination == NEWCOMER]
    assert "这个座位今晚现在有效的行动：杀人 Rex。你可以在你的功能树洞回复提交" in role.text
    assert "私信" not in role.text
    partners = next(line for line in role.text.splitlines() if line.startswith("你的同伴："))
    assert "老王" in partners and "夜行者" in partners


def test_a_substitutes_ballot_changes_his_seats_where_ballots_may_change(tmp_path, monkeypatch) -> None:
    """adversary6 C7: werewolf ballots may change to the close (RES-W6); the substitute plays
    the seat at once, so his ballot is the seat's latest (before: dropped without a trace)."""
    from tests.daemon.helpers import post
    from tests.daemon.test_status import feed

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    clock.set(at(10.6))  # day 1 (the sheriff's election) is open
    svc.tick()
    assert svc.referee.state.phase.value == "day"
    feed(svc, post("夜行者", "投票：小红", 11))
    gm_commands.substitute(svc, "夜行者", NEWCOMER, uid=NEWCOMER_UID)
    feed(svc, post(NEWCOMER, "投票：阿杰", 11.5))
    seat = [b for b in svc.referee.state.ballots if b.voter == "夜行者"]
    assert [b.target for b in seat] == ["小红", "阿杰"]


def test_the_lovers_and_cupid_are_told_their_new_camp_after_elopement(tmp_path) -> None:
    """adversary6 C9: a wolf and a villager paired: both and cupid join 〖情侣阵营〗 (N0.2), and
    nobody told them (their win condition changed)."""
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    enter_action(svc, ["白色的猫", "pair_lovers", "老王", "月光"])
    clock.set(at(10.6))
    svc.tick()
    told = {a.destination: a.text for a in announcements(svc, PENDING) if a.kind == "camp_changed"}
    assert set(told) == {"老王", "月光", "白色的猫"}
    assert all("情侣阵营" in text for text in told.values())


def test_a_wolf_whose_entrusting_the_elopement_voided_is_told(tmp_path) -> None:
    """adversary6 C9: 「已收到：托孤 夜行者…」 and then nothing when 私奔 left the pack too small."""
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    enter_action(svc, ["白色的猫", "pair_lovers", "老王", "月光"])  # a wolf elopes: two wolves are left
    enter_action(svc, ["Lily99", "lone_wolf", "夜行者"])
    clock.set(at(10.6))
    svc.tick()
    [told] = [a for a in announcements(svc, PENDING) if a.destination == "Lily99" and "托孤" in a.text]
    assert "没有生效" in told.text


def test_the_partners_of_a_seat_taken_over_unannounced_are_told_who_plays_it(tmp_path, monkeypatch) -> None:
    """gmattack2 F6 F14: werewolf (and chess32) substitutions are not announced; the wolves
    (and a lover) whose role PM named the one who left were never told who plays the seat."""
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    wolves = [s.name for s in svc.referee.state.seats if s.role == "werewolf"]
    gm_commands.substitute(svc, wolves[0], NEWCOMER, uid=NEWCOMER_UID)
    told = {a.destination: a.text for a in announcements(svc, PENDING) if a.kind == "partner_seat"}
    assert set(told) == set(wolves[1:]), told
    assert all(f"{wolves[0]} 的座位现在由 {NEWCOMER} 接替" in text for text in told.values())
    assert not [a for a in announcements(svc, PENDING) if a.kind == "partner_seat" and a.destination == NEWCOMER]
    # he who leaves is told, as where substitutions are announced (recheck3 F13)
    assert [a for a in announcements(svc, PENDING) if a.kind == "seat_taken" and a.destination == wolves[0]]


def test_a_seat_taken_over_unannounced_keeps_its_characters_name_in_what_the_players_read(tmp_path, monkeypatch) -> None:
    """gmattack2 F6: werewolf substitutions are not announced, yet the dawn post said 「admin
    出局」 and the wolves' receipt 「今晚杀人 admin」 for 【杀人】小红: names the players were
    never told. They read the character's name."""
    from datetime import timedelta

    from tests.daemon.helpers import post, werewolf_with_tree_holes
    from tests.daemon.test_stream import _fed

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = werewolf_with_tree_holes(tmp_path, {"werewolf": "42"})
    clock.set(at(0.02))
    svc.tick()
    villager = next(s.name for s in svc.referee.state.seats if s.role == "villager")
    wolf = next(s.name for s in svc.referee.state.seats if s.role == "werewolf")
    gm_commands.substitute(svc, villager, NEWCOMER, uid=NEWCOMER_UID)

    def to_night(n: int) -> None:
        while not (svc.referee.state.phase.value == "night" and svc.referee.state.number == n):
            times = svc.referee.times()
            clock.set(times.closes + timedelta(minutes=1)) if times is not None else clock.advance(hours=1)
            svc.tick()
            mark_published(svc, [a.id for a in announcements(svc, PENDING) if a.destination_kind.value == "thread"])
            clock.advance(minutes=1)
            svc.tick()

    to_night(1)
    assert svc.referee.state.has_player(NEWCOMER)  # (he entered at the night-0's end)
    _fed(svc, post(wolf, f"【杀人】{villager}", (clock() - START).total_seconds() / 3600 + 0.01, tid="42"))
    receipt = [a.text for a in announcements(svc, PENDING) if a.kind == "receipt" and a.destination == wolf][-1]
    assert f"杀人 {villager}" in receipt and NEWCOMER not in receipt, receipt
    clock.set(svc.referee.times().closes + timedelta(minutes=1))
    svc.tick()
    [dawn] = [a.text for a in announcements(svc, PENDING) if a.kind == "night_result"]
    assert f"{villager} 出局" in dawn and NEWCOMER not in dawn, dawn


def test_status_lists_a_seat_taken_over_unannounced_by_its_character(tmp_path, monkeypatch) -> None:
    """gmattack2 F6: 「存活（玩家所知）：… admin」 — the players know the seat as its character."""
    from shenshi.daemon.status import build_status

    svc, villager = villager_taken_over(tmp_path, monkeypatch)
    assert svc.referee.state.has_player(NEWCOMER)
    assert f"{villager}（{NEWCOMER} 在玩）" in build_status(svc).living_shown


def test_a_ruling_on_a_seat_taken_over_unannounced_names_its_character(tmp_path, monkeypatch) -> None:
    """recheck3 F11: Rex's seat secretly taken over by 路人甲; the send-off's public post said
    「路人甲 被罚下…」, revealing the substitution."""
    svc, villager = villager_taken_over(tmp_path, monkeypatch)
    gm_commands.correct(svc, "send-off", [NEWCOMER], reason="辱骂")
    posts = [a.text for a in announcements(svc, PENDING) if a.destination_kind.value == "thread" and "罚下" in a.text]
    assert posts and all(villager in p and NEWCOMER not in p for p in posts), posts


def test_no_penalty_for_a_player_sent_off_already(tmp_path) -> None:
    """recheck3 F12: penalties of 12, 5 and 7 points were each accepted, with a public post, on a
    character already sent off."""
    from shenshi.errors import UserError

    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    villager = next(s.name for s in svc.referee.state.seats if s.role == "villager")
    gm_commands.correct(svc, "send-off", [villager], reason="辱骂")
    for what, args in (("penalty", [villager, "5"]), ("send-off", [villager])):
        try:
            gm_commands.correct(svc, what, args, reason="再犯")
        except UserError as refused:
            assert "已被罚下，不能再罚分或罚下" in str(refused), refused
        else:
            raise AssertionError(f"{what} accepted on a player sent off")


def villager_taken_over(tmp_path, monkeypatch):
    """The demo's werewolf game after night 0, a villager's seat taken over by the newcomer
    (not announced): ``(service, the villager)``."""
    from datetime import timedelta

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    villager = next(s.name for s in svc.referee.state.seats if s.role == "villager")
    gm_commands.substitute(svc, villager, NEWCOMER, uid=NEWCOMER_UID)
    clock.set(svc.referee.times().closes + timedelta(minutes=1))  # night 0 over: he entered
    svc.tick()
    return svc, villager
