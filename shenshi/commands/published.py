"""``shenshi published ID [--at TIME]``: the GM posted this announcement by hand (dry-run).

The daemon recognises the GM's own posts in the game threads; this records the rest (a post
it could not match, or a PM). Windows and deaths run from the publication time.
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "published"
HELP = "record that the GM published an announcement by hand (and when)"
ORDER = 34


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument("id", type=int, metavar="ID")
    parser.add_argument("--at", metavar="TIME", help="when it was posted (forum clock; default: now)")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.commands._common import fmt_time, open_service, parse_when

    service = open_service(args)
    tz = service.config.forum.tz
    when = parse_when(args.at, tz) or service.clock()
    with service.store.transaction() as uow:
        a = uow.outbox.mark_published(args.id, when)
    service.referee.pending_public.pop(a.key, None)
    print(f"#{a.id} published at {fmt_time(a.published_at, tz)}")
    return 0
