"""``shenshi published ID… [--at TIME]``: you posted these announcements by hand (dry-run).

The daemon recognises your own posts in the game threads, and the PMs you sent (from your
outbox); this records the rest (a text you changed, a post it missed). Windows and deaths run
from the publication time, so ``--at`` says when you posted (the forum's clock; default: now).
A time in the future, or before the announcement was proposed, is refused; so is ``--at`` on
an announcement that is already out. Without ``--at``, one that is out already (the daemon
recognised your post or PM) is only said so.
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "published"
HELP = "record that you published announcements by hand (ids and ranges: 3 5-9)"
ORDER = 34


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi published ID… [--at TIME]``."""
    from shenshi.commands._common import add_ids_argument

    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    add_ids_argument(parser)
    parser.add_argument(
        "--at",
        metavar="TIME",
        help="when you posted it (forum clock, e.g. 2026-12-02T20:15; default: now)",
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Mark each announcement published; refuse the ones that cannot be (exit 2 if any). One
    that is out already (the daemon recognised your post or PM) is said so and left as it is;
    with ``--at`` that is refused, since the time cannot be changed any more."""
    import sys

    from shenshi.commands._common import (
        fmt_time,
        gm_log,
        ids_of,
        open_service,
        outbox_item,
        parse_when,
    )  # fmt: skip
    from shenshi.daemon.announce import kind_words
    from shenshi.errors import UserError
    from shenshi.store.errors import StoreError

    service = open_service(args)
    tz = service.config.forum.tz
    now = service.clock()
    when = parse_when(args.at, tz) or now
    if when > now:
        raise UserError(
            f"--at {fmt_time(when, tz)} 在未来（现在是 {fmt_time(now, tz)}）：请给出你发帖的时间"
        )
    done, already, refused = [], [], []
    for ident in ids_of(args.ids):
        try:
            with service.store.transaction() as uow:
                a = outbox_item(service, uow, ident)
                out = _already_out(a, tz)
                if out is not None:
                    reason = f"{out}：时间不能再改，没有改动" if args.at else None
                elif (reason := _refusal(a, when, tz)) is None:
                    a = uow.outbox.mark_published(ident, when)
        except (UserError, StoreError) as exc:
            out, reason = None, str(exc)
        if reason:
            refused.append(f"#{ident}：{reason}")
        elif out is not None:
            already.append(f"#{ident} {out}，无需再记（{kind_words(service.templates, a.kind, a.key)}）")
        else:
            service.referee.pending_public.pop(a.key, None)
            done.append(a)
    for a in done:
        print(f"#{a.id} 已记为发布于 {fmt_time(a.published_at, tz)}（{kind_words(service.templates, a.kind, a.key)}）")
    for line in already:
        print(line)
    if done:
        gm_log(
            service,
            "published",
            " ".join(f"#{a.id}" for a in done) + f" 发布于 {fmt_time(when, tz)}",
        )
        print("下一阶段从发布时间算起；shenshi run 会继续推进（shenshi status 查看）")
    for line in refused:
        print(f"shenshi: error: {line}", file=sys.stderr)
    return 2 if refused else 0


def _already_out(a, tz) -> str | None:  # type: ignore[no-untyped-def]
    """How ``a`` is out already (recognised or recorded, or sent), or ``None``."""
    from shenshi.commands._common import fmt_time

    if a.published_at is not None:
        return f"已在 {fmt_time(a.published_at, tz)} 记为发布"
    if a.sent_at is not None:
        return f"守护进程已在 {fmt_time(a.sent_at, tz)} 发出"
    return None


def _refusal(a, when, tz) -> str | None:  # type: ignore[no-untyped-def]
    """Why ``a`` cannot be marked published at ``when`` (``None``: it can)."""
    from shenshi.commands._common import fmt_time

    if a.state.value == "rejected":
        return "已放弃（shenshi reject），不能记为发布"
    if a.state.value == "sending":
        return "正在发送中：等守护进程确认，或查看论坛"
    if when < a.created_at:
        return f"它在 {fmt_time(a.created_at, tz)} 才提出，不可能更早发布：检查 --at"
    return None
