"""Receipts (回执): the PM text that tells a player what the GM's messenger understood.

An accepted action: ``已收到：今晚占卜 小明，天亮前可更改``. A rejected one:
``未受理：占卜 小鸣——没有找到玩家「小鸣」（是否指：小明？）``. Every text is a template of
:mod:`shenshi.wording` (``receipt_*``, ``reason_*``), rendered with the game's templates; action
names come from the ruleset's catalog. The daemon puts receipts in the outbox like any
announcement (paced to the forum's flood limit); ``GameContext.receipts`` switches them off.
"""

from __future__ import annotations

from collections.abc import Sequence

from shenshi.intake.context import SIGNIN, GameContext
from shenshi.intake.model import IntakeCommand
from shenshi.wording import Templates

# Skills not bound to tonight or today (the receipt does not say 今晚).
_UNTIMED = frozenset({"sheriff_successor", "lone_blade", "lone_wolf"})


def until(ctx: GameContext, cmd: IntakeCommand) -> str:
    """Until when an accepted skill may still change, as the ruleset's profile says; where the
    step ends as soon as everything is in (RULES.md "Early close"), only until it is settled:
    a receipt never promises a change the step's early end makes impossible."""
    t, skills = ctx.templates, ctx.profile.skills
    if cmd.extra.get("confirm"):
        return t.render("receipt_until_locked")
    if cmd.action in skills.anytime:  # applied as it arrives (【殉职】 hands the badge on at once: gmattack W9)
        return t.render("receipt_until_at_once")
    if cmd.extra.get("extra_divination"):
        return t.render("receipt_until_first")
    if ctx.phase.kind == SIGNIN:  # before night 1: no dawn to speak of yet
        return t.render("receipt_until_deadline")
    if cmd.action in skills.answer_locks:
        return t.render("receipt_until_answer")
    if ctx.phase.closes_early:
        return t.render("receipt_until_settled")
    phase = skills.night_phases.get(cmd.action)
    closes = ctx.phase.phase_deadlines.get(phase) if phase is not None else None
    if closes is not None:  # werewolf: until its night phase closes (W-D1)
        shown = (ctx.local_iso(closes) or "").replace("T", " ")[:16]
        return t.render("receipt_until_phase", phase=phase, deadline=shown)
    deadline = ctx.local_iso(ctx.phase.deadline)
    if deadline is not None:
        return t.render("receipt_until_time", deadline=deadline.replace("T", " ")[:16])
    return t.render(skills.change_note)


def names(ctx: GameContext, items: Sequence[str]) -> str:
    """Names joined as receipts and alerts join them (、)."""
    return ctx.templates.render("receipt_name_separator").join(items)


def verb(ctx: GameContext, action: str) -> str:
    """The Chinese name of ``action`` in this game's ruleset."""
    return ctx.info.action_name(action)


def accepted(ctx: GameContext, cmd: IntakeCommand) -> str:
    """The receipt for a command that was accepted."""
    t = ctx.templates
    word = verb(ctx, cmd.action)
    when = t.render("receipt_tonight" if ctx.phase.kind in (None, "night") else "receipt_today")
    if cmd.action == "delegate_vote":
        return t.render("receipt_delegation", verb=word, target=cmd.target)
    if cmd.action == "last_words":
        accused = cmd.extra.get("accused") or []
        tail = t.render("receipt_accused", names=names(ctx, accused)) if accused else ""
        return t.render("receipt_last_words", chars=cmd.extra.get("chars", 0), accused=tail)
    post = ctx.profile.kill_post
    label = post.label if post is not None else verb(ctx, "kill_declaration")
    if cmd.action == "kill_declaration":
        return t.render("receipt_declaration", label=label, chars=cmd.extra.get("declaration_chars", 0))
    if cmd.action == "speed_up" and "day" in cmd.extra:
        which = "receipt_speed_up_withdrawn" if cmd.extra.get("withdrawn") else "receipt_speed_up"
        return t.render(which, day=cmd.extra["day"])
    if cmd.action in ("speed_up", "slow_down"):
        return t.render("receipt_plain", verb=word)
    if cmd.extra.get("withdraw"):  # (nothing stands to lock with 确定: adversary7 D5)
        note = until(ctx, cmd).split("，另起一行", 1)[0]
        return t.render("receipt_withdrawn", when=when, verb=word, note=note)
    fields = {"when": when, "verb": word, "target": cmd.target}
    if cmd.action == "cannon_kill":
        what = t.render("receipt_what_cannon", platform=cmd.extra.get("platform"), **fields)
    elif cmd.action == "pair_lovers":
        what = t.render("receipt_what_lovers", target2=cmd.extra.get("target2"), **fields)
    elif cmd.action == "pray":
        what = t.render("receipt_what_pray", **fields)
    elif cmd.action in _UNTIMED:
        what = t.render("receipt_what_untimed", **fields)
    else:
        what = t.render("receipt_what", **fields)
    if cmd.action in ("kill", "cannon_kill") and "declaration_chars" in cmd.extra:
        if cmd.extra.get("declaration_by"):
            what += t.render("receipt_post_partner", label=label, partner=cmd.extra["declaration_by"])
        elif cmd.extra.get("declaration_same"):
            what += t.render("receipt_post_same", label=label, chars=cmd.extra["declaration_chars"])
        elif cmd.extra.get("declaration_missing"):
            what += t.render("receipt_post_missing", label=label)
        else:
            what += t.render("receipt_post_chars", label=label, chars=cmd.extra["declaration_chars"])
    if cmd.action == "kill" and _in_pack(ctx, cmd.actor):  # a wolf's kill is the pack's (wolfadv W16)
        what += t.render("receipt_pack_kill")
    return t.render("receipt_accepted", what=what, note=until(ctx, cmd))


def _in_pack(ctx: GameContext, name: str) -> bool:
    """Whether ``name`` plays a role whose holders share one kill (werewolves)."""
    player = ctx.player(name)
    role = ctx.info.roles.get(player.role or "") if player is not None else None
    return role is not None and role.pack


def with_notes(ctx: GameContext, text: str, notes: Sequence[str]) -> str:
    """An accepted receipt with notes for the player (the GM will still look at them)."""
    if not notes:
        return text
    joined = ctx.templates.render("receipt_note_separator").join(notes)
    return ctx.templates.render("receipt_notes", text=text, notes=joined)


def rejected(templates: Templates, what: str, target: str | None, why: str) -> str:
    """The receipt for a command that was refused, saying why and what the player can do."""
    shown = f"{what} {target}".strip() if target else what
    return templates.render("receipt_rejected", what=shown, why=why)
