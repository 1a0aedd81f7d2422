"""One time-ordered stream: a restart's leftovers and the next poll are read together, the phase
clock never moves backwards, and a PM time shown to the minute never refuses a valid action."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon.cycle import Cycle
from shenshi.rulesets.base import Phase
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import (
    GAME6_10,
    START,
    alerts,
    announcement,
    config,
    open_vote_on_forum,
    pm,
    post,
)
from tests.daemon.test_service_polls import night_one

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode


class Killed(BaseException):
    """The daemon process dies here (nothing catches it, as nothing survives a SIGKILL)."""


def _kill(*args, **kwargs):
    raise Killed


def _restart(service, clock):
    again = bootstrap(service.config, clock=clock, sleep=lambda s: clock.advance(seconds=s))
    again.adapter.login()
    again.start()
    return again


def test_a_restart_and_the_next_poll_are_one_time_ordered_stream(world, monkeypatch) -> None:
    """issue 11: Rex's PM at T1, 老王's last ballot at T2 > T1; the daemon dies after storing the
    thread, before the inbox. The restart must not close the vote at T1 (老王's ballot was in
    time: he is not exited for a missing ballot)."""
    clock, forum, tid, service = world
    night_one(clock, forum, service)
    service.poll()  # the day opens at the dawn post
    assert service.referee.state.phase is Phase.DAY
    clock.advance(hours=13, minutes=5)  # the vote thread is open
    open_vote_on_forum(service, clock)  # ballots count from its opening post
    voters = [s.name for s in service.referee.state.alive() if s.name != "老王"]
    for name in voters:
        forum.post(name, tid, "投票：阿杰" if name != "阿杰" else "投票：Rex", at=clock())
    clock.advance(minutes=1)
    forum.send_pm("Rex", "神的使者", "请问今天投票几点截止？", at=clock())  # T1
    clock.advance(minutes=2)
    forum.post("老王", tid, "投票：阿杰", at=clock())  # T2: the last ballot
    clock.advance(minutes=1)
    monkeypatch.setattr(service.adapter, "read_pms", _kill)
    with pytest.raises(Killed):
        Cycle(service, clock).run()  # the thread is stored, the inbox never read
    service.close()
    again = _restart(service, clock)
    Cycle(again, clock).run()
    state = again.referee.state
    assert state.phase is not Phase.DAY  # closed early: every ballot is in
    assert state.is_alive("老王"), "老王's timely ballot was counted as missing"
    assert not [
        a for a in alerts(again) if a.subject == "老王" and a.kind not in ("signin", "lurk")
    ]
    again.close()


def _fed(svc, *records) -> None:
    with svc.store.transaction() as uow:
        uow.evidence.record(svc.game_id, [(r, None) for r in records])
    svc.process()


def _day_one_voted(tmp_path, clock):
    """Offline (dry-run): night 1 with nobody acting, the GM posts its result by hand, day 1's
    vote, everyone votes 阿杰: the day's result is proposed, waiting to be posted."""
    svc = bootstrap(config(tmp_path), clock=clock, forum=False)
    svc.start()
    clock.set(START + timedelta(minutes=1))
    svc.tick()
    clock.set(START + timedelta(hours=24, minutes=1))
    svc.tick()
    dawn = announcement(svc, "g1:night1:public")
    clock.set(START + timedelta(hours=24.06))  # (read after it was written)
    _fed(svc, post("神的使者", dawn.text, 24.05))
    _gm_opens_the_vote(svc, clock, 24.05 + 12)
    clock.set(START + timedelta(hours=24.05 + 13.11))
    _fed(
        svc,
        *[post(n, "投票：阿杰" if n != "阿杰" else "投票：Rex", 24.05 + 13.1) for n, _ in GAME6_10],
    )
    clock.set(START + timedelta(hours=24.05 + 13.2))
    svc.tick()
    assert svc.referee.state.phase is Phase.DUSK
    return svc


def test_pms_stamped_in_the_minute_the_night_opened_count(tmp_path) -> None:
    """issue 12: the GM posts the day's result at 03:19:25; PMs sent seconds later show
    03:19. The forum shows PMs to the minute: they count, and the GM is told the order was
    uncertain, with the window and the PM's time."""
    clock = ManualClock(START)
    svc = _day_one_voted(tmp_path, clock)
    result = announcement(svc, "g1:day1:public")
    published = (START + timedelta(days=3)).replace(hour=3, minute=19, second=25)
    minute = published.replace(second=0)
    gm_post = replace(post("神的使者", result.text, 0), posted_at=published)  # (an id of its own: a fixed one met the shared counter)
    killers = [n for n, r in GAME6_10 if r == "killer" and svc.referee.state.is_alive(n)]
    actions = [
        _pm_at(killers[0], "杀 Rex\n" + "月黑风高夜，" * 30, minute),
        _pm_at("小明", "占卜 老王", minute),
    ]
    clock.set(published + timedelta(minutes=5))
    _fed(svc, gm_post, *actions)  # one poll saw the GM's post and the PMs
    state = svc.referee.state
    assert state.phase is Phase.NIGHT and state.number == 2
    assert {(s.actor, s.action) for s in state.submissions} == {
        (killers[0], "kill"),
        ("小明", "divine"),
    }
    raised = [a for a in alerts(svc) if a.kind == "order_uncertain"]
    assert {a.subject for a in raised} == {killers[0], "小明"}
    assert all("03:19:25" in a.message and "03:19（只显示到分钟）" in a.message for a in raised)
    assert not [a for a in alerts(svc) if "pm_window" in a.kind]


def test_a_pm_certainly_before_the_opening_is_refused_with_its_window(tmp_path) -> None:
    """A PM of the minute before the publication is certainly outside the night's window: it is
    refused, and the alert shows the window and the PM's time."""
    clock = ManualClock(START)
    svc = _day_one_voted(tmp_path, clock)
    result = announcement(svc, "g1:day1:public")
    published = (START + timedelta(days=3)).replace(hour=3, minute=19, second=25)
    gm_post = replace(post("神的使者", result.text, 0), posted_at=published)  # (an id of its own: a fixed one met the shared counter)
    early = _pm_at("小明", "占卜 老王", published.replace(minute=18, second=0))
    clock.set(published + timedelta(minutes=5))
    _fed(svc, gm_post, early)
    assert not svc.referee.state.submissions
    [refused] = [a for a in alerts(svc) if a.subject == "小明" and a.kind != "signin"]
    assert "03:18（只显示到分钟）" in refused.message  # in the dusk, before the night opened


def test_the_phase_clock_never_moves_backwards(tmp_path) -> None:
    """A PM older than a ballot already read does not close the vote before that ballot."""
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path), clock=clock, forum=False)
    svc.start()
    clock.set(START + timedelta(hours=24, minutes=1))
    svc.tick()
    clock.set(START + timedelta(hours=24.06))  # (each read after it was written)
    _fed(svc, post("神的使者", announcement(svc, "g1:night1:public").text, 24.05))
    voters = [n for n, _ in GAME6_10]
    _gm_opens_the_vote(svc, clock, 24.05 + 12)
    clock.set(START + timedelta(hours=37.5))
    _fed(svc, *[post(n, "投票：阿杰" if n != "阿杰" else "投票：Rex", 37.2) for n in voters[:-1]])
    _fed(svc, post(voters[-1], "投票：阿杰", 37.4))  # T2: the last ballot completes the vote
    _fed(svc, pm("Rex", "请问几点截止？", 37.3))  # T1 < T2, read later
    svc.tick()  # (a complete step ends early on the clock's own tick, after everything read)
    assert svc.referee.state.phase is Phase.DUSK
    assert svc.clock_time >= START + timedelta(hours=37.4)
    assert svc.referee.state.is_alive(voters[-1])


def _pm_at(sender: str, text: str, at):
    return replace(pm(sender, text, 0), sent_at=at)


def test_pms_shown_in_the_same_minute_are_read_in_the_forums_order() -> None:
    """Stored newest first (as a conversation may list them), two PMs of one minute are still
    read in the order the forum numbered them: the later one is the player's latest word."""
    from shenshi.daemon.timeline import Item, in_order, moment_of

    first, second = pm("小明", "占卜 老王", 1.0), pm("小明", "占卜 Rex", 1.0)
    minute = timedelta(minutes=1)
    items = [Item(7, second, moment_of(second.sent_at, minute)),
             Item(8, first, moment_of(first.sent_at, minute))]  # fmt: skip
    assert [item.record.text for _, item in in_order(items)] == ["占卜 老王", "占卜 Rex"]


def _gm_opens_the_vote(svc, clock, hour: float) -> None:
    """The vote's hour: its opening post is proposed, and the GM posts it (ballots count from it)."""
    clock.set(START + timedelta(hours=hour + 0.02))
    svc.tick()
    clock.set(START + timedelta(hours=hour + 0.04))
    _fed(svc, post("神的使者", announcement(svc, "g1:day1:vote_open").text, hour + 0.03))
