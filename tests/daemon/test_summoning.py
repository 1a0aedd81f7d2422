"""A runoff still tied after the last words (family A, D-3/D-4/D-5), played through the
daemon to what the players read: the runoff's post says the summoning (招魂) follows, whom it
calls and for how long; it opens when that post is out, the summoned victim's ballot counts, and
the day ends at its close. With no night victim to call, the day ends at the runoff with no
execution, and the post says why. (Before: the runoff's post was never proposed, so the
summoning never opened and the game waited for ever.)"""

from __future__ import annotations

from datetime import timedelta

from shenshi.rulesets.base import Phase
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import GAME6_10, alerts, announcements, at, pm, post, started
from tests.daemon.test_proposals_follow_the_state import publish
from tests.daemon.test_status import feed

DECLARATION = "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6
VOTE_OPENS = 37  # night 1 is 24 h, the vote opens at the day's 13th hour

# Round 1: 阿杰 4, 老王 4, 小明 1 (kk_大侠's); the runoff: 阿杰 4, 老王 4, kk_大侠 votes for neither.
FOR_AJIE = ("夜行者", "老王", "小明", "月光")
FOR_LAOWANG = ("阿杰", "Lily99", "Tom_2", "白色的猫")


def pending(svc, kind: str) -> list:
    return [a for a in announcements(svc, PENDING) if a.kind == kind]


def day_one(tmp_path, victim: str | None):
    """A game6-10 whose night 1 killed ``victim`` (or nobody), its result published, and whose
    day-1 vote is open: ``(service, clock)``."""
    svc, clock = started(tmp_path)
    for name, _ in GAME6_10:
        feed(svc, post(name, "签到", 1))
    if victim is not None:
        for killer in ("夜行者", "老王"):
            feed(svc, pm(killer, f"杀 {victim}\n杀人宣言：{DECLARATION}", 2))
    clock.set(at(24.1))
    svc.tick()
    publish(svc, "night_result", clock)
    clock.set(at(VOTE_OPENS))
    svc.tick()
    publish(svc, "vote_opened", clock)
    svc.tick()
    return svc, clock


def vote(svc, hour: float, ballots: dict[str, str]) -> None:
    for i, (voter, target) in enumerate(ballots.items()):
        feed(svc, post(voter, f"投票：{target}", hour + i / 100))


def tied_runoff(svc, clock) -> None:
    """Round 1 ties 阿杰 and 老王 4:4; the runoff ties them again (kk_大侠, and Rex if he
    lives, vote for neither)."""
    others = [n for n in ("kk_大侠", "Rex") if svc.referee.state.is_alive(n)]
    round_one = {v: "阿杰" for v in FOR_AJIE} | {v: "老王" for v in FOR_LAOWANG} | {v: "小明" for v in others}
    vote(svc, VOTE_OPENS + 1, round_one)
    clock.set(at(VOTE_OPENS + 2))
    svc.tick()
    assert svc.referee.state.round == 2
    publish(svc, "round_result", clock)
    svc.tick()
    vote(svc, VOTE_OPENS + 3, {v: "阿杰" for v in FOR_AJIE} | {v: "老王" for v in FOR_LAOWANG})
    clock.set(at(VOTE_OPENS + 2 + 12.5))  # the runoff lasts 12 h from its post
    svc.tick()


def test_a_tied_runoff_announces_the_summoning_which_opens_counts_and_ends_the_day(tmp_path) -> None:
    svc, clock = day_one(tmp_path, victim="Rex")
    tied_runoff(svc, clock)
    assert svc.referee.state.round == 3
    [runoff] = pending(svc, "round_result")
    assert "生死投票：老王 4 票，阿杰 4 票" in runoff.text or "生死投票：阿杰 4 票，老王 4 票" in runoff.text
    assert "老王、阿杰 仍然平票，进入招魂：第1夜死者 Rex。" in runoff.text
    assert "12 小时内到投票帖投给 老王、阿杰 之一" in runoff.text
    publish(svc, "round_result", clock)
    svc.tick()
    opens, closes = svc.referee.times().rounds[3]
    assert (closes - opens).total_seconds() == 12 * 3600 and opens == clock()
    feed(svc, post("Rex", "招魂投票：老王", VOTE_OPENS + 16))  # the summoned victim came online
    clock.set(at(VOTE_OPENS + 16))
    svc.tick()
    assert svc.referee.state.phase is Phase.DAY  # the summoning runs its period
    clock.set(closes)
    svc.tick()
    [result] = pending(svc, "day_result")
    assert "计入遗言与招魂后：老王 5 票，阿杰 4 票" in result.text
    assert "老王 被处决，身份：杀手。" in result.text
    assert "kk_大侠 自动退出游戏。" in result.text  # he missed the runoff


def test_a_tied_runoff_with_nobody_to_summon_ends_the_day_at_once_and_says_why(tmp_path) -> None:
    svc, clock = day_one(tmp_path, victim=None)
    tied_runoff(svc, clock)
    assert svc.referee.state.phase is not Phase.DAY  # no summoning round to wait for
    [result] = pending(svc, "day_result")
    why, then = result.text.index("仍然平票，没有可以招魂的死者"), result.text.index("本日无人被处决，直接进入黑夜。")
    assert why < then  # the reason before the conclusion (adversary4 A12)
    [runoff] = [a for a in announcements(svc) if a.kind == "round_result"]
    assert "生死投票自本帖发出起持续 12 小时，请在投票帖投票。" in runoff.text  # (A8)
    assert "计入遗言后" not in result.text  # no last words changed the runoff's count


def test_a_living_players_ballot_in_the_summoning_is_not_counted_and_he_is_told_who_votes(tmp_path) -> None:
    svc, clock = day_one(tmp_path, victim="Rex")
    tied_runoff(svc, clock)
    feed(svc, post("月光", "投票：阿杰", VOTE_OPENS + 15))  # before the summoning's post is out
    publish(svc, "round_result", clock)
    svc.tick()
    feed(svc, post("小明", "投票：阿杰", VOTE_OPENS + 16))
    told = {a.destination: a.text for a in pending(svc, "vote_not_open")}
    for voter in ("月光", "小明"):
        assert "没有计入：现在是招魂，只有被招魂的死者（第1夜死者 Rex）可以投票" in told[voter]
        assert "重新投票" not in told[voter]
    clock.set(svc.referee.times().rounds[3][1])
    svc.tick()
    [result] = pending(svc, "day_result")
    assert "本日无人被处决" in result.text  # Rex did not come: the living players' ballots broke no tie


def test_the_gms_execution_after_the_day_settled_replaces_the_pending_result(tmp_path) -> None:
    """adversary4 A1: `override execute` once the day has settled (its result not yet out):
    the pending result is superseded by one that says the execution, never two stories."""
    from shenshi.daemon import gm_commands
    from shenshi.store.outbox import AnnouncementState

    svc, clock = day_one(tmp_path, victim=None)
    tied_runoff(svc, clock)
    [before] = pending(svc, "day_result")
    assert "本日无人被处决" in before.text
    gm_commands.correct(svc, "execute", ["阿杰"], reason="天神裁定")
    [after] = pending(svc, "day_result")
    assert after.id != before.id and "天神裁定：阿杰 被处决，身份：平民。" in after.text
    assert "本日无人被处决" not in after.text and after.text.startswith("【第1天投票结果】")
    assert "生死投票：" in after.text  # the rest of the result stands
    old = next(a for a in announcements(svc) if a.id == before.id)
    assert old.state is AnnouncementState.SUPERSEDED and old.superseded_by == after.id
    publish(svc, "day_result", clock)
    clock.advance(minutes=5)
    svc.tick()
    assert svc.referee.state.phase is Phase.NIGHT and not svc.referee.state.is_alive("阿杰")


def test_a_substitution_during_the_summoning_extends_it_and_says_so(tmp_path, monkeypatch) -> None:
    """adversary4 A4/A5: "Substitution clock": +12 h to the round he enters in, the summoning
    here; its post and his role PM say 招魂截止改为 …, and the role PM asks for no ballot."""
    from shenshi.daemon import gm_commands
    from tests.daemon.helpers import UIDS

    monkeypatch.setitem(UIDS, "路人甲", "77")
    svc, clock = day_one(tmp_path, victim="Rex")
    tied_runoff(svc, clock)
    publish(svc, "round_result", clock)
    svc.tick()
    opens, closes = svc.referee.times().rounds[3]
    clock.advance(hours=1)
    gm_commands.substitute(svc, "阿杰", "路人甲", uid="77")
    assert svc.referee.times().rounds[3] == (opens, closes + timedelta(hours=12))
    [post_] = pending(svc, "substitution")
    [role] = [a for a in pending(svc, "role") if a.destination == "路人甲"]
    for text in (post_.text, role.text):
        assert "本阶段因替补延长12小时：招魂截止改为" in text
    assert "只有被招魂的死者投票，这个座位今天不用再投票" in role.text and "请你在投票帖投票" not in role.text


def test_a_runoff_ballot_for_a_non_candidate_is_answered_with_the_candidates(tmp_path) -> None:
    """adversary4 A7, RES-A14: such a ballot is invalid and must be cast again; the voter is
    told (a missing runoff ballot makes him leave, RES-A18); a ballot cast again counts."""
    svc, clock = day_one(tmp_path, victim="Rex")
    round_one = {v: "阿杰" for v in FOR_AJIE} | {v: "老王" for v in FOR_LAOWANG} | {"kk_大侠": "小明"}
    vote(svc, VOTE_OPENS + 1, round_one)
    clock.set(at(VOTE_OPENS + 2))
    svc.tick()
    publish(svc, "round_result", clock)
    svc.tick()
    feed(svc, post("kk_大侠", "投票：小明", VOTE_OPENS + 3))
    [told] = [a for a in pending(svc, "vote_kept") if a.destination == "kk_大侠"]
    assert "小明 不是这一轮的候选人，只能投给 老王、阿杰" in told.text and "重新投票" in told.text
    feed(svc, post("kk_大侠", "投票：阿杰", VOTE_OPENS + 3.5))
    assert svc.ruleset.standing_vote(svc.referee.state).counted["kk_大侠"].target == "阿杰"


def test_an_uncounted_summoned_ballot_gives_the_gm_its_real_reason(tmp_path) -> None:
    """adversary5 B4: a summoned victim's second ballot is D-I (his first stands), not "投票人已出局"."""
    svc, clock = day_one(tmp_path, victim="Rex")
    tied_runoff(svc, clock)
    publish(svc, "round_result", clock)
    svc.tick()
    feed(svc, post("Rex", "招魂投票：老王", VOTE_OPENS + 16))
    feed(svc, post("Rex", "投票：阿杰", VOTE_OPENS + 17))
    clock.set(svc.referee.times().rounds[3][1])
    svc.tick()
    [result] = pending(svc, "day_result")
    assert "老王 被处决" in result.text  # his first summoned ballot counted
    [uncounted] = result.notes["uncounted"]
    assert uncounted["words"] == "Rex 招魂投 阿杰"
    assert uncounted["reason"] == "被招魂者的第一张票为准：不计"


def test_a_summoned_victims_ballot_by_pm_is_sent_to_the_vote_thread(tmp_path) -> None:
    """Before: 「你已出局，不能再行动」 to the one player who may vote now."""
    svc, clock = day_one(tmp_path, victim="Rex")
    tied_runoff(svc, clock)
    publish(svc, "round_result", clock)
    svc.tick()
    feed(svc, pm("Rex", "投票：老王", VOTE_OPENS + 16))
    [receipt] = [a for a in pending(svc, "receipt") if a.destination == "Rex"]
    assert "投票请在投票帖发帖" in receipt.text and "出局" not in receipt.text
    assert any("招魂投票必须在投票帖发帖" in a.message for a in alerts(svc))
    assert svc.referee.state.ballots == () or all(b.voter != "Rex" or b.round != 3 for b in svc.referee.state.ballots)


def test_a_seat_replaced_between_the_rounds_keeps_its_substitutes_name_to_the_days_end(tmp_path, monkeypatch) -> None:
    """adversary5 B3: the runoff's post named the seat 「路人甲（接替 老王）」, and the day's result,
    which executes it, named it 「老王」 again (the seat died before he entered)."""
    from shenshi.daemon import gm_commands
    from tests.daemon.helpers import UIDS
    from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = day_one(tmp_path, victim="Rex")
    vote(svc, VOTE_OPENS + 1, {v: "阿杰" for v in FOR_AJIE} | {v: "老王" for v in FOR_LAOWANG} | {"kk_大侠": "小明"})
    clock.set(at(VOTE_OPENS + 2))
    svc.tick()
    gm_commands.substitute(svc, "老王", NEWCOMER, uid=NEWCOMER_UID)  # round 1's result pending
    seat = f"{NEWCOMER}（接替 老王）"
    [runoff] = pending(svc, "round_result")
    assert f"{seat}、阿杰 平票" in runoff.text or f"阿杰、{seat} 平票" in runoff.text
    publish(svc, "round_result", clock)
    svc.tick()
    votes = {v: "阿杰" for v in FOR_AJIE if v != "老王"} | {v: "老王" for v in FOR_LAOWANG} | {NEWCOMER: "阿杰"}
    vote(svc, VOTE_OPENS + 3, votes)
    clock.set(at(VOTE_OPENS + 2 + 24.5))  # the runoff, 24 h with the substitution
    svc.tick()
    [tied] = pending(svc, "round_result")
    assert "仍然平票，进入招魂" in tied.text and seat in tied.text
    publish(svc, "round_result", clock)
    svc.tick()
    feed(svc, post("Rex", "招魂投票：老王", VOTE_OPENS + 30))
    clock.set(svc.referee.times().rounds[3][1])
    svc.tick()
    [result] = pending(svc, "day_result")
    assert f"计入遗言与招魂后：{seat} 5 票" in result.text and f"{seat} 被处决，身份：杀手。" in result.text
    assert "\n老王" not in result.text


def test_a_second_ruling_replaces_the_first_in_the_pending_result(tmp_path) -> None:
    """gmattack A8: `execute X`, then `cancel-execution`, then `execute Y` before the result
    went out: the post kept every ruling (「X 被处决，身份：杀手」 beside 「本日无人被处决」), a
    living player's role in public. The last ruling is the result."""
    from shenshi.daemon import gm_commands

    svc, clock = day_one(tmp_path, victim=None)
    tied_runoff(svc, clock)
    killer = next(s.name for s in svc.referee.state.alive() if s.role == "killer")
    gm_commands.correct(svc, "execute", [killer], reason="天神裁定")
    gm_commands.correct(svc, "cancel-execution", [], reason="改主意")
    [now] = pending(svc, "day_result")
    assert "本日无人被处决" in now.text and "身份：杀手" not in now.text, now.text
    gm_commands.correct(svc, "execute", ["阿杰"], reason="天神裁定")
    [last] = pending(svc, "day_result")
    assert last.text.count("天神裁定") == 1 and "阿杰 被处决" in last.text and "无人被处决" not in last.text, last.text


def test_status_keeps_a_gms_execution_unknown_until_its_post(tmp_path) -> None:
    """recheck2 N3: after `override execute` on the settled day, status listed the executed
    player as out 「玩家所知」 while the result post still waited."""
    from shenshi.daemon import gm_commands
    from shenshi.daemon.status import build_status

    svc, clock = day_one(tmp_path, victim=None)
    tied_runoff(svc, clock)
    gm_commands.correct(svc, "execute", ["阿杰"], reason="天神裁定")
    shown = build_status(svc)
    assert "阿杰" in shown.living and "阿杰" not in shown.dead and "阿杰" in shown.unannounced_deaths


def test_a_gms_execution_names_a_seat_by_its_announced_substitute(tmp_path, monkeypatch) -> None:
    """recheck2 N2: 「阿杰 退出，由替补 路人甲 接替。」 was out during the runoff; once the day had
    settled, `override execute 路人甲` posted 「天神裁定：阿杰 被处决」 (the day settles again from
    before its close, when the seat still had its old holder), beside 「路人甲（接替 阿杰） 4 票」."""
    from shenshi.daemon import gm_commands
    from shenshi.daemon.gm_commands import mark_published
    from tests.daemon.helpers import UIDS, announcements

    monkeypatch.setitem(UIDS, "路人甲", "77")
    svc, clock = day_one(tmp_path, victim=None)
    others = [n for n in ("kk_大侠", "Rex") if svc.referee.state.is_alive(n)]
    vote(svc, VOTE_OPENS + 1, {v: "阿杰" for v in FOR_AJIE} | {v: "老王" for v in FOR_LAOWANG} | {v: "小明" for v in others})
    clock.set(at(VOTE_OPENS + 2))
    svc.tick()
    publish(svc, "round_result", clock)
    svc.tick()
    gm_commands.substitute(svc, "阿杰", "路人甲", uid="77")
    mark_published(svc, [a.id for a in announcements(svc) if a.kind == "substitution"])
    vote(svc, VOTE_OPENS + 3, {v: "阿杰" for v in FOR_AJIE if v != "阿杰"} | {v: "老王" for v in FOR_LAOWANG})
    clock.set(at(VOTE_OPENS + 2 + 25))  # the runoff (+12 h for the substitution) is over
    svc.tick()
    assert svc.referee.state.phase is Phase.DUSK
    gm_commands.correct(svc, "execute", ["老王"], reason="天神裁定")
    gm_commands.correct(svc, "execute", ["路人甲"], reason="改判")
    [now] = pending(svc, "day_result")
    ruled = [line for line in now.text.splitlines() if line.startswith("天神裁定")]
    assert len(ruled) == 1 and "路人甲" in ruled[0], now.text
    assert now.text.count("被处决") == 1, now.text  # the vote's own execution line replaced
