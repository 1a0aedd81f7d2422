"""A power written in the vote thread, where it does not count (wolfadv W5: 小红's
「同意第1天加速」 in the day thread got nothing: no alert, no receipt, nothing in the log): the GM
is alerted once, and the player is told by PM where it goes, while the step is open."""

from __future__ import annotations

from shenshi.daemon.status import build_status
from shenshi.demo.script import load_script
from tests.daemon.helpers import alerts, announcements, at, post, started
from tests.daemon.test_status import feed


def test_a_speed_up_in_the_day_thread_is_alerted_and_its_author_told_where_it_goes(tmp_path) -> None:
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    clock.set(at(10.6))  # day 1 (the sheriff's election) is open
    svc.tick()
    assert svc.referee.state.phase.value == "day"
    feed(svc, post("夜行者", "同意第1天加速", 11))
    [alert] = [a for a in alerts(svc) if a.subject == "夜行者"]
    assert alert.kind == "wrong_channel" and "功能树洞" in alert.message
    [receipt] = [a for a in announcements(svc) if a.kind == "receipt" and a.destination == "夜行者"]
    assert receipt.text.startswith("未受理：同意第1天加速") and "功能树洞" in receipt.text
    [view] = [v for v in build_status(svc).alerts if v.subject == "夜行者"]
    assert not any("override ballot" in h.text() for h in view.advice.hints)
    assert not any(s.actor == "夜行者" for s in svc.referee.state.submissions)  # it did not count


def test_a_seers_divination_in_the_vote_thread_is_alerted_once(tmp_path) -> None:
    svc, clock = started(tmp_path)
    seer = next(s.name for s in svc.referee.state.seats if s.role == "seer")
    feed(svc, post(seer, "占卜：老王", 0.2))
    mine = [a for a in alerts(svc) if a.subject == seer]
    assert [a.kind for a in mine] == ["wrong_channel"] and "私信" in mine[0].message
    [receipt] = [a for a in announcements(svc) if a.kind == "receipt" and a.destination == seer]
    assert "行动请私信天神" in receipt.text


def test_a_night_command_posted_in_a_discussion_or_chat_thread_is_alerted_and_told(tmp_path) -> None:
    """gmattack3 F8: at night, 「占卜 夜行者」 in the discussion thread and 「杀 月光，今晚就他了」 in
    the chat thread were read as talk: no alert, no PM, the night's action lost in silence. A
    claim told in the open (「我是预言家，昨晚占卜 X 是好人」) stays talk."""
    from dataclasses import replace

    from tests.daemon.helpers import config
    from tests.daemon.test_proposals_follow_the_state import night_one

    cfg = config(tmp_path)
    cfg = replace(cfg, game=replace(cfg.game, counted_threads=("2", "9"), uncounted_threads=("5",)))
    svc, clock = night_one(cfg, [])
    seer = next(s.name for s in svc.referee.state.seats if s.role == "seer")
    killer = next(s.name for s in svc.referee.state.seats if s.role == "killer")
    feed(svc, post(seer, "占卜 老王", 0.2, tid="9"))
    feed(svc, post(killer, "杀 月光，今晚就他了", 0.3, tid="5"))
    feed(svc, post("阿杰", "我是预言家，昨晚占卜 Rex 是好人", 0.4, tid="9"))
    assert sorted((a.subject, a.kind) for a in alerts(svc)) == sorted([(seer, "wrong_channel"), (killer, "wrong_channel")])
    for who in (seer, killer):
        [receipt] = [a for a in announcements(svc) if a.kind == "receipt" and a.destination == who]
        assert "私信天神" in receipt.text, receipt.text
    assert not svc.referee.state.submissions
