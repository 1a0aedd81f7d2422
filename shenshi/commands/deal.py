"""``shenshi deal [--seed S]``: random role assignment from the ruleset's composition.

The seed and the result are kept in the database (mode 0600), never in the log. Each player's
role PM is proposed in the outbox (and, where the rules make partners know each other, who
they are).
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "deal"
HELP = "deal the roles at random (seeded) and propose each player's role PM"
ORDER = 15


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument("--seed", help="the seed (default: a fresh random one, kept in the database)")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.bootstrap import bootstrap, config_from_args

    service = bootstrap(config_from_args(args.config), forum=False)
    dealt = service.deal(args.seed)
    print(f"dealt {len(dealt)} roles (seed kept in the database); {len(dealt)} role PMs proposed")
    print("review them with: shenshi review")
    return 0
