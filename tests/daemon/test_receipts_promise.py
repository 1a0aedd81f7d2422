"""Receipts never promise what can no longer happen (issue 20): a night that ends as soon as
everything is in says so in every receipt, and the PM that completes it is told the night is
being settled; after the game's end a late PM is told the game is over, not to resend later;
nobody is sent a 遗言期限 PM once the game has ended."""

from __future__ import annotations

from shenshi.store.outbox import PENDING, AnnouncementState
from tests.daemon.helpers import alerts, announcements, at, pm, publish_vote_opening, started
from tests.daemon.test_status import feed

DECLARATION = "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6


def night_one(tmp_path, **daemon):
    return started(tmp_path, **daemon)


def receipts(svc) -> dict[str, str]:
    return {a.destination: a.text for a in announcements(svc) if a.kind == "receipt"}


def test_every_receipt_of_a_night_that_ends_early_promises_a_change_only_until_it_is_settled(tmp_path) -> None:
    svc, clock = night_one(tmp_path)
    sent = [("夜行者", f"杀 Rex\n杀人宣言：{DECLARATION}"), ("老王", "杀 Rex"), ("小明", "占卜 老王"),
            ("月光", "束魂 老王"), ("阿杰", "诅咒 kk_大侠"), ("Tom_2", "祈祷 Rex"), ("白色的猫", "祈祷 Rex"),
            ("kk_大侠", "祈祷 Rex"), ("Rex", "祈祷 老王")]  # fmt: skip
    for i, (who, text) in enumerate(sent):
        feed(svc, pm(who, text, 0.1 + i / 1000))
        svc.tick()
    assert svc.referee.state.phase.value == "night"  # Lily99 (the blesser) has not sent hers
    feed(svc, pm("Lily99", "庇佑 Tom_2", 0.2))  # the last one: the night is complete
    svc.tick()
    assert svc.referee.state.phase.value == "dawn"
    texts = receipts(svc)
    assert not [t for t in texts.values() if "天亮前可更改" in t]  # the night did not run to dawn
    # what is still to send reaches the players after the night's result (posts go first): it
    # says the night is settled, not that it may change (F25); what said so is superseded
    waiting = {a.destination: a.text for a in announcements(svc, PENDING) if a.kind == "receipt"}
    assert waiting["Lily99"] == "已收到：今晚庇佑 Tom_2，行动已全部到齐，本阶段已提前结算，不能再更改"
    assert waiting["月光"] == "已收到：今晚束魂 老王，行动已全部到齐，本阶段已提前结算，不能再更改"
    assert waiting["小明"] == "已收到：今晚占卜 老王，本阶段已结算，不能再更改"
    assert not [t for t in waiting.values() if "可更改" in t or "即将结算" in t]
    old = [a for a in announcements(svc) if a.kind == "receipt" and a.state is AnnouncementState.SUPERSEDED]
    assert {a.destination for a in old} >= {"月光", "Lily99"}
    assert all("第1夜结算" in (a.superseded_because or "") for a in old)


def test_a_night_that_runs_to_its_deadline_keeps_the_dawn_in_its_receipts(tmp_path) -> None:
    svc, clock = night_one(tmp_path, early_close=False)
    feed(svc, pm("月光", "束魂 老王", 0.1))
    assert receipts(svc)["月光"] == "已收到：今晚束魂 老王，天亮前可更改"


def decided_by_the_vote(tmp_path):
    """game6-10 one execution away from the killers' win: five civilians exited by the GM."""
    from shenshi.daemon.gm_commands import correct, mark_published
    from tests.daemon.helpers import announcement

    svc, clock = night_one(tmp_path)
    clock.set(at(24.5))
    svc.tick()  # night 1 ends with nothing done
    mark_published(svc, [announcement(svc, svc.referee.gate_key()).id])
    for name in ("小明", "月光", "阿杰", "Lily99", "Tom_2"):
        correct(svc, "exit", [name])
    return svc, clock


def test_after_the_game_ends_a_pm_is_told_the_step_closed_and_later_the_game_is_over(tmp_path) -> None:
    from shenshi.daemon.gm_commands import mark_published
    from tests.daemon.helpers import post

    svc, clock = decided_by_the_vote(tmp_path)
    clock.set(at(37))
    svc.tick()  # day 1's vote opens, with its post
    publish_vote_opening(svc)
    for i, voter in enumerate(("夜行者", "老王", "kk_大侠", "Rex", "白色的猫")):
        feed(svc, post(voter, "投 Rex", 37 + i / 100))
    clock.set(at(38))
    svc.tick()
    assert svc.referee.state.outcome is not None  # Rex executed: the killers win
    feed(svc, pm("kk_大侠", "祈祷 夜行者", 38.1))  # the players do not know it yet
    [refused] = [a for a in announcements(svc) if a.kind == "receipt" and a.destination == "kk_大侠"][-1:]
    assert "本阶段已经截止" in refused.text and "下一阶段" not in refused.text and "游戏已经结束" not in refused.text
    late = feed(svc, post("Rex", "投 夜行者", 38.2))  # a ballot after the close
    notice = [a for a in announcements(svc) if a.kind == "vote_closed"]
    assert [a.destination for a in notice] == ["Rex"] and "本轮投票已经截止" in notice[0].text
    alert = [a for a in alerts(svc) if a.evidence_id == late]
    assert [a.kind for a in alert] == ["no_vote_open"] and "晚于截票时间" in alert[0].message
    ends = [a for a in announcements(svc) if a.key == svc.referee.gate_key() or a.key.endswith("day1:public")]
    mark_published(svc, [ends[-1].id])
    feed(svc, pm("kk_大侠", "祈祷 老王", 39))
    [last] = [a for a in announcements(svc) if a.kind == "receipt" and a.destination == "kk_大侠"][-1:]
    assert "游戏已经结束" in last.text
    # newcomer N-16: once the end is out, a ballot is told the game is over, not 「本轮投票已经截止」,
    # and the executed player (he knows he is out) is told nothing
    feed(svc, post("kk_大侠", "投票：老王", 39.1))
    feed(svc, post("Rex", "投票：老王", 39.2))
    notice = [a for a in announcements(svc) if a.kind == "vote_closed"]
    assert [a.destination for a in notice] == ["Rex", "kk_大侠"], [(a.destination, a.text) for a in notice]
    assert "游戏已经结束" in notice[-1].text and "本轮" not in notice[-1].text
    # newcomer N-17: status after the end shows no day marks and no substitutes
    from shenshi.daemon.status import build_status

    shown = build_status(svc)
    assert shown.marks == () and shown.substitutes == ()


def test_no_last_words_deadline_is_sent_once_the_game_has_ended(tmp_path) -> None:
    """Werewolf tells each night victim his 遗言 deadline by PM (§5.4); a night that ends the
    game leaves nobody a deadline to keep."""
    from shenshi.daemon.referee import Clockwork
    from shenshi.rulesets.base import Outcome, Report, Resolved
    from tests.daemon.test_referee_werewolf import START as WW_START
    from tests.daemon.test_referee_werewolf import werewolf

    ref, _ = werewolf(tmp_path)
    ref.tick(WW_START, Clockwork())  # night 0 opens
    state = ref.state
    report = Report(last_words=("月光",))
    going_on = Resolved(state.seats, state.memory, None, report=report)
    ended = Resolved(state.seats, state.memory, Outcome("wolves_win", "wolves"), report=report)
    told = [d for d in ref._last_words_notices(state, going_on, None) if d.kind == "last_words_notice"]
    assert [d.destination for d in told] == ["月光"]
    assert not [d for d in ref._last_words_notices(state, ended, None) if d.kind == "last_words_notice"]


def test_no_correction_once_the_games_end_is_published(tmp_path) -> None:
    """gmattack A9: after 「【游戏结束】…获胜！」 was posted, `override execute` was accepted and
    the game went on into 第2夜 with the executed killer alive again."""
    import pytest

    from shenshi.daemon import gm_commands
    from shenshi.daemon.gm_commands import mark_published
    from shenshi.errors import UserError
    from tests.daemon.helpers import post

    svc, clock = decided_by_the_vote(tmp_path)
    clock.set(at(37))
    svc.tick()
    publish_vote_opening(svc)
    for i, voter in enumerate(("夜行者", "老王", "kk_大侠", "Rex", "白色的猫")):
        feed(svc, post(voter, "投 Rex", 37 + i / 100))
    clock.set(at(38))
    svc.tick()
    assert svc.referee.state.outcome is not None
    alive = next(s.name for s in svc.referee.state.alive())
    ends = [a for a in announcements(svc) if a.key.endswith("day1:public")]
    mark_published(svc, [ends[-1].id])
    for what, args in (("execute", [alive]), ("cancel-execution", []), ("exit", [alive])):
        with pytest.raises(UserError) as refused:
            gm_commands.correct(svc, what, args, reason="试试")
        assert "游戏已经结束" in str(refused.value) and "没有改动" in str(refused.value), refused.value
    assert svc.referee.state.outcome is not None and not svc.referee.state.is_alive("Rex")


def test_a_vote_opening_post_whose_round_closed_first_is_withdrawn(tmp_path) -> None:
    """gmattack A7: 「投票帖自…起开放投票…截止」 was still approvable after round 1 had closed,
    and went out beside the round's result."""
    from shenshi.store.outbox import AnnouncementState as State
    from tests.daemon.helpers import post

    svc, clock = decided_by_the_vote(tmp_path)
    clock.set(at(37))
    svc.tick()  # day 1's vote opens: its post is proposed (not published)
    [opening] = [a for a in announcements(svc) if a.kind == "vote_opened"]
    for i, voter in enumerate(("夜行者", "老王", "kk_大侠", "Rex", "白色的猫")):
        feed(svc, post(voter, "投 Rex", 37 + i / 100))
    clock.set(at(38))
    svc.tick()  # every ballot in: the round closed
    now = next(a for a in announcements(svc) if a.id == opening.id)
    assert now.state is State.SUPERSEDED, now.state
