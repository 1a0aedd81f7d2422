"""chess32 (楚汉): 32 players in two camps, RULES.md §4."""

from shenshi.rulesets.chess.rules import Chess32

__all__ = ["Chess32"]
