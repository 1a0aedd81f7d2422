"""Helpers shared by the daemon's sub-commands (not a command itself): opening the game,
announcement and alert ids (``3 5-9``), times given with ``--at``, and the GM's commands in
the dry-run log."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from shenshi.errors import UserError

if TYPE_CHECKING:
    from shenshi.config import Config
    from shenshi.daemon.referee import Effects
    from shenshi.daemon.service import GameService
    from shenshi.rehearsal import RehearsalClock

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
        raise UserError("--clock-factor is for rehearsals on the sandbox (a 127.0.0.1 forum): "
                        "a real forum keeps real time")  # fmt: skip
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
        raise UserError(f"the clock file {path} runs {clock.factor:g}× (the sandbox's), not "
                        f"{factor:g}×: give --clock-factor {clock.factor:g}, or leave it out")  # fmt: skip
    return clock


def add_ids_argument(parser: argparse.ArgumentParser, *, required: bool = True) -> None:
    """``ID…``: numbers and ranges (``3 5-9``, ``#12``)."""
    parser.add_argument("ids", nargs="+" if required else "*", metavar="ID",
                        help="ids and ranges, e.g. 3 5-9")  # fmt: skip


def ids_of(values: Iterable[str]) -> list[int]:
    """``["3", "5-9", "#12"]`` → ``[3, 5, 6, 7, 8, 9, 12]`` (in the order given, once each)."""
    out: list[int] = []
    for value in values:
        for part in filter(None, re.split(r"[,，\s]+", value)):
            m = _RANGE.fullmatch(part)
            if m is None:
                raise UserError(f'expected an id or a range like 5-9, got "{part}"')
            first, last = int(m.group(1)), int(m.group(2) or m.group(1))
            if last < first:
                raise UserError(f"the range {part} goes backwards: write {last}-{first}")
            if last - first >= MAX_RANGE:
                raise UserError(
                    f"the range {part} holds {last - first + 1} ids (at most {MAX_RANGE})"
                )
            out += range(first, last + 1)
    return list(dict.fromkeys(out))


def parse_when(text: str | None, tz: tzinfo) -> datetime | None:
    """``--at TIME``: an ISO time on the forum's clock (or with its own offset)."""
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text.strip().replace("/", "-"))
    except ValueError:
        raise UserError(
            f'--at: expected an ISO time like "2026-12-02T20:15", got "{text}"'
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=tz)


def fmt_time(t: datetime | None, tz: tzinfo) -> str:
    """A time on the forum's clock, for people."""
    return t.astimezone(tz).strftime("%Y-%m-%d %H:%M") if t else "—"


def gm_log(service: GameService, command: str, text: str) -> None:
    """Record a GM command and what it did in the dry-run log."""
    service.drylog.gm(service.clock(), command, text)


def proposed_ids(service: GameService, outcome: Effects) -> str:
    """The ids of the announcements an outcome proposed (``#12 #13``)."""
    with service.store.snapshot() as uow:
        found = [uow.outbox.by_key(service.game_id, d.key) for d in outcome.drafts]
    return " ".join(f"#{a.id}" for a in found if a is not None)


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
    parser.set_defaults(func=lambda args: _outbox_action(args, action))
    return parser


def _outbox_action(args: argparse.Namespace, action: str) -> int:
    """Apply ``action`` to every id; an id that cannot take it is reported and the others
    still go through (exit 2 if any could not)."""
    from shenshi.daemon.announce import kind_words
    from shenshi.daemon.gm_text import STATES
    from shenshi.daemon.publisher import retry_note
    from shenshi.store.errors import StoreError

    service = open_service(args)
    done, refused = [], []
    for ident in ids_of(args.ids):
        try:
            with service.store.transaction() as uow:
                a = getattr(uow.outbox, action)(ident)
        except StoreError as exc:
            refused.append(f"#{ident}：{exc}")
            continue
        done.append(a)
    for a in done:
        print(f"#{a.id} {STATES.get(a.state.value, a.state.value)}（{kind_words(service.templates, a.kind, a.key)}）")
        if action == "approve" and a.last_error and (note := retry_note(a, service.config.forum.tz)):
            print(f"  上次发送失败（{a.last_error}）：{note}")
    if done:
        gm_log(
            service,
            action,
            " ".join(f"#{a.id}" for a in done) + f" {STATES.get(done[0].state.value, '')}",
        )
    if action == "approve" and done and service.config.daemon.mode == "dry-run":
        print("注意：现在是演练模式（dry-run），批准的内容不会发送。请手动发帖/发私信，"
              "然后 shenshi published ID；或在配置里把 [daemon] mode 改为 review。")  # fmt: skip
    elif action == "approve" and done:
        print("守护进程（shenshi run）会在下次轮询时按论坛的发帖间隔发送；shenshi status 查看")
    for line in refused:
        print(f"shenshi: error: {line}", file=sys.stderr)
    return 2 if refused else 0
