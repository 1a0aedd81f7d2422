"""``shenshi ack ID…``: you have read these alerts; ``shenshi status`` stops showing them.

IDs are alert numbers as ``shenshi status`` shows them (``#12``); ranges work too
(``shenshi ack 3 5-9``), and ``--all`` acknowledges every alert shown now.
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "ack"
HELP = "acknowledge alerts by id (shenshi status then stops showing them)"
ORDER = 21


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi ack ID… | --all``."""
    from shenshi.commands._common import add_ids_argument

    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    add_ids_argument(parser, required=False)
    parser.add_argument("--all", action="store_true", help="every unacknowledged alert")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Acknowledge the alerts and say how many are left."""
    import sys

    from shenshi.commands._common import gm_log, ids_of, open_service
    from shenshi.errors import UserError

    if not args.ids and not args.all:
        raise UserError("请给出提醒编号（shenshi status 里的 #N，可写 3 5-9），或 --all 确认全部")
    if args.ids and args.all:
        raise UserError("编号和 --all 只能用一个")
    wanted = ids_of(args.ids)
    service = open_service(args)
    with service.store.transaction() as uow:
        known = {a.id for a in uow.alerts.raised(service.game_id)}
        if args.all:
            wanted = [a.id for a in uow.alerts.raised(service.game_id, unacknowledged=True)]
        missing = [i for i in wanted if i not in known]
        wanted = [i for i in wanted if i in known]
        done = uow.alerts.acknowledge(service.game_id, wanted, at=service.clock()) if wanted else []
        left = len(uow.alerts.raised(service.game_id, unacknowledged=True))
    shown = " ".join(f"#{a.id}" for a in done)
    gm_log(service, "ack", f"已确认提醒 {shown}" if done else "没有未确认的提醒")
    print(
        f"已确认 {len(done)} 条提醒{'：' + shown if done else ''}；还有 {left} 条未确认（shenshi status）"
    )
    if missing:
        print(f"shenshi: error: 没有提醒 {' '.join(f'#{i}' for i in missing)}（shenshi status 列出未确认的提醒）",
              file=sys.stderr)  # fmt: skip
        return 2
    return 0
