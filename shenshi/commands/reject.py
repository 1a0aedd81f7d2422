"""``shenshi reject ID...``: never send these announcements."""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "reject"
HELP = "reject proposed announcements by id (never sent)"
ORDER = 32


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument("ids", type=int, nargs="+", metavar="ID")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.commands._common import open_service

    service = open_service(args)
    for ident in args.ids:
        a = service.store.reject(ident)
        print(f"#{a.id} {a.state.value}")
    return 0
