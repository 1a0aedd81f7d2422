"""The demo scripts: every registered ruleset has one, its expectation agrees with the rules
core (which never computed it), and a renamed script is the same game."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from shenshi.commands.simulate import simulate
from shenshi.demo.record import expected_outcome
from shenshi.demo.script import available, load_script, parse_script
from shenshi.rulesets.checking import mismatches
from shenshi.rulesets.registry import RULESETS

REGISTERED = sorted(r.name for r in RULESETS)


def document(ruleset: str) -> dict:
    return json.loads(
        (resources.files("shenshi.demo.games") / f"full-{ruleset}.json").read_text("utf-8")
    )


def test_every_registered_ruleset_has_a_script() -> None:
    assert set(REGISTERED) <= set(available())


@pytest.mark.parametrize("ruleset", REGISTERED)
def test_the_rules_core_agrees_with_the_hand_worked_outcome(ruleset: str) -> None:
    doc = document(ruleset)
    assert not mismatches(doc["expect"], simulate(doc))


@pytest.mark.parametrize("ruleset", REGISTERED)
def test_a_script_ends_with_a_winner_and_names_only_its_players(ruleset: str) -> None:
    script = load_script(ruleset)
    assert script.winner is not None
    assert all(script.expected[s.label].winner is None for s in script.steps[:-1])
    names = set(script.names)
    for step in script.steps:
        for act in step.actions:
            assert {act.actor, act.target, act.platform, act.target2} - {None} <= names
        for vote in step.votes + step.runoff_votes:
            assert {vote.voter, vote.target} - {"ABSTAIN"} <= names


def test_renaming_a_script_renames_its_outcome_and_settings() -> None:
    script = load_script("game6-8")
    names = dict(zip(script.names, [f"P{i}" for i in range(len(script.names))], strict=True))
    renamed = script.renamed(names)
    assert renamed.names == tuple(names.values())
    assert renamed.rules["killer_order"] == [names[n] for n in script.rules["killer_order"]]
    before, after = expected_outcome(script), expected_outcome(renamed)
    assert [s.executed for s in after.steps] == [names.get(s.executed) for s in before.steps]
    assert after.winner == before.winner


def test_an_expectation_is_required_for_every_step() -> None:
    doc = document("game6-10")
    del doc["expect"]["day2"]
    with pytest.raises(ValueError, match="day2"):
        parse_script(doc)
