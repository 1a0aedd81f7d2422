"""``shenshi published ID… [--at TIME]``: you posted these announcements by hand (dry-run).

The daemon recognises your own posts in the game threads, and the PMs you sent (from your
outbox); this records the rest (a text you changed, a post it missed). Windows and deaths run
from the publication time, so ``--at`` says when you posted (the forum's clock; default: now).
A time in the future, or before the announcement was proposed, is refused; so is ``--at`` on
an announcement that is already out. Without ``--at``, one that is out already (the daemon
recognised your post or PM) is only said so.
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "published"
HELP = "记下你已手动发布的公告/私信（编号或范围：3 5-9）"
# What ``shenshi published --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi published 编号… [--at 时间]：你已手动发布了这些公告/私信（演练模式）。守护进程会认出你在游戏帖里发的帖子和你发出的私信（从发件箱）；这里记下其余的（你改过内容的、它没认出的）。时限和出局从发布时间算起，所以 --at 写你发布的时间（论坛时间；默认：现在）。未来的时间、早于提出这条公告的时间都会被拒绝；已经发出的公告也不能再写 --at。'
ORDER = 34


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi published ID… [--at TIME]``."""
    from shenshi.commands._common import add_ids_argument

    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    add_ids_argument(parser)
    parser.add_argument(
        "--at",
        metavar="时间",
        help="你发布的时间（论坛时间，如 2026-12-02T20:15；默认：现在）",
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Mark each announcement published; refuse the ones that cannot be (exit 2 if any). One
    that is out already (the daemon recognised your post or PM) is said so and left as it is;
    with ``--at`` that is refused, since the time cannot be changed any more."""
    from shenshi.commands._common import ids_of, open_service, print_said
    from shenshi.daemon.gm_commands import mark_published, parse_when

    service = open_service(args)
    when = parse_when(args.at, service.config.forum.tz)
    return print_said(mark_published(service, ids_of(args.ids), when))
