"""Werewolf (狼人: 先知/女巫/守卫/爱神/狼人/吹笛 with add-ons), RULES.md §5."""

from shenshi.rulesets.werewolf.rules import Werewolf
from shenshi.rulesets.werewolf.settings import WerewolfSettings

__all__ = ["Werewolf", "WerewolfSettings"]
