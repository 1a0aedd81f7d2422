"""The demo's forum: a sandbox with the GM, the players of a script, a spectator, the threads.

:func:`build_world` seeds a :class:`~shenshi.adapters.sandbox.SandboxForum` (the demo cast, plus
any account a script needs, e.g. the 32 players of chess32), opens the GM's threads (player
list and vote thread, discussion thread, chat thread; werewolf: one 功能树洞 per role), and
:func:`game_config` writes the matching ``[forum]``/``[game]``/``[daemon]`` tables, so that the
daemon can be bootstrapped against it like against a real forum.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from shenshi.adapters.sandbox import SandboxForum
from shenshi.adapters.sandbox.seed import BOARD_FID, GM_NAME, player_name, seed_demo
from shenshi.demo.script import GameScript
from shenshi.rulesets.profile import SkillChannel
from shenshi.rulesets.registry import find_ruleset

PASSWORD_ENV = "SHENSHI_DEMO_PASSWORD"
STRANGER = "路人甲"  # a spectator account: not a player


@dataclass
class World:
    """A seeded sandbox forum with one game's threads."""

    forum: SandboxForum
    script: GameScript
    start: datetime
    vote_thread: int
    discussion: int
    chat: int
    role_threads: dict[str, int] = field(default_factory=dict)  # role id → tid (werewolf)
    gm: str = GM_NAME
    stranger: str = STRANGER

    @property
    def gm_uid(self) -> int:
        return self.forum.user(self.gm).uid

    def account(self, name: str) -> str:
        """The forum account of a player (phpwind stores some names in lower case)."""
        return player_name(name, self.forum.engine) if self.forum.find_user(name) is None else name

    def thread(self, where: str) -> int:
        """The thread id of ``vote``, ``discussion``, ``chat`` or a role thread."""
        named = {"vote": self.vote_thread, "discussion": self.discussion, "chat": self.chat}
        return named[where] if where in named else int(where)

    def role_thread_of(self, player: str) -> str:
        """The 功能树洞 a werewolf player replies in."""
        return str(self.role_threads[self.script.seat(player).role])


def cast_for(script: GameScript, engine: str) -> GameScript:
    """The script with each player named as the engine stores the account (phpwind: lower case)."""
    return script.renamed({n: player_name(n, engine) for n in script.names})


def build_world(
    script: GameScript,
    engine: str,
    clock: Callable[[], datetime],
    start: datetime,
    *,
    charset: str = "utf-8",
) -> World:
    """A sandbox forum seeded for ``script`` (already cast for ``engine``) starting at ``start``."""
    forum = SandboxForum(engine, clock, charset=charset)
    seed_demo(forum)
    for number, name in enumerate(script.names, start=1):
        if forum.find_user(name) is None:
            forum.add_user(name, f"Extra_pw{number}")
    forum.add_user(STRANGER, "Stranger_pw0")
    ruleset = find_ruleset(script.ruleset)
    title = ruleset.info.chinese
    roster = "、".join(script.names)
    vote = forum.create_thread(
        GM_NAME, BOARD_FID, f"【{title}】游戏者名单与投票帖",
        f"[b]游戏者名单[/b]\n{roster}\n\n请在本帖签到、投票。投票格式：投票：某某", at=start,
    )  # fmt: skip
    discussion = forum.create_thread(
        GM_NAME, BOARD_FID, f"【{title}】讨论帖", "分析请发在这里。", at=start
    )
    chat = forum.create_thread(
        GM_NAME, BOARD_FID, f"【{title}】灌水专贴", "灌水请发在这里。", at=start
    )
    world = World(forum, script, start, vote.tid, discussion.tid, chat.tid)
    if ruleset.profile(script.rules).skills.channel is SkillChannel.ROLE_THREAD:
        roles = sorted({s.role for s in script.seats})
        for role in roles:
            name = ruleset.info.roles[role].chinese
            thread = forum.create_thread(
                GM_NAME, BOARD_FID, f"【{title}】{name}功能树洞", "技能请回复在本帖。", at=start
            )
            world.role_threads[role] = thread.tid
    return world


def game_config(
    world: World,
    base_url: str,
    workdir: Path,
    *,
    mode: str = "review",
    roles: bool = True,
    daemon: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The raw configuration (TOML tables) of the world's game; ``roles=False`` leaves the deal."""
    script = world.script
    players = []
    for seat in script.seats:
        entry: dict[str, Any] = {"name": seat.name, "uid": world.forum.user(seat.name).uid}
        if roles:
            entry |= {"role": seat.role, "team": seat.team}
            if seat.addons:
                entry["addons"] = list(seat.addons)
        players.append(entry)
    game: dict[str, Any] = {
        "name": f"demo {script.id}",
        "ruleset": script.ruleset,
        "board": BOARD_FID,
        "vote_thread": world.vote_thread,
        "counted_threads": [world.vote_thread, world.discussion],
        "uncounted_threads": [world.chat],
        "start": world.start.isoformat(),
        "players": players,
        "rules": dict(script.rules),
    }
    if world.role_threads:
        game["role_threads"] = {role: tid for role, tid in world.role_threads.items()}
    return {
        "forum": {
            "engine": world.forum.engine, "base_url": base_url, "username": world.gm,
            "password_env": PASSWORD_ENV, "min_interval": 0, "timeout": 10,
        },
        "game": game,
        "daemon": {
            "mode": mode, "database": f"sqlite:///{workdir / 'shenshi.sqlite3'}",
            "log": str(workdir / "shenshi-dryrun.log"), **dict(daemon or {}),
        },
    }  # fmt: skip
