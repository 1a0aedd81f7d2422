"""wolfadv W19: the sheriff's seat changed hands, its player went out, and the GM gave the badge
by hand (``override sheriff``): the game could no longer be rebuilt (``add-on 'sheriff' is
carried by 2 characters``) and every command died with a traceback. The players table mirrors
the current add-ons; a rebuild starts from the game as it was set up, not from that mirror."""

from __future__ import annotations

from shenshi.daemon import gm_commands
from shenshi.demo.script import load_script
from shenshi.rulesets.werewolf import camps
from tests.daemon.helpers import UIDS, at, elect_sheriff, started
from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID


def test_a_badge_given_by_hand_after_the_substituted_sheriff_went_out_rebuilds(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    elect_sheriff(svc, clock, "kk_大侠")  # day 1: the sheriff's election
    assert camps.sheriff(svc.referee.state).name == "kk_大侠"
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    gm_commands.correct(svc, "exit", [NEWCOMER])
    heir = next(s.name for s in svc.referee.state.alive() if s.name != NEWCOMER)
    gm_commands.correct(svc, "sheriff", [heir])
    assert camps.sheriff(svc.referee.state).name == heir
    svc.rebuild()  # what every command and the daemon do: it must not fail
    assert camps.sheriff(svc.referee.state).name == heir


def test_a_stored_game_the_rules_cannot_rebuild_is_a_clear_error_not_a_traceback(tmp_path, monkeypatch) -> None:
    import pytest

    from shenshi.bootstrap import bootstrap
    from shenshi.errors import UserError
    from shenshi.rulesets.base import RulesetError

    svc, _ = started(tmp_path, "werewolf", script=load_script("werewolf"))
    again = bootstrap(svc.config, store=svc.store, clock=svc.clock, forum=False)

    def broken(*args, **kwargs):
        raise RulesetError("add-on 'sheriff' is carried by 2 characters (allowed: (0, 1))")

    monkeypatch.setattr(again.ruleset, "new_game", broken)
    with pytest.raises(UserError, match="没能从数据库重建.*数据库没有改动"):
        again.start()


def test_a_badge_the_gm_hands_over_is_the_sheriff_status_shows_once_announced(tmp_path) -> None:
    """wolfadv W21: after 「Rex 成为警长。」 was published, status still showed the elected
    sheriff (and after a lost badge, none) while Rex's ballot weighed 2.1."""
    from shenshi.daemon.gm_commands import mark_published
    from shenshi.daemon.status import build_status
    from tests.daemon.helpers import announcements

    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    elect_sheriff(svc, clock, "kk_大侠")
    mark_published(svc, [a.id for a in announcements(svc) if a.kind == "day_result"])
    assert [(m.name, m.kind) for m in build_status(svc).marks] == [("kk_大侠", "sheriff")]
    heir = next(s.name for s in svc.referee.state.alive() if s.name != "kk_大侠" and s.role == "villager")
    # the badge passes only when its holder goes out (gmattack W6): he leaves, his reply is late
    gm_commands.correct(svc, "exit", ["kk_大侠"], reason="本人申请退出")
    mark_published(svc, [a.id for a in announcements(svc) if a.kind == "exit"])
    gm_commands.correct(svc, "sheriff", [heir])
    assert (heir, "sheriff") not in [(m.name, m.kind) for m in build_status(svc).marks]  # not yet told
    ruling = [a for a in announcements(svc) if heir in a.text and "警长" in a.text and a.kind != "day_result"]
    mark_published(svc, [ruling[-1].id])
    assert [(m.name, m.kind) for m in build_status(svc).marks] == [(heir, "sheriff")]


def test_a_substitute_in_the_sheriffs_seat_is_told_he_holds_the_badge(tmp_path, monkeypatch) -> None:
    """recheck R7c: his role PM quoted his lover and never said he was 警长 (2.1, 【殉职】)."""
    from shenshi.store.outbox import PENDING
    from tests.daemon.helpers import announcements

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    elect_sheriff(svc, clock, "kk_大侠")
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    [role] = [a for a in announcements(svc, PENDING) if a.kind == "role" and a.destination == NEWCOMER]
    assert "这个座位是警长" in role.text and "【殉职】" in role.text, role.text


def test_the_gms_own_account_is_no_substitute(tmp_path) -> None:
    """recheck R1a: `substitute 阿杰 神的使者` was accepted; the role PM to the GM's own account
    then failed forever (「您不能给自己发送短消息」)."""
    import pytest

    from shenshi.errors import UserError

    svc, _ = started(tmp_path, "werewolf", script=load_script("werewolf"))
    with pytest.raises(UserError, match="天神.*不能当替补"):
        gm_commands.substitute(svc, "阿杰", "神的使者", uid="1")
    assert not svc.referee.state.pending_substitutions


def test_status_keeps_the_badge_on_a_sheriffs_seat_taken_over(tmp_path, monkeypatch) -> None:
    """gmattack W7: after the sheriff's seat changed hands, status showed no sheriff at all,
    though the substitute's ballot weighed 2.1."""
    from shenshi.daemon.gm_commands import mark_published
    from shenshi.daemon.status import build_status
    from tests.daemon.helpers import announcements

    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    elect_sheriff(svc, clock, "kk_大侠")
    mark_published(svc, [a.id for a in announcements(svc) if a.kind == "day_result"])
    clock.set(at(49.2))
    svc.tick()
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    clock.set(at(58.2))  # the night resolves: he has entered
    svc.tick()
    assert svc.referee.state.has_player(NEWCOMER)
    assert [(m.name, m.kind) for m in build_status(svc).marks] == [(NEWCOMER, "sheriff")]
