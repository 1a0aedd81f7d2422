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
HELP = "record that you published announcements by hand (ids and ranges: 3 5-9)"
ORDER = 34


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi published ID… [--at TIME]``."""
    from shenshi.commands._common import add_ids_argument

    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    add_ids_argument(parser)
    parser.add_argument(
        "--at",
        metavar="TIME",
        help="when you posted it (forum clock, e.g. 2026-12-02T20:15; default: now)",
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
