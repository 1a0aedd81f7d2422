"""``shenshi message PLAYER TEXT``: the GM's own PM to a player, sent like shenshi's others.

See :mod:`shenshi.daemon.gm_message`: proposed and approved at once (the GM wrote it), sent
by the daemon in review and live mode, sent by hand in dry-run mode.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shenshi.commands import add_config_option
from shenshi.errors import UserError

NAME = "message"
HELP = "天神私信：给本局一位玩家写私信（像回执一样由守护进程发出）"
# What ``shenshi message --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = ("shenshi message 玩家 文字：给本局的一位玩家（包括已离开的、替补）写私信，例如回答他的提问。"
               "私信记在待发列表里并立即批准（你写的就是审核过的）：审核模式、正式模式下守护进程在下一轮按论坛的"
               "发帖间隔发出，发送失败会提醒；演练模式下不发送，请在论坛上手动发出（会被自动认出）。"
               "它不改变游戏：不是行动，也没有回执。")  # fmt: skip
ORDER = 42


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi message PLAYER [TEXT…] [--file FILE]``."""
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    parser.add_argument("to", metavar="玩家", help="收信的玩家（本局的，包括已离开的、替补）")
    parser.add_argument("text", nargs="*", metavar="文字", help="私信内容（几段用空格隔开时连成一行；多行请用 --file）")
    parser.add_argument("--file", type=Path, metavar="文件", help="从文件读私信内容（UTF-8）")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Read the text, propose and approve the PM, say how it goes out."""
    from shenshi.commands._common import open_service, print_said, text_of_file
    from shenshi.daemon.gm_message import message

    if args.file is not None and args.text:
        raise UserError("私信内容写在命令里或用 --file，只能选一种；没有发出")
    text = text_of_file(args.file, "没有发出") if args.file is not None else " ".join(args.text)
    service = open_service(args)
    return print_said(message(service, args.to, text))
