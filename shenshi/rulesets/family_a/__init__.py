"""Family A: 游戏五 (game5) and 游戏六 (game6-8, game6-10, game6-13), RULES.md §1–3."""

from shenshi.rulesets.family_a.rules import (
    FamilyA,
    Game5,
    Game6_8,
    Game6_10,
    Game6_13,
    select_game6_variant,
)

__all__ = ["FamilyA", "Game5", "Game6_8", "Game6_10", "Game6_13", "select_game6_variant"]
