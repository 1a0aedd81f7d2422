"""``shenshi ack ID…``: you have read these alerts; ``shenshi status`` stops showing them.

IDs are alert numbers as ``shenshi status`` shows them (``#12``); ranges work too
(``shenshi ack 3 5-9``), and ``--all`` acknowledges every alert shown now. ``--undo`` takes an
acknowledgement back (``shenshi ack --undo 7``: shown again).
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "ack"
HELP = "确认已读提醒（按编号；之后 shenshi status 不再显示）"
# What ``shenshi ack --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi ack 编号…：你已读过这些提醒，shenshi status 不再显示。编号是 shenshi status 里显示的提醒编号（#12），也可写范围（shenshi ack 3 5-9）；--all 确认现在显示的所有提醒；--undo 撤销确认（shenshi ack --undo 7：重新显示）。'
ORDER = 21


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi ack ID… | --all``."""
    from shenshi.commands._common import add_ids_argument

    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    add_ids_argument(parser, required=False)
    parser.add_argument("--all", action="store_true", help="所有未确认的提醒")
    parser.add_argument("--undo", action="store_true", help="撤销确认：这些提醒重新显示为未确认")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Acknowledge the alerts and say how many are left."""
    from shenshi.commands._common import ids_of, open_service, print_said
    from shenshi.daemon.gm_commands import acknowledge, unacknowledge
    from shenshi.errors import UserError

    if not args.ids and not args.all:
        raise UserError("请给出提醒编号（shenshi status 里的 #N，可写 3 5-9），或 --all 确认全部")
    if args.ids and args.all:
        raise UserError("编号和 --all 只能用一个")
    if args.undo and args.all:
        raise UserError("--undo 需要提醒编号（不能和 --all 一起用）")
    wanted = None if args.all else ids_of(args.ids)
    service = open_service(args)
    if args.undo:
        return print_said(unacknowledge(service, wanted or []))
    return print_said(acknowledge(service, wanted))
