"""wolfadv W18: a lover left the game (``override exit``); his partner, the sheriff, followed by
殉情, and the badge vanished: no 【殉职】 asked of him, no last words, though he was among the
first four out. A GM ruling that puts characters out tells them what a resolution would."""

from __future__ import annotations

from shenshi.daemon import gm_commands
from shenshi.demo.script import load_script
from shenshi.rulesets.werewolf import camps
from shenshi.store.outbox import PENDING
from tests.daemon.helpers import announcements, at, lover_left, post, started
from tests.daemon.test_status import feed


def test_the_sheriff_who_follows_a_leaving_lover_is_asked_for_his_successor(tmp_path) -> None:
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    cupid = next(s.name for s in svc.referee.state.seats if s.role == "cupid")
    a, b = [s.name for s in svc.referee.state.seats if s.team == "village" and s.role != "cupid"][:2]
    gm_commands.enter_action(svc, [cupid, "pair_lovers", a, b])
    clock.set(at(10.6))  # day 1: the sheriff's election
    svc.tick()
    for i, s in enumerate(svc.referee.state.alive()):
        feed(svc, post(s.name, f"投票：{b}", 11 + i / 60))
    clock.set(at(49.1))  # the day closes: b is sheriff
    svc.tick()
    assert camps.sheriff(svc.referee.state).name == b
    gm_commands.correct(svc, "exit", [a])  # his lover b follows by 殉情
    assert not svc.referee.state.is_alive(b)
    pending = [x for x in announcements(svc, PENDING) if x.destination == b]
    kinds = {x.kind for x in pending}
    assert "successor_notice" in kinds, [(x.kind, x.text) for x in pending]
    assert "last_words_notice" in kinds, [(x.kind, x.text) for x in pending]
    [notice] = [x for x in pending if x.kind == "last_words_notice"]
    assert "06:00 前" in notice.text, notice.text  # the next day opens at 06:00


def test_a_last_words_notice_past_its_deadline_is_not_approved_without_late(tmp_path) -> None:
    """wolfadv W12: a 遗言期限 PM approved after its deadline went out promising a closed window."""
    from datetime import timedelta

    from shenshi.daemon.gm_commands import outbox_action

    svc, clock, notice = lover_left(tmp_path)  # day 1: a leaves, b follows by 殉情
    from datetime import datetime
    clock.set(datetime.fromisoformat(notice.notes["deadline"]) + timedelta(minutes=3))
    said = outbox_action(svc, "approve", [notice.id])
    assert not said.ids and "已过" in said.refused[0], said
    assert outbox_action(svc, "approve", [notice.id], late=True).ids == (notice.id,)
