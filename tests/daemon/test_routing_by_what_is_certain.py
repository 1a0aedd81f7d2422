"""Routing a PM between the games of one GM account by what is certain (issue 22): the rule
(:func:`settle_owner`) and how a game judges a PM (``GameService.judge_pm``), the step trusted
only while the game's clock has passed no deadline since the PM."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon.sharing import COUNTS, REFUSED, UNSURE, Seats, settle_own, settle_owner
from shenshi.records import PrivateMessage
from tests.daemon.helpers import START, announcements, at, config, pm, post

GAMES = [Seats(i, f"第{i}局", START, frozenset({"月光"})) for i in (1, 2, 3)]


def message(text: str = "束魂 小明", subject: str | None = None) -> PrivateMessage:
    return PrivateMessage("9", "c", "月光", "6", "神的使者", "2", START + timedelta(hours=1), text, subject)


def test_a_named_game_wins_then_the_one_game_where_it_counts() -> None:
    def judge(verdicts):
        return lambda game, pm: verdicts[game.game_id]

    everywhere = judge({1: COUNTS, 2: COUNTS, 3: COUNTS})
    assert settle_owner(message("【第2局】束魂 小明"), GAMES, everywhere) == [GAMES[1]]
    assert settle_owner(message(subject="第3局的行动"), GAMES, everywhere) == [GAMES[2]]
    assert settle_owner(message(), GAMES, everywhere) == GAMES  # counts in all: not certain
    assert settle_owner(message(), GAMES, judge({1: REFUSED, 2: COUNTS, 3: REFUSED})) == [GAMES[1]]
    assert settle_owner(message(), GAMES, judge({1: UNSURE, 2: COUNTS, 3: REFUSED})) == GAMES
    assert settle_owner(message(), GAMES, judge({1: REFUSED, 2: REFUSED, 3: REFUSED})) == GAMES
    assert settle_owner(message(), GAMES, lambda g, pm: None if g.game_id == 3 else REFUSED if g.game_id == 1 else COUNTS) == GAMES
    assert settle_owner(message(), GAMES[:1], everywhere) == GAMES[:1]


def test_the_gms_own_pm_goes_to_the_outbox_that_holds_it_or_to_none() -> None:
    """A PM the GM account sent: the one game whose outbox holds it, however it reads; no
    game (no alert) when no outbox holds it; unknown while another daemon's game may."""
    own = PrivateMessage("9", "c", "神的使者", "2", "月光", "6", START + timedelta(hours=1), "【第3局】已收到：今晚束魂 小明")
    def judge(holder):
        return lambda game, pm: COUNTS if game.game_id == holder else REFUSED

    assert settle_own(own, GAMES, judge(2)) == [GAMES[1]]  # (the name it quotes does not decide)
    assert settle_own(own, GAMES, judge(0)) == []
    assert settle_own(own, GAMES, lambda g, pm: None if g.game_id == 3 else REFUSED) is None
    assert settle_own(own, GAMES[:1], judge(0)) == GAMES[:1]


@given(st.lists(st.sampled_from([COUNTS, REFUSED, UNSURE]), min_size=2, max_size=3))
def test_a_pm_goes_to_one_game_only_when_every_other_refuses_it(verdicts) -> None:
    games = GAMES[: len(verdicts)]
    found = settle_owner(message(), games, lambda g, pm: verdicts[g.game_id - 1])
    certain = verdicts.count(COUNTS) == 1 and verdicts.count(REFUSED) == len(verdicts) - 1
    assert found == ([games[verdicts.index(COUNTS)]] if certain else games)


def started(tmp_path, clock):
    svc = bootstrap(config(tmp_path), clock=clock, forum=False)
    svc.start()
    return svc


def test_a_game_judges_by_target_role_and_step(tmp_path) -> None:
    clock = ManualClock(START + timedelta(minutes=1))
    svc = started(tmp_path, clock)
    svc.tick()  # night 1 open
    assert svc.judge_pm(pm("月光", "束魂 小明", 1)) == COUNTS
    assert svc.judge_pm(pm("月光", "束魂 乙3号", 1)) == REFUSED  # nobody of that name here
    assert svc.judge_pm(pm("月光", "占卜 小明", 1)) == REFUSED  # a binder has no 占卜
    assert svc.judge_pm(pm("月光", "请问几点截止", 1)) == UNSURE  # no command
    assert not svc.referee.state.submissions  # judging changes nothing


def test_a_refusal_of_the_step_is_trusted_only_where_the_state_is_the_pms(tmp_path) -> None:
    clock = ManualClock(START + timedelta(minutes=1))
    svc = started(tmp_path, clock)
    svc.tick()
    clock.set(at(24.5))
    svc.tick()  # the night resolves; the GM posts its result by hand: day 1 opens
    [result] = [a for a in announcements(svc) if a.kind == "night_result"]
    with svc.store.transaction() as uow:
        uow.evidence.record(svc.game_id, [(post("神的使者", result.text, 24.6), None)])
    svc.process()
    clock.set(at(25))
    svc.tick()
    assert svc.referee.state.phase.value == "day"
    by_day = pm("月光", "束魂 小明", 25.5)  # a night power by day: this game's step refuses it
    assert svc.judge_pm(by_day) == REFUSED
    later = pm("月光", "束魂 小明", 40)  # past the vote's opening, which this game's clock has not run to
    assert svc.referee.judge_pm(later, step_known=True) == REFUSED  # what a stale state would say
    assert svc.judge_pm(later) == UNSURE  # not trusted: the state is not the PM's
