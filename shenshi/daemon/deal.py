"""Dealing roles (发身份): a seeded random assignment from the ruleset's composition."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shenshi.errors import UserError
from shenshi.rulesets.catalog import TEAM_NAMES, RulesetInfo
from shenshi.wording import Templates


@dataclass(frozen=True)
class Dealt:
    """One player's dealt seat."""

    name: str
    role: str
    team: str


def new_seed() -> str:
    """A fresh seed (kept in the database so the deal can be checked later)."""
    return secrets.token_hex(8)


def deal_roles(
    info: RulesetInfo, names: Sequence[str], seed: str, composition: Mapping[str, int] | None = None
) -> list[Dealt]:
    """Assign the composition's roles to ``names`` at random; the same seed gives the same deal.

    chess32 deals each camp (楚/汉) its 16 roles; the camp itself is dealt too.
    """
    comp = dict(composition or info.composition)
    unknown = set(comp) - set(info.roles)
    if unknown:
        raise UserError(f"[game.rules] composition：{info.name} 没有这些身份：{'、'.join(sorted(unknown))}（身份写 id 或中文名，见 README「Role ids」）")
    roles = [(role, info.roles[role].team) for role, n in comp.items() for _ in range(n)]
    if info.composition_per_team:
        roles = [(role, camp) for camp in info.teams for role, _ in roles]
    if len(roles) != len(names):
        raise UserError(
            f"{info.name} needs {len(roles)} players for this composition, the game has {len(names)}"
        )
    rng = random.Random(seed)
    rng.shuffle(roles)
    return [Dealt(name, role, team) for name, (role, team) in zip(names, roles, strict=True)]


def partners(dealt: Sequence[Dealt], info: RulesetInfo) -> dict[str, list[str]]:
    """Who knows whom: joint units (killers, seers, binders, the horse pair) and packs
    (werewolves [WW:L88]) see the others of their role on their team; game6-8 killers do not
    know each other [G6:L41], nor do game6-13's alliance killers know the independent one."""
    out: dict[str, list[str]] = {}
    for d in dealt:
        if info.roles[d.role].knows_partners:
            out[d.name] = [o.name for o in dealt if o is not d and o.role == d.role and o.team == d.team]
    return out


def role_text(
    templates: Templates, game: str, info: RulesetInfo, role: str, team: str, known: Sequence[str] = ()
) -> str:
    """The role PM (身份通知): the role and camp, and the partners the role knows."""
    text = templates.render("role", game=game, role=info.roles[role].chinese, team=TEAM_NAMES.get(team, team))
    if known:
        text += "\n" + templates.render("partners", names="、".join(known))
    return text
