"""Helpers shared by the daemon's sub-commands (not a command itself)."""

from __future__ import annotations

import argparse
from datetime import datetime

from shenshi.errors import UserError


def open_service(args: argparse.Namespace, *, forum: bool = False):
    """The started game service of ``--config`` (offline unless ``forum``)."""
    from shenshi.bootstrap import bootstrap, config_from_args

    service = bootstrap(config_from_args(args.config), forum=forum)
    if forum:
        service.adapter.login()
    service.start()
    return service


def parse_when(text: str | None, tz) -> datetime | None:
    """``--at TIME``: an ISO time on the forum's clock (or with its own offset)."""
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise UserError(f'--at: expected an ISO time like "2026-12-02T20:15", got "{text}"') from None
    return when if when.tzinfo else when.replace(tzinfo=tz)


def fmt_time(t: datetime | None, tz) -> str:
    """A time on the forum's clock, for people."""
    return t.astimezone(tz).strftime("%Y-%m-%d %H:%M") if t else "—"


def register_outbox_action(
    subparsers: argparse._SubParsersAction, module_name: str, help_text: str, doc: str | None, action: str
) -> argparse.ArgumentParser:
    """A command that applies one outbox action (``approve``, ``reject``) to announcement ids."""
    from shenshi.commands import add_config_option

    parser = subparsers.add_parser(module_name, help=help_text, description=doc)
    add_config_option(parser)
    parser.add_argument("ids", type=int, nargs="+", metavar="ID")
    parser.set_defaults(func=lambda args: _outbox_action(args, action))
    return parser


def _outbox_action(args: argparse.Namespace, action: str) -> int:
    from shenshi.daemon.publisher import retry_note

    service = open_service(args)
    for ident in args.ids:
        with service.store.transaction() as uow:
            a = getattr(uow.outbox, action)(ident)
        note = retry_note(a, service.config.forum.tz) if action == "approve" else ""
        print(f"#{a.id} {a.state.value}" + (f" ({a.last_error}): {note}" if note else ""))
    return 0
