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


# Which arguments of each correction are players' names (checked and written as the game
# spells them: ``老王 `` or ``ｋｋ＿大侠`` are 老王 and kk_大侠).
NAMES = {"void": (0,), "execute": (0,), "exit": (0,), "answered": (0,), "penalty": (0,),
         "send-off": (0,), "sheriff": (0,), "extra-divination": (0,), "ballot": (0, 1)}  # fmt: skip
ABSTAIN_WORDS = ("弃权", "弃票", "abstain")


def _resolved(args: argparse.Namespace, service) -> list[str]:  # type: ignore[no-untyped-def]
    """The arguments with players' names and actions as the game spells them."""
    from shenshi.commands._common import action_id, seat_name
    from shenshi.rulesets import base

    a = list(args.args)
    for i in NAMES.get(args.what, ()):
        if args.what == "ballot" and i == 1 and a[1].strip() in (*ABSTAIN_WORDS, base.ABSTAIN):
            a[1] = base.ABSTAIN
            continue
        a[i] = seat_name(service, a[i], ("投票人", "投票对象")[i] if args.what == "ballot" else "玩家")
    if args.what == "void":
        a[1] = action_id(service, a[1])
    return a


def _command(args: argparse.Namespace, tz):
    from shenshi.commands._common import parse_when
    from shenshi.errors import UserError
    from shenshi.rulesets import base

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
            return base.OverrideBallot(a[0], a[1], args.reason)
    return base.GmAnswered(a[0], parse_when(args.at, tz))


def run(args: argparse.Namespace) -> int:
    """Record the correction; say in the GM's words what it did and what was proposed."""
    from shenshi.commands._common import gm_log, open_service, proposed_ids, restart_note
    from shenshi.daemon.gm_text import refusal
    from shenshi.errors import UserError
    from shenshi.rulesets.base import IllegalActionError

    _check_count(args)
    service = open_service(args)
    args.args = _resolved(args, service)
    command = _command(args, service.config.forum.tz)
    try:
        outcome = service.gm(command)
    except IllegalActionError as exc:
        raise UserError(f"{_words(args)}：{refusal(str(exc))}；没有改动") from None
    said = _words(args)
    ids = proposed_ids(service, outcome)
    gm_log(service, "override", said + (f"；公告 {ids}" if ids else ""))
    print(f"已记录：{said}")
    if restart := restart_note(service):
        print(restart)
    if ids:
        print(f"已提出公告 {ids}：shenshi review 查看（演练模式请手动发帖后 shenshi published ID）")
    return 0


USAGE = {
    "void": "ACTOR ACTION（如 shenshi override void 月光 杀）", "execute": "NAME",
    "cancel-execution": "（不带参数）", "exit": "NAME", "answered": "SEER [--at TIME]",
    "penalty": "NAME POINTS", "send-off": "NAME", "sheriff": "NAME", "extra-divination": "NAME",
    "ballot": "VOTER TARGET（如 shenshi override ballot 老王 kk_大侠；弃权写 弃权）",
}  # fmt: skip


def _check_count(args: argparse.Namespace) -> None:
    """The number of arguments each correction takes, said with an example."""
    from shenshi.errors import UserError

    need = len(USAGE[args.what].split("（")[0].replace("[--at TIME]", "").split())
    if len(args.args) != need:
        raise UserError(f"override {args.what} 需要 {need} 个参数，收到 {len(args.args)} 个："
                        f"shenshi override {args.what} {USAGE[args.what]}")  # fmt: skip


def _words(args: argparse.Namespace) -> str:
    """The correction in the GM's words (``作废 老王 的 杀``)."""
    from shenshi.rulesets.base import ABSTAIN
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
        "ballot": lambda: f"{a[0]} 的选票改记为 {'弃权' if a[1] == ABSTAIN else a[1]}（代替读不出的选票）",
    }[args.what]()
    return said + why
