"""Night actions and other PM commands, validated against the game (RULES.md §1.2, §1.8,
§1.11, §4.3, §4.9, §5.2–5.4, §5.9).

Each :class:`~shenshi.intake.grammar.Parsed` command becomes either one command (possibly with
a flag for the GM, such as a short declaration) or one alert with a rejection receipt.
"""

from __future__ import annotations

from datetime import timedelta

from shenshi.intake import receipts
from shenshi.intake.collect import Collector
from shenshi.intake.context import DAY, NIGHT, SIGNIN, GameContext, PlayerInfo
from shenshi.intake.grammar import NameRef, Parsed
from shenshi.intake.model import IntakeCommand
from shenshi.intake.text import count_chars

DECLARATION_MIN = {"A": 100, "chess": 150}  # RES-A29 characters without whitespace
WEREWOLF_LAST_WORDS_MAX = 3000
# Werewolf submission phases (§5.5, RES-W3).
WW_PHASE = {
    "guard": 1,
    "silence_guard": 1,
    "kill": 1,
    "divine": 1,
    "pipe": 1,
    "heal": 2,
    "poison": 2,
}
WW_NIGHT0 = frozenset({"pair_lovers", "lone_wolf"})
WW_DAY = frozenset({"lone_blade"})
WW_SINGLE_USE = frozenset({"heal", "poison", "lone_wolf", "lone_blade"})
CHESS_NO_SELF = frozenset({"general", "cannon", "chariot", "horse"})
CHESS_NOT_ON_GENERAL = frozenset({"imprison", "protect", "pray"})


def validate_action(out: Collector, p: Parsed) -> None:
    """Turn one parsed PM / tree-hole command into a command or an alert."""
    intent = p.intents[0]
    special = {
        "delegate_vote": _delegate,
        "delegate_abstain": _delegate,
        "delegate_to_player": _delegate_to_player,
        "last_words": _last_words,
        "kill_declaration": _declaration_only,
        "speed_up": _speed,
        "slow_down": _speed,
    }
    if intent in special:
        special[intent](out, p)
        return
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    powers = ctx.powers_of(sender)
    if (
        ctx.family == "A"
        and ctx.phase.kind == DAY
        and ctx.phase.extra_divination_actor == sender.name
        and "divine" in p.intents
    ):
        powers = powers | {"divine"}  # RES-A19: the civilian drawn by lot divines once by day
    action = next((i for i in p.intents if i in powers), None)
    if action is None:
        out.alert(
            "no_power",
            f"{sender.name}（{_role_cn(ctx, sender)}）没有「{p.verb}」的能力",
            verb=p.verb,
        )
        return
    if not sender.alive and action != "sheriff_successor":
        out.alert("dead_actor", f"{sender.name} 已出局，其「{p.verb}」无效", verb=p.verb)
        return
    if sender.name in ctx.phase.sent_off:
        out.alert("sent_off", f"{sender.name} 已被罚下，不能使用技能", verb=p.verb)
        return
    extra = out.base_extra()
    if not _timing_ok(out, p, action, extra):
        return
    if out.name_problem(p.target, p.verb, verb=p.verb):
        return
    target = out.player_of(p.target)
    if not _target_ok(out, p, action, target):
        return
    if action == "cannon_kill" and not _platform_ok(out, p, target, extra):
        return
    if action == "pair_lovers":
        if p.target2 is None:
            out.alert(
                "invalid_target",
                f"{sender.name}：金箭需要两个对象",
                verb=p.verb,
                target=target.name,
                reason="金箭需要两个对象",
            )
            return
        if out.name_problem(p.target2, p.verb, verb=p.verb):
            return
        extra["target2"] = out.player_of(p.target2).name
    if p.more_targets:
        names = "、".join([p.target.written] + [r.written for r in p.more_targets])
        out.alert(
            "action_conflict",
            f"{sender.name}：「{p.verb}」写了多个对象：{names}",
            verb=p.verb,
            target=names,
        )
        return
    notes = _flags(out, p, action, target, extra)
    if p.confirm:
        extra["confirm"] = True
    cmd = IntakeCommand(action, sender.name, target.name, extra)
    out.accept(cmd, notes)


def _role_cn(ctx: GameContext, player: PlayerInfo) -> str:
    role = ctx.info.roles.get(player.role or "")
    return role.chinese if role else "未知身份"


def _timing_ok(out: Collector, p: Parsed, action: str, extra: dict) -> bool:
    """Windows and deadlines: A-S1, RES-A19, RES-C32, §5.4/§5.5; seer and 确定 locks."""
    ctx, sender, t = out.ctx, out.sender, out.t
    phase = ctx.phase
    assert sender is not None
    family = ctx.family
    if family == "A":
        if phase.kind == DAY:
            if action == "divine" and phase.extra_divination_actor == sender.name:
                extra["extra_divination"] = True
                if phase.extra_divination_used:
                    out.alert(
                        "extra_divination_used", f"{sender.name} 的额外占卜已用过", verb=p.verb
                    )
                    return False
                deadline = phase.extra_divination_deadline
                if deadline is None and phase.vote_close is not None:
                    deadline = phase.vote_close - timedelta(hours=1)
                if deadline is not None and t is not None and t > deadline:
                    out.alert(
                        "extra_divination_deadline",
                        f"{sender.name} 的额外占卜晚于截止时间",
                        verb=p.verb,
                    )
                    return False
                return True
            out.alert(
                "pm_window", f"{sender.name} 白天提交「{p.verb}」，不在夜间提交时间内", verb=p.verb
            )
            return False
        if t is not None and (
            (phase.pm_window_open is not None and t < phase.pm_window_open)
            or (phase.pm_window_close is not None and t >= phase.pm_window_close)
        ):
            out.alert("pm_window", f"{sender.name} 的「{p.verb}」不在提交时间内", verb=p.verb)
            return False
        if action == "divine" and sender.name in phase.seer_answered:
            out.alert("seer_locked", f"{sender.name} 在天神答复后更改占卜", verb=p.verb)
            return False
        if action == "kill" and phase.on_duty_killer and phase.on_duty_killer != sender.name:
            out.alert(
                "off_duty_killer",
                f"{sender.name} 不是今晚的执行杀手（今晚：{phase.on_duty_killer}）",
                verb=p.verb,
            )
            return False
        return True
    if family == "chess":
        if phase.kind == DAY:
            out.alert(
                "pm_window", f"{sender.name} 白天提交「{p.verb}」，特权只能在夜间使用", verb=p.verb
            )
            return False
        if phase.deadline is not None and t is not None and t > phase.deadline:
            out.alert(
                "after_deadline", f"{sender.name} 的「{p.verb}」晚于天亮前10分钟", verb=p.verb
            )
            return False
        return True
    # werewolf
    if action in phase.locked.get(sender.name, frozenset()):
        out.alert("locked", f"{sender.name} 已用「确定」锁定「{p.verb}」", verb=p.verb)
        return False
    if phase.kind is not None and action != "sheriff_successor":
        night0 = phase.kind == NIGHT and phase.number == 0
        if action in WW_NIGHT0:
            ok = night0
        elif action in WW_DAY:
            ok = phase.kind == DAY
        else:
            ok = phase.kind in (NIGHT, SIGNIN) and not night0
        if not ok:
            out.alert("wrong_phase", f"{sender.name} 的「{p.verb}」不能在现在使用", verb=p.verb)
            return False
    which = WW_PHASE.get(action)
    deadline = phase.phase_deadlines.get(which) if which else None
    if deadline is not None and t is not None and t > deadline:
        out.alert(
            "phase_deadline", f"{sender.name} 的「{p.verb}」晚于夜晚{which}的截止时间", verb=p.verb
        )
        return False
    if action in WW_SINGLE_USE and action in phase.used_skills:
        out.alert("skill_used", f"{sender.name} 的「{p.verb}」已经用过", verb=p.verb)
        return False
    return True


def _target_ok(out: Collector, p: Parsed, action: str, target: PlayerInfo) -> bool:
    """Target legality: alive, self-targeting, generals, once-per-character skills."""
    sender = out.sender
    assert sender is not None
    problem = _target_problem(out.ctx, sender, action, target)
    if problem is None:
        return True
    kind, why = problem
    out.alert(
        kind,
        f"{sender.name}：「{p.verb}」{why}",
        verb=p.verb,
        target=target.name,
        reason=why.lstrip("："),
    )
    return False


def _target_problem(
    ctx: GameContext, sender: PlayerInfo, action: str, target: PlayerInfo
) -> tuple[str, str] | None:
    """The first target rule ``action`` on ``target`` breaks: ``(alert kind, why)``."""
    phase = ctx.phase
    is_self = target.name == sender.name
    if not target.alive:
        return "dead_target", f"的对象 {target.name} 已出局"
    if ctx.family == "A":
        if action == "kill" and is_self and ctx.ruleset in ("game5", "game6-10"):
            killers = [q for q in ctx.players if q.alive and q.team == "killers"]
            if len(killers) <= 1:
                return "lone_killer_suicide", "：仅剩的杀手不能自杀"
        return None
    rules: tuple[tuple[bool, str, str], ...]
    if ctx.family == "chess":
        rules = (
            (is_self and (sender.role in CHESS_NO_SELF or action == "swap_general"),
             "self_target", f"：{_role_cn(ctx, sender)}不能以自己为对象"),
            (action == "check" and target.role == "horse" and target.team == sender.team,
             "self_target", f"：马不能查自己的搭档 {target.name}"),
            (action in CHESS_NOT_ON_GENERAL and target.role == "general",
             "general_target", f"不能对帅 {target.name} 使用"),
            (action == "swap_general" and phase.swaps_left.get(sender.name, 1) <= 0,
             "no_swaps_left", "：两次抽将已用完"),
        )  # fmt: skip
    else:
        wolves = [q for q in ctx.players if q.alive and q.team == "wolves"]
        vision = phase.witch_vision
        rules = (
            (is_self and action in ("lone_blade", "sheriff_successor"),
             "self_target", "不能以自己为对象"),
            (action == "guard" and target.name in phase.guarded_before,
             "guard_once", f"：{target.name} 已被守护过"),
            (action == "silence_guard" and target.name in phase.silenced_before,
             "silence_once", f"：{target.name} 已被隔音过"),
            (action == "heal" and vision is not None and target.name not in vision,
             "heal_not_in_vision", f"：{target.name} 不在通灵名单中"),
            (action == "lone_wolf" and target.role != "werewolf",
             "invalid_target", f"：{target.name} 不是狼人"),
            (action == "lone_wolf" and len(wolves) <= 2,
             "invalid_target", "：狼人阵营不超过2人，不能托孤"),
        )  # fmt: skip
    return next(((kind, why) for broken, kind, why in rules if broken), None)


def _platform_ok(out: Collector, p: Parsed, target: PlayerInfo, extra: dict) -> bool:
    """A cannon's 炮架子 [CH:L58]: living, not a general, not the target, not the cannon."""
    _ctx, sender = out.ctx, out.sender
    assert sender is not None
    ref = p.platform
    if ref is None or not ref.written:
        out.alert(
            "invalid_platform",
            f"{sender.name}：炮打 {target.name} 没有写炮架子（整次炮击作废）",
            verb=p.verb,
            target=target.name,
            reason="没有写炮架子",
        )
        return False
    if out.name_problem(ref, "炮架子", verb=p.verb):
        return False
    platform = out.player_of(ref)
    why = None
    if not platform.alive:
        why = f"{platform.name} 已出局"
    elif platform.role == "general":
        why = "帅不能做炮架子"
    elif platform.name == target.name:
        why = "炮架子不能是炮打的对象"
    elif platform.name == sender.name:
        why = "炮不能给自己做炮架子"
    if why:
        out.alert(
            "invalid_platform",
            f"{sender.name}：炮架子无效，{why}（整次炮击作废）",
            verb=p.verb,
            target=target.name,
            reason=why,
        )
        return False
    extra["platform"] = platform.name
    return True


def _flags(out: Collector, p: Parsed, action: str, target: PlayerInfo, extra: dict) -> list[str]:
    """Accepted, but the GM should know: short or missing declarations, a swap on an enemy."""
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    notes: list[str] = []
    family = ctx.family
    if action in ("kill", "cannon_kill") and family in DECLARATION_MIN:
        body = p.declaration or ""
        chars = count_chars(body)
        extra["declaration"] = body
        extra["declaration_chars"] = chars
        extra["declaration_missing"] = chars == 0
        if p.story:
            extra["story"] = True
        minimum = DECLARATION_MIN[family]
        if family == "A" and chars == 0:
            out.alert(
                "declaration_missing",
                f"{sender.name} 杀 {target.name}，没有杀人宣言（截止前未补交则本次杀人作废）",
            )
            notes.append("未收到杀人宣言，请在截止前补交，否则本次杀人作废")
        elif family == "A" and chars < minimum and not p.story:
            out.alert(
                "declaration_short", f"{sender.name} 的杀人宣言只有 {chars} 字（不足 {minimum} 字）"
            )
            notes.append(f"杀人宣言只有 {chars} 字，不足 {minimum} 字")
        elif family == "chess" and chars < minimum:
            out.alert(
                "kill_post_short", f"{sender.name} 的杀人帖只有 {chars} 字（不足 {minimum} 字）"
            )
            notes.append(f"杀人帖只有 {chars} 字，不足 {minimum} 字")
    if action == "swap_general" and sender.team and target.team and sender.team != target.team:
        out.alert(
            "swap_enemy", f"{sender.name} 抽将 {target.name} 是对方的人：抽将会无效，帅仍会死"
        )
        notes.append(f"{target.name} 不是己方玩家，抽将将无效")
    return notes


# -- special commands ---------------------------------------------------------------------------
def _delegate(out: Collector, p: Parsed) -> None:
    """委托投票 by PM (family A, D-D)."""
    ctx, sender, t = out.ctx, out.sender, out.t
    assert sender is not None
    phase = ctx.phase
    if ctx.family != "A":
        out.alert(
            "wrong_channel",
            f"{sender.name} 用短消息投票；本规则的投票必须在投票帖发帖",
            verb="投票",
        )
        return
    if p.intents[0] == "delegate_abstain":
        out.alert("abstain_not_allowed", f"{sender.name} 委托弃票；本规则不能弃权", verb="委托弃票")
        return
    if not sender.alive:
        out.alert("dead_actor", f"{sender.name} 已出局，不能委托投票", verb="委托投票")
        return
    if phase.kind == NIGHT or (
        phase.vote_close is not None and t is not None and t >= phase.vote_close
    ):
        out.alert("vote_closed", f"{sender.name} 的委托投票不在投票时间内", verb="委托投票")
        return
    if phase.bound == sender.name:
        out.alert("not_eligible", f"{sender.name} 今天被束魂，不能投票", verb="委托投票")
        return
    if sender.name in phase.delegations_published:
        out.alert(
            "delegation_published", f"{sender.name} 的委托投票已公布，不能更改", verb="委托投票"
        )
        return
    if phase.ballots.get(sender.name):
        out.alert(
            "delegation_overridden", f"{sender.name} 已在投票帖投票，委托无效", verb="委托投票"
        )
        return
    if out.name_problem(p.target, p.verb, verb="委托投票"):
        return
    target = out.player_of(p.target)
    if not target.alive:
        out.alert(
            "dead_target",
            f"{sender.name} 委托投票给已出局的 {target.name}",
            verb="委托投票",
            target=target.name,
        )
        return
    if phase.candidates and target.name not in phase.candidates:
        out.alert(
            "not_a_candidate",
            f"{sender.name} 委托投票给非候选人 {target.name}",
            verb="委托投票",
            target=target.name,
        )
        return
    extra = out.base_extra()
    extra["via"] = "pm_delegate"
    if phase.vote_round:
        extra["round"] = phase.vote_round
    cmd = IntakeCommand("delegate_vote", sender.name, target.name, extra)
    out.accept(cmd)


def _delegate_to_player(out: Collector, p: Parsed) -> None:
    sender = out.sender
    assert sender is not None
    who = p.target.written if p.target else "?"
    out.alert(
        "delegation_to_player",
        f"{sender.name} 想委托 {who} 代投：规则不允许委托其他玩家",
        verb="委托投票",
    )


def _last_words(out: Collector, p: Parsed, *, text: str | None = None) -> None:
    """遗言 from a victim who may leave them (§1.6 D-3 accusations, §4.6 step 10, §5.4)."""
    ctx, sender, t = out.ctx, out.sender, out.t
    assert sender is not None
    phase = ctx.phase
    body = p.declaration if text is None else text
    granted = sender.name in phase.last_words_granted or (
        not phase.last_words_granted and not sender.alive
    )
    if not granted:
        out.alert("last_words_not_granted", f"{sender.name} 没有遗言权", verb="遗言")
        return
    if phase.last_words_deadline is not None and t is not None and t > phase.last_words_deadline:
        out.alert("last_words_late", f"{sender.name} 的遗言晚于截止时间", verb="遗言")
        return
    chars = count_chars(body or "")
    if ctx.family == "werewolf" and chars > WEREWOLF_LAST_WORDS_MAX:
        out.alert(
            "last_words_too_long", f"{sender.name} 的遗言有 {chars} 字（上限 3000）", verb="遗言"
        )
        return
    accused: list[str] = []
    for ref in p.accused:
        if ctx.family != "A":
            break
        if out.name_problem(ref, "指控"):
            continue
        name = out.player_of(ref).name
        if name not in accused:
            accused.append(name)
    extra = out.base_extra()
    extra.update({"text": body or "", "chars": chars})
    if ctx.family == "A":
        extra["accused"] = accused
    cmd = IntakeCommand("last_words", sender.name, None, extra)
    out.accept(cmd)


def last_words_from_post(out: Collector, p: Parsed) -> None:
    """A victim's post that is last words as a whole (chess32: one post or thread)."""
    _last_words(out, p)


def _declaration_only(out: Collector, p: Parsed) -> None:
    """A 杀人宣言 sent without its 杀 line (for a kill sent earlier)."""
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    powers = ctx.powers_of(sender)
    if not powers & {"kill", "cannon_kill"} or ctx.family not in DECLARATION_MIN:
        out.alert(
            "no_power",
            f"{sender.name}（{_role_cn(ctx, sender)}）没有杀人能力，却发来杀人宣言",
            verb="杀人宣言",
        )
        return
    if not sender.alive:
        out.alert("dead_actor", f"{sender.name} 已出局，其杀人宣言无效", verb="杀人宣言")
        return
    body = p.declaration or ""
    chars = count_chars(body)
    extra = out.base_extra()
    extra.update(
        {"declaration": body, "declaration_chars": chars, "declaration_missing": chars == 0}
    )
    if p.story:
        extra["story"] = True
    minimum = DECLARATION_MIN[ctx.family]
    notes = []
    if chars < minimum and not (p.story and ctx.family == "A"):
        kind = "declaration_short" if ctx.family == "A" else "kill_post_short"
        out.alert(kind, f"{sender.name} 的杀人宣言只有 {chars} 字（不足 {minimum} 字）")
        notes.append(f"只有 {chars} 字，不足 {minimum} 字")
    cmd = IntakeCommand("kill_declaration", sender.name, None, extra)
    out.accept(cmd, notes)


def _speed(out: Collector, p: Parsed) -> None:
    """同意第N天加速 / 减速 in a werewolf 功能树洞 (W-D7)."""
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    if ctx.family != "werewolf" or not sender.alive:
        return
    extra = out.base_extra()
    if p.number is not None:
        extra["day"] = p.number
    cmd = IntakeCommand(p.intents[0], sender.name, None, extra)
    out.accept(cmd)


def resolve_conflicts(out: Collector) -> None:
    """Two different targets for the same action in one text: an alert, neither counts."""
    by_action: dict[str, list[IntakeCommand]] = {}
    for cmd in out.commands:
        by_action.setdefault(cmd.action, []).append(cmd)
    dropped: set[int] = set()
    for action, cmds in by_action.items():
        if action in ("last_words", "speed_up", "slow_down", "kill_declaration"):
            continue
        targets = {(c.target, c.extra.get("platform"), c.extra.get("target2")) for c in cmds}
        if len(targets) > 1:
            names = "、".join(sorted({c.target or "" for c in cmds}))
            verb = receipts.VERB_CN.get(action, action)
            out.alert(
                "action_conflict",
                f"{cmds[0].actor}：同一条消息里「{verb}」写了不同的对象：{names}",
                verb=verb,
                target=names,
            )
            dropped.update(id(c) for c in cmds)
        elif len(cmds) > 1:
            dropped.update(id(c) for c in cmds[:-1])
    if dropped:
        kept = [c for c in out.commands if id(c) not in dropped]
        out.commands[:] = kept
        accepted = {receipts.accepted(out.ctx, c) for c in kept}
        out.receipts[:] = [
            r
            for r in out.receipts
            if not r.text.startswith("已收到") or r.text.split("。提醒")[0] in accepted
        ]


def is_skill(p: Parsed) -> bool:
    """True for a role power (not a vote, last words or speed-up)."""
    return p.intents[0] not in (
        "delegate_vote", "delegate_abstain", "delegate_to_player", "last_words",
        "kill_declaration", "speed_up", "slow_down",
    )  # fmt: skip


__all__ = ["validate_action", "resolve_conflicts", "last_words_from_post", "is_skill", "NameRef"]
