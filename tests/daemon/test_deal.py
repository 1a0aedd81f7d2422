"""Dealing roles: each camp's composition (chess32), and who is told about whom."""

from __future__ import annotations

from collections import Counter

import pytest

from shenshi.daemon.deal import deal_roles, partners
from shenshi.rulesets.registry import find_ruleset


def dealt(ruleset: str):
    info = find_ruleset(ruleset).info
    names = [f"P{i}" for i in range(info.players)]
    return info, deal_roles(info, names, "seed-1")


def test_chess_deals_each_camp_the_whole_composition() -> None:
    info, seats = dealt("chess32")
    assert len(seats) == 32
    for camp in ("chu", "han"):
        assert Counter(d.role for d in seats if d.team == camp) == Counter(dict(info.composition))


@pytest.mark.parametrize(
    ("ruleset", "told"),
    [
        ("game6-13", {"alliance_killer": 1, "seer": 1, "binder": 1}),  # not the independent killer
        ("game6-8", {}),  # the alternating killers do not know each other [G6:L41]
        ("werewolf", {"werewolf": 2}),  # a pack [WW:L88]
    ],
)
def test_partners(ruleset: str, told: dict[str, int]) -> None:
    info, seats = dealt(ruleset)
    known = partners(seats, info)
    role_of = {d.name: d.role for d in seats}
    assert {role_of[n]: len(names) for n, names in known.items()} == told
    for name, names in known.items():
        assert all(role_of[o] == role_of[name] for o in names)
