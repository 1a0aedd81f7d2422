"""Random legal games of all six rulesets through ``run_scenario`` (issue 10).

* every game keeps the invariants of :mod:`tests.rulesets.game_invariants`;
* every game gives what the independent reference resolver of its ruleset gives
  (:mod:`tests.rulesets.reference_family_a`, :mod:`tests.rulesets.reference_chess`,
  :mod:`tests.rulesets.reference_werewolf`, each written from RULES.md alone);
* the generator itself is deterministic and makes legal games that reach the interesting cases.

``make test`` runs a few seeds per ruleset; ``make e2e`` runs many more (marker ``slow``).
A failing seed is reproduced with ``random_game(ruleset, seed)``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from shenshi.rulesets.checking import mismatches
from shenshi.rulesets.scenario import run_scenario
from tests.rulesets import reference_chess, reference_family_a, reference_werewolf
from tests.rulesets.game_invariants import check_all, one_verdict_each
from tests.rulesets.random_games import FAMILY_A, RULESETS, random_game

FEW = range(6)  # per ruleset in `make test` (a few seconds in all)
MANY = range(6, 206)  # per ruleset in `make e2e`


REFERENCE = {
    **{ruleset: reference_family_a.resolve for ruleset in FAMILY_A},
    "chess32": reference_chess.resolve,
    "werewolf": reference_werewolf.resolve,
}
LONG = {"chess32": 16, "werewolf": 20}  # steps of the longer games (to the winner, mostly)


def reference_mismatches(document: dict) -> list[str]:
    """Where ``run_scenario`` and the ruleset's reference resolver disagree on ``document``."""
    expected = REFERENCE[document["ruleset"]](document)
    return [f"reference: {p}" for p in mismatches(expected, run_scenario(document))]


def check(ruleset: str, seed: int, steps: int = 8) -> None:
    document = random_game(ruleset, seed, steps=steps)
    problems = check_all(document) + reference_mismatches(document)
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


@pytest.mark.parametrize("ruleset", sorted(LONG))
def test_longer_games_against_the_reference(ruleset: str) -> None:
    """Chess and werewolf games rarely end in 8 steps: a few longer ones reach the winner."""
    for seed in range(3):
        document = random_game(ruleset, seed, steps=LONG[ruleset])
        assert not reference_mismatches(document), (ruleset, seed)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(LONG))
def test_many_longer_games_against_the_reference(ruleset: str) -> None:
    for seed in range(3, 400):
        check(ruleset, seed, LONG[ruleset])


def test_the_references_catch_a_core_that_strays(monkeypatch) -> None:
    """The werewolf and chess references can fail: a core that lets the witch reply before
    夜晚2 opens (as it did) and one that forgets the protection are both caught."""
    from shenshi.rulesets.chess import night as chess_night
    from shenshi.rulesets.werewolf import submissions

    monkeypatch.setattr(submissions, "phase_opens", lambda deadlines, key: None)
    assert reference_mismatches(random_game("werewolf", 21))
    monkeypatch.undo()
    assert not reference_mismatches(random_game("werewolf", 21))
    real = chess_night.derived

    def unprotected(*args):
        found = real(*args)
        return replace(found, protected=frozenset())

    monkeypatch.setattr(chess_night, "derived", unprotected)
    assert reference_mismatches(random_game("chess32", 3))  # a game with a silent save


def test_the_references_catch_the_old_readings(monkeypatch) -> None:
    """The decisions of 2026-12-01 are in the references: a core that answers only the seer
    the GM answered (not his pair, RES-A21) or lists only the newly due for replacement is
    caught on the random games."""
    from shenshi.rulesets.chess import day as chess_day
    from shenshi.rulesets.family_a.rules import FamilyA

    def own_answer(self, state, actor):
        return (state.params.get("gm_answered") or {}).get(actor)

    monkeypatch.setattr(FamilyA, "answered_at", own_answer)
    assert reference_mismatches(random_game("game6-13", 13))
    monkeypatch.undo()
    assert not reference_mismatches(random_game("game6-13", 13))
    monkeypatch.setattr(chess_day, "due", lambda state, leaving=(): ())
    assert any(reference_mismatches(random_game("chess32", seed)) for seed in range(3))


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
