"""A player renamed on the forum keeps his seat: his uid shows the new name on what he writes,
and from then on everyone's ballots and actions may name him so (issue 22)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from tests.daemon.helpers import (
    START,
    UIDS,
    alerts,
    announcement,
    announcements,
    at,
    config,
    pm,
    post,
)


def feed(svc, *items) -> None:
    with svc.store.transaction() as uow:
        uow.evidence.record(svc.game_id, [(item, None) for item in items])
    svc.process()


def renamed(item, name: str):
    """``item`` as the forum shows it after its author was renamed ``name`` (same uid)."""
    if hasattr(item, "author"):
        return replace(item, author=name)
    return replace(item, sender=name, conversation=item.conversation)


def started(tmp_path, clock):
    svc = bootstrap(config(tmp_path), clock=clock, forum=False)
    svc.start()
    return svc


def test_a_ballot_and_an_action_naming_the_new_name_count_for_his_seat(tmp_path) -> None:
    clock = ManualClock(START + timedelta(minutes=1))
    svc = started(tmp_path, clock)
    svc.tick()
    # 老王 (a killer, uid 4) is renamed 王老五 on the forum; his own PM shows it
    feed(svc, renamed(pm("老王", "杀 Rex\n杀人宣言：" + "风雨交加，雷声在远处的山谷里回荡。" * 8, 0.5), "王老五"))
    [note] = [a for a in alerts(svc) if a.kind == "renamed"]
    assert note.subject == "老王" and "王老五" in note.message and UIDS["老王"] in note.message
    feed(svc, pm("小明", "占卜 王老五", 1))  # the seer names him by his new name
    subs = {(s.actor, s.action, s.target) for s in svc.referee.state.submissions}
    assert ("小明", "divine", "老王") in subs and ("老王", "kill", "Rex") in subs
    clock.set(at(24.5))
    svc.tick()  # dawn: the GM posts the night's result by hand (dry-run)
    [result] = [a for a in announcements(svc) if a.kind == "night_result"]
    feed(svc, post("神的使者", result.text, 24.6))
    clock.set(at(37.5))
    svc.tick()  # the vote opens at the 13th hour of day 1, with its post (the GM's, by hand)
    feed(svc, post("神的使者", announcement(svc, "g1:day1:vote_open").text, 37.55))
    feed(svc, post("阿杰", "投 王老五", 37.6), post("月光", "投票：王老五", 37.7))
    counted = {(b.voter, b.target) for b in svc.referee.state.ballots}
    assert {("阿杰", "老王"), ("月光", "老王")} <= counted
    assert not [a for a in alerts(svc) if a.kind in ("unknown_name", "ambiguous_name")]
    assert len([a for a in alerts(svc) if a.kind == "renamed"]) == 1  # told once


def test_a_restart_still_knows_the_new_name(tmp_path) -> None:
    clock = ManualClock(START + timedelta(minutes=1))
    svc = started(tmp_path, clock)
    svc.tick()
    feed(svc, renamed(post("Rex", "大家好", 0.2), "霸王龙"))
    svc.close()
    again = started(tmp_path, clock)
    feed(again, pm("小明", "占卜 霸王龙", 1))
    assert [(s.actor, s.target) for s in again.referee.state.submissions] == [("小明", "Rex")]
    assert len([a for a in alerts(again) if a.kind == "renamed"]) == 1


def test_a_name_that_is_another_players_is_never_learned(tmp_path) -> None:
    clock = ManualClock(START + timedelta(minutes=1))
    svc = started(tmp_path, clock)
    svc.tick()
    feed(svc, renamed(post("Rex", "大家好", 0.2), "小明"))  # Rex's uid under 小明's name
    feed(svc, pm("阿杰", "诅咒 小明", 1))
    assert [(s.actor, s.target) for s in svc.referee.state.submissions] == [("阿杰", "小明")]
    assert not [a for a in alerts(svc) if a.kind == "renamed"]


def test_a_stranger_with_the_new_name_is_still_not_a_player(tmp_path) -> None:
    """Only the uid makes the name his: a PM of another account that calls itself so is a
    stranger's."""
    clock = ManualClock(START + timedelta(minutes=1))
    svc = started(tmp_path, clock)
    svc.tick()
    feed(svc, renamed(post("Rex", "大家好", 0.2), "霸王龙"))
    impostor = replace(pm("路人甲", "杀 小明", 0.5), sender="霸王龙")  # uid 999
    feed(svc, impostor)
    assert not svc.referee.state.submissions
    assert [a for a in alerts(svc) if a.kind == "not_a_player"]
