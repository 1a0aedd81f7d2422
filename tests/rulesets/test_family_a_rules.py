"""Unit tests of family A pieces (RULES.md §1–3) that scenario files do not pin by themselves."""

from __future__ import annotations

from itertools import permutations

import pytest

from shenshi.rulesets.base import (
    CastBallot,
    CloseNight,
    CloseRound,
    OpenDay,
    OpenNight,
    PlayerSpec,
    RulesetError,
    Submission,
    Submit,
    frozen_map,
)
from shenshi.rulesets.registry import find_ruleset
from tests.rulesets.commands import apply_all

CAST = [
    ("K1", "killer"), ("K2", "killer"), ("S", "seer"), ("B", "binder"), ("Cu", "curser"),
    ("Bl", "blesser"), ("C1", "commoner"), ("C2", "commoner"), ("C3", "commoner"),
    ("C4", "commoner"),
]  # fmt: skip


def specs(cast=CAST, dead=()):
    team = {"killer": "killers"}
    return [PlayerSpec(n, r, team.get(r, "civilians"), n not in dead) for n, r in cast]


@pytest.mark.parametrize("order", [["K1"], ["K1", "K1"], ["K1", "S"], ["K1", "K2", "K1"]], ids=str)
def test_killer_order_must_name_each_killer_once(order):
    rules = find_ruleset("game6-8")
    cast = CAST[:8]
    with pytest.raises(RulesetError):
        rules.new_game(specs(cast), {"killer_order": order})


def test_the_lone_killers_self_target_is_answered_at_once_naming_the_unit():
    """RES-A4: the receipt says rejected, naming the unit ``killers``, not the killer."""
    rules = find_ruleset("game6-10")
    state, _ = apply_all(rules, rules.new_game(specs(dead={"K2"})), [OpenNight(1)])
    problem = rules.check_submission(state, Submission("K1", "kill", "K1", seq=1))
    assert problem is not None
    assert (problem.who, problem.rule, problem.verdict) == (
        "killers",
        "lone_killer_suicide",
        "rejected",
    )
    # While both killers live, the unit may target either of them.
    state, _ = apply_all(rules, rules.new_game(specs()), [OpenNight(1)])
    assert rules.check_submission(state, Submission("K1", "kill", "K2", seq=1)) is None


DECLARATIONS = [
    {"declaration_missing": True},
    {},
    {"declaration_chars": 60},
    {"declaration_chars": 150},
    {"story": True, "declaration_chars": 10},
]


@pytest.mark.parametrize("first", range(len(DECLARATIONS)))
@pytest.mark.parametrize("second", range(len(DECLARATIONS)))
def test_joint_declaration_does_not_depend_on_who_submits_first(first, second):
    """RES-A5: any agreeing member's declaration counts; the longest; a story waives length."""
    rules = find_ruleset("game5")
    extras = [DECLARATIONS[first], DECLARATIONS[second]]
    results = set()
    for order in permutations([("K1", extras[0]), ("K2", extras[1])]):
        state, _ = apply_all(rules, rules.new_game(specs()), [OpenNight(1)])
        subs = [Submit(k, "kill", "C1", frozen_map(extra)) for k, extra in order]
        _, report = apply_all(rules, state, [*subs, CloseNight()])
        results.add(
            (
                tuple(d.name for d in report.deaths),
                tuple(sorted((n.who, n.rule) for n in report.daemon if not n.log_only)),
            )
        )
    assert len(results) == 1
    ((deaths, notes),) = results
    missing = all(e.get("declaration_missing") for e in extras)
    assert deaths == (() if missing else ("C1",))
    short = (
        not missing
        and not any(e.get("story") for e in extras)
        and any("declaration_chars" in e for e in extras)
        and max(e.get("declaration_chars", 0) for e in extras) < 100
    )
    assert notes == ((("killers", "declaration_short"),) if short else ())


def test_a_round_one_non_voter_is_alive_until_the_days_result():
    """RES-A18: between round 1 and the runoff the non-voter is alive and a candidate."""
    rules = find_ruleset("game6-10")
    state, _ = apply_all(rules, rules.new_game(specs(dead={"C1"})), [OpenNight(1), CloseNight()])
    ballots = [("S", "K2"), ("B", "K2"), ("Cu", "K2"), ("K1", "C4"), ("K2", "C4"), ("C2", "C4")]
    ballots += [("Bl", "C3"), ("C3", "K1")]
    state, report = apply_all(
        rules, state, [OpenDay(1), *(CastBallot(v, t) for v, t in ballots), CloseRound()]
    )
    assert state.round == 2 and state.is_alive("C4") and report.deaths == ()
    assert [(n.who, n.rule) for n in report.daemon if not n.log_only] == [("C4", "no_vote")]
    runoff = [("C4", "K2"), ("S", "K2"), ("B", "K2"), ("Cu", "K2"), ("Bl", "K2")]
    runoff += [("K1", "C4"), ("K2", "C4"), ("C2", "C4"), ("C3", "C4")]
    state, report = apply_all(rules, state, [*(CastBallot(v, t) for v, t in runoff), CloseRound()])
    assert [(d.name, d.cause) for d in report.deaths] == [("K2", "execution"), ("C4", "auto_exit")]
    assert not [n for n in report.daemon if n.rule == "no_vote"]  # once per player and day
    assert not state.is_alive("C4")


def test_one_answer_locks_both_seers_of_the_pair_for_intake_too():
    """RES-A21 (decided 2026-12-01): intake refuses a change by either seer of game6-13 once
    the GM answered one of them, as the night's resolution does."""
    from shenshi.rulesets.base import GmAnswered

    rules = find_ruleset("game6-13")
    cast = [
        ("A1", "alliance_killer"), ("A2", "alliance_killer"), ("I", "independent_killer"),
        ("S1", "seer"), ("S2", "seer"), ("B1", "binder"), ("B2", "binder"), ("Cu", "curser"),
        ("Bl", "blesser"), ("C1", "commoner"), ("C2", "commoner"), ("C3", "commoner"),
        ("C4", "commoner"),
    ]  # fmt: skip
    team = {"alliance_killer": "killers", "independent_killer": "killers"}
    state = rules.new_game([PlayerSpec(n, r, team.get(r, "civilians")) for n, r in cast])
    state, _ = apply_all(rules, state, [OpenNight(1), GmAnswered("S1")])
    assert rules.intake_facts(state)["seer_answered"] == frozenset({"S1", "S2"})
    solo = find_ruleset("game5")
    state, _ = apply_all(solo, solo.new_game(specs()), [OpenNight(1), GmAnswered("S")])
    assert solo.intake_facts(state)["seer_answered"] == frozenset({"S"})
