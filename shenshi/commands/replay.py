"""``shenshi replay``: rebuild the game from its events and report any difference.

The game state is always derived by replaying the stored events through the rules core; this
checks it against what the database says of the players (alive, seat holder).
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "replay"
HELP = "从保存的事件重建游戏，报告与数据库不一致之处"
# What ``shenshi replay --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi replay：从保存的事件重建游戏，报告与数据库不一致之处。游戏局面总是由规则核心重放保存的事件得出；这里把它和数据库里记的玩家情况（存活、座位上是谁）对照。一致时退出码为 0，有差异时为 1。'
ORDER = 60


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.commands._common import open_service

    service = open_service(args)
    differences = service.replay_differences()
    state = service.referee.state
    with service.store.snapshot() as uow:
        events = uow.events.last_seq(service.game_id)
    from shenshi.daemon.gm_text import step_name

    print(f"重放了 {events} 个事件，局面：{step_name(state.phase, state.number, state.round)}")
    if not differences:
        print("与数据库一致，没有差异")
        return 0
    for line in differences:
        print(f"差异：{line}")
    return 1
