"""Votes and substitutes when the GM steps in (issue 20, newcomer3 findings N17-N40): a
substitute entering after the vote opened or between round 1 and the runoff, a round that
closes early around a substitution, a ballot after an early close, a GM's reason for an exit,
an abstention the ruleset does not allow, the replaced player.

Each test plays a game6-10 offline (the store, the referee, the GM's commands; no forum) and
checks what reaches the players (the outbox) and what the GM reads."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.daemon import gm_commands
from shenshi.errors import UserError
from shenshi.store.outbox import PENDING
from tests.daemon import test_proposals_follow_the_state as proposals
from tests.daemon.helpers import alerts, announcements, at, pm, post
from tests.daemon.test_gm_steps_in_again import VOTE_OPENS, ballots_of, open_the_vote
from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID, feed

game = proposals.game  # the fixture: day 1 of a game6-10 in review mode
UIDS_REX = "12"  # (tests.daemon.helpers.UIDS)


def pending(svc, kind: str) -> list:
    return [a for a in announcements(svc, PENDING) if a.kind == kind]


# -- N22: the reason the GM gives wins over a pending notice's text --------------------------------


def test_an_exit_with_the_gms_reason_posts_the_reason_not_the_pending_notice(game) -> None:
    svc, clock = game
    [notice] = [a for a in pending(svc, "signin") if "kk_大侠" in a.key]  # 未签到…（pending）
    gm_commands.correct(svc, "exit", ["kk_大侠"], reason="本人申请退出")
    [exit_post] = pending(svc, "exit")
    assert exit_post.text.startswith("kk_大侠 退出游戏（本人申请退出）。")
    assert notice.text not in exit_post.text and "签到" not in exit_post.text


# -- N40: an abstention the ruleset does not allow is refused, with the reason -----------------------


def test_override_ballot_abstain_is_refused_where_the_rules_allow_no_abstention(game) -> None:
    svc, clock = game
    open_the_vote(svc, clock)
    with pytest.raises(UserError, match="不能弃权") as refused:
        gm_commands.correct(svc, "ballot", ["小明", "弃权"])
    assert "没有改动" in str(refused.value) and "已记录" not in str(refused.value)
    assert ballots_of(svc, "小明") == []
    feed(svc, post("小明", "投票：Rex", VOTE_OPENS + 0.5))  # his own ballot still counts
    assert [b.target for b in ballots_of(svc, "小明")] == ["Rex"]


# -- N17: a substitute entering after the vote opened is told it is open, until when ------------------


def test_a_substitute_after_the_vote_opened_is_told_it_is_open_now_and_when_it_closes(game) -> None:
    svc, clock = game
    open_the_vote(svc, clock)
    clock.set(at(VOTE_OPENS + 8))
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    [role] = [a for a in pending(svc, "role") if a.destination == NEWCOMER]
    closes = at(VOTE_OPENS + 24 + 12).strftime("%Y-%m-%d %H:%M")  # +12 h for the substitution
    assert f"投票已经开放，请你在投票帖投票（{closes} 截止）" in role.text
    assert "届时" not in role.text and "之前的投票不计" not in role.text


def test_a_pending_substitutes_role_pm_written_before_the_vote_opens_says_open_once_it_opened(game) -> None:
    svc, clock = game
    clock.set(at(30))
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    [before] = [a for a in pending(svc, "role") if a.destination == NEWCOMER]
    assert "届时" in before.text  # the vote opens at the 13th hour, later
    clock.set(at(VOTE_OPENS + 0.1))
    svc.tick()
    [after] = [a for a in pending(svc, "role") if a.destination == NEWCOMER]
    assert "届时" not in after.text and "投票已经开放" in after.text


# -- N18: a ballot after round 1 closed early, before the runoff opens ----------------------------

TIE = {"夜行者": "Rex", "老王": "Rex", "小明": "Rex", "月光": "Rex", "白色的猫": "Rex",
       "阿杰": "老王", "Lily99": "老王", "Tom_2": "老王", "Rex": "老王", "kk_大侠": "老王"}  # fmt: skip


def close_round_one_early(svc, clock, votes=TIE, start: float = VOTE_OPENS + 1) -> float:
    """Every living player votes: round 1 closes early, tied 5:5 (the runoff waits for the
    result's publication). Returns the hour of the last ballot."""
    hour = start
    for i, (name, target) in enumerate(votes.items()):
        hour = start + i / 100
        feed(svc, post(name, f"投票：{target}", hour))
    clock.set(at(hour + 0.05))
    svc.tick()
    assert svc.referee.state.round == 2, "all in and tied: round 1 closed early, the runoff is next"
    return hour


def test_a_ballot_after_round_one_closed_early_cites_no_sentinel_window_and_the_voter_is_told(game) -> None:
    svc, clock = game
    open_the_vote(svc, clock)
    last = close_round_one_early(svc, clock)
    feed(svc, post("夜行者", "投票：老王，我改主意了", last + 0.1))
    [alert] = [a for a in alerts(svc) if a.subject == "夜行者" and a.kind == "no_vote_open"]
    assert "9998" not in alert.message and "11-27" not in alert.message  # no sentinel window
    assert "上一轮投票已经结束，下一轮在它的结果公布后才开始" in alert.message
    [told] = [a for a in pending(svc, "vote_not_open") if a.destination == "夜行者"]
    assert "没有计入" in told.text and "下一轮投票在它的结果公布后才开始" in told.text
    assert [b.target for b in ballots_of(svc, "夜行者")] == ["Rex"]  # round 1's ballot stands


def test_a_night_pm_between_the_rounds_is_told_no_sentinel_hour(game) -> None:
    svc, clock = game
    open_the_vote(svc, clock)
    last = close_round_one_early(svc, clock)
    feed(svc, pm("小明", "占卜 老王", last + 0.1))  # the seer, by day
    told = [a for a in pending(svc, "receipt") if a.destination == "小明"]
    assert told and all("9998" not in a.text and "11-27" not in a.text for a in told)
    assert any("今天还有一轮投票" in a.text for a in told)


# -- N37: the replaced player is told his seat was taken ------------------------------------------


def test_the_replaced_player_is_told_by_pm_and_the_pm_is_withdrawn_if_the_substitute_never_enters(game) -> None:
    svc, clock = game
    clock.set(at(30))
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    [told] = pending(svc, "seat_taken")
    assert told.destination == "Rex"  # to him, not redirected to the seat's new player
    assert f"替补 {NEWCOMER} 接替了你的座位" in told.text and "不再计入" in told.text
    gm_commands.correct(svc, "exit", [NEWCOMER])  # the substitute quits before entering
    assert pending(svc, "seat_taken") == [] and pending(svc, "substitution") == []


# -- N38/N39: a substitution between round 1 and the runoff ----------------------------------------


def test_a_substitution_between_the_rounds_extends_the_runoff_and_says_so_with_the_seats_state(game) -> None:
    """RULES.md "Substitution clock": +12 h to the phase he enters in; by day, the round he
    votes in next (the runoff, once round 1 has closed). The post and his role PM say so, and
    the role PM gives the seat's round-1 ballot and the runoff's candidates (N39)."""
    svc, clock = game
    open_the_vote(svc, clock)
    last = close_round_one_early(svc, clock)
    gm_commands.substitute(svc, "月光", NEWCOMER, uid=NEWCOMER_UID)
    [announced] = pending(svc, "substitution")
    assert "延长12小时" in announced.text and "持续 24 小时" in announced.text
    [role] = [a for a in pending(svc, "role") if a.destination == NEWCOMER]
    assert "这个座位今天第1轮投了 Rex" in role.text
    assert "下一轮投票（只能投给 " in role.text and "Rex" in role.text and "老王" in role.text
    assert "持续 24 小时" in role.text
    [result] = [a for a in pending(svc, "day_result") if "生死投票" in a.text] or [
        a for a in announcements(svc, PENDING) if a.destination_kind.value == "thread" and "生死投票" in a.text]
    clock.set(at(last + 1))
    with svc.store.transaction() as uow:
        uow.outbox.mark_published(result.id, clock())
    svc.tick()
    times = svc.referee.times()
    opens, closes = times.rounds[2]
    assert closes - opens == timedelta(hours=24)  # 12 h of the runoff + 12 h for the substitution
    assert times.closes == closes  # the day ends with the runoff, not at round 1's scheduled close
    assert [m.what for m in svc.referee.deadlines()].count("day_end") == 0


# -- N19: round 1 closes early after a substitution extended it ------------------------------------


def test_an_early_close_after_a_substitution_says_where_the_extension_went(game) -> None:
    """RULES.md "Early close" ends the round, its +12 h with it: the pending post says the
    extension belonged to round 1, which is over; the substitute (told the extended close) is
    told it no longer holds."""
    svc, clock = game
    open_the_vote(svc, clock)
    clock.set(at(VOTE_OPENS + 0.5))
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    [before] = pending(svc, "substitution")
    assert "延长12小时" in before.text
    votes = {(NEWCOMER if k == "kk_大侠" else k): v for k, v in TIE.items()}
    close_round_one_early(svc, clock, votes)
    [after] = pending(svc, "substitution")
    assert "延长属于第1轮投票，这一轮已经结束" in after.text
    [told] = pending(svc, "round_closed")
    assert told.destination == NEWCOMER and "提前结束" in told.text and "不再适用" in told.text
    was = at(VOTE_OPENS + 24 + 12).strftime("%Y-%m-%d %H:%M")
    assert was in told.text
    assert "今天的投票已于" in told.text and "身份私信" not in told.text  # (A11: it gave a length only)


# -- N26: status names a seat being taken over with its substitute ---------------------------------


def test_status_lists_a_seat_being_taken_over_with_its_substitute(game) -> None:
    from shenshi.commands.status import render
    from shenshi.daemon.status import build_status

    svc, clock = game
    clock.set(at(30))
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    [sub] = pending(svc, "substitution")
    with svc.store.transaction() as uow:  # the substitution is posted
        uow.outbox.mark_published(sub.id, clock())
    lines = "\n".join(render(build_status(svc), 300))
    living = next(line for line in lines.splitlines() if line.startswith("存活"))
    assert f"Rex（替补 {NEWCOMER}）" in living


# -- A5/N20: a seat being taken over is named by its substitute in the step's posts and answers ----


def test_the_tally_and_the_runoff_name_the_seat_by_its_substitute_as_his_role_pm_does(game) -> None:
    """The players were told 路人甲 replaces kk_大侠: the round's result counts the seat's votes
    under 路人甲 (with whom he replaces), the runoff's candidates too, as his role PM lists them."""
    svc, clock = game
    open_the_vote(svc, clock)
    clock.set(at(VOTE_OPENS + 0.5))
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    # ballots for kk_大侠 count for the seat; he votes for the seat
    votes = {name: ("kk_大侠" if target == "Rex" else "老王") for name, target in TIE.items() if name != "kk_大侠"}
    votes[NEWCOMER] = "老王"
    close_round_one_early(svc, clock, votes)
    [result] = pending(svc, "round_result")
    seat = f"{NEWCOMER}（接替 kk_大侠）"
    assert f"{seat}：5 票" in result.text and "老王：5 票" in result.text
    assert f"{seat}、老王 平票" in result.text or f"老王、{seat} 平票" in result.text
    assert "kk_大侠：" not in result.text
    [role] = [a for a in pending(svc, "role") if a.destination == NEWCOMER]
    assert "只能投给 " in role.text and NEWCOMER in role.text


def test_a_divination_of_a_seat_being_taken_over_names_its_substitute(tmp_path, monkeypatch) -> None:
    from tests.daemon.helpers import UIDS, started

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(3))
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    feed(svc, pm("小明", "占卜 kk_大侠", 4))  # the seer names the seat as he knew it
    clock.set(at(24 + 12.1))  # the night, 12 h longer for the substitution
    svc.tick()
    [answer] = [a for a in announcements(svc, PENDING) if a.destination == "小明" and a.kind == "divination"]
    assert f"{NEWCOMER}（接替 kk_大侠）" in answer.text
    [dawn] = pending(svc, "night_result")
    assert "kk_大侠" not in dawn.text or f"{NEWCOMER}（接替 kk_大侠）" in dawn.text


def test_a_substitutes_role_pm_lists_the_seats_night_action_that_counts_his_own_once_sent(tmp_path, monkeypatch) -> None:
    """N39: the night's bind his seat sent stands, and his role PM says so; once he sends his
    own, the role PM (re-derived) lists that one, not both as if both stood."""
    from tests.daemon.helpers import UIDS, started

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    feed(svc, pm("月光", "束魂 Rex", 2))
    clock.set(at(3))
    gm_commands.substitute(svc, "月光", NEWCOMER, uid=NEWCOMER_UID)
    [role] = [a for a in pending(svc, "role") if a.destination == NEWCOMER]
    assert "这个座位今晚现在有效的行动：束魂 Rex。" in role.text
    feed(svc, pm(NEWCOMER, "束魂 阿杰", 4))
    [role] = [a for a in pending(svc, "role") if a.destination == NEWCOMER]
    assert "这个座位今晚现在有效的行动：束魂 阿杰。" in role.text and "Rex" not in role.text


def test_a_player_who_left_his_seat_cannot_come_back_as_a_substitute_and_is_told_in_chinese(game) -> None:
    """adversary4 A15: before, 「'夜行者' already plays in game #1」 (English, and untrue)."""
    svc, clock = game
    clock.set(at(30))
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    with pytest.raises(UserError, match="曾在本局坐过一个座位、已经离开") as refused:
        gm_commands.substitute(svc, "小明", "Rex", uid=UIDS_REX)
    assert "没有改动" in str(refused.value) and "already" not in str(refused.value)


def test_the_name_of_a_player_who_left_his_seat_means_the_seat_once_taken_over(tmp_path, monkeypatch) -> None:
    """adversary4 A10: after the night 路人甲 took kk_大侠's seat, 「投票：kk_大侠」 is a ballot for
    the seat (before: 「没有找到玩家「kk_大侠」」 for a player the players were told was replaced)."""
    from tests.daemon.helpers import UIDS, started
    from tests.daemon.test_proposals_follow_the_state import publish

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(3))
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    clock.set(at(36.1))  # the night, 12 h longer for the substitution
    svc.tick()
    publish(svc, "night_result", clock)
    svc.tick()
    assert svc.referee.state.has_player(NEWCOMER) and not svc.referee.state.has_player("kk_大侠")
    clock.set(at(36.1 + 13))
    svc.tick()
    publish(svc, "vote_opened", clock)
    svc.tick()
    feed(svc, post("小明", "投票：kk_大侠", 36.1 + 13.5))
    assert [b.target for b in ballots_of(svc, "小明")] == [NEWCOMER]


def test_a_substitute_naming_the_player_he_replaced_is_asked_to_write_his_own_name(tmp_path, monkeypatch) -> None:
    """adversary5 B6: a substitute writing the name of the player he replaced most likely means
    her as she was, not himself (before: 「已收到：今晚束魂 路人甲」 for 「束魂 月光」). He is asked to
    write his own name if he means himself, while he takes the seat over and after; another
    player writing the old name still means the seat (A10)."""
    from tests.daemon.helpers import UIDS, started
    from tests.daemon.test_proposals_follow_the_state import publish

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(3))
    gm_commands.substitute(svc, "月光", NEWCOMER, uid=NEWCOMER_UID)  # 月光 is the binder
    feed(svc, pm(NEWCOMER, "束魂 月光", 4))
    [receipt] = [a for a in pending(svc, "receipt") if a.destination == NEWCOMER]
    assert f"「月光」现在就是你自己（{NEWCOMER}）的座位" in receipt.text and "已收到" not in receipt.text
    assert [a.kind for a in alerts(svc)].count("self_by_other_name") == 1
    feed(svc, pm(NEWCOMER, f"束魂 {NEWCOMER}", 4.1))  # his own name: himself, as written
    assert any("已收到" in a.text for a in pending(svc, "receipt") if a.destination == NEWCOMER)
    clock.set(at(36.1))  # the night, 12 h longer for the substitution
    svc.tick()
    publish(svc, "night_result", clock)
    clock.set(at(36.1 + 13))
    svc.tick()
    publish(svc, "vote_opened", clock)
    svc.tick()
    assert svc.referee.state.has_player(NEWCOMER)
    feed(svc, post(NEWCOMER, "投票：月光", 36.1 + 13.5))  # after he took the seat
    assert ballots_of(svc, NEWCOMER) == []
    assert [a.kind for a in alerts(svc)].count("self_by_other_name") == 2
    feed(svc, post("小明", "投票：月光", 36.1 + 13.6))
    assert [b.target for b in ballots_of(svc, "小明")] == [NEWCOMER]


def test_a_pending_runoff_post_gives_the_length_a_later_substitution_made(game) -> None:
    """adversary5 B2 (A9): the round-1 result, still pending, said the runoff lasts 12 h; a
    substitution between the rounds makes it 24 h (A-D13): the pending post says 24, as the
    substitution post does."""
    svc, clock = game
    open_the_vote(svc, clock)
    close_round_one_early(svc, clock)
    [result] = pending(svc, "round_result")
    assert "生死投票自本帖发出起持续 12 小时" in result.text
    gm_commands.substitute(svc, "月光", NEWCOMER, uid=NEWCOMER_UID)
    [result] = pending(svc, "round_result")
    assert "生死投票自本帖发出起持续 24 小时" in result.text and "12 小时" not in result.text
    [announced] = pending(svc, "substitution")
    assert "持续 24 小时" in announced.text


def test_a_pending_runoff_post_names_a_candidates_seat_by_its_substitute(game) -> None:
    """adversary4 A9: Rex (a tied candidate) replaced while the round-1 result is pending; the
    post said 「Rex、老王 平票」 while his substitute's role PM said 「只能投给 路人甲，老王」."""
    svc, clock = game
    open_the_vote(svc, clock)
    close_round_one_early(svc, clock)
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    [result] = pending(svc, "round_result")
    seat = f"{NEWCOMER}（接替 Rex）"
    assert f"{seat}：5 票" in result.text and f"{seat}、老王 平票" in result.text
    assert "\nRex" not in result.text
    proposals.publish(svc, "round_result", clock)
    svc.tick()
    when = (clock() - at(0)).total_seconds() / 3600 + 0.1
    feed(svc, post("小明", "生死投票：Tom_2", when))  # no candidate: told the candidates as posted
    [told] = [a for a in pending(svc, "vote_kept") if a.destination == "小明"]
    assert f"只能投给 {seat}、老王" in told.text


def test_a_substitutes_role_pm_not_yet_sent_is_withdrawn_once_his_seat_is_out(tmp_path, monkeypatch) -> None:
    """adversary5 B5: a role PM that could not go (the forum did not know him) was redrawn at
    every step, even after he was executed. Once his seat is out it is withdrawn."""
    from tests.daemon.helpers import UIDS, started
    from tests.daemon.test_proposals_follow_the_state import publish

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(3))
    gm_commands.substitute(svc, "月光", NEWCOMER, uid=NEWCOMER_UID)
    clock.set(at(36.1))
    svc.tick()
    publish(svc, "night_result", clock)
    svc.tick()
    assert [a.destination for a in pending(svc, "role")] == [NEWCOMER]  # not sent yet
    gm_commands.correct(svc, "exit", [NEWCOMER], reason="本人要求退出")
    svc.tick()
    assert pending(svc, "role") == []
