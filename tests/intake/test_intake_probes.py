"""The probes of the adversarial test's classes of fault, written again with other words and
rulesets (:mod:`tests.intake.probes`): each read as the rules mean it."""

from __future__ import annotations

import pytest

from tests.intake.corpus_check import check_case
from tests.intake.probes import cases

CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_probe(case: dict) -> None:
    check_case(case)


def test_the_probes_cover_every_ruleset_and_channel() -> None:
    assert len(CASES) >= 100
    assert {c["ruleset"] for c in CASES} == {
        "game5", "game6-8", "game6-10", "game6-13", "chess32", "werewolf"
    }
    assert {c["channel"] for c in CASES} == {"post", "pm"}
