"""What each ruleset is made of: roles, teams, powers and the default composition.

Pure data: each :class:`~shenshi.rulesets.base.Ruleset` carries its :class:`RulesetInfo` as
``info``, and the rulesets are found in one registry (:func:`shenshi.rulesets.registry.find_ruleset`,
aliases included). Role, team and action ids are the vocabulary of ``scenarios/FORMAT.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

# Night/day powers, by action id (FORMAT.md "Action vocabulary").
KILL = "kill"  # 杀 / 刀
DIVINE = "divine"  # 占卜 / 【预言】
BIND = "bind"  # 束魂
CURSE = "curse"  # 诅咒
BLESS = "bless"  # 庇佑
PRAY = "pray"  # 祈祷
CANNON_KILL = "cannon_kill"  # 炮打 + 炮架子
IMPRISON = "imprison"  # 禁锢
CHECK = "check"  # 查证 (horse pair)
PROTECT = "protect"  # 救治 (elephant)
SWAP_GENERAL = "swap_general"  # 抽将
GUARD = "guard"  # 【守护】
SILENCE_GUARD = "silence_guard"  # 【隔音】
HEAL = "heal"  # 【救药】
POISON = "poison"  # 【毒药】
PIPE = "pipe"  # 【吹笛】
PAIR_LOVERS = "pair_lovers"  # 【金箭】
LONE_WOLF = "lone_wolf"  # 【托孤】
LONE_BLADE = "lone_blade"  # 【孤刀】
SHERIFF_SUCCESSOR = "sheriff_successor"  # 【殉职】
SPEED_UP = "speed_up"  # werewolf: 同意第N天加速 (W-D7), every character in play may agree

# The Chinese name of each action, as receipts and alerts write it (a ruleset may rename some:
# ``RulesetInfo.action_names``). Intake's own actions are named here too.
ACTION_NAMES: Mapping[str, str] = MappingProxyType({
    KILL: "杀", DIVINE: "占卜", BIND: "束魂", CURSE: "诅咒", BLESS: "庇佑", PRAY: "祈祷",
    CANNON_KILL: "炮打", IMPRISON: "禁锢", CHECK: "查证", PROTECT: "救治", SWAP_GENERAL: "抽将",
    GUARD: "守护", SILENCE_GUARD: "隔音", HEAL: "救药", POISON: "毒药", PIPE: "吹笛",
    PAIR_LOVERS: "金箭", LONE_WOLF: "托孤", LONE_BLADE: "孤刀", SHERIFF_SUCCESSOR: "移交警徽给",
    SPEED_UP: "同意加速", "slow_down": "减速", "vote": "投票", "abstain": "弃权",
    "delegate_vote": "委托投票", "last_words": "遗言", "kill_declaration": "杀人宣言",
})  # fmt: skip

# The Chinese name of each team (camp, 阵营) of every ruleset.
TEAM_NAMES: Mapping[str, str] = MappingProxyType({
    "killers": "杀手方", "civilians": "好人方", "chu": "楚方", "han": "汉方",
    "village": "村民阵营", "wolves": "狼人阵营", "lovers": "情侣阵营", "piper": "吹笛阵营",
})  # fmt: skip

ALL_ACTIONS = frozenset(
    {
        KILL, DIVINE, BIND, CURSE, BLESS, PRAY, CANNON_KILL, IMPRISON, CHECK, PROTECT,
        SWAP_GENERAL, GUARD, SILENCE_GUARD, HEAL, POISON, PIPE, PAIR_LOVERS, LONE_WOLF,
        LONE_BLADE, SHERIFF_SUCCESSOR, SPEED_UP,
    }
)  # fmt: skip


@dataclass(frozen=True)
class Role:
    """One role of a ruleset: its id, Chinese name, team and powers."""

    id: str
    chinese: str
    team: str
    powers: tuple[str, ...] = ()
    joint: bool = False  # members act as one unit (A-J; chess horses)
    pack: bool = False  # members know each other without acting as one (werewolves [WW:L88])

    @property
    def knows_partners(self) -> bool:
        """Whether a holder is told who else holds this role on his team (joint units, packs)."""
        return self.joint or self.pack


@dataclass(frozen=True)
class RulesetInfo:
    """Static description of a ruleset (no behaviour): ``Ruleset.info``."""

    name: str
    chinese: str
    roles: Mapping[str, Role]
    teams: tuple[str, ...]
    composition: Mapping[str, int]  # role id -> count (per camp when ``composition_per_team``)
    substitutes: int = 2
    addons: tuple[str, ...] = field(default=())
    composition_per_team: bool = False  # chess32: each camp (楚/汉) has the whole composition
    action_names: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def action_name(self, action: str) -> str:
        """The Chinese name of ``action`` in this ruleset (its own word, else the common one)."""
        return self.action_names.get(action) or ACTION_NAMES.get(action, action)

    def team_name(self, team: str) -> str:
        """The Chinese name of ``team`` (楚方, 杀手方, 村民阵营 …)."""
        return TEAM_NAMES.get(team, team)

    def role_name(self, role: str) -> str:
        """The Chinese name of ``role`` in this ruleset (the id itself if it has none)."""
        found = self.roles.get(role)
        return found.chinese if found is not None else role

    def role_id(self, name: str) -> str | None:
        """The role id for ``name``: an id (``seer``) or its Chinese name (``占卜者``)."""
        wanted = name.strip()
        if wanted in self.roles:
            return wanted
        for role in self.roles.values():
            if wanted in (role.chinese, role.id.replace("_", " ")) or wanted.casefold() == role.id:
                return role.id
        return None

    def role_list(self) -> str:
        """The roles as the GM writes them: ``killer 杀手, seer 占卜者, …``."""
        return ", ".join(f"{r.id} {r.chinese}" for r in self.roles.values())

    @property
    def players(self) -> int:
        """Number of seats in the default composition."""
        per = sum(self.composition.values())
        return per * len(self.teams) if self.composition_per_team else per


def _roles(*roles: Role) -> Mapping[str, Role]:
    return MappingProxyType({r.id: r for r in roles})


_FAMILY_A_CIVILIANS = (
    Role("seer", "占卜者", "civilians", (DIVINE,)),
    Role("binder", "束魂者", "civilians", (BIND,)),
    Role("curser", "诅咒者", "civilians", (CURSE,)),
    Role("blesser", "庇佑者", "civilians", (BLESS,)),
    Role("commoner", "庶民", "civilians", (PRAY,)),
)
_FAMILY_A_ROLES = _roles(Role("killer", "杀手", "killers", (KILL,), joint=True), *_FAMILY_A_CIVILIANS)

GAME5 = RulesetInfo(
    "game5", "游戏五", _FAMILY_A_ROLES, ("killers", "civilians"),
    MappingProxyType({"killer": 2, "seer": 1, "binder": 1, "curser": 1, "blesser": 1, "commoner": 4}),
)  # fmt: skip
GAME6_8 = RulesetInfo(
    "game6-8", "游戏六（8人）",
    _roles(Role("killer", "杀手", "killers", (KILL,)), *_FAMILY_A_CIVILIANS),
    ("killers", "civilians"),
    MappingProxyType({"killer": 2, "seer": 1, "binder": 1, "curser": 1, "blesser": 1, "commoner": 2}),
)  # fmt: skip
GAME6_10 = RulesetInfo(
    "game6-10", "游戏六（10人）", _FAMILY_A_ROLES, ("killers", "civilians"),
    MappingProxyType({"killer": 2, "seer": 1, "binder": 1, "curser": 1, "blesser": 1, "commoner": 4}),
)  # fmt: skip
GAME6_13 = RulesetInfo(
    "game6-13", "游戏六（13人）",
    _roles(
        Role("alliance_killer", "同盟杀手", "killers", (KILL,), joint=True),
        Role("independent_killer", "独立杀手", "killers", (KILL,)),
        Role("seer", "占卜者", "civilians", (DIVINE,), joint=True),
        Role("binder", "束魂者", "civilians", (BIND,), joint=True),
        *_FAMILY_A_CIVILIANS[2:],
    ),
    ("killers", "civilians"),
    MappingProxyType({
        "alliance_killer": 2, "independent_killer": 1, "seer": 2, "binder": 2,
        "curser": 1, "blesser": 1, "commoner": 4,
    }),
)  # fmt: skip
CHESS32 = RulesetInfo(
    "chess32", "楚汉",
    _roles(
        Role("general", "帅", "", (KILL, SWAP_GENERAL)),
        Role("chariot", "车", "", (IMPRISON,)),
        Role("horse", "马", "", (CHECK,), joint=True),
        Role("cannon", "炮", "", (CANNON_KILL,)),
        Role("elephant", "相", "", (PROTECT,)),
        Role("left_advisor", "左士", "", (CURSE,)),
        Role("right_advisor", "右士", "", (BLESS,)),
        Role("soldier", "兵", "", (PRAY,)),
    ),
    ("chu", "han"),
    MappingProxyType({
        "general": 1, "chariot": 2, "horse": 2, "cannon": 2, "elephant": 2,
        "left_advisor": 1, "right_advisor": 1, "soldier": 5,
    }),
    composition_per_team=True,
    action_names=MappingProxyType({"kill_declaration": "杀人帖"}),
)  # fmt: skip
WEREWOLF = RulesetInfo(
    "werewolf", "狼人",
    _roles(
        Role("seer", "先知", "village", (DIVINE,)),
        Role("witch", "女巫", "village", (HEAL, POISON)),
        Role("guard", "守卫", "village", (GUARD, SILENCE_GUARD)),
        Role("cupid", "爱神", "village", (PAIR_LOVERS,)),
        Role("werewolf", "狼人", "wolves", (KILL, LONE_WOLF), pack=True),
        Role("piper", "吹笛", "piper", (PIPE,)),
        Role("villager", "村民", "village", ()),
    ),
    ("village", "wolves", "lovers", "piper"),
    # RES-W1: the source gives no counts; this is the default the host can change in the config.
    MappingProxyType({
        "seer": 1, "witch": 1, "guard": 1, "cupid": 1, "werewolf": 3, "piper": 1, "villager": 4,
    }),
    substitutes=0,
    addons=("lover", "sheriff", "lone_wolf"),
    action_names=MappingProxyType({DIVINE: "预言", KILL: "杀人"}),
)  # fmt: skip

# Add-on powers (werewolf): the add-on grants the power to whoever carries it.
ADDON_POWERS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"lone_wolf": (LONE_BLADE,), "sheriff": (SHERIFF_SUCCESSOR,), "lover": ()}
)
