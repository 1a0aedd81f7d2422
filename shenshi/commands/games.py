"""``shenshi games``: every game configured (``--config``…, ``--games DIR``), one line each: its
step, its next deadline on the forum's clock, its mode, and when the daemon last polled it.

A game the database does not hold yet (``shenshi run`` or ``shenshi deal`` creates it) says so.
Other commands work on one of these games: ``--game NAME``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from shenshi.commands import add_config_option

if TYPE_CHECKING:
    from shenshi.config import Config

NAME = "games"
HELP = "列出各局游戏：阶段、下一个截止时间、模式、上次读论坛的时间"
# What ``shenshi games --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi games：配置的每一局（--config…、--games 文件夹）一行：阶段、论坛时间的下一个截止时间、模式、守护进程上次读它的时间。数据库里还没有的局（shenshi run 或 shenshi deal 会创建）会说明。其他命令处理其中一局：--game 局名。'
ORDER = 15


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi games``."""
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Print one line per game (a table on a terminal's width)."""
    from shenshi.commands._common import configs_of
    from shenshi.commands._layout import table, terminal_width

    rows = [_row(config, args) for config in configs_of(args)]
    header = ("游戏", "进度", "下一个截止", "模式", "上次轮询", "配置")
    print("\n".join(table(header, rows, terminal_width(), [])))
    return 0


def _row(config: Config, args: argparse.Namespace) -> tuple[str, ...]:
    from shenshi.bootstrap import open_database
    from shenshi.commands._common import fmt_time, open_game
    from shenshi.daemon import gm_text
    from shenshi.daemon.status import build_status

    tz = config.forum.tz
    mode = gm_text.MODE.get(config.daemon.mode, config.daemon.mode)
    where = config.path.name if config.path is not None else "—"
    store = open_database(config)
    try:
        with store.snapshot() as uow:
            known = uow.games.find(config.game.name) is not None
    finally:
        store.close()
    if not known:
        return (config.game.name, "尚未开始（shenshi run 或 shenshi deal 建立）", "—", mode, "—", where)
    service = open_game(config, args)
    try:
        status = build_status(service)
    finally:
        service.close()
    step = f"游戏结束：{status.winner_name}" if status.winner else status.step
    deadline = f"{status.deadline.label} {fmt_time(status.deadline.at, tz)}" if status.deadline else "—"
    last = fmt_time(status.health.last_poll, tz) + ("" if status.health.ok else "（过久）")
    return (config.game.name, step, deadline, mode, last, where)
