"""``shenshi override``: GM corrections, recorded as events like everything else.

  action ACTOR ACTION [TARGET…]   enter a night (or day) action intake could not read, by id or
                          in Chinese, written as the player writes it: 月光 杀 老王,
                          小明 占卜 Rex, 帅 炮打 X 炮架子 Y (a kill's declaration:
                          --declaration TEXT; the PM's time: --at TIME). Checked as the
                          player's own PM would be
  void ACTOR ACTION       drop a player's submission of this phase (e.g. a mistaken PM)
  execute NAME            execute NAME instead of the tally's result (before or after the close)
  cancel-execution        nobody is executed today
  exit NAME               an automatic exit with no substitute: the seat dies (sign-in, lurking)
  answered SEER [--at T]  the GM answered this seer early: later changes are refused (A-S2)
  penalty NAME POINTS     werewolf: the referee's penalty points (12 points: sent off, 罚下)
  send-off NAME           werewolf: send a character off (罚下) at once
  sheriff NAME            werewolf: hand the sheriff's badge (a late 【殉职】 reply, a default)
  extra-divination NAME   game5/game6: the civilian drawn by lot for the penalty divination
                          (a short kill declaration, RES-A19); his 占卜 PM is answered at once
  ballot VOTER TARGET     VOTER's ballot of the open round is TARGET (or 弃权 where allowed):
                          a ballot intake could not read; it replaces what VOTER cast
  count-pm PM             a PM of a player seated in several games, kept aside because it
                          could be any of them (alert pm_game_unknown, "PM 3"), is this
                          game's (--game NAME): read now as sent at its time
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option
from shenshi.daemon.gm_commands import CORRECTIONS

NAME = "override"
HELP = "GM corrections: void an action, force or cancel an execution, an exit"
ORDER = 41


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        NAME, help=HELP, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_config_option(parser)
    parser.add_argument(
        "what",
        choices=tuple(CORRECTIONS),
    )
    parser.add_argument("args", nargs="*", metavar="ARG")
    parser.add_argument("--reason", default="", help="why (kept in the log)")
    parser.add_argument("--at", metavar="TIME",
                        help="answered: when the GM answered; action: when the player sent it")  # fmt: skip
    parser.add_argument("--declaration", metavar="TEXT", help="action: a kill's declaration (杀人宣言)")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Record the correction; say in the GM's words what it did and what was proposed."""
    from shenshi.commands._common import open_service, print_said
    from shenshi.daemon.gm_commands import check_arguments, correct, enter_action

    check_arguments(args.what, args.args)  # a wrong count: refused before opening
    service = open_service(args)
    if args.what == "action":
        return print_said(enter_action(service, args.args, args.reason, args.at, declaration=args.declaration))
    if args.what == "count-pm":
        from shenshi.daemon.gm_commands import count_pm

        return print_said(count_pm(service, args.args[0]))
    return print_said(correct(service, args.what, args.args, args.reason, args.at))
