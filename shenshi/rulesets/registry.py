"""The rulesets, found by name in one explicit list (python-chess ``find_variant`` style)."""

from __future__ import annotations

from shenshi.rulesets.base import Ruleset
from shenshi.rulesets.chess import Chess32
from shenshi.rulesets.family_a import Game5, Game6_8, Game6_10, Game6_13
from shenshi.rulesets.werewolf import Werewolf

RULESETS: tuple[Ruleset, ...] = (
    Game5(),
    Game6_8(),
    Game6_10(),
    Game6_13(),
    Chess32(),
    Werewolf(),
)


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (or one of its aliases); ``KeyError`` lists the known ones."""
    wanted = name.strip().lower()
    for ruleset in RULESETS:
        if wanted == ruleset.name or wanted in ruleset.aliases:
            return ruleset
    known = ", ".join(r.name for r in RULESETS)
    raise KeyError(f"unknown ruleset {name!r} (known: {known})")
