"""The checks behind ``shenshi check-config``: each says what it checked and what it found."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from shenshi.adapters.base import ForumAdapter
from shenshi.adapters.errors import ForumError
from shenshi.config import Config, ConfigError
from shenshi.rulesets.base import PlayerSpec, RulesetError
from shenshi.rulesets.registry import find_ruleset


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    what: str
    ok: bool
    detail: str


def check_offline(config: Config) -> Iterator[Check]:
    """What can be checked without the forum: password source, players, roles, composition."""
    f, g = config.forum, config.game
    try:
        has_password = bool(f.login_password())
        cookies_file = f.private_cookies_file()
    except ConfigError as exc:
        yield Check("password", False, str(exc))
    else:
        if has_password:
            yield Check("password", True, "已找到（不显示）")
        elif cookies_file:
            yield Check("password", True, f"没有密码；用 cookies 文件 {cookies_file}")
        else:
            where = f"${f.password_env}" if f.password_env else "password_env / password_file"
            yield Check("password", False, f"没有密码：请设置 {where}，或给出 cookies_file")
    rules = find_ruleset(g.ruleset)
    info = rules.info
    if all(p.role for p in g.players):
        try:
            rules.new_game(
                [PlayerSpec(p.name, p.role, p.team or info.roles[p.role].team, True, p.addons) for p in g.players],
                g.rules,
            )
            yield Check("players", True, f"{len(g.players)} 名玩家，身份已给出（{g.ruleset}）")
        except (RulesetError, KeyError) as exc:
            yield Check("players", False, str(exc).strip("'\""))
    else:
        yield Check("players", True, f"{len(g.players)} 名玩家；身份待发（shenshi deal）")
    try:
        expected = rules.profile(g.rules).players  # None: any number (werewolf, RES-W1)
    except RulesetError:
        expected = None  # the players check above said what is wrong with the settings
    if expected and len(g.players) != expected:
        yield Check("player count", False, f"{g.ruleset} 需要 {expected} 人，文件里有 {len(g.players)} 人")


def check_forum(config: Config, forum: ForumAdapter) -> Iterator[Check]:
    """Log in, list the board, find the vote thread, open the inbox, look up the players."""
    from shenshi.daemon.forum_problems import explain

    g = config.game
    try:
        if not forum.own_uid:  # check-config logged in already (check_login): not twice
            forum.login()
        yield Check("login", True, f"已登录为 {config.forum.username}（uid {forum.own_uid}）")
    except ForumError as exc:
        yield Check("login", False, explain(config, exc))  # the option and the cause
        return
    try:
        rows = forum.list_board(g.board)
        yield Check("board", True, f"版块 {g.board}：第一页 {len(rows)} 个主题")
    except ForumError as exc:
        yield Check("board", False, f"版块 {g.board}：{exc}")
    from shenshi.daemon.game_checks import check_thread

    yield check_thread(forum, "vote thread", g.vote_thread)
    try:
        inbox = forum.read_pms()
        found = f"{len(inbox.conversations)} 个对话" if inbox.conversations else "空的（还没有对话）"
        yield Check("inbox", True, found + (f"，{len(inbox.failures)} 个读不了" if inbox.failures else ""))
    except ForumError as exc:
        yield Check("inbox", False, str(exc))
    charset = getattr(forum, "charset_decision", None)
    if charset is not None:
        yield Check("charset", True, charset())
    for p in g.players:
        yield _check_player(forum, p.name, p.uid)


def _check_player(forum: ForumAdapter, name: str, uid: str | None) -> Check:
    """A player's uid: looked up by name, or (given in the players file) checked against the
    name the forum shows for it, so that two swapped uids are caught before the game."""
    try:
        if not uid:
            return Check(f"player {name}", True, f"uid {forum.lookup_uid(name)}")
        shown = forum.member_name(uid)
    except ForumError as exc:
        where = f"uid {uid}" if uid else "这个名字"
        return Check(f"player {name}", False, f"论坛上找不到{where}：{exc}")
    if shown.casefold() != name.casefold():  # phpwind keeps names in lower case
        return Check(f"player {name}", False, f"论坛上 uid {uid} 是 {shown}，不是 {name}：请改正玩家文件")
    return Check(f"player {name}", True, f"uid {uid} 是 {shown}")
