"""The game as intake needs to see it: a frozen snapshot the daemon builds from its state.

Everything is optional except the ruleset and the players: a fact that is absent is not
checked (the batch tool often knows only names, roles and the dead). Times are aware
datetimes; the forum's zone (``tz``) is used to print ``extra.t`` as forum-local ISO time,
the convention of the scenario files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from functools import cached_property
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo

from shenshi.rulesets.catalog import ADDON_POWERS, RulesetInfo
from shenshi.rulesets.profile import RulesetProfile
from shenshi.rulesets.registry import find_ruleset
from shenshi.wording import Templates

FORUM_TZ = ZoneInfo("Asia/Shanghai")
# A record whose time is this instant has no known time (the batch tool without ``t``):
# no window or deadline is checked against it, and ``extra.t`` is left out.
UNKNOWN_TIME = datetime(1970, 1, 1, tzinfo=UTC)
_NO_MAP: Mapping[Any, Any] = MappingProxyType({})


def _no_map() -> Mapping[Any, Any]:
    return _NO_MAP


# Phase kinds (the step phases of FORMAT.md).
NIGHT = "night"
DAY = "day"
SIGNIN = "signin"  # after the player list, before night 1 has its first PM

# Thread kinds a post can be in (ctx.threads maps a tid to one of these).
VOTE_THREAD = "vote"  # 投票帖 (family A vote thread, chess vote thread, werewolf day thread)
GAME_THREAD = "game"  # the main game thread: discussion and, where the GM says so, votes
DISCUSSION_THREAD = "discussion"  # analysis / own threads: votes there do not count
CHAT_THREAD = "chat"  # 灌水专贴
SIGNIN_THREAD = "signin"  # the post of the player list (游戏者名单): replies are sign-ins
ROLE_THREAD = "role"  # werewolf 功能树洞 of a role


@dataclass(frozen=True)
class PlayerInfo:
    """One seat of the game as intake sees it."""

    name: str
    uid: str | None = None
    role: str | None = None
    team: str | None = None  # chess32: "chu" / "han"
    alive: bool = True
    addons: frozenset[str] = frozenset()  # werewolf: lover, sheriff, lone_wolf


@dataclass(frozen=True)
class CountedBallot:
    """A ballot already counted this round. ``target`` ``None`` is an abstention."""

    target: str | None
    t: datetime | None = None


@dataclass(frozen=True)
class DeclaredKill:
    """A player's latest kill of this night that came with a declaration (杀人宣言).

    ``latest``: it is also his latest kill (a later one came without a declaration: False).
    """

    target: str | None
    chars: int
    latest: bool = True


@dataclass(frozen=True)
class PhaseFacts:
    """Facts of the current phase. ``kind`` ``None`` means unknown: phase checks are skipped."""

    kind: str | None = None  # NIGHT, DAY, SIGNIN
    number: int | None = None
    # The open step ends before its deadline once everything is in (RULES.md "Early close"):
    # a receipt then promises a change only until the step is settled, never until its deadline.
    closes_early: bool = False
    # Night PM window (family A, A-S1): [open, close). Chess: ``deadline`` = dawn - 10 min.
    pm_window_open: datetime | None = None
    pm_window_close: datetime | None = None
    deadline: datetime | None = None
    phase_deadlines: Mapping[int, datetime] = field(default_factory=_no_map)  # werewolf 夜晚1/夜晚2
    # Day vote: round 1 or 2 (chess round 2, family A 生死投票); None when no vote is open.
    vote_round: int | None = None
    vote_open: datetime | None = None
    vote_close: datetime | None = None
    candidates: frozenset[str] = frozenset()  # round-2 / runoff candidates
    ballots: Mapping[str, tuple[CountedBallot, ...]] = field(
        default_factory=_no_map
    )  # this round, per voter
    delegations_published: frozenset[str] = frozenset()
    # Family A
    bound: str | None = None  # 被束魂者: may not vote today
    summoned: frozenset[str] = frozenset()  # 招魂: dead victims who may cast one ballot
    seer_answered: frozenset[str] = frozenset()  # A-S2: the GM already answered these seers
    on_duty_killer: str | None = None  # game6-8 alternation (RES-A1)
    # killer -> his latest kill tonight that carries a declaration (A-J3: a partner's counts;
    # 宣言同上: one's own earlier one)
    declared: Mapping[str, DeclaredKill] = field(default_factory=_no_map)
    extra_divination_actor: str | None = None  # RES-A19 penalty divination
    extra_divination_deadline: datetime | None = None
    extra_divination_used: bool = False
    # Last words (遗言): who may still leave them (None: not known, the dead may), by when
    last_words_granted: frozenset[str] | None = None
    last_words_deadline: datetime | None = None
    # chess32
    swaps_left: Mapping[str, int] = field(default_factory=_no_map)
    # werewolf
    maddened: frozenset[str] = frozenset()
    sent_off: frozenset[str] = frozenset()
    guarded_before: frozenset[str] = frozenset()  # 【守护】 targets of earlier nights
    silenced_before: frozenset[str] = frozenset()  # 【隔音】 targets of earlier nights
    used_skills: frozenset[str] = frozenset()  # single-use skills spent: heal, poison, …
    settled_skills: frozenset[str] = frozenset()  # … of them, those spent in the night just settled
    witch_vision: frozenset[str] | None = None  # 【通灵】 list, once sent
    locked: Mapping[str, frozenset[str]] = field(
        default_factory=_no_map
    )  # actor -> actions locked by 确定
    extra_powers: Mapping[str, frozenset[str]] = field(default_factory=_no_map)  # 复仇 / 遗志 kills
    # put out by the settled step and told so by PM (werewolf), before the public post: his own
    # commands are answered as an out character's (to the others he is alive until then)
    told_out: frozenset[str] = frozenset()
    # substitute -> the seat he is taking over when this step ends (he acts for it already)
    taking_over: Mapping[str, str] = field(default_factory=_no_map)

    def seat(self, name: str) -> str:
        """The seat ``name`` plays: his own, or the one he is taking over (a substitute still
        entering), for the facts that name one seat (the bound one, the killer on duty)."""
        return self.taking_over.get(name, name)


@dataclass(frozen=True)
class GameContext:
    """A frozen view of one game, enough to read and validate one post or PM.

    What the rules say (which skills when, target rules, ballots, last words…) is the
    ruleset's :attr:`profile` under the game's ``settings`` (the GM's ``[game.rules]``).
    """

    ruleset: str
    players: tuple[PlayerInfo, ...]
    # nickname -> canonical name, or the names of all the players it was given to (ambiguous)
    nicknames: Mapping[str, str | tuple[str, ...]] = field(default_factory=_no_map)
    # player -> the players whose seat he took over (their names mean his seat, to the others)
    former_names: Mapping[str, tuple[str, ...]] = field(default_factory=_no_map)
    gm_names: frozenset[str] = frozenset({"神的使者"})
    gm_uids: frozenset[str] = frozenset()
    phase: PhaseFacts = field(default_factory=PhaseFacts)
    threads: Mapping[str, str] = field(default_factory=_no_map)  # tid -> thread kind
    # The kind of a thread not in ``threads``: the batch tool's posts are game-thread posts;
    # the daemon reads every thread of the board, and one it was not told about is discussion.
    other_threads: str = GAME_THREAD
    role_threads: Mapping[str, frozenset[str]] = field(default_factory=_no_map)  # tid -> owners
    receipts: bool = True  # a game can switch receipts off
    tz: tzinfo = FORUM_TZ
    settings: Mapping[str, Any] = field(default_factory=_no_map)  # the ruleset's settings
    templates: Templates = field(default_factory=Templates)  # receipts' and alerts' texts
    # The game's start: a PM sent before it belongs to no game of this GM account (an old one).
    started: datetime | None = None

    @property
    def info(self) -> RulesetInfo:
        """The static description of this game's ruleset (roles, teams)."""
        return find_ruleset(self.ruleset).info

    @cached_property
    def profile(self) -> RulesetProfile:
        """What this game's ruleset says, under its settings."""
        return find_ruleset(self.ruleset).profile(self.settings)

    def player(self, name: str) -> PlayerInfo | None:
        """The player with this canonical name."""
        for p in self.players:
            if p.name == name:
                return p
        return None

    def player_by_uid(self, uid: str) -> PlayerInfo | None:
        """The player with this forum uid."""
        for p in self.players:
            if p.uid is not None and p.uid == uid:
                return p
        return None

    @property
    def has_uids(self) -> bool:
        """True when identity is by forum uid (the daemon), not by display name (batch)."""
        return any(p.uid for p in self.players)

    def is_gm(self, name: str, uid: str | None) -> bool:
        """True for the GM account (its posts and PMs are never player input)."""
        if uid is not None and uid in self.gm_uids:
            return True
        return name in self.gm_names

    def powers_of(self, player: PlayerInfo) -> frozenset[str]:
        """Action ids this player's role and add-ons give (catalog), plus granted extras."""
        powers: set[str] = set()
        role = self.info.roles.get(player.role or "")
        if role is not None:
            powers.update(role.powers)
        for addon in player.addons:
            powers.update(ADDON_POWERS.get(addon, ()))
        powers.update(self.phase.extra_powers.get(player.name, ()))
        return frozenset(powers)

    def partners_of(self, player: PlayerInfo) -> tuple[PlayerInfo, ...]:
        """The other members of ``player``'s joint unit (the killers of game5, the horse pair…)."""
        role = self.info.roles.get(player.role or "")
        if role is None or not role.joint:
            return ()
        return tuple(
            p for p in self.players
            if p.name != player.name and p.role == player.role and p.team == player.team
        )  # fmt: skip

    def unit_of(self, player: PlayerInfo) -> tuple[PlayerInfo, ...]:
        """The others who share ``player``'s one action of a kind: his joint unit (A-J1), or the
        living members of his pack (werewolves share one kill, RES-W7, whatever their camps)."""
        role = self.info.roles.get(player.role or "")
        if role is None or not role.pack:
            return self.partners_of(player)
        return tuple(p for p in self.players if p.name != player.name and p.role == player.role and p.alive)

    def alive_names(self) -> frozenset[str]:
        """Canonical names of the living players."""
        return frozenset(p.name for p in self.players if p.alive)

    def local_iso(self, t: datetime | None) -> str | None:
        """``t`` as naive forum-local ISO time (``YYYY-MM-DDTHH:MM:SS``), as in scenarios."""
        if t is None or t == UNKNOWN_TIME:
            return None
        if t.tzinfo is not None:
            t = t.astimezone(self.tz).replace(tzinfo=None)
        return t.replace(microsecond=0).isoformat()
