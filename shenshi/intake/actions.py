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
    if _extra_divination(ctx, sender, "divine") and "divine" in p.intents:
        powers = powers | {"divine"}  # RES-A19: the civilian drawn by lot divines once by day
    action = next((i for i in p.intents if i in powers), None)
    if action is None:
        out.alert(
            "no_power",
            f"{sender.name}（{_role_cn(ctx, sender)}）没有「{p.verb}」的能力",
            verb=p.verb,
        )
        return
    if not sender.alive and action not in ctx.profile.skills.posthumous:
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


def _extra_divination(ctx: GameContext, sender: PlayerInfo, action: str) -> bool:
    """RES-A19: the civilian drawn by lot for the penalty divination divines once by day."""
    phase = ctx.phase
    return phase.kind == DAY and action == "divine" and phase.extra_divination_actor == sender.name


def _timing_ok(out: Collector, p: Parsed, action: str, extra: dict) -> bool:
    """Windows and deadlines (A-S1, RES-A19, RES-C32, §5.4/§5.5), the seer and 确定 locks,
    single-use skills: each as the ruleset's profile declares it."""
    ctx, sender, t = out.ctx, out.sender, out.t
    phase, skills = ctx.phase, ctx.profile.skills
    assert sender is not None
    if _extra_divination(ctx, sender, action):
        return _extra_divination_ok(out, p, extra)
    if action in phase.locked.get(sender.name, frozenset()):
        out.alert("locked", f"{sender.name} 已用「确定」锁定「{p.verb}」", verb=p.verb)
        return False
    if not _in_step(ctx, action):
        refusal = skills.out_of_step
        out.alert(refusal.alert, f"{sender.name} 的「{p.verb}」{refusal.reason}", verb=p.verb)
        return False
    if t is not None and skills.pm_window and (
        (phase.pm_window_open is not None and t < phase.pm_window_open)
        or (phase.pm_window_close is not None and t >= phase.pm_window_close)
    ):
        out.alert("pm_window", f"{sender.name} 的「{p.verb}」不在提交时间内", verb=p.verb)
        return False
    if t is not None and phase.deadline is not None and t > phase.deadline:
        out.alert("after_deadline", f"{sender.name} 的「{p.verb}」晚于天亮前10分钟", verb=p.verb)
        return False
    which = skills.night_phases.get(action)
    deadline = phase.phase_deadlines.get(which) if which else None
    if deadline is not None and t is not None and t > deadline:
        out.alert(
            "phase_deadline", f"{sender.name} 的「{p.verb}」晚于夜晚{which}的截止时间", verb=p.verb
        )
        return False
    if action in skills.answer_locks and sender.name in phase.seer_answered:
        out.alert("seer_locked", f"{sender.name} 在天神答复后更改占卜", verb=p.verb)
        return False
    if action == "kill" and phase.on_duty_killer and phase.on_duty_killer != sender.name:
        out.alert(
            "off_duty_killer",
            f"{sender.name} 不是今晚的执行杀手（今晚：{phase.on_duty_killer}）",
            verb=p.verb,
        )
        return False
    if action in skills.single_use and action in phase.used_skills:
        out.alert("skill_used", f"{sender.name} 的「{p.verb}」已经用过", verb=p.verb)
        return False
    return True


def _in_step(ctx: GameContext, action: str) -> bool:
    """Whether ``action`` may be used in the open step (an unknown step allows everything)."""
    kind, skills = ctx.phase.kind, ctx.profile.skills
    if kind is None or action in skills.anytime:
        return True
    night0 = kind == NIGHT and ctx.phase.number == 0
    if action in skills.night0:
        return night0
    if action in skills.day:
        return kind == DAY
    return kind in (NIGHT, SIGNIN) and not night0


def _extra_divination_ok(out: Collector, p: Parsed, extra: dict) -> bool:
    """The penalty divination by day (RES-A19): once, before its deadline."""
    phase, sender, t = out.ctx.phase, out.sender, out.t
    assert sender is not None
    extra["extra_divination"] = True
    if phase.extra_divination_used:
        out.alert("extra_divination_used", f"{sender.name} 的额外占卜已用过", verb=p.verb)
        return False
    deadline = phase.extra_divination_deadline
    if deadline is None and phase.vote_close is not None:
        deadline = phase.vote_close - timedelta(hours=1)
    if deadline is not None and t is not None and t > deadline:
        out.alert("extra_divination_deadline", f"{sender.name} 的额外占卜晚于截止时间", verb=p.verb)
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
    phase, rules = ctx.phase, ctx.profile.targets
    is_self = target.name == sender.name
    if not target.alive:
        return "dead_target", f"的对象 {target.name} 已出局"
    last_of = rules.last_of_team_not_self.get(action)
    wolves = [q for q in ctx.players if q.alive and q.team == "wolves"]
    vision = phase.witch_vision
    checks = (
        (is_self and action in rules.no_self, "self_target", "不能以自己为对象"),
        (is_self and last_of is not None
         and sum(1 for q in ctx.players if q.alive and q.team == last_of) <= 1,
         "lone_killer_suicide", "：仅剩的杀手不能自杀"),
        (action in rules.not_on_partner and target.role == sender.role and target.team == sender.team,
         "self_target", f"：{_role_cn(ctx, sender)}不能查自己的搭档 {target.name}"),
        (target.role in rules.not_on_roles.get(action, ()),
         "general_target", f"不能对{_role_cn(ctx, target)} {target.name} 使用"),
        (action == "swap_general" and phase.swaps_left.get(sender.name, 1) <= 0,
         "no_swaps_left", "：两次抽将已用完"),
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
    return next(((kind, why) for broken, kind, why in checks if broken), None)


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
    """Accepted, but the GM should know: short or missing kill posts, a swap on an enemy."""
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    notes: list[str] = []
    post = ctx.profile.kill_post
    if post is not None and action in post.skills:
        body = p.declaration or ""
        chars = count_chars(body)
        extra["declaration"] = body
        extra["declaration_chars"] = chars
        extra["declaration_missing"] = chars == 0
        if p.story:
            extra["story"] = True
        if post.required and chars == 0:
            out.alert(
                "declaration_missing",
                f"{sender.name} 杀 {target.name}，没有{post.label}（截止前未补交则本次杀人作废）",
            )
            notes.append(f"未收到{post.label}，请在截止前补交，否则本次杀人作废")
        elif chars < post.minimum and not (p.story and post.story_exempt):
            out.alert(
                post.short_alert,
                f"{sender.name} 的{post.label}只有 {chars} 字（不足 {post.minimum} 字）",
            )
            notes.append(f"{post.label}只有 {chars} 字，不足 {post.minimum} 字")
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
    if not ctx.profile.ballots.delegated:
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
    rules = ctx.profile.last_words
    if rules.max_chars is not None and chars > rules.max_chars:
        out.alert(
            "last_words_too_long",
            f"{sender.name} 的遗言有 {chars} 字（上限 {rules.max_chars}）",
            verb="遗言",
        )
        return
    accused: list[str] = []
    for ref in p.accused if rules.accusations else ():
        if out.name_problem(ref, "指控"):
            continue
        name = out.player_of(ref).name
        if name not in accused:
            accused.append(name)
    extra = out.base_extra()
    extra.update({"text": body or "", "chars": chars})
    if rules.accusations:
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
    post = ctx.profile.kill_post
    if post is None or not powers & post.skills:
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
    notes = []
    if chars < post.minimum and not (p.story and post.story_exempt):
        out.alert(
            post.short_alert,
            f"{sender.name} 的{post.label}只有 {chars} 字（不足 {post.minimum} 字）",
        )
        notes.append(f"只有 {chars} 字，不足 {post.minimum} 字")
    cmd = IntakeCommand("kill_declaration", sender.name, None, extra)
    out.accept(cmd, notes)


def _speed(out: Collector, p: Parsed) -> None:
    """同意第N天加速 / 减速 in a werewolf 功能树洞 (W-D7)."""
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    if not ctx.profile.clock.speed_up or not sender.alive:
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
