"""``shenshi check-config``: read the configuration, connect, log in, find the threads and the
inbox, and say plainly what is wrong.

Offline: the password source, the players and their roles (ids or Chinese names, e.g. 占卜者)
against the role mix the ruleset deals. With the forum: the address and the engine, the login,
the board, the vote thread, the player-list and role threads, the inbox, the players' uids.
Each problem names the option to fix (``[forum] base_url: connection refused``).
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "check-config"
HELP = "检查配置：登录论坛，找到版块、帖子、收件箱和玩家"
# What ``shenshi check-config --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi check-config：读配置、连论坛、登录、找到帖子和收件箱，把不对的地方直说出来。离线（--offline）时检查密码从哪里来、玩家和他们的身份（写 id 或中文，如 占卜者）是否合本规则的配置；连论坛时再检查网址和论坛程序、登录、版块、投票帖、玩家名单帖和功能帖、收件箱、玩家的 uid。每个问题都写明要改哪个选项（如 [forum] base_url: 连不上）。'
ORDER = 5


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    parser.add_argument(
        "--offline", action="store_true", help="只检查配置文件，不连接论坛"
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.bootstrap import make_forum
    from shenshi.commands._common import config_of
    from shenshi.daemon.checks import check_forum, check_offline
    from shenshi.daemon.game_checks import check_composition, check_login, check_threads

    config = config_of(args)
    results = list(check_offline(config)) + list(check_composition(config))
    if not args.offline and all(r.ok for r in results):
        forum = make_forum(config)
        login = check_login(config, forum)
        if login.ok:
            results += list(check_forum(config, forum)) + list(check_threads(config, forum))
        else:
            results.append(login)
    for r in results:
        print(f"{'正常' if r.ok else '有误'} {what_words(r.what)}：{r.detail}")
    failed = [r for r in results if not r.ok]
    print("全部正常" if not failed else f"{len(failed)} 处有误")
    return 1 if failed else 0


# What each check is about, in the GM's words (an option's own name stays as the file writes it).
WHAT = {"password": "密码", "players": "玩家", "player count": "人数", "login": "登录", "board": "版块",
        "vote thread": "投票帖", "inbox": "收件箱", "charset": "字符集", "role mix": "身份配置"}  # fmt: skip


def what_words(what: str) -> str:
    """``vote thread`` → 投票帖, ``player 小明`` → 玩家 小明; an option's name as it is."""
    if what.startswith("player "):
        return f"玩家 {what.removeprefix('player ')}"
    return WHAT.get(what, what)
