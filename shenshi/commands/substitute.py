"""``shenshi substitute OLD NEW``: a substitute (替补) takes over OLD's seat.

The newcomer inherits the seat exactly as the rules say (role, joint unit, bind chain, pending
actions); what belongs to the person who left (chess warnings, werewolf penalty points) stays
behind. Family A announces the substitution; chess32 does not.
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "substitute"
HELP = "a substitute (替补) takes over a player's seat"
ORDER = 40


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument("old", metavar="OLD", help="the player who leaves")
    parser.add_argument("new", metavar="NEW", help="the substitute's forum name")
    parser.add_argument("--uid", help="the substitute's forum uid (default: looked up when the daemon runs)")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.commands._common import open_service
    from shenshi.errors import UserError
    from shenshi.rulesets.base import IllegalActionError, Substitute

    service = open_service(args)
    try:
        outcome = service.substitute(args.old, args.new, args.uid)
    except IllegalActionError as exc:
        raise UserError(str(exc)) from None
    when = "now" if any(type(e).__name__ == "SeatTakenOver" for e in outcome.events) else "when this step is resolved"
    print(f"{args.new} takes over {args.old}'s seat {when}")
    del Substitute
    return 0
