"""W-D7 (加速, RES-W14): the day closes early once every character in play agrees and the
character going out is uniquely determined: the ballots not yet cast could not change who leads
even if every one of them, with its sheriff weight, went to the runner-up (decided 2026-12-01).

On a real Discuz X3.5 all nine players agreed to speed up day 4 and the first ballot closed the
day: one ballot put kk_大侠 out. These tests pin the reading that stops that, and a property: a
speed-up close never puts out a character the full vote (the same ballots, run to the
deadline) would not.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shenshi.rulesets.base import (
    CastBallot,
    CloseRound,
    EarlyClose,
    GameState,
    OpenDay,
    OpenNight,
    Waiting,
)
from tests.rulesets import reference_werewolf
from tests.rulesets.reference_werewolf import SHERIFF_WEIGHT
from tests.rulesets.test_werewolf_rules import CAST, WW, act, game, night, run

EVERYONE = [n for n, _, _ in CAST]


@lru_cache(maxsize=8)
def _day2_open(sheriff: str | None) -> GameState:
    state = game()
    state, _ = night(state, 0, [act("Cupid", "pair_lovers", "V1", target2="V2")])
    ballots = [CastBallot(n, sheriff) for n in EVERYONE] if sheriff else []
    state, _ = run(state, [OpenDay(1), *ballots, CloseRound()])
    state, _ = night(state, 1)
    state, _ = run(state, [OpenDay(2)])
    return state


def day2(agree: list[str], votes: list[tuple[str, str]], sheriff: str | None = "Seer") -> GameState:
    """Day 2 open, with ``sheriff`` elected on day 1 (his ballot weighs 2.1; ``None``: no
    sheriff), these ballots cast and these characters agreed to speed it up."""
    commands = [CastBallot(v, t) for v, t in votes]
    commands += [act(n, "speed_up", None, day=2) for n in agree]
    state, _ = run(_day2_open(sheriff), commands)
    return state


UNIQUE = [(n, "W1") for n in EVERYONE if n != "W1"] + [("W1", "Seer")]


def test_everyone_voted_and_a_unique_top_closes_the_day() -> None:
    done = WW.completion(day2(EVERYONE, UNIQUE))
    assert done.by is EarlyClose.SPEED_UP and done.complete


def test_a_lead_on_the_first_ballot_is_not_determined() -> None:
    """The Discuz game: all agreed, one ballot in, ten to come. The vote runs on."""
    done = WW.completion(day2(EVERYONE, [("V3", "W1")]))
    assert not done.complete
    assert [(o.who, o.why) for o in done.outstanding] == [("", Waiting.UNDECIDED)]


def test_a_lead_the_ballots_to_come_cannot_overturn_closes_the_day() -> None:
    # 11 voters; the Seer is sheriff (2.1). 7 for W1; to come: the Seer, W1, V2, V3, that is
    # 2.1 + 3 = 5.1 < 7: nothing can catch W1.
    seven = [(n, "W1") for n in ("Witch", "Guard", "Cupid", "W2", "W3", "Piper", "V1")]
    assert WW.completion(day2(EVERYONE, seven)).complete
    # 5 for W1, 1 for V3; to come: the Seer, W1, V1, V2, V3 (6.1): V3 could reach 7.1.
    five = seven[:5] + [("Piper", "V3")]
    assert not WW.completion(day2(EVERYONE, five)).complete


def test_the_sheriff_weight_of_a_ballot_to_come_counts() -> None:
    """W1 leads 8 to 0 with only the sheriff (2.1) left: determined; but 2 to 0 with the
    sheriff left is not (2.1 for the runner-up would beat him)."""
    others = [n for n in EVERYONE if n != "Seer"]
    many = [(n, "W1") for n in others[:8]] + [(n, "V3") for n in others[8:]]
    assert WW.completion(day2(EVERYONE, many)).complete  # 8 : 2, 2.1 to come
    few = [(n, "W1") for n in others[:2]]
    state = day2(EVERYONE, few, sheriff="V3")  # V3 is sheriff; the Seer votes with weight 1
    assert not WW.completion(state).complete


def test_a_lead_equal_to_what_could_still_come_is_not_determined() -> None:
    """A tie would mean nobody goes out: a lead the ballots to come can equal is not enough.
    No sheriff: every ballot weighs 1."""
    others = [n for n in EVERYONE if n != "W1"]
    spread = [("V1", "V3"), ("V2", "W2")]
    five = [(n, "W1") for n in others[:5]] + spread  # 5 : 1 : 1, four to come: 1 + 4 = 5
    assert not WW.completion(day2(EVERYONE, five, sheriff=None)).complete
    six = [(n, "W1") for n in others[:6]] + spread  # 6 : 1 : 1, three to come: 1 + 3 < 6
    assert WW.completion(day2(EVERYONE, six, sheriff=None)).complete


def test_one_missing_consent_keeps_it_open() -> None:
    done = WW.completion(day2(EVERYONE[:-1], UNIQUE))
    assert not done.complete
    assert [(o.who, o.why) for o in done.outstanding] == [(EVERYONE[-1], Waiting.NO_CONSENT)]


def test_a_tie_keeps_it_open() -> None:
    others = [n for n in EVERYONE if n != "Seer"]
    tie = [("Seer", "V3")] + [(n, "W1" if i % 2 else "W2") for i, n in enumerate(others)]  # 5 : 5
    assert not WW.completion(day2(EVERYONE, tie)).complete


def test_consent_for_another_day_does_not_count() -> None:
    state = day2([], UNIQUE)
    state, _ = run(state, [act(n, "speed_up", None, day=3) for n in EVERYONE])
    assert not WW.completion(state).complete


def test_a_werewolf_night_never_closes_early() -> None:
    """A 确定 lock fixes a target, not the night's end: the phases run to their deadlines."""
    state, _ = run(game(), [OpenNight(0), act("Cupid", "pair_lovers", "V1", target2="V2", confirm=True)])
    assert WW.completion(state).by is None and not WW.completion(state).complete


# -- the property ----------------------------------------------------------------------------------

VOTERS = list(EVERYONE)
TARGETS = ["W1", "W2", "V3", "Seer", "Piper"]


DAY = st.tuples(
    st.permutations(VOTERS),
    st.lists(st.sampled_from(TARGETS), min_size=len(VOTERS), max_size=len(VOTERS)),
    st.sampled_from(["Seer", "V3", "W2", None]),
)


def never_wrong(order: list[str], targets: list[str], sheriff: str | None) -> None:
    """Every prefix of the day's ballots at which 加速 would close the day puts out the same
    character as the full vote, the same ballots run to the deadline."""
    ballots = list(zip(order, targets, strict=True))
    _, full = run(day2(EVERYONE, ballots, sheriff), [CloseRound()])
    state = day2(EVERYONE, [], sheriff)
    for k in range(len(ballots) + 1):
        if k:
            state, _ = run(state, [CastBallot(*ballots[k - 1])])
        if WW.completion(state).complete:
            _, early = run(state, [CloseRound()])
            assert early.executed == full.executed, (k, ballots)


@settings(max_examples=15, deadline=None)
@given(DAY)
def test_a_speed_up_close_never_puts_out_whom_the_full_vote_would_not(day: tuple) -> None:
    never_wrong(*day)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(DAY)
def test_many_speed_up_closes_never_put_out_whom_the_full_vote_would_not(day: tuple) -> None:
    never_wrong(*day)


@settings(max_examples=40, deadline=None)
@given(
    st.permutations(VOTERS),
    st.integers(min_value=0, max_value=len(VOTERS)),
    st.lists(st.sampled_from(TARGETS), min_size=len(VOTERS), max_size=len(VOTERS)),
    st.sampled_from(["Seer", "V3", None]),
    st.sets(st.sampled_from(VOTERS), max_size=2),
)
def test_the_core_closes_when_the_reference_reading_of_res_w14_does(
    order: list[str], k: int, targets: list[str], sheriff: str | None, refusing: set[str]
) -> None:
    """Not only never wrong: the core closes exactly when RULES.md's reading does (so a core
    that never speeds up fails too)."""
    ballots = list(zip(order, targets, strict=True))[:k]
    agreed = [n for n in EVERYONE if n not in refusing]
    state = day2(agreed, ballots, sheriff)
    weights = {n: SHERIFF_WEIGHT if n == sheriff else Fraction(1) for n in EVERYONE}
    expected = reference_werewolf.speed_up_closes(weights, agreed, dict(ballots))
    assert WW.completion(state).complete == expected, (ballots, sheriff, refusing)


# -- the sheriff election (day 1) -------------------------------------------------------------------

from datetime import timedelta  # noqa: E402

from shenshi.rulesets.werewolf import camps  # noqa: E402
from tests.rulesets.test_werewolf_rules import T0  # noqa: E402


@lru_cache(maxsize=1)
def _day1_open() -> GameState:
    state, _ = night(game(), 0, [act("Cupid", "pair_lovers", "V1", target2="V2")])
    state, _ = run(state, [OpenDay(1)])
    return state


def day1(votes: list[tuple[str, str]], agree: list[str] = EVERYONE) -> GameState:
    """Day 1 (the sheriff election) open, these ballots cast a minute apart, these agreed."""
    commands = [CastBallot(v, t, t=T0 + timedelta(days=1, minutes=i)) for i, (v, t) in enumerate(votes)]
    commands += [act(n, "speed_up", None, day=1) for n in agree]
    state, _ = run(_day1_open(), commands)
    return state


def sheriff_after(state: GameState) -> str | None:
    after, _ = run(state, [CloseRound()])
    found = camps.sheriff(after)
    return found.name if found else None


def test_an_election_tied_with_every_ballot_in_is_decided_and_closes() -> None:
    """wolfadv W5: all twelve agreed and voted, two tied at the top: RES-W6 names the sheriff
    (who reached the top first), so nothing can change and the day closes."""
    votes = [(n, "W1") for n in EVERYONE[:5]] + [(n, "Seer") for n in EVERYONE[5:10]] + [(EVERYONE[10], "V3")]
    state = day1(votes)
    assert WW.completion(state).complete
    assert sheriff_after(state) == "W1"  # W1 reached the top count first


def test_an_election_lead_the_rest_can_only_draw_level_with_is_decided() -> None:
    """The runner-up who takes every ballot to come only draws level, later: the leader keeps
    the badge (RES-W6), so the election is determined; one ballot more to come and it is not."""
    votes = [(n, "W1") for n in EVERYONE[:6]] + [(n, "Seer") for n in EVERYONE[6:8]]
    assert len(EVERYONE) - len(votes) == 3  # 6 against 2 + 3
    assert WW.completion(day1(votes)).complete
    assert sheriff_after(day1(votes)) == "W1"
    assert not WW.completion(day1(votes[1:])).complete  # 5 against 2 + 4


@settings(max_examples=15, deadline=None)
@given(DAY)
def test_a_speed_up_close_never_elects_whom_the_full_vote_would_not(day: tuple) -> None:
    order, targets, _ = day
    ballots = list(zip(order, targets, strict=True))
    full = sheriff_after(day1(ballots))
    for k in range(len(ballots) + 1):
        state = day1(ballots[:k])
        if WW.completion(state).complete:
            assert sheriff_after(state) == full, (k, ballots)


def test_the_property_would_catch_the_old_reading(monkeypatch) -> None:
    """The old reading (a unique leader so far) closes on one ballot and puts out whom the
    full vote does not: the check above is able to fail."""
    from shenshi.rulesets.werewolf import day

    def leader_so_far(state: GameState, close=None) -> bool:
        counted, _ = day.counted_ballots(state, close)
        return len(day.top(day.tally(state, counted))[1]) == 1

    monkeypatch.setattr(day, "determined", leader_so_far)
    ballots = [("V3", "W1")] + [(n, "W2") for n in EVERYONE if n != "V3"]
    state = day2(EVERYONE, ballots[:1])
    assert WW.completion(state).complete
    _, early = run(state, [CloseRound()])
    _, full = run(day2(EVERYONE, ballots), [CloseRound()])
    assert early.executed == "W1" and full.executed == "W2"
