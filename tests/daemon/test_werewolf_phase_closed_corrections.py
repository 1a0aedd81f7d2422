"""wolfadv W17: the GM voided a wolf's kill after 夜晚1 had closed: the witch's 【通灵】 list
naming that kill had gone (or went) out, the kill fell back to another wolf's target she was
never shown, and her heal of it was accepted. What a night phase's close sent stands on that
phase's actions: after it, they are neither voided nor entered."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.daemon import gm_commands
from shenshi.daemon.gm_commands import enter_action
from shenshi.errors import UserError
from tests.daemon.test_werewolf_rulings import night_one


def test_a_kill_is_neither_voided_nor_entered_after_its_phase_closed(tmp_path) -> None:
    svc, clock = night_one(tmp_path)
    wolves = [s.name for s in svc.referee.state.alive() if s.role == "werewolf"]
    victim = next(s.name for s in svc.referee.state.alive() if s.role == "villager")
    enter_action(svc, [wolves[0], "杀", victim])
    first_phase = min(svc.referee.times().phase_deadlines.values())
    clock.set(first_phase + timedelta(minutes=5))  # 夜晚1 closed: the witch's list is out
    svc.tick()
    with pytest.raises(UserError, match="夜晚1 已在 .* 截止"):
        gm_commands.correct(svc, "void", [wolves[0], "杀"])
    with pytest.raises(UserError, match="夜晚1 已在 .* 截止"):
        enter_action(svc, [wolves[1], "杀", wolves[0]], at=(first_phase - timedelta(hours=1)).isoformat())
    assert [s.target for s in svc.referee.state.submissions if s.action == "kill"] == [victim]


def test_before_its_phase_closes_a_kill_may_still_be_voided(tmp_path) -> None:
    svc, _ = night_one(tmp_path)
    wolf = next(s.name for s in svc.referee.state.alive() if s.role == "werewolf")
    victim = next(s.name for s in svc.referee.state.alive() if s.role == "villager")
    enter_action(svc, [wolf, "杀", victim])
    gm_commands.correct(svc, "void", [wolf, "杀"])
    assert not [s for s in svc.referee.state.submissions if s.action == "kill"]
