"""RULES.md §1.10 "Early close" (decided 2026-12-01): ``Ruleset.completion``.

A phase is complete only when what stands would be resolved as a valid action by every holder:
a missing kill declaration, a disagreement of joint killers or a rejected PM the player may
resend keep it open to its deadline. A family A night closed 17 hours early while a killer was
told to send his missing declaration "before the deadline"; these tests pin what keeps a step
open, in every ruleset, and compare the core with the reference's reading of the text on random
games.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from shenshi.rulesets.base import (
    CastBallot,
    EarlyClose,
    GmAnswered,
    OpenDay,
    OpenNight,
    Phase,
    PlayerSpec,
    Resolved,
    Submit,
    frozen_map,
)
from shenshi.rulesets.registry import find_ruleset
from shenshi.rulesets.scenario import play_scenario
from tests.rulesets import reference_family_a
from tests.rulesets.commands import apply_all
from tests.rulesets.random_games import FAMILY_A, random_game

T0 = datetime(2024, 3, 4, 20, 0)
G610 = [
    ("K1", "killer"), ("K2", "killer"), ("S", "seer"), ("B", "binder"), ("Cu", "curser"),
    ("Bl", "blesser"), ("C1", "commoner"), ("C2", "commoner"), ("C3", "commoner"),
    ("C4", "commoner"),
]  # fmt: skip
DECLARED = {"declaration_chars": 150}


def table(ruleset: str, cast, dead=()) -> tuple:
    rules = find_ruleset(ruleset)
    team = {r.id: r.team for r in rules.info.roles.values()}
    state = rules.new_game([PlayerSpec(n, r, team[r], n not in dead) for n, r in cast])
    return rules, state


def night(ruleset: str, cast, pms, dead=(), before=()) -> tuple:
    """The open night 1 of ``ruleset`` after these PMs: (name, action, target, extra)."""
    rules, state = table(ruleset, cast, dead)
    commands = [OpenNight(1, frozen_map({"window_open": T0})), *before]
    for i, (actor, action, target, extra) in enumerate(pms):
        commands.append(Submit(actor, action, target, frozen_map(extra), T0 + timedelta(minutes=i + 1)))
    state, _ = apply_all(rules, state, commands)
    return rules, state


def everyone(cast, kill="C1", **changes):
    """A PM from every holder: the killers on ``kill`` with a declaration, the rest on C2."""
    pms = []
    for name, role in cast:
        if role.endswith("killer"):
            pms.append((name, "kill", kill, DECLARED))
        else:
            action = {"seer": "divine", "binder": "bind", "curser": "curse",
                      "blesser": "bless", "commoner": "pray"}[role]  # fmt: skip
            pms.append((name, action, "C2", {}))
    return [changes.get(pm[0], pm) for pm in pms]


def waiting(rules, state) -> set[tuple[str, str]]:
    return {(o.who, o.why.value) for o in rules.completion(state).outstanding}


# -- family A nights --------------------------------------------------------------------------------


def test_a_night_with_every_holders_valid_pm_is_complete() -> None:
    rules, state = night("game6-10", G610, everyone(G610))
    done = rules.completion(state)
    assert done.by is EarlyClose.ALL_IN and done.complete


def test_a_kill_without_its_declaration_keeps_the_night_open() -> None:
    """The rehearsal: Rex was told to send his declaration "before the deadline" while the
    tenth PM closed the night."""
    pms = everyone(G610, K1=("K1", "kill", "C1", {"declaration_missing": True}),
                   K2=("K2", "kill", "C1", {"declaration_missing": True}))  # fmt: skip
    rules, state = night("game6-10", G610, pms)
    assert waiting(rules, state) == {("killers", "declaration_missing")}
    # one agreeing killer's declaration is the unit's (RES-A5): complete
    rules, state = night("game6-10", G610, pms[:1] + [("K2", "kill", "C1", DECLARED)] + pms[2:])
    assert rules.completion(state).complete


def test_joint_killers_who_disagree_keep_the_night_open() -> None:
    rules, state = night("game6-10", G610, everyone(G610, K2=("K2", "kill", "C3", DECLARED)))
    assert waiting(rules, state) == {("killers", "joint_disagreement")}


def test_a_rejected_pm_the_player_may_resend_keeps_the_night_open() -> None:
    """The seer's latest PM names a dead player (RES-A31: rejected at once so he can change
    it): his earlier valid PM stands, yet he was told to send another."""
    pms = [pm for pm in everyone(G610) if pm[0] != "C4"] + [("S", "divine", "C4", {})]
    rules, state = night("game6-10", G610, pms, dead={"C4"})
    assert waiting(rules, state) == {("S", "rejected")}
    assert [o.detail for o in rules.completion(state).outstanding] == ["target_not_alive"]


def test_the_last_killers_self_target_keeps_the_night_open() -> None:
    """RES-A4: rejected at once so that he can still change it."""
    cast = [c for c in G610 if c[0] != "K2"]
    rules, state = night("game6-10", G610, everyone(cast, kill="K1"), dead={"K2"})
    assert ("K1", "rejected") in waiting(rules, state)
    assert [o.detail for o in rules.completion(state).outstanding] == ["lone_killer_suicide"]


def test_a_holder_without_a_pm_keeps_the_night_open() -> None:
    pms = [pm for pm in everyone(G610) if pm[0] != "C3"]
    rules, state = night("game6-10", G610, pms)
    assert waiting(rules, state) == {("C3", "no_action")}


def test_the_8p_killer_whose_night_it_is_not_holds_no_power() -> None:
    cast = G610[:8]
    pms = [pm for pm in everyone(cast) if pm[0] != "K2"]  # night 1 is K1's (seat order)
    rules, state = night("game6-8", cast, pms)
    assert rules.completion(state).complete
    rules, state = night("game6-8", cast, pms + [("K2", "kill", "C2", DECLARED)])
    assert rules.completion(state).complete  # his rejected PM changes nothing


def test_a_seer_unit_the_gm_answered_cannot_hold_up_the_night() -> None:
    cast = [
        ("A1", "alliance_killer"), ("A2", "alliance_killer"), ("I", "independent_killer"),
        ("S1", "seer"), ("S2", "seer"), ("B1", "binder"), ("B2", "binder"), ("Cu", "curser"),
        ("Bl", "blesser"), ("C1", "commoner"), ("C2", "commoner"), ("C3", "commoner"),
        ("C4", "commoner"),
    ]  # fmt: skip
    pms = [pm for pm in everyone(cast) if pm[0] != "S2"]
    rules, state = night("game6-13", cast, pms)
    assert waiting(rules, state) == {("S2", "no_action")}
    answered = [GmAnswered("S1", T0 + timedelta(seconds=30))]
    rules, state = night("game6-13", cast, pms + [("S2", "divine", "C3", {})], before=answered)
    assert rules.completion(state).complete  # S2's change is locked (RES-A21): nothing to wait for


# -- family A days ----------------------------------------------------------------------------------


def day(ruleset: str, cast, ballots, dead=()) -> tuple:
    rules, state = table(ruleset, cast, dead)
    state, _ = apply_all(rules, state, [OpenDay(1)])
    commands = [CastBallot(v, t, T0 + timedelta(minutes=i), via) for i, (v, t, via) in enumerate(ballots)]
    state, _ = apply_all(rules, state, commands)
    return rules, state


def test_a_round_is_complete_once_every_elector_has_a_ballot_that_counts() -> None:
    voters = [n for n, _ in G610]
    ballots = [(n, "K1", "post") for n in voters[:-1]] + [(voters[-1], "K1", "pm_delegate")]
    rules, state = day("game6-10", G610, ballots)
    assert rules.completion(state).complete  # the delegation counts: the GM casts it now
    rules, state = day("game6-10", G610, ballots[:-1])
    assert waiting(rules, state) == {(voters[-1], "no_ballot")}


def test_a_ballot_for_a_dead_player_does_not_count_and_keeps_the_round_open() -> None:
    voters = [n for n, _ in G610 if n != "C4"]
    ballots = [(n, "K1", "post") for n in voters[:-1]] + [(voters[-1], "C4", "post")]
    rules, state = day("game6-10", G610, ballots, dead={"C4"})
    assert waiting(rules, state) == {(voters[-1], "no_ballot")}


def test_the_summoning_runs_its_period() -> None:
    rules, state = day("game6-10", G610, [])
    state = replace(state, round=3)
    assert rules.completion(state).by is None


# -- chess32: no early close ------------------------------------------------------------------------


def test_a_chess_step_runs_to_its_deadline() -> None:
    """Targets may change until dawn − 10 min, and a ballot once a round: chess closes no
    step early (its clock has no early close)."""
    rules = find_ruleset("chess32")
    from shenshi.demo.script import load_script

    script = load_script("chess32")
    state = rules.new_game([PlayerSpec(s.name, s.role, s.team) for s in script.seats])
    state, _ = apply_all(rules, state, [OpenDay(1)])
    state, _ = apply_all(rules, state, [CastBallot(s.name, "ABSTAIN") for s in script.seats])
    assert rules.completion(state).by is None and not rules.completion(state).complete


# -- the core against the reference's reading, on random games -------------------------------------


def core_completions(document: dict) -> dict[str, bool]:
    """Per step label, the core's completion of the step once all its entries are in (the
    state just before each resolution of a night, a first round or a runoff)."""
    run = play_scenario(document)
    rules, state = run.ruleset, run.start
    labels = iter(label for label in run.results)
    found: dict[str, bool] = {}
    label = None
    for event in run.events:
        if isinstance(event, Resolved) and state.phase in (Phase.NIGHT, Phase.DAY):
            if state.phase is Phase.NIGHT or state.round == 1:
                label = next(labels)
                found[label] = rules.completion(state).complete
            elif state.round == 2:
                found[f"{label}.runoff"] = rules.completion(state).complete
        state = rules.evolve(state, event)
    return found


@pytest.mark.parametrize("ruleset", FAMILY_A)
def test_the_core_closes_early_exactly_when_the_reference_does(ruleset: str) -> None:
    seen = {True: 0, False: 0}
    for seed in range(12):
        document = random_game(ruleset, seed)
        expected = reference_family_a.completions(document)
        got = core_completions(document)
        assert got == expected, (ruleset, seed)
        for value in got.values():
            seen[value] += 1
    assert seen[True] and seen[False], seen  # both kinds of step were met
