"""gmattack2 F13: chess32's settled day proposed 「你方阵亡的 韩信 的身份是：车」 to the 汉 general;
the GM cancelled the execution, then executed another: the first PM stayed pending (following
the hint would tell a general the role of a living player) and the new one's identity was
never proposed. The day's PMs follow its execution as the GM corrected it."""

from __future__ import annotations

from shenshi.daemon import gm_commands
from shenshi.demo.script import load_script
from shenshi.store.outbox import PENDING, AnnouncementState
from tests.daemon.helpers import announcements, post, started
from tests.daemon.test_status import feed


def identities(svc, states=PENDING) -> list[tuple[str, str]]:
    return [(a.destination, a.text) for a in announcements(svc, states) if a.kind == "death_identity"]


def test_the_identity_pm_follows_the_corrected_execution(tmp_path) -> None:
    svc, clock = started(tmp_path, "chess32", script=load_script("chess32"))
    for i, seat in enumerate(svc.referee.state.alive()):
        feed(svc, post(seat.name, "投票：项伯" if seat.name == "韩信" else "投票：韩信", 1 + i / 100))
    clock.set(svc.referee.times().closes)
    svc.tick()
    assert identities(svc) == [("刘邦", "你方阵亡的 韩信 的身份是：车。")]
    gm_commands.correct(svc, "cancel-execution", [])
    assert identities(svc) == []
    withdrawn = [a for a in announcements(svc, [AnnouncementState.SUPERSEDED]) if a.kind == "death_identity"]
    assert withdrawn and withdrawn[0].superseded_because
    gm_commands.correct(svc, "execute", ["小明"])
    assert identities(svc) == [("项羽", "你方阵亡的 小明 的身份是：车。")]
    svc.rebuild()  # a restart derives the same
    svc.tick()
    assert identities(svc) == [("项羽", "你方阵亡的 小明 的身份是：车。")]


def test_a_substitutes_role_pm_names_the_ballot_that_counts_for_his_seat(tmp_path, monkeypatch) -> None:
    """gmattack2 F11: 小明 voted 曹参, then changed to 刘邦 (his one change); his substitute's
    role PM said the seat's ballot was 曹参."""
    from tests.daemon.helpers import UIDS
    from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path, "chess32", script=load_script("chess32"))
    feed(svc, post("小明", "投票：曹参，先投一个", 1))
    feed(svc, post("小明", "投票：刘邦，改一下", 1.1))
    gm_commands.substitute(svc, "小明", NEWCOMER, uid=NEWCOMER_UID)
    [role] = [a.text for a in announcements(svc, PENDING) if a.kind == "role" and a.destination == NEWCOMER]
    assert "本轮已投票（刘邦）" in role, role


def test_a_seat_the_correction_spares_is_handed_to_its_substitute(tmp_path, monkeypatch) -> None:
    """gmattack2 F20: 小明's seat, taken over by 路人甲 during day 1, was executed at the close (so
    nobody entered); the GM cancelled the execution: the seat lived under 小明 with 路人甲
    pending forever, and `shenshi replay` disagreed with the players table. Spared, the seat
    is his substitute's, as the step's end would have made it."""
    from tests.daemon.helpers import UIDS

    monkeypatch.setitem(UIDS, "路人甲", "77")
    svc, clock = started(tmp_path, "chess32", script=load_script("chess32"))
    gm_commands.substitute(svc, "小明", "路人甲", uid="77")
    for i, seat in enumerate(svc.referee.state.alive()):
        feed(svc, post(seat.name, "投票：项羽" if seat.name == "小明" else "投票：小明", 1 + i / 100))
    clock.set(svc.referee.times().closes)
    svc.tick()
    assert not svc.referee.state.is_alive("小明")
    gm_commands.correct(svc, "cancel-execution", [])
    state = svc.referee.state
    assert state.is_alive("路人甲") and not state.has_player("小明") and state.pending_substitutions == ()
    assert svc.replay_differences() == []
    assert [a for a in announcements(svc, PENDING) if a.kind == "role" and a.destination == "路人甲"]
    svc.rebuild()
    assert svc.replay_differences() == [] and svc.referee.state.is_alive("路人甲")
