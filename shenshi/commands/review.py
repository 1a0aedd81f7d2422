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
    from shenshi.daemon.drylog import where_to
    from shenshi.daemon.gm_text import STATES
    from shenshi.store.outbox import AnnouncementState

    service = open_service(args)
    tz = service.config.forum.tz
    states = None if args.all else [AnnouncementState.PROPOSED, AnnouncementState.APPROVED, AnnouncementState.FAILED]
    with service.store.snapshot() as uow:
        items = uow.outbox.announcements(service.game_id, states)
    if not items:
        print("没有待审的公告或私信")
    for a in items:
        where = where_to(a.destination_kind.value == "thread", a.destination)
        state = STATES.get(a.state.value, a.state.value)
        print(f"#{a.id} [{state}] {kind_words(service.templates, a.kind, a.key)} → {where}（{fmt_time(a.created_at, tz)}）")
        for line in a.text.splitlines():
            print(f"    {line}")
        if a.last_error:
            print(f"    论坛的原因：{a.last_error}")
        print()
    if items:
        print(f"下一步：{review_footer(service.config.daemon.mode, items)}")
    return 0


def review_footer(mode: str, items: list) -> str:  # type: ignore[type-arg]
    """What to do with the listed announcements: only those still waiting for the GM are
    named (``review --all`` lists sent ones too), as the mode wants."""
    from shenshi.daemon.hints import drop_hint, pending_advice

    advice = pending_advice(mode, [(a.id, a.state.value, a.destination_kind.value != "thread") for a in items])
    return advice.text() + (f"；不要的：{drop_hint().text()}" if advice.hints else "")
