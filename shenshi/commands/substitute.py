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
HELP = "a substitute (替补) takes over a player's seat"
ORDER = 40


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi substitute OLD NEW [--uid UID] [--offline]``."""
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument("old", metavar="OLD", help="the player who leaves")
    parser.add_argument("new", metavar="NEW", help="the substitute's forum name")
    parser.add_argument(
        "--uid", help="the substitute's forum uid (default: looked up on the forum)"
    )
    parser.add_argument(
        "--offline", action="store_true", help="do not look the account up on the forum"
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Check the account, record the substitution, say what was proposed."""
    from shenshi.commands._common import open_service, print_said
    from shenshi.daemon.gm_commands import substitute

    service = open_service(args)
    return print_said(substitute(service, args.old, args.new, args.uid, offline=args.offline))
