"""recheck2 A1 variant: once the players read 「白色的猫 退出，由替补 路人甲 接替。」, the GM's
exit of that seat (`override exit 路人甲`) was posted as 「白色的猫 …退出游戏」: the players read
that the one who had left went out again, and not a word of 路人甲. Every post about the seat
after its substitution was announced names it by the substitute."""

from __future__ import annotations

from shenshi.daemon import gm_commands
from shenshi.daemon.gm_commands import mark_published
from tests.daemon.helpers import UIDS, announcements, at, started
from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID


def test_the_exit_of_a_seat_whose_substitution_is_out_names_the_substitute(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path)
    clock.set(at(1))
    gm_commands.substitute(svc, "白色的猫", NEWCOMER, uid=NEWCOMER_UID)
    [sub] = [a for a in announcements(svc) if a.kind == "substitution"]
    mark_published(svc, [sub.id])
    clock.set(at(2))
    svc.tick()
    gm_commands.correct(svc, "exit", [NEWCOMER], reason="本人申请退出")
    [post] = [a for a in announcements(svc) if a.kind == "exit"]
    assert NEWCOMER in post.text and "白色的猫" not in post.text.replace("（接替 白色的猫）", ""), post.text
