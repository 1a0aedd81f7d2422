"""Votes and substitutes when the GM steps in (issue 20, newcomer3 findings N17-N40): a
substitute entering after the vote opened or between round 1 and the runoff, a round that
closes early around a substitution, a ballot after an early close, a GM's reason for an exit,
an abstention the ruleset does not allow, the replaced player.

Each test plays a game6-10 offline (the store, the referee, the GM's commands; no forum) and
checks what reaches the players (the outbox) and what the GM reads."""

from __future__ import annotations

import pytest

from shenshi.daemon import gm_commands
from shenshi.errors import UserError
from shenshi.store.outbox import PENDING
from tests.daemon import test_proposals_follow_the_state as proposals
from tests.daemon.helpers import announcements, at, post
from tests.daemon.test_gm_steps_in_again import VOTE_OPENS, ballots_of, open_the_vote
from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID, feed

game = proposals.game  # the fixture: day 1 of a game6-10 in review mode


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
