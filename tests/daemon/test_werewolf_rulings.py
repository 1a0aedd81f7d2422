"""The GM's werewolf rulings reach the players (adversary6 C5, C11, C15): an exit is posted
with its reason (before: nothing, and the dawn post said nobody died), exits that end the game
post the winning camp (§5.7), and the badge handed over, 判罚 and 罚下 are public (§5.8)."""

from __future__ import annotations

import pytest

from shenshi.daemon.gm_commands import NeedsConfirmation, correct, mark_published
from shenshi.demo.script import load_script
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import announcement, announcements, at, started


def night_one(tmp_path):
    """A werewolf game (the demo's 12 characters) in night 1: ``(service, clock)``."""
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    for hours in (10.6, 49.1):  # night 0; day 1 from 06:00 to 21:00 the next day
        clock.set(at(hours))
        svc.tick()
    result = announcement(svc, svc.referee.gate_key())
    if result is not None:
        mark_published(svc, [result.id])
    clock.set(at(49.2))
    svc.tick()
    assert svc.referee.state.phase.value == "night"
    return svc, clock


def posts(svc) -> list[str]:
    return [a.text for a in announcements(svc, PENDING) if a.destination_kind.value == "thread"]


def test_an_exit_is_posted_with_its_reason(tmp_path) -> None:
    svc, _ = night_one(tmp_path)
    correct(svc, "exit", ["Lily99"], reason="本人申请退出")
    [post] = [p for p in posts(svc) if "Lily99" in p]
    assert post.startswith("Lily99 退出游戏（本人申请退出）。") and "出局。" not in post


def test_exits_that_end_the_game_post_the_winning_camp(tmp_path) -> None:
    svc, _ = night_one(tmp_path)
    for who in ("老王", "Lily99", "夜行者"):  # the wolves and the piper
        correct(svc, "exit", [who], reason="本人申请退出")
    # the last one ends the game: said first, with nothing changed (recheck2 N4)
    with pytest.raises(NeedsConfirmation) as asked:
        correct(svc, "exit", ["kk_大侠"], reason="本人申请退出")
    assert "游戏立即结束（村民阵营获胜）" in str(asked.value) and "--ends-game" in str(asked.value)
    assert [h.command for h in asked.value.hints] == ["override", "substitute"]
    assert svc.referee.state.outcome is None and svc.referee.state.is_alive("kk_大侠")
    correct(svc, "exit", ["kk_大侠"], reason="本人申请退出", ends_game=True)
    assert svc.referee.state.outcome is not None
    last = [p for p in posts(svc) if "kk_大侠" in p][-1]
    assert "游戏结束" in last and "村民阵营" in last


def test_the_badge_handed_over_and_a_send_off_are_public(tmp_path) -> None:
    svc, _ = night_one(tmp_path)
    correct(svc, "sheriff", ["月光"])
    correct(svc, "send-off", ["Rex"], reason="辱骂")
    texts = posts(svc)
    assert any("月光 成为警长。" in p for p in texts)
    assert any("Rex 被罚下" in p and "理由：辱骂" in p for p in texts)  # (adversary7 D5: with its reason)


def test_status_asks_only_for_the_skills_of_this_night_and_one_kill_per_pack(tmp_path) -> None:
    """adversary6 C8: night 0 listed night-1 skills; later nights listed 金箭/托孤, and every
    wolf once the pack's one kill was in."""
    from shenshi.daemon.gm_commands import enter_action
    from shenshi.daemon.status import build_status

    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    night0 = dict(build_status(svc).night.still_to_send)
    assert set(night0) <= {"金箭", "托孤"} and "白色的猫" in night0.get("金箭", ())
    svc, clock = night_one(tmp_path / "n1")
    enter_action(svc, ["老王", "kill", "Rex"])
    still = build_status(svc).night.still_to_send
    names = {n for _, group in still for n in group}
    assert not names & {"Lily99", "夜行者", "白色的猫"}  # the pack's kill is in; 金箭 was night 0's
    assert any("预言" in words for words, _ in still)


def test_the_badge_cannot_be_handed_over_while_the_election_is_open(tmp_path) -> None:
    """adversary7 D1: 「大卫 成为警长。」 posted during day 1's election, his 2.1 counted in it,
    and the election then made another sheriff: two posts naming two sheriffs."""
    import pytest

    from shenshi.errors import UserError

    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    clock.set(at(10.6))  # day 1: the sheriff's election
    svc.tick()
    with pytest.raises(UserError, match="今天的投票选举警长") as refused:
        correct(svc, "sheriff", ["大卫"])
    assert "没有改动" in str(refused.value)
    assert not [p for p in posts(svc) if "成为警长" in p]


def test_status_lists_no_sent_off_player_and_no_skill_whose_night_phase_closed(tmp_path) -> None:
    """adversary7 D4: 「还没提交「吹笛」：小明」 after he was sent off, and 夜晚1 skills after 00:00."""
    from datetime import timedelta

    from shenshi.daemon.status import build_status

    svc, clock = night_one(tmp_path)
    correct(svc, "send-off", ["kk_大侠"], reason="辱骂")  # the piper
    still = dict(build_status(svc).night.still_to_send)
    assert not any("kk_大侠" in names for names in still.values())
    night = svc.referee.times()
    clock.set(min(night.phase_deadlines.values()) + timedelta(minutes=5))  # 夜晚1 has closed
    words = [w for w, _ in build_status(svc).night.still_to_send]
    assert words and all(w in ("救药或毒药", "毒药或救药", "救药", "毒药") for w in words), words


def test_two_penalties_of_one_player_are_two_posts(tmp_path) -> None:
    svc, _ = night_one(tmp_path)
    correct(svc, "penalty", ["Rex", "3"], reason="刷屏")
    correct(svc, "penalty", ["Rex", "2"], reason="骂人")
    texts = [p for p in posts(svc) if "Rex 被判罚" in p]
    assert len(texts) == 2 and "累计 5 分" in texts[1]


def test_a_send_off_after_the_night_settled_is_posted_at_once_as_a_send_off(tmp_path) -> None:
    """wolfadv W11: a player with 6 points sent off at 04:08 (the night settled at 03:00, its
    post held for 06:00) was announced only in the dawn post, as 「累计 12 分」, without the
    referee's reason."""
    from datetime import timedelta

    svc, clock = night_one(tmp_path)
    correct(svc, "penalty", ["Rex", "6"], reason="辱骂他人")
    settles = max(svc.referee.times().phase_deadlines.values())
    clock.set(settles + timedelta(hours=1))  # settled, its post waits for 06:00
    svc.tick()
    assert svc.referee.state.phase.value == "dawn"
    correct(svc, "send-off", ["Rex"], reason="恶意刷屏")
    [post] = [p for p in posts(svc) if "罚下" in p]
    assert "Rex 被罚下" in post and "理由：恶意刷屏" in post and "12 分" not in post
    clock.set(settles + timedelta(hours=3, minutes=1))  # 06:01: the night's post
    svc.tick()
    dawn = [p for p in posts(svc) if "第1夜" in p]
    assert dawn and not any("罚下" in p or "12 分" in p for p in dawn), dawn
