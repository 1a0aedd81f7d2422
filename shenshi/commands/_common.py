"""Helpers shared by the daemon's sub-commands (not a command itself): opening the game,
announcement and alert ids (``3 5-9``), times given with ``--at``, and the GM's commands in
the dry-run log."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from shenshi.errors import ERROR_PREFIX, UserError

if TYPE_CHECKING:
    from pathlib import Path

    from shenshi.config import Config
    from shenshi.daemon.gm_commands import Said
    from shenshi.daemon.service import GameService
    from shenshi.rehearsal import RehearsalClock

# The GM's commands' helpers live with the operations (shenshi.daemon.gm_commands, shared with
# the console); the commands import them from here, loaded when first used.
_SHARED = ("check_current", "fmt_time", "gm_log", "id_ranges", "parse_when", "proposed_ids")


def __getattr__(name: str) -> object:
    if name in _SHARED:
        from shenshi.daemon import gm_commands

        return getattr(gm_commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_RANGE = re.compile(r"#?(\d+)(?:\s*[-–~]\s*#?(\d+))?")
MAX_RANGE = 500  # ids in one range: a typo such as 3-90000 is refused


def open_service(args: argparse.Namespace, *, forum: bool = False) -> GameService:
    """The started game service of ``--config`` (``--game NAME`` of several; offline unless
    ``forum``), on the rehearsal clock when the configuration names one. A forum that cannot
    be reached or refuses the password is one line naming the option, never a traceback."""
    return open_game(config_of(args), args, forum=forum)


def open_game(config: Config, args: argparse.Namespace, *, forum: bool = False) -> GameService:
    """The started game service of one configuration (see :func:`open_service`)."""
    from shenshi.adapters.errors import ForumError
    from shenshi.bootstrap import bootstrap
    from shenshi.daemon.forum_problems import explain

    service = bootstrap(config, forum=forum, clock=rehearsal_clock(config, args))
    if service.adapter is not None:
        try:
            service.adapter.login()
        except ForumError as exc:
            service.close()
            raise UserError(explain(config, exc)) from None
    service.start()
    return service


def configs_of(args: argparse.Namespace) -> list[Config]:
    """Every game configuration the command line names (``--config``…, ``--games DIR``)."""
    from shenshi.games import game_configs

    return game_configs(getattr(args, "configs", None) or (), getattr(args, "games", None))


def config_of(args: argparse.Namespace) -> Config:
    """The one game the command works on: ``--game NAME``, or the only one configured."""
    from shenshi.games import pick_game

    return pick_game(configs_of(args), getattr(args, "game", None))


def rehearsal_clock(
    config: Config, args: argparse.Namespace | None = None
) -> RehearsalClock | None:
    """The clock of a rehearsal, or ``None`` for the real one: ``--clock-factor X`` (``shenshi
    run``) joins the clock file the sandbox wrote, or starts one; ``[daemon] clock_file`` (or
    ``--clock-file``) reads it."""
    from pathlib import Path
    from urllib.parse import urlsplit

    from shenshi.rehearsal import DEFAULT_FILE, RehearsalClock

    path = getattr(args, "clock_file", None) or config.daemon.clock_file
    factor = getattr(args, "clock_factor", None)
    if factor is None:
        return RehearsalClock.open(path) if path else None
    if urlsplit(config.forum.base_url).hostname not in ("127.0.0.1", "localhost", "::1"):
        raise UserError("--clock-factor 只用于在沙盒论坛（127.0.0.1）上演练：真实论坛的时间不能加速")
    path = Path(path or (config.path.parent if config.path else Path()) / DEFAULT_FILE)
    if not path.exists():
        clock = RehearsalClock.start(path, factor)
        if not config.daemon.clock_file:
            print(
                f'{clock.describe()}；其他命令要用同一时钟，请在 [daemon] 加上 clock_file = "{path}"'
            )
        return clock
    clock = RehearsalClock.open(path)
    if clock.factor != factor:
        raise UserError(f"时钟文件 {path} 按 {clock.factor:g} 倍速走（沙盒的速度），不是 {factor:g} 倍："
                        f"请写 --clock-factor {clock.factor:g}，或者不写")  # fmt: skip
    return clock


def add_ids_argument(parser: argparse.ArgumentParser, *, required: bool = True) -> None:
    """``ID…``: numbers and ranges (``3 5-9``, ``#12``)."""
    parser.add_argument("ids", nargs="+" if required else "*", metavar="编号",
                        help="编号或范围，如 3 5-9")  # fmt: skip


def ids_of(values: Iterable[str]) -> list[int]:
    """``["3", "5-9", "#12"]`` → ``[3, 5, 6, 7, 8, 9, 12]`` (in the order given, once each)."""
    out: list[int] = []
    for value in values:
        for part in filter(None, re.split(r"[,，\s]+", value)):
            m = _RANGE.fullmatch(part)
            if m is None:
                raise UserError(f"「{part}」不是编号：请写数字或范围，如 3 5-9（编号见 shenshi status / review）")
            first, last = int(m.group(1)), int(m.group(2) or m.group(1))
            if last < first:
                raise UserError(f"范围 {part} 是倒着的：请写 {last}-{first}")
            if last - first >= MAX_RANGE:
                raise UserError(f"范围 {part} 有 {last - first + 1} 个编号（最多 {MAX_RANGE}）：检查是否打错")
            out += range(first, last + 1)
    return list(dict.fromkeys(out))


def register_outbox_action(
    subparsers: argparse._SubParsersAction,
    module_name: str,
    help_text: str,
    doc: str | None,
    action: str,
) -> argparse.ArgumentParser:
    """A command that applies one outbox action (``approve``, ``reject``) to announcement ids."""
    from shenshi.commands import add_config_option

    parser = subparsers.add_parser(module_name, help=help_text, description=doc)
    add_config_option(parser)
    add_ids_argument(parser)
    if action == "approve":
        parser.add_argument("--late", action="store_true",
                            help="前一阶段的帖子也批准（迟发；不加时会被拒绝）")  # fmt: skip
    if action == "reject":
        parser.add_argument("--undo", action="store_true",
                            help="撤销放弃：这些公告/私信回到待审")  # fmt: skip
    parser.set_defaults(func=lambda args: _outbox_action(args, "restore" if getattr(args, "undo", False) else action))
    return parser


def _outbox_action(args: argparse.Namespace, action: str) -> int:
    """Apply ``action`` to every id; an id that cannot take it is reported and the others
    still go through (exit 2 if any could not)."""
    from shenshi.daemon.gm_commands import id_ranges, outbox_action

    late = getattr(args, "late", False)
    said = outbox_action(open_service(args), action, ids_of(args.ids), late=late)
    code = print_said(said)
    if action == "reject" and said.ids:
        print(f"放错了可以撤销：shenshi reject --undo {id_ranges(said.ids)}")
    return code


def print_said(said: Said) -> int:
    """Print what a GM command did (refusals on stderr); exit 2 if it refused any id."""
    for line in said.lines:
        print(line)
    for line in said.cli:  # the next steps as commands (the console shows buttons)
        print(line)
    for line in said.refused:
        print(f"{ERROR_PREFIX}{line}", file=sys.stderr)
    return 2 if said.refused else 0


def text_of_file(path: Path, nothing_done: str = "没有改动") -> str:
    """The text of ``--file`` (UTF-8); a file that cannot be read is refused in the CLI's words
    (``nothing_done``: what the refusal ends with)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"--file {path}：读不了（{exc.__class__.__name__}）；{nothing_done}") from None

