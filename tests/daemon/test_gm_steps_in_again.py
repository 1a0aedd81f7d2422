"""When the GM steps in, second rehearsal (issue 20, newcomer2 findings F15-F37): a correction
of a ballot before the vote opens, a ballot above the vote's opening post, the exit a GM
confirms, a substitute's PM, a replaced player who still writes, advice beside a waiting PM.

Each test plays a game6-10 offline (the store, the referee, the GM's commands; no forum) and
checks what reaches the players (the outbox) and what the GM reads (advice, command words)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.daemon import gm_commands
from shenshi.daemon.hints import advise
from shenshi.daemon.situation import facts_of, situation_of
from shenshi.errors import UserError
from shenshi.rulesets.base import Phase
from shenshi.store.outbox import PENDING
from tests.daemon import test_proposals_follow_the_state as proposals
from tests.daemon.helpers import UIDS, alerts, announcements, at, pm, post, started
from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID, feed, publish

game = proposals.game  # the fixture: day 1 of a game6-10 in review mode

# game: day 1 opened at at(25) (the night result published then); its vote opens 12 h later.
VOTE_OPENS = 37


def pending(svc, kind: str) -> list:
    return [a for a in announcements(svc, PENDING) if a.kind == kind]


def ballots_of(svc, voter: str) -> list:
    return [b for b in svc.referee.state.ballots if b.voter == voter]


def advice_for(svc, alert) -> str:
    return advise(facts_of(alert), situation_of(svc)).text()


def open_the_vote(svc, clock, hours: float = VOTE_OPENS) -> None:
    """The clock reaches the vote's hour and the GM's opening post is out."""
    clock.set(at(hours))
    svc.tick()
    publish(svc, "vote_opened", clock)
    svc.tick()


# -- F28/F30: a correction of a ballot only while the round takes ballots -------------------------


def test_before_the_vote_opens_a_remark_gets_no_ballot_hint_and_override_ballot_is_refused(game) -> None:
    svc, clock = game
    clock.set(at(30))
    feed(svc, post("阿杰", "Rex 很可疑，今天投他。", 29.9))
    mine = [a for a in alerts(svc) if a.subject == "阿杰"]
    assert mine, "the remark in the vote thread is shown to the GM"
    for alert in mine:
        assert "override ballot" not in advice_for(svc, alert)
    with pytest.raises(UserError, match="才开放"):
        gm_commands.correct(svc, "ballot", ["阿杰", "Rex"])
    assert ballots_of(svc, "阿杰") == []  # nothing recorded


def test_after_the_vote_opens_override_ballot_is_taken_and_a_refused_change_is_told(game) -> None:
    svc, clock = game
    open_the_vote(svc, clock)
    clock.advance(minutes=10)
    said = gm_commands.correct(svc, "ballot", ["阿杰", "Rex"])
    assert said.lines[0].startswith("已记录：阿杰 的选票改记为 Rex")
    clock.advance(minutes=10)
    feed(svc, post("阿杰", "投票：白色的猫，改主意了", VOTE_OPENS + 0.3))
    [ballot] = ballots_of(svc, "阿杰")
    assert ballot.target == "Rex" and ballot.via == "gm"  # the first ballot stands (D-I)
    [told] = pending(svc, "vote_kept")
    assert told.destination == "阿杰"
    assert "白色的猫" in told.text and "Rex" in told.text and "没有计入" in told.text


def test_a_refused_change_of_the_players_own_ballot_sends_no_pm(game) -> None:
    svc, clock = game
    open_the_vote(svc, clock)
    feed(svc, post("阿杰", "投票：Rex", VOTE_OPENS + 0.1))
    feed(svc, post("阿杰", "投票：白色的猫", VOTE_OPENS + 0.2))
    assert pending(svc, "vote_kept") == []  # he sees his own first ballot in the thread


# -- F37: a ballot above the vote's opening post ---------------------------------------------------


def test_a_ballot_at_the_rules_hour_counts_before_the_opening_post_and_status_urges_the_post(game) -> None:
    """The rules open the vote at the 13th hour (RULES.md §1.10): a ballot from then counts even
    while the GM's 「投票帖自…起开放投票」 waits for approval (refusing it would remove the player
    under RES-A18 for the GM's delay); status puts that post first and says ballots count."""
    svc, clock = game
    clock.set(at(VOTE_OPENS + 0.1))
    svc.tick()
    [opening] = pending(svc, "vote_opened")  # proposed at the hour, not approved yet (review)
    from shenshi.daemon.status import build_status

    first = build_status(svc).waiting[0]  # status: the round waits for it, as a step for its result
    assert (first.id, first.opens_next_step) == (opening.id, True)
    from shenshi.commands.status import render

    assert "选票已计入" in "\n".join(render(build_status(svc), 200))
    feed(svc, post("Rex", "投票：老王，白色的猫说他是杀手", VOTE_OPENS + 2))
    clock.set(at(VOTE_OPENS + 2.1))
    svc.tick()
    assert [b.target for b in ballots_of(svc, "Rex")] == ["老王"]
    assert pending(svc, "vote_not_open") == []
    gm_commands.correct(svc, "ballot", ["阿杰", "Rex"])  # the GM may record a ballot from the hour
    assert [b.target for b in ballots_of(svc, "阿杰")] == ["Rex"]
    publish(svc, "vote_opened", clock)
    svc.tick()
    assert build_status(svc).waiting == () or build_status(svc).waiting[0].id != opening.id


def test_a_ballot_before_the_hour_is_told_the_hour(game) -> None:
    svc, clock = game
    clock.set(at(28))
    feed(svc, post("阿杰", "投票：夜行者，先投了再说", 27.9))
    [told] = pending(svc, "vote_not_open")
    assert "开放投票，届时请重新投票" in told.text
    opens = (at(25) + timedelta(hours=12)).strftime("%Y-%m-%d %H:%M")
    assert opens in told.text


# -- F15/F36: an exit the GM confirms keeps its reason ------------------------------------------------


def test_confirming_a_missed_sign_in_posts_the_notice_the_gm_confirmed(game) -> None:
    svc, clock = game
    [signin] = [a for a in pending(svc, "signin") if "kk_大侠" in a.key]
    gm_commands.correct(svc, "exit", ["kk_大侠"])
    [exit_post] = pending(svc, "exit")
    assert exit_post.text.startswith(signin.text)  # 未在游戏者名单公布后24小时内签到，视为自动退出游戏。
    assert "自动退出游戏。\n" not in exit_post.text.replace(signin.text, "")


def test_a_player_who_quit_is_announced_with_the_gms_reason_not_as_an_automatic_exit(game) -> None:
    svc, clock = game
    said = gm_commands.correct(svc, "exit", ["Rex"], reason="本人在讨论帖说退出")
    assert "自动退出" not in said.lines[0]
    [exit_post] = pending(svc, "exit")
    assert exit_post.text.startswith("Rex 退出游戏（本人在讨论帖说退出）。")
    assert "自动退出" not in exit_post.text


# -- F19: the substitute's role PM says when voting opens ---------------------------------------------


def test_a_substitutes_role_pm_before_the_vote_opens_says_when_it_opens(game, monkeypatch) -> None:
    svc, clock = game
    clock.set(at(30))
    gm_commands.substitute(svc, "Tom_2", NEWCOMER, uid=NEWCOMER_UID)
    [role] = [a for a in pending(svc, "role") if a.destination == NEWCOMER]
    opens = (at(25) + timedelta(hours=12)).strftime("%Y-%m-%d %H:%M")
    assert f"投票帖 {opens} 开放投票" in role.text and "截止" in role.text


# -- F23: a replaced player who still writes left his seat; he is no stranger ------------------------


def test_a_replaced_player_after_his_substitute_entered_is_told_apart_from_a_stranger(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    gm_commands.substitute(svc, "Tom_2", NEWCOMER, uid=NEWCOMER_UID)
    clock.set(at(36.5))
    svc.tick()  # night 1 ends (+12 h for the substitution): the substitute takes the seat
    assert svc.referee.state.has_player(NEWCOMER) and not svc.referee.state.has_player("Tom_2")
    feed(svc, pm("Tom_2", "庇佑 老王，我还能玩吗？", 36.6))
    [alert] = [a for a in alerts(svc) if a.subject == "Tom_2"]
    assert alert.kind == "left_seat"
    assert f"已由替补 {NEWCOMER} 接替" in alert.message and "不是本局玩家" not in alert.message


# -- F17/F22: the advice beside a ballot not counted names the PM that tells the player ----------------


@pytest.mark.parametrize("mode", ["dry-run", "review", "live"])
def test_an_early_ballots_advice_names_the_pm_that_waits(tmp_path, mode) -> None:
    svc, clock = started(tmp_path, mode=mode)
    clock.set(at(24.5))
    svc.tick()
    publish(svc, "night_result", clock)
    clock.advance(hours=1)
    svc.tick()
    assert svc.referee.state.phase is Phase.DAY
    feed(svc, post("阿杰", "投票：夜行者，先投了再说", 26))
    [told] = pending(svc, "vote_not_open")
    [alert] = [a for a in alerts(svc) if a.kind == "no_vote_open"]
    text = advice_for(svc, alert)
    assert f"#{told.id}" in text
    if mode == "live":
        assert "会自动发出" in text
    else:
        assert "还没发出" in text and ("approve" in text if mode == "review" else "published" in text)


# -- F9: only a post that opens a step says the next step counts from it ------------------------------


def test_published_says_the_next_step_counts_from_it_only_for_a_post_that_opens_one(tmp_path) -> None:
    svc, clock = started(tmp_path)
    feed(svc, pm("小明", "占卜 老王", 0.5))
    [receipt] = pending(svc, "receipt")
    clock.set(at(1))
    said = gm_commands.mark_published(svc, [receipt.id])
    assert said.lines[0].startswith(f"#{receipt.id} 已记为发布于") and "下一阶段从发布时间算起" not in said.lines
    clock.set(at(24.5))
    svc.tick()
    [result] = pending(svc, "night_result")
    said = gm_commands.mark_published(svc, [result.id])
    assert "下一阶段从发布时间算起" in said.lines
