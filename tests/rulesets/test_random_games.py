"""Random legal games of all six rulesets through ``run_scenario`` (issue 10).

* every game keeps the invariants of :mod:`tests.rulesets.game_invariants`;
* family A games give what the independent reference resolver
  (:mod:`tests.rulesets.reference_family_a`, written from RULES.md) gives;
* the generator itself is deterministic and makes legal games that reach the interesting cases.

``make test`` runs a few seeds per ruleset; ``make e2e`` runs many more (marker ``slow``).
A failing seed is reproduced with ``random_game(ruleset, seed)``.
"""

from __future__ import annotations

import pytest

from shenshi.rulesets.checking import mismatches
from shenshi.rulesets.scenario import run_scenario
from tests.rulesets import reference_family_a
from tests.rulesets.game_invariants import check_all, one_verdict_each
from tests.rulesets.random_games import FAMILY_A, RULESETS, random_game

FEW = range(6)  # per ruleset in `make test` (a few seconds in all)
MANY = range(6, 206)  # per ruleset in `make e2e`


def check(ruleset: str, seed: int) -> None:
    document = random_game(ruleset, seed)
    problems = check_all(document)
    if ruleset in FAMILY_A:
        expected = reference_family_a.resolve(document)
        problems += [f"reference: {p}" for p in mismatches(expected, run_scenario(document))]
    assert not problems, f"random_game({ruleset!r}, {seed}):\n" + "\n".join(problems)


@pytest.mark.parametrize("seed", FEW)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_games(ruleset: str, seed: int) -> None:
    check(ruleset, seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", MANY)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_many_random_games(ruleset: str, seed: int) -> None:
    check(ruleset, seed)


def test_the_generator_is_deterministic_and_legal() -> None:
    for ruleset in RULESETS:
        document = random_game(ruleset, 3)
        assert document == random_game(ruleset, 3)
        assert document["steps"] and document["expect"] == {}
        run_scenario(document)  # never refused


def test_the_games_reach_the_cases_that_matter() -> None:
    """Over a few games the generator produces the situations the invariants are about."""
    seen: set[str] = set()
    for ruleset in FAMILY_A:
        for seed in range(8):
            for result in run_scenario(random_game(ruleset, seed)).values():
                seen |= {f"{d['rule']}/{d['verdict']}" for d in result.get("daemon", ())}
                seen |= {f"fact:{f['kind']}" for f in result.get("public_facts", ())}
                seen |= {f"death:{d['cause']}" for d in result.get("deaths", ())}
                seen |= {f"saved:{s['by']}" for s in result.get("saved", ())}
                if result.get("winner"):
                    seen.add("winner")
    wanted = {
        "no_vote/exit", "vote_immutable_r1/rejected", "delegation_r1/delegated",
        "joint_disagreement/forfeit", "dead_actor/rejected", "pm_window/rejected",
        "declaration_short/flag", "off_duty_killer/rejected", "fact:runoff",
        "fact:substitution", "fact:bound", "death:auto_exit", "death:bind_failure",
        "saved:bind", "saved:prayer", "winner",
    }  # fmt: skip
    assert wanted <= seen, sorted(wanted - seen)


def test_the_invariants_catch_a_broken_core(monkeypatch) -> None:
    """The checks can fail: a core that judges a ballot twice is caught."""
    from shenshi.rulesets.base import DaemonNote
    from shenshi.rulesets.family_a import day

    real = day.counted_ballots

    def twice(state, rnd, close, candidates=None):
        counted, notes = real(state, rnd, close, candidates)
        extra = [DaemonNote(n.who, n.rule, n.verdict, seq=n.seq) for n in notes if n.seq]
        return counted, notes + extra

    monkeypatch.setattr(day, "counted_ballots", twice)
    document = random_game("game5", 1)
    from shenshi.rulesets.scenario import play_scenario

    assert one_verdict_each(document, play_scenario(document))
