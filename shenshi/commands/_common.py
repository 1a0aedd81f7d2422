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
    """The started game service of ``--config`` (offline unless ``forum``), on the rehearsal
    clock when the configuration names one. A forum that cannot be reached or refuses the
    password is one line naming the option, never a traceback."""
    from shenshi.adapters.errors import ForumError
    from shenshi.bootstrap import bootstrap, config_from_args
    from shenshi.daemon.forum_problems import explain

    config = config_from_args(args.config)
    service = bootstrap(config, forum=forum, clock=rehearsal_clock(config, args))
    if service.adapter is not None:
        try:
            service.adapter.login()
        except ForumError as exc:
            service.close()
            raise UserError(explain(config, exc)) from None
    service.start()
    return service


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
                raise UserError(f"「{part}」不是编号：请写数字或范围，如 3 5-9（编号见 shenshi status / review）")
            first, last = int(m.group(1)), int(m.group(2) or m.group(1))
            if last < first:
                raise UserError(f"范围 {part} 是倒着的：请写 {last}-{first}")
            if last - first >= MAX_RANGE:
                raise UserError(f"范围 {part} 有 {last - first + 1} 个编号（最多 {MAX_RANGE}）：检查是否打错")
            out += range(first, last + 1)
    return list(dict.fromkeys(out))


def id_ranges(ids: Iterable[int]) -> str:
    """``[3, 4, 5, 9]`` → ``3-5 9``: ids as the commands take them (the inverse of :func:`ids_of`)."""
    runs: list[list[int]] = []
    for i in sorted(set(ids)):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return " ".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)


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
    if action == "approve":
        parser.add_argument("--late", action="store_true",
                            help="approve a post of an earlier step too (refused otherwise)")  # fmt: skip
    parser.set_defaults(func=lambda args: _outbox_action(args, action))
    return parser


def _outbox_action(args: argparse.Namespace, action: str) -> int:
    """Apply ``action`` to every id; an id that cannot take it is reported and the others
    still go through (exit 2 if any could not)."""
    from shenshi.daemon.announce import kind_words
    from shenshi.daemon.gm_text import STATES
    from shenshi.daemon.publisher import retry_note
    from shenshi.store.errors import IllegalTransition

    service = open_service(args)
    done, refused = [], []
    for ident in ids_of(args.ids):
        try:
            with service.store.transaction() as uow:
                item = outbox_item(service, uow, ident)
                if action == "approve" and item.state.value == "proposed" and not getattr(args, "late", False):
                    check_current(service, item)
                a = getattr(uow.outbox, action)(ident)
        except (UserError, IllegalTransition) as exc:
            refused.append((refused_words(service, ident, action, exc), ident))
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
        print("注意：现在是演练模式（dry-run），批准的内容不会发送。请手动发帖/发私信（会被自动认出），"
              "或发出后 shenshi published ID；要让守护进程发送，把 [daemon] mode 改为 review 并重启 shenshi run。")  # fmt: skip
    elif action == "approve" and done:
        print("守护进程（shenshi run）会在下次轮询时按论坛的发帖间隔发送；shenshi status 查看")
    for reason, ids in _grouped(refused):
        print(f"shenshi: error: #{id_ranges(ids)}：{reason}", file=sys.stderr)
    return 2 if refused else 0


def _grouped(refused: list[tuple[str, int]]) -> list[tuple[str, list[int]]]:
    """Refusals with the same reason on one line (``approve 3-43`` is not 30 lines)."""
    groups: dict[str, list[int]] = {}
    for reason, ident in refused:
        groups.setdefault(reason, []).append(ident)
    return list(groups.items())


_STEP = re.compile(r":(night|day)(\d+)(?:\.r\d+)?:")


def check_current(service: GameService, a) -> None:  # type: ignore[no-untyped-def]
    """Refuse a post of an earlier step that was never published (a 投票帖开放 notice of day 1
    during night 2): approving a range should not post it late. ``approve --late`` sends it."""
    from shenshi.daemon.gm_text import step_name
    from shenshi.rulesets.base import Phase

    found = _STEP.search(a.key)
    if found is None or a.destination_kind.value != "thread":
        return
    state = service.referee.state
    day_first = service.ruleset.first_phase is Phase.DAY
    order = {Phase.NIGHT: int(day_first), Phase.DAWN: int(day_first),
             Phase.DAY: int(not day_first), Phase.DUSK: int(not day_first)}  # fmt: skip
    phase = Phase.NIGHT if found.group(1) == "night" else Phase.DAY
    over = state.phase is Phase.OVER and not a.key.endswith(":public")  # only the result still
    if over:
        raise UserError(f"游戏已经结束，这条{step_name(phase, int(found.group(2)))}的帖子已过时："
                        f"不发就 shenshi reject {a.id}；一定要发：shenshi approve {a.id} --late")  # fmt: skip
    if state.phase not in order:
        return
    if (int(found.group(2)), order[phase]) < (state.number, order[state.phase]):
        raise UserError(
            f"这是{step_name(phase, int(found.group(2)))}的帖子，现在已是"
            f"{step_name(state.phase, state.number)}，已过时：不发就 shenshi reject {a.id}；"
            f"一定要发：shenshi approve {a.id} --late"
        )


def outbox_item(service: GameService, uow, ident: int):  # type: ignore[no-untyped-def]
    """Announcement ``ident`` of this game, or a :class:`UserError` saying where to find ids."""
    from shenshi.store.errors import NotFound

    try:
        a = uow.outbox.get(ident)
    except NotFound:
        a = None
    if a is None or a.game_id != service.game_id:
        raise UserError("没有这条公告/私信（shenshi review 列出待审的，shenshi review --all 列出全部）")
    return a


def refused_words(service: GameService, ident: int, action: str, exc: Exception) -> str:
    """Why ``action`` did not apply to announcement ``ident``, in the GM's words."""
    from shenshi.daemon.gm_text import outbox_refusal
    from shenshi.store.errors import IllegalTransition

    if not isinstance(exc, IllegalTransition):
        return str(exc)
    with service.store.snapshot() as uow:
        state = uow.outbox.get(ident).state.value
    return outbox_refusal(action, state)


# -- what the GM types: names and actions ------------------------------------------------------

SPACES = " \t\u3000\u00a0"  # a trailing full-width space is as easy to type as an ASCII one


def seat_name(service: GameService, written: str, what: str = "玩家") -> str:
    """The player of this game ``written`` means, as the GM types it: surrounding spaces
    (full-width too) and ``@`` dropped, full-width letters, case and traditional characters
    folded, nicknames known (intake's name resolution). A name that fits nobody, or several,
    is refused with the close names and the list of players."""
    from shenshi.intake.names import NameIndex

    names = [s.name for s in service.referee.state.seats]
    nicknames = {alias: name for name, aliases in service.config.game.nicknames.items()
                 for alias in aliases}  # fmt: skip
    index = NameIndex(names, nicknames)
    token = written.strip(SPACES).lstrip("@").strip(SPACES)
    if token in names:
        return token
    found = index.resolve(token) if token else None
    if found is not None and found.player:
        return found.player
    if found is not None and found.ambiguous:
        raise UserError(f"{what}「{written}」可指 {'、'.join(found.ambiguous)}：请写全名；没有改动")
    with service.store.snapshot() as uow:
        seats = {p.name: p.seat for p in uow.games.players(service.game_id)}
        left = [p for p in uow.games.players(service.game_id, current_only=False)
                if p.left_at is not None and p.name == token]  # fmt: skip
    now_at = next((name for name, seat in seats.items() if left and seat == left[0].seat), None)
    if now_at:
        raise UserError(f"{what}「{written}」的座位已由 {now_at} 接替：请写 {now_at}；没有改动")
    close = index.suggest(token) if token else ()
    near = f"（相近：{'、'.join(close)}）" if close else ""
    raise UserError(f"{what}「{written}」不是本局玩家{near}；本局玩家：{'、'.join(names)}；没有改动")


def action_id(service: GameService, written: str) -> str:
    """The action id ``written`` means: an id (``kill``) or its Chinese word (``杀``); one this
    ruleset does not have is refused with the list of its actions."""
    from shenshi.intake.text import fold

    info = service.ruleset.info
    actions = sorted({p for role in info.roles.values() for p in role.powers})
    token = fold(written.strip(SPACES))
    from shenshi.rulesets.catalog import ACTION_NAMES

    for action in actions:
        if token in {fold(action), fold(info.action_name(action)), fold(ACTION_NAMES.get(action, action))}:
            return action
    listed = "、".join(f"{info.action_name(a)}（{a}）" for a in actions)
    raise UserError(f"「{written}」不是本局的行动；可用：{listed}；没有改动")


def restart_note(service: GameService) -> str:
    """A reminder when a daemon (``shenshi run``) holds the game: it reads a correction only
    when it starts, so it must be restarted ('' when no daemon runs the game)."""
    from shenshi.daemon.lease import gone

    with service.store.snapshot() as uow:
        lease = uow.leases.holder(service.game_id)
    if lease is None or lease.expires_at <= service.clock() or gone(lease.owner):
        return ""
    return ("注意：守护进程（shenshi run）正在运行，它要重启后才会读到这次更正："
            "在它的终端按 Ctrl-C，再运行 shenshi run")  # fmt: skip
