"""``shenshi check-config``'s checks of the game against its ruleset and its forum: the role mix
the ruleset deals, the threads the game reads (vote thread, player list, role threads), and the
first contact with the forum (each problem names the option to fix).

These sit beside :mod:`shenshi.daemon.checks` (password, players, board, inbox, uids) and use
its :class:`~shenshi.daemon.checks.Check` lines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from shenshi.adapters.base import ForumAdapter
from shenshi.adapters.errors import ForumError
from shenshi.config import Config
from shenshi.daemon.checks import Check
from shenshi.daemon.forum_problems import explain
from shenshi.rulesets.base import RulesetError
from shenshi.rulesets.catalog import RulesetInfo
from shenshi.rulesets.registry import find_ruleset


def check_composition(config: Config) -> Iterator[Check]:
    """The players' roles against the mix the ruleset deals (its composition; werewolf: the
    ``[game.rules] composition``; chess32: per camp). Nothing to check before a deal."""
    g = config.game
    if not all(p.role for p in g.players):
        return
    rules = find_ruleset(g.ruleset)
    info = rules.info
    try:
        rules.profile(g.rules)
    except RulesetError:
        return  # the players check says what is wrong with the settings
    wanted = dict(g.rules.get("composition") or info.composition)
    given = Counter(
        (p.role, p.team or info.roles[p.role].team)
        for p in g.players
        if p.role and p.role in info.roles
    )
    if info.composition_per_team:
        expected = Counter({(role, team): n for team in info.teams for role, n in wanted.items()})
    else:
        expected = Counter(
            {(role, info.roles[role].team): n for role, n in wanted.items() if role in info.roles}
        )
    if given == expected:
        yield Check("role mix", True, f"{_mix(expected, info)} as {g.ruleset} deals")
        return
    extra, missing = given - expected, expected - given
    parts = []
    if extra:
        parts.append(f"too many: {_mix(extra, info)}")
    if missing:
        parts.append(f"missing: {_mix(missing, info)}")
    yield Check("role mix", False, f"{'; '.join(parts)} ({g.ruleset} deals {_mix(expected, info)})")


def _mix(counts: Counter[tuple[str, str]], info: RulesetInfo) -> str:
    teams = len({team for _, team in counts}) > 1 and info.composition_per_team
    return "、".join(
        f"{n}×{info.roles[role].chinese}{f'（{info.team_name(team)}）' if teams else ''}"
        for (role, team), n in sorted(
            counts.items(), key=lambda kv: list(info.roles).index(kv[0][0])
        )
    )


def check_login(config: Config, forum: ForumAdapter) -> Check:
    """Log in; a failure names the option and the cause (address, engine, password)."""
    try:
        forum.login()
    except ForumError as exc:
        return Check("login", False, explain(config, exc))
    return Check("login", True, f"logged in as {config.forum.username} (uid {forum.own_uid})")


def check_thread(forum: ForumAdapter, what: str, tid: str) -> Check:
    """One thread the game reads: it exists and can be read."""
    try:
        delta = forum.read_thread(tid)
    except ForumError as exc:
        return Check(what, False, f"thread {tid}: {exc}")
    if delta.deleted or (not delta.posts and delta.subject is None):
        return Check(
            what, False, f"thread {tid} does not exist (or was deleted): check the thread id"
        )
    subject = delta.subject or "(no subject)"
    return Check(what, True, f"thread {tid}: {subject}, {delta.cursor.floor} posts")


def check_threads(config: Config, forum: ForumAdapter) -> Iterator[Check]:
    """The player-list thread and the werewolf role threads (功能树洞), each must exist."""
    g = config.game
    if g.player_list_thread and g.player_list_thread != g.vote_thread:
        yield check_thread(forum, "[game] player_list_thread", g.player_list_thread)
    info = find_ruleset(g.ruleset).info
    for owner, tid in g.role_threads.items():
        role = info.roles.get(owner)
        name = f"{owner} {role.chinese}" if role else owner
        yield check_thread(forum, f"[game] role_threads: {name}", tid)
