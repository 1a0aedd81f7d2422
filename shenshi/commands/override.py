"""shenshi override：天神的更正，和其他一切一样记为事件（shenshi replay 重放得出同样的局面）。

  action 玩家 行动 [对象…]  补记玩家读不出的夜间（或白天）行动，按玩家的写法：月光 杀 老王、小明 占卜 Rex、
                         帅 炮打 X 炮架子 Y（杀人宣言：--declaration 文字；私信时间：--at 时间；或 --pm N：
                         时间和宣言取自提醒里的第 N 条私信）；按玩家自己的私信检查
  void 玩家 行动          作废该玩家本阶段的一个行动（如发错的私信）；行动写 id 或中文（杀、占卜）
  execute 玩家           今天处决该玩家，代替计票结果（截止前后都可以）
  cancel-execution       今天不处决任何人
  exit 玩家              退出、没有替补：该座位出局（确认未签到、潜水的公告；本人退出时 --reason 写进公告）；
                         会让游戏结束时先说明、不作改动，确认请加 --ends-game
  answered 占卜者 [--at 时间]   天神已提前答复该占卜者：之后的更改不再受理（A-S2）
  penalty 玩家 分数       狼人：裁判罚分（满 12 分罚下）
  send-off 玩家          狼人：立即罚下
  sheriff 玩家           狼人：交警徽（迟到的【殉职】回复，或按默认）
  extra-divination 玩家  游戏五/六：抽签抽中做额外占卜的庶民（杀人宣言太短，RES-A19）；他的占卜私信立即答复
  ballot 投票人 对象      把投票人本轮的选票记为对象（允许时可写 弃权）：用于读不出的选票，取代他原来的票
  count-pm 私信编号       玩家同时在几局入座时，不知属于哪一局而搁置的私信（提醒「不知属于哪一局的私信」里的
                         “PM 3”），算作这一局的（--game 局名）：按它发出的时间立即读入

名字按读玩家发言的方式读（空格、全角、大小写、昵称都可以）；规则不允许的更正不会有任何改动。
运行中的 shenshi run 在下一轮开始时读到更正，不必重启。
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option
from shenshi.daemon.gm_commands import CORRECTIONS

NAME = "override"
HELP = "天神更正：作废行动、改处决、退出、补记选票……（--help 列出每一种）"
ORDER = 41


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        NAME, help=HELP, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_config_option(parser)
    parser.add_argument("what", choices=tuple(CORRECTIONS), metavar="更正", help="见上表")
    parser.add_argument("args", nargs="*", metavar="参数", help="见上表（玩家名、行动、分数……）")
    parser.add_argument("--reason", default="", metavar="理由", help="理由（记入演练日志；exit：写进退出公告，如 本人申请退出）")
    parser.add_argument("--at", metavar="时间", help="answered：天神答复的时间；action：玩家发私信的时间（论坛时间，如 2026-12-02T20:15）")
    parser.add_argument("--declaration", metavar="文字", help="action：杀人宣言")
    parser.add_argument("--pm", metavar="编号", help="action：按提醒里的第 N 条私信补录（私信时间和杀人宣言取自那条私信）")
    parser.add_argument("--ends-game", action="store_true",
                        help="exit、send-off、penalty：确认这次更正会结束游戏（不加时会先说明结果、不作改动）")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Record the correction; say in the GM's words what it did and what was proposed."""
    from shenshi.commands._common import open_service, print_said
    from shenshi.daemon.gm_commands import check_arguments, correct, enter_action

    check_arguments(args.what, args.args)  # a wrong count: refused before opening
    service = open_service(args)
    if args.what == "action":
        return print_said(enter_action(service, args.args, args.reason, args.at, declaration=args.declaration, pm=args.pm))
    if args.what == "count-pm":
        from shenshi.daemon.gm_commands import count_pm

        return print_said(count_pm(service, args.args[0]))
    return print_said(correct(service, args.what, args.args, args.reason, args.at, ends_game=args.ends_game))
