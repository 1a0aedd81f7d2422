"""``shenshi substitute OLD NEW``: a substitute (替补) takes over OLD's seat.

The newcomer inherits the seat exactly as the rules say (role, joint unit, bind chain, pending
actions); what belongs to the person who left (chess warnings, werewolf penalty points) stays
behind. Before anything is stored, the newcomer's forum account is looked up (``--offline``,
or a forum that cannot be reached: it is said that it could not be checked). Where the ruleset
announces substitutions (family A), the announcement is proposed in the outbox.
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "substitute"
HELP = "a substitute (替补) takes over a player's seat"
ORDER = 40


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi substitute OLD NEW [--uid UID] [--offline]``."""
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument("old", metavar="OLD", help="the player who leaves")
    parser.add_argument("new", metavar="NEW", help="the substitute's forum name")
    parser.add_argument(
        "--uid", help="the substitute's forum uid (default: looked up on the forum)"
    )
    parser.add_argument(
        "--offline", action="store_true", help="do not look the account up on the forum"
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Check the account, record the substitution, say what was proposed."""
    from shenshi.commands._common import (
        SPACES,
        gm_log,
        open_service,
        proposed_ids,
        restart_note,
        seat_name,
    )  # fmt: skip
    from shenshi.daemon.gm_text import refusal
    from shenshi.errors import UserError
    from shenshi.rulesets.base import IllegalActionError, SeatTakenOver

    service = open_service(args)
    args.old = seat_name(service, args.old, "离开的玩家")
    args.new = args.new.strip(SPACES)
    if not args.new:
        raise UserError("替补的论坛名字是空的：shenshi substitute OLD NEW")
    uid, note = args.uid, ""
    if uid is None:
        uid, note = _look_up(service, args.new, offline=args.offline)
    try:
        outcome = service.substitute(args.old, args.new, uid)
    except IllegalActionError as exc:
        raise UserError(f"{args.new} 接替 {args.old}：{refusal(str(exc))}；没有改动") from None
    now = any(isinstance(e, SeatTakenOver) for e in outcome.events)
    when = "立即生效" if now else "本阶段结算时生效"
    print(f"{args.new} 接替 {args.old} 的座位，{when}")
    if note:
        print(note)
    if restart := restart_note(service):
        print(restart)
    ids = proposed_ids(service, outcome)
    gm_log(
        service,
        "substitute",
        f"{args.new} 接替 {args.old}（{when}）" + (f"；公告 {ids}" if ids else ""),
    )
    if ids:
        print(f"已提出公告 {ids}：shenshi review 查看")
    return 0


def _look_up(service, name: str, *, offline: bool) -> tuple[str | None, str]:  # type: ignore[no-untyped-def]
    """The newcomer's uid from the forum; a name the forum does not know is refused."""
    from shenshi.adapters.errors import ForumError, NotFound
    from shenshi.bootstrap import make_forum
    from shenshi.daemon.forum_problems import explain
    from shenshi.errors import UserError

    later = "守护进程运行时会再查找他的 uid"
    if offline:
        return None, f"没有检查论坛账号（--offline）；{later}"
    forum = make_forum(service.config)
    try:
        forum.login()
        return forum.lookup_uid(name), ""
    except NotFound:
        raise UserError(f"论坛上没有名为 {name} 的账号：检查拼写，或让他先注册；没有改动") from None
    except ForumError as exc:
        return None, f"无法检查论坛账号：{explain(service.config, exc)}；{later}"
    finally:
        close = getattr(forum, "close", None)
        if close is not None:
            close()
