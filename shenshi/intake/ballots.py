"""Ballots in thread posts, validated against the round (RULES.md §1.6, §4.7, §5.6).

One post gives at most one ballot. Two different targets, a conditional or questioning
ballot, an unknown name: an alert and no ballot. Abstention and changes follow the ruleset's
profile (``BallotRules``): family A's first ballot is final (D-I); chess32 allows one change
per round and none in the last hour (RES-C28); werewolf counts the latest ballot (RES-W6).
Re-posting the current target is not a change and yields nothing.
"""

from __future__ import annotations

from shenshi.intake import receipts
from shenshi.intake.collect import Collector
from shenshi.intake.context import DAY
from shenshi.intake.grammar import Parsed
from shenshi.intake.model import ABSTAIN, VOTE, IntakeCommand


def validate_ballots(out: Collector, ballots: list[Parsed]) -> None:
    """Turn the ballots written in one post into at most one vote or abstain command."""
    ctx, sender, t = out.ctx, out.sender, out.t
    assert sender is not None
    phase = ctx.phase
    qualified = next((b for b in ballots if b.conditional), None)
    if qualified is not None and all(b.conditional for b in ballots):
        out.alert("conditional_vote", ballot=qualified.verb)  # 如果…就投他, 投A？还是B？
        return
    either = next((b for b in ballots if b.alternatives), None)
    if either is not None:
        written = [r.written for r in (either.target, *either.more_targets) if r is not None]
        out.alert("alternatives", verb=None, names=receipts.names(ctx, written))
        return
    for b in ballots:
        if b.intents == ("vote",) and out.name_problem(b.target, b.verb):
            return
        for ref in b.more_targets:
            if out.name_problem(ref, b.verb):
                return
    choices: list[str | None] = []
    for b in ballots:
        value = out.player_of(b.target).name if b.intents == ("vote",) else None
        if value not in choices:
            choices.append(value)
        for ref in b.more_targets:
            name = out.player_of(ref).name
            if name not in choices:
                choices.append(name)
    if len(choices) > 1:
        abstain = out.render("abstain_word")
        names = receipts.names(ctx, [abstain if c is None else c for c in choices])
        last = ballots[-1]
        if last.correction and len(choices) == 2:
            # A correction that did not replace the ballot before it: asked or conditional
            # (更正：投B？), or after an edit note (（编辑：改投B）): the GM is told which and why.
            why = "why_correction_qualified" if last.conditional else "why_correction_edited"
            first, second = (abstain if c is None else c for c in choices)
            out.alert(
                "vote_conflict", "alert_vote_conflict_correction", first=first, second=second,
                why=out.render(why),
            )  # fmt: skip
            return
        out.alert("vote_conflict", names=names)
        return
    if qualified is not None:
        out.alert("conditional_vote", ballot=qualified.verb)
        return
    choice = choices[0]
    if not sender.alive and sender.name not in phase.summoned:
        out.alert("dead_actor", "alert_dead_actor_ballot")
        return
    if sender.name in phase.sent_off:
        out.alert("sent_off", "alert_sent_off_ballot")
        return
    if phase.kind is not None and (phase.kind != DAY or phase.vote_round is None):
        out.alert("no_vote_open")
        return
    if phase.vote_close is not None and t is not None and t >= phase.vote_close:
        out.alert("no_vote_open", "alert_no_vote_open_late")
        return
    if phase.vote_open is not None and t is not None and t < phase.vote_open:
        out.alert("no_vote_open", "alert_no_vote_open_early")
        return
    if phase.bound == phase.seat(sender.name):
        out.alert("not_eligible")
        return
    rules = ctx.profile.ballots
    if choice is None and not rules.abstain:
        out.alert("abstain_not_allowed")
        return
    if choice is not None:
        target = ctx.player(choice)
        assert target is not None
        if not target.alive:
            out.alert("dead_target", "alert_dead_target_ballot", target=choice)
            return
        if phase.candidates and choice not in phase.candidates:
            out.alert("not_a_candidate", target=choice)
            return
    extra = out.base_extra()
    if phase.vote_round:
        extra["round"] = phase.vote_round
    if sender.name in phase.summoned:
        extra["summoned"] = True
    earlier = phase.ballots.get(sender.name, ())
    if earlier:
        current = earlier[-1].target
        if current == choice:
            return  # the same ballot again: not a change, nothing to count
        abstain = out.render("abstain_word")
        shown = abstain if choice is None else choice
        was = abstain if current is None else current
        if rules.changes == 0:
            out.alert("vote_immutable", target=shown, was=was)
            return
        if rules.changes is not None and len(earlier) > rules.changes:
            out.alert("change_limit", target=shown)
            return
        freeze = rules.no_change_before_close
        if freeze and phase.vote_close is not None and t is not None and t >= phase.vote_close - freeze:
            out.alert("last_hour_change", target=shown)
            return
        extra["change"] = True
    action = VOTE if choice is not None else ABSTAIN
    out.commands.append(IntakeCommand(action, sender.name, choice, extra))
