"""A ballot in the vote thread that cannot be counted is told to its voter with the reason
that fits (gmattack2 F3, newcomer2 F3): a substitute naming his own seat by its former
holder was only told to the GM (「已请他写明」, while nothing was sent); 「今天投他」 was told
「写的名字对不上任何玩家」 although he wrote no name."""

from __future__ import annotations

from datetime import timedelta

from shenshi.daemon import gm_commands
from shenshi.daemon.gm_commands import mark_published
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import UIDS, announcements, at, post, started, vote_opened_by_the_daemon
from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID
from tests.daemon.test_status import feed


def day_one_vote(tmp_path):
    svc, clock = started(tmp_path)
    vote_opened_by_the_daemon(svc, clock)
    return svc, clock


def unread(svc, who: str) -> list[str]:
    return [a.text for a in announcements(svc, PENDING) if a.kind == "vote_unread" and a.destination == who]


def test_a_ballot_for_him_is_told_it_names_nobody(tmp_path) -> None:
    svc, clock = day_one_vote(tmp_path)
    feed(svc, post("Rex", "老王 很可疑，今天投他。", 37.2))
    [text] = unread(svc, "Rex")
    assert "没有写明投给谁" in text and "对不上任何玩家" not in text, text


def test_a_substitute_naming_his_seat_by_its_former_holder_is_told(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = day_one_vote(tmp_path)
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    feed(svc, post(NEWCOMER, "投票：Rex", 37.3))
    [text] = unread(svc, NEWCOMER)
    assert "你接替的座位原来的玩家" in text and "写你的名字" in text, text


def test_an_approved_role_pm_rewritten_for_the_seat_stays_approved(tmp_path, monkeypatch) -> None:
    """gmattack2 F15: the substitute's role PM the GM approved was rewritten when the seat's
    state changed (his ballot), and the new one waited for approval again: the substitute
    played without his role while the GM believed it sent."""
    from shenshi.daemon.gm_commands import outbox_action
    from shenshi.store.outbox import AnnouncementState

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = day_one_vote(tmp_path)
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    [role] = [a for a in announcements(svc, PENDING) if a.kind == "role" and a.destination == NEWCOMER]
    outbox_action(svc, "approve", [role.id])
    feed(svc, post(NEWCOMER, "投票：老王", 37.3))  # the seat's ballot: his role PM says it now
    [now] = [a for a in announcements(svc, PENDING) if a.kind == "role" and a.destination == NEWCOMER]
    assert now.id != role.id and "本轮已投票（老王）" in now.text, now.text
    assert now.state is AnnouncementState.APPROVED


def test_a_substitute_right_after_the_dawn_post_lengthens_the_day_he_enters(tmp_path, monkeypatch) -> None:
    """gmattack2 F19: the dawn post published, and before the daemon's next cycle opened the
    day the GM named a substitute: he entered between the steps, and day 1 got no +12 h."""
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(25))
    svc.tick()
    assert svc.referee.state.phase.value == "dawn"
    mark_published(svc, [a.id for a in announcements(svc) if a.kind == "night_result"], clock())
    clock.set(at(25.05))  # no cycle since: the day opened at the post, the referee does not know yet
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    state = svc.referee.state
    assert state.phase.value == "day" and ("Rex", NEWCOMER) in state.pending_substitutions
    times = svc.referee.times()
    plain = svc.referee.ruleset.phase_times(state, state.phase, state.number, state.params["opened_at"])
    assert times.closes - plain.closes == timedelta(hours=12)


def test_a_substitute_who_never_votes_is_the_gms_to_judge(tmp_path, monkeypatch) -> None:
    """gmattack2 F17: a substitute who entered during the vote and never voted: the seat does
    not exit (FORMAT: a seat taken over in the step is not dead for its missing ballot), and
    the GM was told nothing. He is told, with a substitute (or an exit) as the next step."""
    from shenshi.daemon.hints import advise
    from shenshi.daemon.situation import facts_of, situation_of
    from tests.daemon.helpers import GAME6_10, alerts

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = day_one_vote(tmp_path)
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    for i, (name, _) in enumerate(GAME6_10):
        if name != "Rex":
            feed(svc, post(name, "投票：Tom_2" if name == "老王" else "投票：老王", 37.4 + i / 100))
    clock.set(at(37 + 24 + 12 + 0.1))
    svc.tick()
    assert svc.referee.state.is_alive(NEWCOMER)
    [alert] = [a for a in alerts(svc) if a.kind == "substitute_no_vote"]
    assert alert.subject == NEWCOMER and f"{NEWCOMER}（接替 Rex）没有投票" in alert.message
    advice = advise(facts_of(alert), situation_of(svc))
    assert any(h.command == "substitute" and h.args[0] == NEWCOMER for h in advice.hints), advice.text()


def test_a_voter_whose_ballot_the_gm_recorded_is_told_it_counts(tmp_path) -> None:
    """newcomer2 F5: after `override ballot 阿杰 老王` for his 「投票：老汪」, 阿杰 was told his post
    did not count (vote_unread) and nothing more: he would vote again, or dispute."""
    svc, clock = day_one_vote(tmp_path)
    feed(svc, post("阿杰", "投票：老汪", 37.2))
    gm_commands.correct(svc, "ballot", ["阿杰", "老王"])
    told = [a.text for a in announcements(svc, PENDING) if a.destination == "阿杰"]
    assert any("天神已把你" in t and "记为 老王" in t and "不必再投" in t for t in told), told
    assert not unread(svc, "阿杰")  # (what said it did not count is withdrawn)


def test_status_names_a_seat_a_substitute_plays_with_him(tmp_path, monkeypatch) -> None:
    """gmattack2 F2, newcomer2 F7: the night's actions named 「老王 …」 for an action the
    substitute sent, and 「还没提交」/「还没有投票」 listed the seat by the one who left."""
    from shenshi.daemon.status import build_status
    from tests.daemon.helpers import pm

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(0.5))
    gm_commands.substitute(svc, "小明", NEWCOMER, uid=NEWCOMER_UID)
    night = build_status(svc).night
    assert any(f"小明（替补 {NEWCOMER}）" in names for _, names in night.still_to_send), night.still_to_send
    feed(svc, pm(NEWCOMER, "占卜 老王", 0.6))
    [action] = [a for a in build_status(svc).night.submitted if a.actor == "小明"]
    assert action.words.startswith(f"小明（替补 {NEWCOMER}）"), action.words


def test_status_says_the_gm_decided_the_day(tmp_path) -> None:
    """gmattack2 F10: after `override cancel-execution` during the vote, status still said only
    that the daemon would count the ballots."""
    from shenshi.daemon.status import build_status

    svc, clock = day_one_vote(tmp_path)
    mark_published(svc, [a.id for a in announcements(svc, PENDING) if a.destination_kind.value == "thread"])
    gm_commands.correct(svc, "cancel-execution", [])
    assert "天神已裁定今天不处决任何人" in build_status(svc).next, build_status(svc).next
    gm_commands.correct(svc, "execute", ["老王"])
    assert "天神已裁定今天处决 老王" in build_status(svc).next
