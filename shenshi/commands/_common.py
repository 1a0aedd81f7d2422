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
