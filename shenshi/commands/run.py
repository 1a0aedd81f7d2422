"""``shenshi run``: the daemon. Polls the forum, runs the phase clock, proposes announcements.

It starts even when the forum cannot be reached: each cycle tries again, backed off, and tells
the GM (``--once`` says so in one line). Ctrl-C or SIGTERM stop it at once, after the current
write to the database; it says so and exits 0.

One daemon serves every game named: several ``--config`` files, or ``--games DIR`` (a folder of
game configurations); ``--game NAME`` serves only that one. Each game keeps its own mode,
dry-run log and phase clock; the games on one forum account share its reads (one board read
per board and one inbox read per round).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from shenshi.commands import add_config_option
from shenshi.commands.console import add_address_options

if TYPE_CHECKING:
    from shenshi.daemon.cycle import CycleResult
    from shenshi.daemon.fleet import Fleet
    from shenshi.daemon.service import GameService
    from shenshi.daemon.stopping import StopSignal

# A hook run after every round with each game's result (a console showing the daemon live).
AfterRound = Callable[["Fleet", "dict[str, CycleResult]"], None]

NAME = "run"
HELP = "在论坛旁运行守护进程（默认演练模式：什么都不发）"
# What ``shenshi run --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi run：守护进程。读论坛、按阶段时钟走、提出公告和私信。论坛连不上时也照常启动：每一轮都会重试（间隔逐渐加长），并告诉天神（--once 用一行说明）。Ctrl-C 或 SIGTERM 会在当前这次写数据库完成后立即停下，说明后以退出码 0 退出。一个守护进程管所有写出的局：几个 --config，或 --games 文件夹；--game 局名 只管那一局。每局有自己的模式、演练日志和阶段时钟；同一论坛账号下的几局共用读取（每个版块、每轮收件箱只读一次）。'
ORDER = 10


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    parser.add_argument("--once", action="store_true", help="只跑一轮（读论坛、看时钟、发布）就退出")
    parser.add_argument(
        "-v", "--verbose", action="count", default=0,
        help="也显示所用程序库的日志（httpx、alembic、apscheduler…）；-vv：全部调试日志",
    )
    parser.add_argument(
        "--clock-factor", type=float, default=None, metavar="X",
        help="在沙盒论坛上演练：论坛时钟走快 X 倍（通过时钟文件共享：[daemon] clock_file，"
             "默认 ./rehearsal-clock.json）",
    )  # fmt: skip
    parser.add_argument("--clock-file", type=Path, default=None, metavar="文件",
                        help="演练：从这个时钟文件读论坛时间")
    parser.add_argument("--console", action="store_true",
                        help="同时打开天神控制台（见 shenshi console --help）")  # fmt: skip
    add_address_options(parser, "console-")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.logs import command_logging

    with command_logging(args.verbose):
        return _run(args)


def _run(args: argparse.Namespace, after_round: AfterRound | None = None) -> int:
    """Serve every game named (``--config``…, ``--games DIR``; ``--game NAME``: only that one).

    ``after_round(fleet, results)`` runs after each round (a console watching the daemon)."""
    from shenshi.bootstrap import bootstrap_fleet
    from shenshi.commands._common import configs_of, rehearsal_clock
    from shenshi.commands.console import start_beside_daemon
    from shenshi.daemon.notify import Notices
    from shenshi.daemon.stopping import Stopped, StopSignal
    from shenshi.games import pick_game

    configs = configs_of(args)
    if args.game is not None:
        configs = [pick_game(configs, args.game)]
    fleet = bootstrap_fleet(configs, clock=rehearsal_clock(configs[0], args))  # the first cycle logs in
    try:
        with StopSignal(*fleet.stores) as stop:
            console = None
            try:
                fleet.start()
                console = start_beside_daemon(args, fleet)
                fleet.notices = Notices.for_services(fleet.services, console.url if console else None)
                return _rounds(args, fleet, stop, after_round)
            except Stopped as exc:
                print(f"shenshi：已停止（{exc.signal_name}）；读到的内容都已保存")
                return 0
            finally:
                if console is not None:
                    console.stop()
    finally:
        fleet.close()


def _rounds(args: argparse.Namespace, fleet: Fleet, stop: StopSignal, after_round: AfterRound | None) -> int:
    from rich.console import Console

    from shenshi.daemon.lease import RENEW_EVERY
    from shenshi.daemon.scheduler import serve_forever

    fleet.forum_warnings(not args.once)
    fleet.after_round = after_round
    with Console(stderr=True).status("正在赶上论坛的进度…") as status:
        for service in fleet.services:
            service.progress = lambda message, name=service.config.game.name: status.update(
                f"正在赶上论坛的进度（{name}）：{message}"
            )
        results = fleet.run()  # the first catch-up of a long thread can take a while
    for service in fleet.services:
        service.progress = lambda message: None
    failed = [_report(args, service, results[service.config.game.name]) for service in fleet.services]
    if args.once:
        return 1 if any(failed) else 0
    if len(fleet.services) > 1:
        print(f"shenshi：共 {len(fleet.services)} 局（shenshi games 列出它们）；Ctrl-C 停止")
    clock = fleet.services[0].clock
    every = RENEW_EVERY.total_seconds()
    speed = float(getattr(clock, "factor", 1.0))  # a rehearsal clock runs faster
    serve_forever(fleet, lambda seconds: stop.wait(seconds, every=every, between=fleet.keep), speed)
    return 0


def _report(args: argparse.Namespace, service: GameService, result: CycleResult) -> bool:
    """What the first round did for one game, in a line or two; whether it failed."""
    from shenshi.daemon.forum_problems import explain
    from shenshi.daemon.gm_text import MODE, once_summary
    from shenshi.errors import UserError

    name, log = service.config.game.name, service.config.daemon.log
    if result.forum_error is not None and args.once:
        raise UserError(explain(service.config, result.forum_error))  # one line, no traceback
    if result.held_by:
        print(f"shenshi：《{name}》由另一个守护进程运行（{result.held_by}），本进程不动它")
    elif result.forum_error is not None:
        print(f"shenshi：{explain(service.config, result.forum_error)}；稍后自动重试")
    else:
        for error in result.errors:
            print(f"注意：{error}")
    if args.once:
        if not result.held_by:
            print(f"《{name}》{once_summary(result)}；日志：{log}")
    else:
        mode = MODE.get(service.config.daemon.mode, service.config.daemon.mode)
        print(f"shenshi：《{name}》{mode}；日志：{log}；Ctrl-C 停止")
    return bool(result.errors or result.held_by)
