"""Night actions and other PM commands, validated against the game (RULES.md §1.2, §1.8,
§1.11, §4.3, §4.9, §5.2–5.4, §5.9).

Each :class:`~shenshi.intake.grammar.Parsed` command becomes either one command (possibly with
a flag for the GM, such as a short declaration) or one alert with a rejection receipt.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from shenshi.intake import receipts
from shenshi.intake.collect import Collector
from shenshi.intake.context import DAY, NIGHT, SIGNIN, GameContext, PlayerInfo
from shenshi.intake.grammar import NameRef, Parsed
from shenshi.intake.model import IntakeCommand
from shenshi.intake.text import count_chars
from shenshi.rulesets.profile import KillPost, LastWordsNotice


def validate_action(out: Collector, p: Parsed) -> None:
    """Turn one parsed PM / tree-hole command into a command or an alert."""
    intent = p.intents[0]
    out.doing = "delegate_vote" if intent.startswith("delegate") else intent
    special = {
        "delegate_vote": _delegate,
        "delegate_abstain": _delegate,
        "delegate_to_player": _delegate_to_player,
        "last_words": _last_words,
        "kill_declaration": _declaration_only,
        "speed_up": _speed,
        "slow_down": _speed,
    }
    if intent not in ("last_words", "kill_declaration") and not _certain(out, p):
        return
    if intent in special:
        special[intent](out, p)
        return
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    powers = ctx.powers_of(sender)
    if _extra_divination(ctx, sender, "divine") and "divine" in p.intents:
        powers = powers | {"divine"}  # RES-A19: the civilian drawn by lot divines once by day
    action = next((i for i in p.intents if i in powers), None)
    out.doing = action or intent
    if action is None and not sender.alive:
        # out: whatever his role had (the put-out sheriff's 【殉职】 lapses with the result, RES-W21)
        out.alert("dead_actor", verb=p.verb)
        return
    if action is None and p.withdrawn:
        out.alert("not_a_command", text=p.verb)  # 不杀了 from one who cannot kill: talk
        return
    if action is None:
        out.alert("no_power", verb=p.verb, role=_role_cn(ctx, sender))
        return
    if (not sender.alive or sender.name in ctx.phase.told_out) and action not in ctx.profile.skills.posthumous:
        out.alert("dead_actor", verb=p.verb)
        return
    if sender.name in ctx.phase.sent_off:
        out.alert("sent_off", verb=p.verb)
        return
    extra = out.base_extra()
    if not _timing_ok(out, p, action, extra):
        return
    if p.withdrawn:  # 不救了 / 取消【救药】: his standing one no longer counts (the latest reply counts)
        out.accept(IntakeCommand(action, sender.name, None, {**extra, "withdraw": True}))
        return
    if action in ctx.profile.targets.no_self and p.target is not None and out.names_own_seat(p.target):
        target = sender  # his seat by its former holder, on a power never on oneself: refused as such
    elif out.name_problem(p.target, p.verb, verb=p.verb):
        return
    else:
        target = out.player_of(p.target)
    if not _target_ok(out, p, action, target):
        return
    if action == "cannon_kill" and not _platform_ok(out, p, target, extra):
        return
    if action == "pair_lovers":
        if p.target2 is None:
            why = out.render("why_pair_lovers_one")
            out.alert(
                "invalid_target", "alert_pair_lovers_one", verb=p.verb, target=target.name,
                why=why, reason=why,
            )  # fmt: skip
            return
        if out.name_problem(p.target2, p.verb, verb=p.verb):
            return
        extra["target2"] = out.player_of(p.target2).name
        if extra["target2"] == target.name:
            why = out.render("why_pair_lovers_same")
            out.alert(
                "invalid_target", "alert_pair_lovers_one", verb=p.verb, target=target.name,
                why=why, reason=why,
            )  # fmt: skip
            return
    if p.more_targets:
        names = receipts.names(ctx, [p.target.written] + [r.written for r in p.more_targets])
        out.alert("action_conflict", verb=p.verb, target=names, names=names)
        return
    notes = _flags(out, p, action, target, extra)
    if p.confirm:
        extra["confirm"] = True
    cmd = IntakeCommand(action, sender.name, target.name, extra)
    out.accept(cmd, notes)


def _certain(out: Collector, p: Parsed) -> bool:
    """A command qualified by a condition or a question, or naming alternatives, is not a
    command the GM can count: an alert (and a receipt saying why), never the first name."""
    if p.unclear_change is not None:  # 炮打A，炮架子Y，改成X: the target or the platform?
        change, new = p.unclear_change
        target = p.target.written if p.target is not None and p.target is not new else ""
        out.alert(
            "conditional_action", "alert_change_unclear", verb=p.verb,
            reason_template="reason_change_unclear", change=change, new=new.written,
            old_target=target or "未写", platform=p.platform.written if p.platform else "",
        )  # fmt: skip
        return False
    if p.conditional:
        out.alert("conditional_action", verb=p.verb, command=p.verb)
        return False
    if p.alternatives:
        written = [r.written for r in (p.target, *p.more_targets, p.platform, *p.platforms) if r]
        names = receipts.names(out.ctx, written)
        out.alert("alternatives", verb=p.verb, names=names)
        return False
    return True


def _role_cn(ctx: GameContext, player: PlayerInfo) -> str:
    role = ctx.info.roles.get(player.role or "")
    return role.chinese if role else "未知身份"


def _extra_divination(ctx: GameContext, sender: PlayerInfo, action: str) -> bool:
    """RES-A19: the civilian drawn by lot for the penalty divination divines once by day."""
    phase = ctx.phase
    return phase.kind == DAY and action == "divine" and phase.extra_divination_actor == phase.seat(sender.name)


def _as_read(ctx: GameContext, p: Parsed, action: str) -> dict[str, Any]:
    """The command as read, for a refusal that quotes it: the action's own word rather than
    the words around it (「今晚我想束魂」 → 束魂), and its target as written."""
    word = ctx.info.action_name(action)
    verb = word if p.verb.endswith(word) else p.verb
    target = (p.target.player or p.target.written) if p.target is not None else None
    return {"verb": verb, "target": target or None}


def _timing_ok(out: Collector, p: Parsed, action: str, extra: dict) -> bool:
    """Windows and deadlines (A-S1, RES-A19, RES-C32, §5.4/§5.5), the seer and 确定 locks,
    single-use skills: each as the ruleset's profile declares it."""
    ctx, sender, t = out.ctx, out.sender, out.t
    phase, skills = ctx.phase, ctx.profile.skills
    assert sender is not None
    said = _as_read(ctx, p, action)
    if _extra_divination(ctx, sender, action):
        return _extra_divination_ok(out, p, extra)
    if any(action in phase.locked.get(q.name, frozenset()) for q in (sender, *ctx.unit_of(sender))):
        out.alert("locked", **said)  # RES-W7: the pack's kill, locked by any wolf
        return False
    if action in skills.single_use and action in phase.settled_skills:
        # spent tonight, the night settled: a change is late (wolfadv W10), no retry invited
        out.alert("phase_deadline", **said, phase=skills.night_phases.get(action))
        return False
    if action in skills.single_use and action in phase.used_skills:
        out.alert("skill_used", **said)  # spent: no later time helps (adversary6 C10)
        return False
    if not in_step(ctx, action):
        refusal = skills.out_of_step
        out.alert(refusal.alert, "alert_out_of_step", **said, why=out.render(refusal.reason))
        return False
    if t is not None and skills.pm_window and (
        (phase.pm_window_open is not None and _surely_before(t, phase.pm_window_open))
        or (phase.pm_window_close is not None and t >= phase.pm_window_close)
    ):
        out.alert("pm_window", **said)
        return False
    if t is not None and phase.deadline is not None and t > phase.deadline:
        out.alert("after_deadline", **said)
        return False
    which = skills.night_phases.get(action)
    deadline = phase.phase_deadlines.get(which) if which else None
    if deadline is not None and t is not None and t > deadline:
        out.alert("phase_deadline", **said, phase=which)
        return False
    opens = phase.phase_deadlines.get(which - 1) if which else None  # 夜晚2 opens as 夜晚1 closes
    if opens is not None and t is not None and t < opens:
        out.alert("phase_not_open", **said, phase=which)
        return False
    # A-S2, RES-A21: the GM answered the unit's divination: both seers of the unit are locked
    if action in skills.answer_locks and any(q.name in phase.seer_answered for q in (sender, *ctx.unit_of(sender))):
        out.alert("seer_locked", **said)
        return False
    if action == "kill" and _off_duty(ctx, sender):
        out.alert("off_duty_killer", **said, on_duty=phase.on_duty_killer)
        return False
    return True


def _surely_before(t: datetime, opening: datetime) -> bool:
    """Whether a PM stamped ``t`` was surely sent before ``opening``. A time on a whole minute
    is a time shown to the minute (the inbox): the PM may have been sent at any second of it,
    and the player gets the benefit of the doubt (a PM at :40 of the minute of an announcement
    posted at :25 belongs to the window it opened)."""
    if t.second == 0 and t.microsecond == 0:
        return t + timedelta(minutes=1) <= opening
    return t < opening


def _off_duty(ctx: GameContext, sender: PlayerInfo) -> bool:
    """game6-8 (RES-A1): not the on-duty killer's night; once he is dead the survivor kills
    every night (RES-A2)."""
    on_duty = ctx.phase.on_duty_killer
    if not on_duty or on_duty == ctx.phase.seat(sender.name):
        return False
    holder = ctx.player(on_duty)
    return holder is None or holder.alive


def in_step(ctx: GameContext, action: str) -> bool:
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
        out.alert("extra_divination_used", verb=p.verb)
        return False
    deadline = phase.extra_divination_deadline
    if deadline is None and phase.vote_close is not None:
        deadline = phase.vote_close - timedelta(hours=1)
    if deadline is not None and t is not None and t > deadline:
        out.alert("extra_divination_deadline", verb=p.verb)
        return False
    return True


def _target_ok(out: Collector, p: Parsed, action: str, target: PlayerInfo) -> bool:
    """Target legality: alive, self-targeting, generals, once-per-character skills."""
    sender = out.sender
    assert sender is not None
    problem = _target_problem(out.ctx, sender, action, target)
    if problem is None:
        return True
    kind, why_template = problem
    roles = {"role": _role_cn(out.ctx, sender), "target_role": _role_cn(out.ctx, target)}
    why = out.render(why_template, target=target.name, **roles)
    # What the player is told may not rest on secrets: the wolf camp's size after a 私奔 is not
    # his to know (RES-W12), so that refusal gives a reason that holds whatever the size.
    reason = out.render("reason_wrong_phase") if why_template in _SECRET_WHY else why.lstrip("：")
    out.alert(kind, "alert_target", verb=p.verb, target=target.name, why=why, reason=reason)
    if kind == "lone_killer_suicide":
        # RES-A4: refused at once, yet it is his latest PM: it supersedes his earlier target
        # (if it still stands at dawn there is no kill), so the rules core must see it.
        out.commands.append(IntakeCommand(action, sender.name, target.name, out.base_extra()))
    return False


# Target rules whose reason rests on what the sender may not know.
_SECRET_WHY = frozenset({"alert_why_few_wolves"})


def _target_problem(
    ctx: GameContext, sender: PlayerInfo, action: str, target: PlayerInfo
) -> tuple[str, str] | None:
    """The first target rule ``action`` on ``target`` breaks: ``(alert kind, why template)``
    (an ``alert_why_*`` template with ``$target``, ``$role`` and ``$target_role``)."""
    phase, rules = ctx.phase, ctx.profile.targets
    is_self = target.name == sender.name
    if is_self and action in rules.no_self:  # also when he names himself as he goes out (殉职)
        return "self_target", "alert_why_self_target"
    if not target.alive:
        return "dead_target", "alert_why_dead_target"
    last_of = rules.last_of_team_not_self.get(action)
    wolves = [q for q in ctx.players if q.alive and q.team == "wolves"]
    vision = phase.witch_vision
    checks = (
        (is_self and action in rules.no_self, "self_target", "alert_why_self_target"),
        (is_self and last_of is not None
         and sum(1 for q in ctx.players if q.alive and q.team == last_of) <= 1,
         "lone_killer_suicide", "alert_why_lone_killer"),
        (action in rules.not_on_partner and target.role == sender.role and target.team == sender.team,
         "self_target", "alert_why_partner"),
        (target.role in rules.not_on_roles.get(action, ()), "general_target", "alert_why_general"),
        (action == "swap_general" and phase.swaps_left.get(sender.name, 1) <= 0,
         "no_swaps_left", "alert_why_no_swaps"),
        (action == "guard" and target.name in phase.guarded_before, "guard_once", "alert_why_guarded"),
        (action == "silence_guard" and target.name in phase.silenced_before,
         "silence_once", "alert_why_silenced"),
        (action == "heal" and vision is not None and target.name not in vision,
         "heal_not_in_vision", "alert_why_not_in_vision"),
        (action == "lone_wolf" and target.role != "werewolf", "invalid_target", "alert_why_not_werewolf"),
        (action == "lone_wolf" and len(wolves) <= 2, "invalid_target", "alert_why_few_wolves"),
    )  # fmt: skip
    return next(((kind, why) for broken, kind, why in checks if broken), None)


def _platform_ok(out: Collector, p: Parsed, target: PlayerInfo, extra: dict) -> bool:
    """A cannon's 炮架子 [CH:L58]: living, not a general, not the target, not the cannon."""
    _ctx, sender = out.ctx, out.sender
    assert sender is not None
    ref = p.platform
    if ref is None or not ref.written:
        why = out.render("why_no_platform")
        out.alert("invalid_platform", "alert_no_platform", verb=p.verb, target=target.name, reason=why)
        return False
    word = out.render("platform_word")
    if p.platforms:
        names = receipts.names(out.ctx, [ref.written] + [r.written for r in p.platforms])
        out.alert("action_conflict", verb=word, target=names, names=names)
        return False
    if out.name_problem(ref, word, verb=p.verb):
        return False
    platform = out.player_of(ref)
    problem = None
    if not platform.alive:
        problem = "why_platform_dead"
    elif platform.role == "general":
        problem = "why_platform_general"
    elif platform.name == target.name:
        problem = "why_platform_target"
    elif platform.name == sender.name:
        problem = "why_platform_self"
    if problem:
        why = out.render(problem, platform=platform.name)
        out.alert("invalid_platform", verb=p.verb, target=target.name, why=why, reason=why)
        return False
    extra["platform"] = platform.name
    return True


def _flags(out: Collector, p: Parsed, action: str, target: PlayerInfo, extra: dict) -> list[str]:
    """Accepted, but the GM should know: short or missing kill posts, a swap on an enemy.
    Returns the notes for the receipt."""
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    notes: list[str] = []
    post = ctx.profile.kill_post
    if post is not None and action in post.skills:
        notes += _kill_post(out, p, target, post, extra)
    if action == "swap_general" and sender.team and target.team and sender.team != target.team:
        # The camp of a living player is secret (§4.1): only the GM hears of it.
        out.alert("swap_enemy", target=target.name)
    return notes


def _kill_post(out: Collector, p: Parsed, target: PlayerInfo, post: KillPost, extra: dict) -> list[str]:
    """The declaration (杀人宣言 / 杀人帖) a kill comes with: its length for the rules core, and
    an alert and a note when it is missing or short. 宣言同上 takes the sender's own earlier
    declaration; a joint unit's kill has one when a partner's latest kill on the same target
    carries one (A-J3, RES-A5), so the sender is not told his own is missing."""
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    earlier = ctx.phase.declared.get(sender.name)
    body = "" if p.declaration_same else p.declaration or ""  # 宣言同上 is not a declaration
    chars = count_chars(body)
    if p.declaration_same and earlier is not None:
        extra.update({"declaration_same": True, "declaration_chars": earlier.chars})
        extra["declaration_missing"] = False
        chars = earlier.chars
    else:
        extra.update({"declaration": body, "declaration_chars": chars})
        extra["declaration_missing"] = chars == 0
    if p.story:
        extra["story"] = True
    partner = next(
        (q.name for q in ctx.partners_of(sender)
         if (d := ctx.phase.declared.get(q.name)) is not None and d.latest
         and d.target == target.name and d.chars > chars),
        None,
    )  # fmt: skip
    if partner is not None and (chars == 0 or ctx.phase.declared[partner].chars >= post.minimum):
        # the unit's declaration is the longest an agreeing member gives (RES-A5)
        extra["declaration_by"] = partner
        return []
    if post.required and chars == 0:
        out.alert("declaration_missing", target=target.name, label=post.label)
        return [out.render("note_post_missing", label=post.label)]
    if chars < post.minimum and not (p.story and post.story_exempt):
        sizes = {"label": post.label, "chars": chars, "minimum": post.minimum}
        out.alert(post.short_alert, "alert_post_short", **sizes)
        return [out.render("note_post_short", **sizes)]
    return []


# -- special commands ---------------------------------------------------------------------------
def _delegate(out: Collector, p: Parsed) -> None:
    """委托投票 by PM (family A, D-D)."""
    ctx, sender, t = out.ctx, out.sender, out.t
    assert sender is not None
    delegating = receipts.verb(ctx, "delegate_vote")
    phase = ctx.phase
    if not ctx.profile.ballots.delegated or sender.name in phase.summoned:
        # a summoned victim's ballot is a post in the vote thread (D-4), never a delegation
        template = "alert_wrong_channel_summoned_pm" if sender.name in phase.summoned else None
        out.alert(
            "wrong_channel", template or "alert_wrong_channel_ballot_pm", verb=receipts.verb(ctx, "vote"),
            reason_template="reason_wrong_channel_ballot",
        )  # fmt: skip
        return
    if p.intents[0] == "delegate_abstain":
        out.alert("abstain_not_allowed", "alert_delegation_abstain", verb=delegating)
        return
    if not sender.alive:
        out.alert("dead_actor", "alert_delegation_dead", verb=delegating)
        return
    if phase.kind == NIGHT:  # the next vote is not open yet: not "closed" (newcomer N17)
        out.alert("no_vote_open", verb=delegating, reason_template="reason_delegation_not_open")
        return
    if phase.vote_close is not None and t is not None and t >= phase.vote_close:
        out.alert("vote_closed", verb=delegating)
        return
    if phase.bound == phase.seat(sender.name):
        out.alert("not_eligible", verb=delegating)
        return
    if sender.name in phase.delegations_published:
        out.alert("delegation_published", verb=delegating)
        return
    if phase.ballots.get(sender.name):
        out.alert("delegation_overridden", verb=delegating)
        return
    if out.name_problem(p.target, p.verb, verb=delegating):
        return
    target = out.player_of(p.target)
    if not target.alive:
        out.alert("dead_target", "alert_delegation_dead_target", verb=delegating, target=target.name)
        return
    if phase.candidates and target.name not in phase.candidates:
        out.alert(
            "not_a_candidate", "alert_delegation_not_a_candidate", verb=delegating, target=target.name
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
    out.alert("delegation_to_player", verb=receipts.verb(out.ctx, "delegate_vote"), delegate=who)


def _last_words(out: Collector, p: Parsed, *, text: str | None = None) -> None:
    """遗言 from a victim who may leave them (§1.6 D-3 accusations, §4.6 step 10, §5.4)."""
    ctx, sender, t = out.ctx, out.sender, out.t
    assert sender is not None
    phase = ctx.phase
    body = p.declaration if text is None else text
    grants = phase.last_words_granted
    # A ruleset that names who may leave last words (werewolf, chess32) grants nobody else; in
    # family A, with no list given, every dead player may.
    named = ctx.profile.last_words.notice is not LastWordsNotice.NONE
    granted = sender.name in grants if grants is not None else not named and not sender.alive
    if not granted:
        out.alert("last_words_not_granted", verb=receipts.verb(ctx, "last_words"))
        return
    if phase.last_words_deadline is not None and t is not None and t > phase.last_words_deadline:
        out.alert("last_words_late", verb=receipts.verb(ctx, "last_words"))
        return
    chars = count_chars(body or "")
    rules = ctx.profile.last_words
    if rules.max_chars is not None and chars > rules.max_chars:
        out.alert(
            "last_words_too_long", verb=receipts.verb(ctx, "last_words"), chars=chars,
            maximum=rules.max_chars,
        )  # fmt: skip
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
    declaring = receipts.verb(ctx, "kill_declaration")
    powers = ctx.powers_of(sender)
    post = ctx.profile.kill_post
    if post is None or not powers & post.skills:
        out.alert(
            "no_power", "alert_no_power_declaration", verb=declaring, role=_role_cn(ctx, sender)
        )
        return
    if not sender.alive:
        out.alert("dead_actor", "alert_dead_actor_declaration", verb=declaring)
        return
    extra = out.base_extra()
    kill = next(iter(sorted(powers & post.skills)))
    # the kill's window, its night and its killer (A-S1, RES-A1)
    if not _timing_ok(out, replace(p, verb=declaring), kill, extra):
        return
    body = p.declaration or ""
    chars = count_chars(body)
    extra.update(
        {"declaration": body, "declaration_chars": chars, "declaration_missing": chars == 0}
    )
    if p.story:
        extra["story"] = True
    notes = []
    if chars < post.minimum and not (p.story and post.story_exempt):
        sizes = {"label": post.label, "chars": chars, "minimum": post.minimum}
        out.alert(post.short_alert, "alert_post_short", **sizes)
        notes.append(out.render("note_declaration_short", **sizes))
    cmd = IntakeCommand("kill_declaration", sender.name, None, extra)
    out.accept(cmd, notes)


def _speed(out: Collector, p: Parsed) -> None:
    """同意第N天加速 / 减速 in a werewolf 功能树洞 (W-D7). 同意加速 without a day agrees to the
    day in play (at night: the coming day), and the receipt names it."""
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    if not ctx.profile.clock.speed_up or not sender.alive:
        return
    extra = out.base_extra()
    day = p.number
    if day is None and ctx.phase.number is not None:
        day = ctx.phase.number + (1 if ctx.phase.kind == NIGHT else 0)
    if day is not None:
        extra["day"] = day
    if p.withdrawn:
        extra["withdrawn"] = True
    cmd = IntakeCommand(p.intents[0], sender.name, None, extra)
    out.accept(cmd)


def resolve_conflicts(out: Collector) -> None:
    """Several commands for the same action in one text. Where the latest reply counts
    (werewolf, W-D1), the last one stands, unless an earlier one was locked with 确定: then a
    later, different one is refused (``locked``). Elsewhere two different targets are an
    alert and neither counts; the same target twice is kept once."""
    latest = out.ctx.profile.skills.latest_line_counts
    by_action: dict[str, list[IntakeCommand]] = {}
    for cmd in out.commands:
        by_action.setdefault(cmd.action, []).append(cmd)
    dropped: set[int] = set()
    for action, cmds in by_action.items():
        if action in ("last_words", "speed_up", "slow_down", "kill_declaration") or len(cmds) < 2:
            continue
        verb = receipts.verb(out.ctx, action)
        key = [(c.target, c.extra.get("platform"), c.extra.get("target2")) for c in cmds]
        locked = next((i for i, c in enumerate(cmds) if c.extra.get("confirm")), None)
        if latest and locked is not None:
            dropped.update(id(c) for c in cmds if c is not cmds[locked])
            for c, k in zip(cmds[locked + 1 :], key[locked + 1 :], strict=True):
                if k != key[locked]:
                    out.alert("locked", verb=verb, target=c.target)
        elif latest or len(set(key)) == 1 or cmds[-1].extra.get("withdraw"):
            dropped.update(id(c) for c in cmds[:-1])  # (占卜X⏎算了不占卜了: taken back, nothing stands)
        else:
            names = receipts.names(out.ctx, sorted({c.target or "" for c in cmds}))
            out.alert(
                "action_conflict", "alert_action_conflict_lines", verb=verb, target=names, names=names
            )
            dropped.update(id(c) for c in cmds)
            # a kill that does not stand misses no declaration (杀老王，杀Rex: the conflict only)
            out.alerts[:] = [a for a in out.alerts if not (
                a.kind in DECLARATION_ALERTS and a.action == action and a.target in {c.target for c in cmds})]
    if dropped:
        out.drop(dropped)


# The alerts about a kill's declaration: moot for a kill that does not stand.
DECLARATION_ALERTS = frozenset({"declaration_missing", "declaration_short"})


def is_skill(p: Parsed) -> bool:
    """True for a role power (not a vote, last words or speed-up)."""
    return p.intents[0] not in (
        "delegate_vote", "delegate_abstain", "delegate_to_player", "last_words",
        "kill_declaration", "speed_up", "slow_down",
    )  # fmt: skip


__all__ = ["validate_action", "resolve_conflicts", "last_words_from_post", "is_skill", "in_step", "NameRef"]
