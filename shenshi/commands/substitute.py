"""``shenshi substitute OLD NEW``: a substitute (替补) takes over OLD's seat.

The newcomer inherits the seat exactly as the rules say (role, joint unit, bind chain, pending
actions); what belongs to the person who left (chess warnings, werewolf penalty points) stays
behind. Before anything is stored, the newcomer's forum account is looked up (``--offline``,
or a forum that cannot be reached: it is said that it could not be checked). Where the ruleset
announces substitutions (family A), the announcement is proposed in the outbox.
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "substitute"
HELP = "替补：新玩家接替一位玩家的座位"
# What ``shenshi substitute --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi substitute 离开的玩家 替补：替补接替这位玩家的座位。新玩家完全按规则继承这个座位（身份、联合行动、束魂链、待结算的行动）；属于离开者本人的（象棋的警告、狼人的罚分）留下不带走。存任何东西之前先到论坛上查新玩家的账号（--offline 或论坛连不上时，会说明没能核对）。规则要求公告替补的（游戏五/六类），会提出替补公告等你审核。'
ORDER = 40


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi substitute OLD NEW [--uid UID] [--offline]``."""
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    parser.add_argument("old", metavar="离开的玩家", help="离开的玩家")
    parser.add_argument("new", metavar="替补", help="替补在论坛上的名字")
    parser.add_argument(
        "--uid", metavar="uid", help="替补的论坛 uid（默认：到论坛上查）"
    )
    parser.add_argument(
        "--offline", action="store_true", help="不到论坛上查这个账号"
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Check the account, record the substitution, say what was proposed."""
    from shenshi.commands._common import open_service, print_said
    from shenshi.daemon.gm_commands import substitute

    service = open_service(args)
    return print_said(substitute(service, args.old, args.new, args.uid, offline=args.offline))
