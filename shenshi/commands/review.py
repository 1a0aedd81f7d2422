"""``shenshi review [ID…]``: the announcements waiting for the GM (or those named by id and
range, whatever their state), with their ids."""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option
from shenshi.commands._common import add_ids_argument

NAME = "review"
HELP = "列出待审的公告/私信（再按编号批准、放弃或修改）"
# What ``shenshi review --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi review：等天神处理的公告和私信，带编号。'
ORDER = 30


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    add_ids_argument(parser, required=False)
    parser.add_argument("--all", action="store_true", help="所有公告/私信，不论状态")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.commands._common import fmt_time, ids_of, open_service
    from shenshi.daemon.announce import kind_words
    from shenshi.daemon.drylog import where_to
    from shenshi.daemon.gm_commands import confirm_words
    from shenshi.daemon.gm_text import GM_ONLY, STATES, gm_notes
    from shenshi.store.announcements import original_key
    from shenshi.store.outbox import AnnouncementState

    WAITING = (AnnouncementState.PROPOSED, AnnouncementState.APPROVED, AnnouncementState.FAILED)  # noqa: N806

    service = open_service(args)
    tz = service.config.forum.tz
    wanted = ids_of(args.ids)  # ids given: those, whatever their state
    states = None if args.all or wanted else [AnnouncementState.UNCONFIRMED, *WAITING]
    with service.store.snapshot() as uow:
        items = uow.outbox.announcements(service.game_id, states)
        if wanted:
            items = [a for a in items if a.id in wanted]
        replaced = {a.id: uow.outbox.replaced_by(a.id) for a in items if a.state is AnnouncementState.SUPERSEDED}
    if not items:
        print(f"没有编号为 {' '.join(args.ids)} 的公告或私信" if wanted else "没有待审的公告或私信")
    for a in items:
        where = where_to(a.destination_kind.value == "thread", a.destination)
        state = STATES.get(a.state.value, a.state.value)
        what = kind_words(service.templates, a.kind, original_key(a.key))
        print(f"#{a.id} [{state}] {what} → {where}（{fmt_time(a.created_at, tz)}）")
        for line in a.text.splitlines():
            print(f"    {line}")
        if notes := gm_notes(a):  # apart from the text, so that copying the text leaves them out
            print(f"    {GM_ONLY}")
            for line in notes:
                print(f"    （只给你看）{line}")
        if a.state is AnnouncementState.SUPERSEDED:
            now = replaced.get(a.id)
            instead = f"已被 #{now.id} 取代" if now is not None else "已撤回"
            print(f"    {instead}：{a.superseded_because or '局面变化'}；不会发送")
        if a.state is AnnouncementState.UNCONFIRMED:
            print(f"    要你确认（确认之前不会发出）：{confirm_words(service, a)}")
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
