"""``shenshi run``: the daemon. Polls the forum, runs the phase clock, proposes announcements."""

from __future__ import annotations

import argparse
import time

from shenshi.commands import add_config_option

NAME = "run"
HELP = "run the daemon beside the forum (dry-run by default: nothing is sent)"
ORDER = 10


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument("--once", action="store_true", help="one cycle (poll, clock, publish), then exit")
    parser.add_argument(
        "-v", "--verbose", action="count", default=0,
        help="also show the libraries' logs (httpx, alembic, apscheduler…); -vv: everything at DEBUG",
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.logs import command_logging

    with command_logging(args.verbose):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from shenshi.commands._common import open_service
    from shenshi.daemon.cycle import Cycle
    from shenshi.daemon.scheduler import serve_forever

    service = open_service(args, forum=True)
    cycle = Cycle(service, service.clock)
    with Console(stderr=True).status("catching up with the forum…") as status:
        service.progress = lambda message: status.update(f"catching up: {message}")
        result = cycle.run()  # the first catch-up of a long thread can take a while
    service.progress = lambda message: None
    for error in result.errors:
        print(f"warning: {error}")
    if args.once:
        print(f"events: {result.events}, sent: {result.sent}; log: {service.config.daemon.log}")
        return 1 if result.errors else 0
    print(f"shenshi: {service.config.game.name} ({service.config.daemon.mode}); log: {service.config.daemon.log}")
    serve_forever(cycle, lambda seconds: time.sleep(seconds) or False)
    return 0
