"""The phrasings written from the rule texts (:mod:`tests.intake.phrasings`), each read as the
rules mean it: a command where the text is certain, an alert where it is not, never silence."""

from __future__ import annotations

import pytest

from tests.intake.corpus_check import check_case
from tests.intake.phrasings import cases

CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_phrasing(case: dict) -> None:
    check_case(case)


def test_the_phrasings_cover_every_ruleset_and_channel() -> None:
    assert len(CASES) >= 325
    assert {c["ruleset"] for c in CASES} == {
        "game5", "game6-8", "game6-10", "game6-13", "chess32", "werewolf"
    }
    assert {c["channel"] for c in CASES} == {"post", "pm"}
