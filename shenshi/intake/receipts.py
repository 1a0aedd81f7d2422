"""Receipts (回执): the PM text that tells a player what the GM's messenger understood.

An accepted action: ``已收到：今晚占卜 小明，天亮前可更改``. A rejected one:
``未受理：占卜 小鸣——没有找到玩家「小鸣」（是否指：小明？）``. The daemon puts them in the
outbox like any announcement (paced to the forum's flood limit); ``GameContext.receipts``
switches them off for a game.
"""

from __future__ import annotations

from shenshi.intake.context import GameContext
from shenshi.intake.model import IntakeCommand

VERB_CN = {
    "kill": "杀", "divine": "占卜", "bind": "束魂", "curse": "诅咒", "bless": "庇佑",
    "pray": "祈祷", "cannon_kill": "炮打", "imprison": "禁锢", "check": "查证", "protect": "救治",
    "swap_general": "抽将", "guard": "守护", "silence_guard": "隔音", "heal": "救药",
    "poison": "毒药", "pipe": "吹笛", "pair_lovers": "金箭", "lone_wolf": "托孤",
    "lone_blade": "孤刀", "sheriff_successor": "移交警徽给", "delegate_vote": "委托投票",
    "last_words": "遗言", "kill_declaration": "杀人宣言", "speed_up": "同意加速",
    "slow_down": "减速",
}  # fmt: skip


def _change_note(ctx: GameContext, cmd: IntakeCommand) -> str:
    """Until when an accepted skill may still change, as the ruleset's profile says."""
    skills = ctx.profile.skills
    if cmd.extra.get("confirm"):
        return "已锁定，不能再更改"
    if cmd.extra.get("extra_divination"):
        return "额外占卜以第一次为准"
    if cmd.action in skills.answer_locks:
        return "天神答复前可更改"
    deadline = ctx.local_iso(ctx.phase.deadline)
    if deadline is not None:
        return f"{deadline.replace('T', ' ')[:16]} 前可更改"
    return skills.change_note


def accepted(ctx: GameContext, cmd: IntakeCommand) -> str:
    """The receipt for a command that was accepted."""
    verb = VERB_CN.get(cmd.action, cmd.action)
    when = "今晚" if ctx.phase.kind in (None, "night") else "今天"
    if cmd.action == "delegate_vote":
        return f"已收到：委托投票 {cmd.target}，天神公布前可更改；你本人在投票帖投票则委托作废"
    if cmd.action == "last_words":
        accused = cmd.extra.get("accused") or []
        tail = f"，指控：{'、'.join(accused)}" if accused else ""
        return f"已收到遗言（{cmd.extra.get('chars', 0)} 字）{tail}"
    if cmd.action == "kill_declaration":
        return f"已收到杀人宣言（{cmd.extra.get('declaration_chars', 0)} 字）"
    if cmd.action in ("speed_up", "slow_down"):
        return f"已收到：{verb}"
    if cmd.action == "cannon_kill":
        what = f"{when}炮打 {cmd.target}，炮架子 {cmd.extra.get('platform')}"
    elif cmd.action == "pair_lovers":
        what = f"金箭 {cmd.target} 与 {cmd.extra.get('target2')}"
    elif cmd.action == "pray":
        what = f"{when}为 {cmd.target} 祈祷"
    elif cmd.action in ("sheriff_successor", "lone_blade", "lone_wolf"):
        what = f"{verb} {cmd.target}"
    else:
        what = f"{when}{verb} {cmd.target}"
    if cmd.action in ("kill", "cannon_kill") and "declaration_chars" in cmd.extra:
        post = ctx.profile.kill_post
        label = post.label if post is not None else "杀人宣言"
        if cmd.extra.get("declaration_missing"):
            what += f"（未收到{label}）"
        else:
            what += f"（{label} {cmd.extra['declaration_chars']} 字）"
    return f"已收到：{what}，{_change_note(ctx, cmd)}"


def rejected(verb: str, target: str | None, why: str, suggestions: tuple[str, ...] = ()) -> str:
    """The receipt for a command that was refused, saying why."""
    what = f"{verb} {target}".strip() if target else verb
    hint = f"（是否指：{'、'.join(suggestions)}？）" if suggestions else ""
    return f"未受理：{what}——{why}{hint}。如需更改请重新发送"


def warning(text: str) -> str:
    """A receipt note for an accepted command the GM will still look at."""
    return f"提醒：{text}"
