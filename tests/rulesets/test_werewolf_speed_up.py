"""W-D7 (加速, RES-W14): the day closes early once every character in play agrees and the
outcome is already uniquely determined."""

from __future__ import annotations

from shenshi.rulesets.base import CastBallot, CloseRound, OpenDay
from tests.rulesets.test_werewolf_rules import CAST, WW, act, game, night, run


def day2_with_votes(agree: list[str], votes: list[tuple[str, str]]):
    state = game()
    state, _ = night(state, 0, [act("Cupid", "pair_lovers", "V1", target2="V2")])
    # day 1 elects the Seer sheriff (his ballot weighs 2.1 from now on)
    state, _ = run(state, [OpenDay(1), *[CastBallot(n, "Seer") for n, _, _ in CAST], CloseRound()])
    state, _ = night(state, 1)
    state, _ = run(state, [OpenDay(2)])
    commands = [CastBallot(v, t) for v, t in votes]
    commands += [act(n, "speed_up", None, day=2) for n in agree]
    state, _ = run(state, commands)
    return state


EVERYONE = [n for n, _, _ in CAST]
UNIQUE = [(n, "W1") for n in EVERYONE if n != "W1"] + [("W1", "Seer")]


def test_all_agree_and_a_unique_top_closes_the_day() -> None:
    state = day2_with_votes(EVERYONE, UNIQUE)
    assert WW.speed_up_ready(state)


def test_one_missing_consent_keeps_it_open() -> None:
    state = day2_with_votes(EVERYONE[:-1], UNIQUE)
    assert not WW.speed_up_ready(state)


def test_a_tie_keeps_it_open() -> None:
    others = [n for n in EVERYONE if n != "Seer"]
    tie = [("Seer", "V3")] + [(n, "W1" if i % 2 else "W2") for i, n in enumerate(others)]  # 5 : 5
    state = day2_with_votes(EVERYONE, tie)
    assert not WW.speed_up_ready(state)


def test_consent_for_another_day_does_not_count() -> None:
    state = day2_with_votes([], UNIQUE)
    state, _ = run(state, [act(n, "speed_up", None, day=3) for n in EVERYONE])
    assert not WW.speed_up_ready(state)
