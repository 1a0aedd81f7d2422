"""``shenshi run``: the daemon. Polls the forum, runs the phase clock, proposes announcements.

It starts even when the forum cannot be reached: each cycle tries again, backed off, and tells
the GM (``--once`` says so in one line). Ctrl-C or SIGTERM stop it at once, after the current
write to the database; it says so and exits 0.
"""

from __future__ import annotations

import argparse
from pathlib import Path

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
    parser.add_argument(
        "--clock-factor", type=float, default=None, metavar="X",
        help="rehearsal on the sandbox: the forum's clock runs X times faster (shared through the "
             "clock file, [daemon] clock_file, default ./rehearsal-clock.json)",
    )  # fmt: skip
    parser.add_argument("--clock-file", type=Path, default=None, metavar="PATH",
                        help="rehearsal: read the forum's time from this clock file")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.logs import command_logging

    with command_logging(args.verbose):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from shenshi.bootstrap import bootstrap, config_from_args
    from shenshi.commands._common import rehearsal_clock
    from shenshi.daemon.stopping import Stopped, StopSignal

    config = config_from_args(args.config)
    service = bootstrap(config, clock=rehearsal_clock(config, args))  # the first cycle logs in
    try:
        with StopSignal(service.store) as stop:
            try:
                service.start()
                return _cycles(args, service, stop)
            except Stopped as exc:
                print(f"shenshi: stopped ({exc.signal_name}); everything read so far is kept")
                return 0
    finally:
        service.close()


def _cycles(args: argparse.Namespace, service, stop) -> int:
    from rich.console import Console

    from shenshi.daemon.cycle import Cycle
    from shenshi.daemon.forum_problems import explain
    from shenshi.daemon.lease import RENEW_EVERY
    from shenshi.daemon.scheduler import serve_forever
    from shenshi.errors import UserError

    cycle = Cycle(service, service.clock, forum_warnings=not args.once)
    with Console(stderr=True).status("catching up with the forum…") as status:
        service.progress = lambda message: status.update(f"catching up: {message}")
        result = cycle.run()  # the first catch-up of a long thread can take a while
    service.progress = lambda message: None
    name, log = service.config.game.name, service.config.daemon.log
    if result.forum_error is not None and args.once:
        raise UserError(explain(service.config, result.forum_error))  # one line, no traceback
    if result.held_by:
        print(f"shenshi: {name} is run by another daemon ({result.held_by}); leaving it alone")
    elif result.forum_error is not None:
        print(f"shenshi: {explain(service.config, result.forum_error)}; trying again, backed off")
    else:
        for error in result.errors:
            print(f"warning: {error}")
    if args.once:
        if not result.held_by:
            print(f"events: {result.events}, sent: {result.sent}; log: {log}")
        return 1 if result.errors or result.held_by else 0
    print(f"shenshi: {name} ({service.config.daemon.mode}); log: {log}; Ctrl-C stops")
    every = RENEW_EVERY.total_seconds()
    speed = float(getattr(service.clock, "factor", 1.0))  # a rehearsal clock runs faster
    serve_forever(cycle, lambda seconds: stop.wait(seconds, every=every, between=service.lease.keep), speed)
    return 0
