"""The rulesets, found by name in one explicit list (python-chess ``find_variant`` style).

This is the one registry: each :class:`~shenshi.rulesets.base.Ruleset` carries its static
description (``info``: roles, teams, composition) and its ``aliases``, and every lookup by
name, from the configuration, the batch tool, the scenario runner or the demo, goes through
:func:`find_ruleset`, so an alias (``g6-10``, ``楚汉``, ``ww``) works everywhere.
"""

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
    wanted = str(name).strip().lower()
    for ruleset in RULESETS:
        if wanted == ruleset.name or wanted in ruleset.aliases:
            return ruleset
    raise KeyError(f"unknown ruleset {name!r} (known: {known_names()})")


def known_names() -> str:
    """The rulesets' names, for messages: ``game5, game6-8, …``."""
    return ", ".join(r.name for r in RULESETS)
