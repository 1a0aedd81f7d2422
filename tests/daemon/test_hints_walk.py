"""Every next step works in its situation (issue 20): a night of garbled and refused PMs, a
day of unreadable ballots, and a sign-in that missed, in dry-run, review and live mode. For
each open alert the GM runs what its hint suggests, as the console's button would
(``run_hint``): it is accepted, it resolves the alert, and it names only what the mode allows;
an alert whose answer goes out by itself (a receipt in live mode) closes when it is out."""

from __future__ import annotations

import pytest

from shenshi.daemon.gm_commands import mark_published, run_hint
from shenshi.daemon.hints import Hint
from shenshi.store.outbox import AnnouncementState
from tests.daemon.helpers import (
    alerts,
    announcement,
    announcements,
    at,
    pm,
    post,
    started,
)
from tests.daemon.test_status import feed

MODES = ("dry-run", "review", "live")
NOT_IN = {"dry-run": {"approve"}, "review": {"post", "send_pm", "by_hand", "published"},
          "live": {"approve", "published", "post", "send_pm", "by_hand"}}  # fmt: skip
BY_HAND_OK = {"pm", "forum", "send_pm", "post", "by_hand", "ask_player", "maintainer", "password"}


def service(tmp_path, mode):
    return started(tmp_path, mode=mode)


def fill(hint: Hint) -> Hint:
    values = []
    for blank in hint.blanks:
        pick = (blank.suggested or blank.choices or ("替补甲" if blank.what == "新玩家" else "1",))[0]
        values.append(pick)
    return hint.fill(*values) if values else hint


def deliver(svc) -> None:
    """The daemon sends what the mode lets it send (as its publisher does, the forum saying yes)."""
    mode = svc.config.daemon.mode
    if mode == "dry-run":
        return
    with svc.store.transaction() as uow:
        pending = uow.outbox.announcements(svc.game_id, [AnnouncementState.PROPOSED, AnnouncementState.APPROVED])
    for a in pending:
        if a.state is AnnouncementState.PROPOSED and mode != "live":
            continue
        with svc.store.transaction() as uow:
            if a.state is AnnouncementState.PROPOSED:
                uow.outbox.approve(a.id)
            uow.outbox.mark_sending(a.id, owner=svc.owner)
            uow.outbox.mark_sent(a.id, forum_id=f"f{a.id}", at=svc.clock())
        svc._published_by_sending(a.key)


def walk(svc) -> list[str]:
    """Run the first hint of every open alert that has one; what each did."""
    mode = svc.config.daemon.mode
    done = []
    for _ in range(40):
        deliver(svc)
        open_ = [a for a in alerts(svc) if a.resolved_at is None and a.id not in {int(x.split()[0]) for x in done}]
        if not open_:
            break
        alert = open_[0]
        advice = svc.advice(alert)
        for hint in advice.hints:
            assert hint.command not in NOT_IN[mode], (alert.kind, mode, hint.text())
        runnable = [h for h in advice.hints if not h.by_hand and h.command not in ("edit", "review", "status", "run")]
        if not runnable:
            assert advice.hints == () or all(h.by_hand for h in advice.hints), (alert.kind, advice.text())
            done.append(f"{alert.id} {alert.kind}: {advice.text()}")
            continue
        said = run_hint(svc, fill(runnable[0]), offline=True)
        assert not said.refused, (alert.kind, runnable[0].text(), said.refused)
        deliver(svc)
        [after] = [a for a in alerts(svc) if a.id == alert.id]
        assert after.resolved_at is not None, (mode, alert.kind, runnable[0].text(), alert.message)
        done.append(f"{alert.id} {alert.kind} → {runnable[0].text()} → {after.resolution}")
    return done


@pytest.mark.parametrize("mode", MODES)
def test_a_night_of_garbled_and_refused_pms(tmp_path, mode) -> None:
    svc, clock = service(tmp_path, mode)
    feed(svc, pm("夜行者", "杀 夜行着", 0.1))  # a misspelt name: override action
    feed(svc, pm("小明", "占卜 老五", 0.2))
    feed(svc, pm("Tom_2", "杀 Rex", 0.3))  # a commoner's kill: refused, his receipt says why
    feed(svc, pm("月光", "束魂 老王或者Rex", 0.4))  # alternatives
    feed(svc, pm("Lily99", "晚上好，请问今晚几点截止？", 0.5))  # a question
    done = walk(svc)
    assert {a.kind for a in alerts(svc)} == {"unknown_name", "no_power", "alternatives", "not_a_command"}
    assert all(a.resolved_at is not None for a in alerts(svc)), done
    [refused] = [a for a in alerts(svc) if a.kind == "no_power"]
    assert refused.resolution.startswith("回执 #")  # its receipt reached Tom_2, whatever the mode


@pytest.mark.parametrize("mode", MODES)
def test_a_day_of_unreadable_ballots(tmp_path, mode) -> None:
    from tests.daemon.helpers import GAME6_10

    svc, clock = service(tmp_path, mode)
    with svc.store.transaction() as uow:  # everyone signs in
        uow.evidence.record(svc.game_id, [(post(n, "签到", 1), None) for n, _ in GAME6_10])
    svc.process()
    clock.set(at(24.5))
    svc.tick()
    result = announcement(svc, svc.referee.gate_key())
    if mode == "dry-run":
        mark_published(svc, [result.id])
    else:
        if mode == "review":
            run_hint(svc, Hint("approve", ids=(result.id,)))
        deliver(svc)
    clock.set(at(37))
    svc.tick()
    opening = announcement(svc, "g1:day1:vote_open")  # ballots count from it (F37)
    if mode == "dry-run":
        mark_published(svc, [opening.id])
    else:
        if mode == "review":
            run_hint(svc, Hint("approve", ids=(opening.id,)))
        deliver(svc)
    svc.tick()
    assert svc.referee.state.round == 1
    feed(svc, post("老王", "投 老五", 37.1))  # unknown name
    feed(svc, post("小明", "投 Rex 还是 老王？", 37.2))  # a question, not a ballot
    feed(svc, post("月光", "投 Rex 投 老王", 37.3))  # two targets
    feed(svc, post("Lily99", "我选Rex", 37.4))  # meant as a ballot: the name it names is picked
    [possible] = [a for a in alerts(svc) if a.kind == "possible_ballot"]
    [blank] = [b for h in svc.advice(possible).hints for b in h.blanks]
    assert blank.suggested == ("Rex",), blank  # newcomer3 N33: the form comes with Rex chosen
    done = walk(svc)
    assert [b.target for b in svc.referee.state.ballots if b.voter == "Lily99"] == ["Rex"]
    assert all("→ shenshi override ballot" in line for line in done if "ballot" in line), done
    assert all(a.resolved_at is not None for a in alerts(svc)), [(a.kind, a.message) for a in alerts(svc)]


@pytest.mark.parametrize("mode", MODES)
def test_missed_sign_ins_are_confirmed_replaced_or_kept(tmp_path, mode) -> None:
    svc, clock = service(tmp_path, mode)
    with svc.store.transaction() as uow:  # seven players reply to the player list
        uow.evidence.record(svc.game_id, [(post(n, "签到", 1), None) for n in
                                          ("夜行者", "老王", "小明", "月光", "阿杰", "Lily99", "Tom_2")])  # fmt: skip
    svc.process()
    clock.set(at(25))
    svc.tick()
    missed = [a for a in alerts(svc) if a.kind == "signin"]
    assert sorted(a.subject for a in missed) == ["Rex", "kk_大侠", "白色的猫"]
    done = walk(svc)
    assert len([line for line in done if "signin" in line]) == 3
    assert all(a.resolved_at is not None for a in alerts(svc) if a.kind == "signin"), done
    _ = announcements
