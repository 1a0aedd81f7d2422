"""``shenshi override``: GM corrections, recorded as events like everything else.

  void ACTOR ACTION       drop a player's submission of this phase (e.g. a mistaken PM)
  execute NAME            execute NAME instead of the tally's result (before or after the close)
  cancel-execution        nobody is executed today
  exit NAME               an automatic exit with no substitute: the seat dies (sign-in, lurking)
  answered SEER [--at T]  the GM answered this seer early: later changes are refused (A-S2)
  penalty NAME POINTS     werewolf: the referee's penalty points (12 points: sent off, 罚下)
  send-off NAME           werewolf: send a character off (罚下) at once
  sheriff NAME            werewolf: hand the sheriff's badge (a late 【殉职】 reply, a default)
  extra-divination NAME   game5/game6: the civilian drawn by lot for the penalty divination
                          (a short kill declaration, RES-A19); his 占卜 PM is answered at once
  ballot VOTER TARGET     VOTER's ballot of the open round is TARGET (or 弃权 where allowed):
                          a ballot intake could not read; it replaces what VOTER cast
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "override"
HELP = "GM corrections: void an action, force or cancel an execution, an exit"
ORDER = 41


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        NAME, help=HELP, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_config_option(parser)
    parser.add_argument(
        "what",
        choices=(
            "void", "execute", "cancel-execution", "exit", "answered", "penalty", "send-off",
            "sheriff", "extra-divination", "ballot",
        ),  # fmt: skip
    )
    parser.add_argument("args", nargs="*", metavar="ARG")
    parser.add_argument("--reason", default="", help="why (kept in the log)")
    parser.add_argument("--at", metavar="TIME", help="answered: when the GM answered")
    parser.set_defaults(func=run)
    return parser


def _command(args: argparse.Namespace, tz):
    from shenshi.commands._common import parse_when
    from shenshi.errors import UserError
    from shenshi.rulesets import base

    need = {
        "void": 2, "execute": 1, "cancel-execution": 0, "exit": 1, "answered": 1,
        "penalty": 2, "send-off": 1, "sheriff": 1, "extra-divination": 1, "ballot": 2,
    }[args.what]  # fmt: skip
    if len(args.args) != need:
        raise UserError(f"override {args.what} takes {need} argument(s), got {len(args.args)}")
    a = args.args
    match args.what:
        case "void":
            return base.VoidAction(a[0], a[1], args.reason)
        case "execute":
            return base.ForceExecution(a[0], args.reason)
        case "cancel-execution":
            return base.ForceExecution(None, args.reason)
        case "exit":
            return base.DeclareExit(a[0], args.reason)
        case "penalty":
            if not a[1].isdigit():
                raise UserError(f"override penalty: POINTS must be a whole number, got {a[1]!r}")
            return base.GmRuling("penalty", a[0], base.frozen_map({"points": int(a[1])}), args.reason)
        case "send-off":
            return base.GmRuling("send_off", a[0], reason=args.reason)
        case "sheriff":
            return base.GmRuling("sheriff", a[0], reason=args.reason)
        case "extra-divination":
            return base.GmRuling("extra_divination", a[0], reason=args.reason)
        case "ballot":
            target = base.ABSTAIN if a[1] in ("弃权", "弃票", "abstain", base.ABSTAIN) else a[1]
            return base.OverrideBallot(a[0], target, args.reason)
    return base.GmAnswered(a[0], parse_when(args.at, tz))


def run(args: argparse.Namespace) -> int:
    """Record the correction; say in the GM's words what it did and what was proposed."""
    from shenshi.commands._common import gm_log, open_service, proposed_ids
    from shenshi.daemon.gm_text import refusal
    from shenshi.errors import UserError
    from shenshi.rulesets.base import IllegalActionError

    service = open_service(args)
    command = _command(args, service.config.forum.tz)
    try:
        outcome = service.gm(command)
    except IllegalActionError as exc:
        raise UserError(f"{_words(args)}：{refusal(str(exc))}；没有改动") from None
    said = _words(args)
    ids = proposed_ids(service, outcome)
    gm_log(service, "override", said + (f"；公告 {ids}" if ids else ""))
    print(f"已记录：{said}")
    if ids:
        print(f"已提出公告 {ids}：shenshi review 查看（演练模式请手动发帖后 shenshi published ID）")
    return 0


def _words(args: argparse.Namespace) -> str:
    """The correction in the GM's words (``作废 老王 的 杀``)."""
    from shenshi.rulesets.catalog import ACTION_NAMES

    a = args.args
    why = f"（理由：{args.reason}）" if args.reason else ""
    said = {
        "void": lambda: f"作废 {a[0]} 本阶段的「{ACTION_NAMES.get(a[1], a[1])}」",
        "execute": lambda: f"今天处决 {a[0]}（代替计票结果）",
        "cancel-execution": lambda: "今天不处决任何人",
        "exit": lambda: f"{a[0]} 自动退出游戏，没有替补（公布时出局）",
        "answered": lambda: f"天神已答复 {a[0]} 的占卜（之后的更改不再受理）",
        "penalty": lambda: f"{a[0]} 罚分 {a[1]}",
        "send-off": lambda: f"{a[0]} 被罚下",
        "sheriff": lambda: f"警徽交给 {a[0]}",
        "extra-divination": lambda: f"抽中 {a[0]} 做额外占卜",
        "ballot": lambda: f"{a[0]} 的选票改记为 {a[1]}（代替读不出的选票）",
    }[args.what]()
    return said + why
