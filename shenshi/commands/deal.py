"""``shenshi deal [--seed S]``: random role assignment from the ruleset's composition.

The seed and the result are kept in the database (mode 0600), never in the log. Each player's
role PM is proposed in the outbox (and, where the rules make partners know each other, who
they are).
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "deal"
HELP = "随机发身份（可复现的种子），并为每位玩家提出身份私信"
# What ``shenshi deal --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi deal [--seed 种子]：按本规则的配置随机发身份。种子和结果存在数据库里（权限 0600），从不写进日志。每位玩家的身份私信都作为提议放进待审（规则让同伴互相认识时，也写明同伴是谁）。'
ORDER = 15


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    parser.add_argument("--seed", metavar="种子", help="随机种子（默认：新取一个，存进数据库）")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.bootstrap import bootstrap
    from shenshi.commands._common import config_of, rehearsal_clock

    config = config_of(args)
    service = bootstrap(config, forum=False, clock=rehearsal_clock(config))
    dealt = service.deal(args.seed)
    service.drylog.gm(service.clock(), "deal", f"发身份：{len(dealt)} 人（种子保存在数据库里）")
    from shenshi.daemon.hints import publish_advice

    print(f"已发 {len(dealt)} 个身份（种子保存在数据库里），提出 {len(dealt)} 条身份私信")
    with service.store.snapshot() as uow:
        ids = [a.id for a in uow.outbox.announcements(service.game_id) if a.kind == "role"]
    advice = publish_advice(service.config.daemon.mode, ids, private=True)
    print(f"下一步：shenshi review 查看；{advice.text()}")
    if (late := _first_step_over(service)) is not None:
        print(late)
    return 0


def _first_step_over(service) -> str | None:  # type: ignore[no-untyped-def]
    """A warning when the game's first step ([game] start to its close) is already over as the
    roles go out: the powers of that step (werewolf night 0: 金箭, 托孤) were never usable
    (recheck2 W1)."""
    from dataclasses import replace

    from shenshi.rulesets.base import PlayerSpec, RulesetError, frozen_map

    game, ruleset, tz = service.config.game, service.ruleset, service.config.forum.tz
    start = game.start.astimezone(tz)
    specs = [PlayerSpec(p.name, p.role, p.team or ruleset.info.roles[p.role].team) for p in game.players]
    try:
        probe = replace(ruleset.new_game(specs, game.rules), phase=ruleset.first_phase, number=ruleset.first_number,
                        params=frozen_map({"opened_at": start}))  # fmt: skip
        closes = ruleset.phase_times(probe, ruleset.first_phase, ruleset.first_number, start).closes
    except RulesetError:
        return None  # (the daemon's start says what is wrong with the rules)
    if service.clock() < closes:
        return None
    shown = closes.astimezone(tz).strftime("%m-%d %H:%M")
    return (f"注意：游戏的第一阶段已在 {shown} 截止：那一阶段的技能（如狼人杀第0夜的金箭、托孤）已经来不及用；"
            "请检查 [game] start 是否写对")
