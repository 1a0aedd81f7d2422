"""``shenshi review``: the announcements waiting for the GM, with their ids."""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "review"
HELP = "list proposed announcements (approve, reject or edit them by id)"
ORDER = 30


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument("--all", action="store_true", help="every announcement, whatever its state")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.commands._common import fmt_time, open_service
    from shenshi.daemon.announce import kind_words
    from shenshi.store.outbox import AnnouncementState

    service = open_service(args)
    tz = service.config.forum.tz
    states = None if args.all else [AnnouncementState.PROPOSED, AnnouncementState.APPROVED, AnnouncementState.FAILED]
    with service.store.snapshot() as uow:
        items = uow.outbox.announcements(service.game_id, states)
    if not items:
        print("nothing waiting for review")
    for a in items:
        where = f"thread {a.destination}" if a.destination_kind.value == "thread" else f"PM to {a.destination}"
        what = kind_words(service.templates, a.kind, a.key)
        print(f"#{a.id} [{a.state.value}] {what} → {where} ({fmt_time(a.created_at, tz)})")
        for line in a.text.splitlines():
            print(f"    {line}")
        if a.last_error:
            print(f"    last error: {a.last_error}")
        print()
    return 0
