"""newcomer N-5: a substitute taking the binder's seat by day inherits its bind streak
(RES-A10, RES-A18): binding last night's target again tonight, with no kill on him, kills him
(束魂失败). His role PM did not say what the seat bound."""

from __future__ import annotations

from datetime import timedelta

from shenshi.daemon import gm_commands
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import GAME6_10, START, UIDS, announcements, config, pm
from tests.daemon.test_proposals_follow_the_state import (
    NEWCOMER,
    NEWCOMER_UID,
    feed,
    night_one,
    to_day_one,
)


def signed_in(tmp_path):
    """A game6-10 in review mode, night 1 open, everyone signed in: ``(service, clock)``."""
    return night_one(config(tmp_path, mode="review"), [n for n, _ in GAME6_10])


def test_a_substitute_in_the_binders_seat_is_told_last_nights_bind(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = signed_in(tmp_path)
    binder = next(n for n, r in GAME6_10 if r == "binder")
    target = next(n for n, r in GAME6_10 if r == "commoner")
    feed(svc, pm(binder, f"束魂 {target}", 2))
    to_day_one(svc, clock)
    gm_commands.substitute(svc, binder, NEWCOMER, uid=NEWCOMER_UID)
    [role] = [a for a in announcements(svc, PENDING) if a.kind == "role" and a.destination == NEWCOMER]
    assert f"这个座位上一夜束魂了 {target}" in role.text and "束魂失败" in role.text, role.text


def test_the_seer_the_gm_answered_by_hand_gets_no_second_answer_at_dawn(tmp_path) -> None:
    """newcomer N-22: `override answered` (the GM answered the seer by hand during the night),
    then the dawn proposed the seer's answer again."""
    svc, clock = signed_in(tmp_path)
    seer = next(n for n, r in GAME6_10 if r == "seer")
    feed(svc, pm(seer, "占卜 Rex", 2))
    gm_commands.correct(svc, "answered", [seer])
    clock.set(START + timedelta(hours=25))
    svc.tick()
    assert not [a for a in announcements(svc, PENDING) if a.kind == "divination" and a.destination == seer]
