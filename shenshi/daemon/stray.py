"""Stray ballots (issue 20, D-I): a ballot in command form (``投票：X``) posted in a thread the
game reads where ballots do not count (the discussion, analysis and chat threads) is not
counted. Intake raises one ``vote_wrong_thread`` alert (the GM may count it, ``override
ballot``, while the round is open); the voter is told, while the round is open, that it does
not count and to vote in the vote thread before the close. That PM is moot once the voter's
seat has a ballot in the round (he voted again, or the GM counted it) or the round is over.

A ballot posted in the vote thread that could not be counted (a name nobody has, two targets,
a condition, no ballot form, a player already out: gmattack3 F4) is told the same way
(``vote_unread``): its voter believes he voted.

The PM's key ends in the round it is about (``{game}:reply:{evidence}:vote_wrong_thread:day1.r1``).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from shenshi.daemon import notices
from shenshi.daemon.announce import Draft
from shenshi.daemon.hints import ballot_step
from shenshi.daemon.timeline import NOT_YET
from shenshi.intake import IntakeResult
from shenshi.intake.context import CHAT_THREAD, VOTE_THREAD, GameContext
from shenshi.records import Post
from shenshi.rulesets.base import Phase

if TYPE_CHECKING:
    from shenshi.daemon.referee import Referee

KIND = "vote_wrong_thread"  # the alert's kind, and the PM's
UNREAD_KIND = "vote_unread"  # the PM to whoever's ballot in the vote thread could not be counted
# The alerts of a ballot in the vote thread that was not counted and that its voter can fix.
UNREAD = frozenset({"unknown_name", "ambiguous_name", "missing_target", "vote_conflict", "conditional_vote",
                    "alternatives", "possible_ballot", "self_by_other_name", "dead_target"})  # fmt: skip
KINDS = frozenset({KIND, UNREAD_KIND})


def notices_for(referee: Referee, result: IntakeResult, post: Post, evidence: str, ctx: GameContext) -> list[Draft]:
    """The PM to each voter whose ballot in ``post`` is stray, if the round it was posted in
    is open then (its vote opened, not yet closed) and is still the open one."""
    state, times = referee.state, referee.times()
    if times is None or state.phase is not Phase.DAY or not state.round or state.outcome is not None:
        return []
    opens, closes = times.rounds.get(state.round, (times.opens, times.closes))
    # before the day's vote opens too: it would never count, and nobody else tells him (newcomer2 F10)
    early = state.round == 1 and post.posted_at < opens < NOT_YET
    if not (opens <= post.posted_at < closes or early):
        return []
    where = ctx.threads.get(post.tid, ctx.other_threads)
    thread = referee.templates.render("thread_word_chat" if where == CHAT_THREAD else "thread_word_discussion")
    step = ballot_step(state)
    drafts = [] if early else unread_notices(referee, result, post, evidence, ctx, closes)
    for voter in dict.fromkeys(a.subject for a in result.alerts if a.kind == KIND and a.subject):
        if not stands(referee, voter, step):
            continue
        text = referee.templates.render(
            "vote_wrong_thread_early_notice" if early else "vote_wrong_thread_notice",
            at=notices.clock_time(post.posted_at, referee.tz), thread=thread,
            opens=notices.clock_time(opens, referee.tz), closes=notices.clock_time(closes, referee.tz),
        )  # fmt: skip
        key = f"{referee.keys.reply(evidence, KIND)}:{step}"
        drafts.append(Draft(key, KIND, "pm", voter, text, (evidence,)))
    return drafts


def unread_notices(
    referee: Referee, result: IntakeResult, post: Post, evidence: str, ctx: GameContext, closes: datetime
) -> list[Draft]:
    """The PM to a voter whose ballot in the vote thread could not be counted (a name nobody
    has, two targets, a condition…: wolfadv W6, newcomer N-11): he believes he voted, and a
    missing ballot costs his seat where ballots are compulsory (RES-A18)."""
    if ctx.threads.get(post.tid, ctx.other_threads) != VOTE_THREAD:
        return []
    counted = {c.actor for c in result.commands}
    step = ballot_step(referee.state)
    drafts = []
    for a in result.alerts:
        if a.kind not in UNREAD or not a.subject or a.subject in counted or not stands(referee, a.subject, step):
            continue
        # (a name nobody has, or 他: no name written at all, newcomer2 F3)
        why = "vote_unread_pronoun" if a.kind == "unknown_name" and not a.target else f"vote_unread_{a.kind}"
        text = referee.templates.render(
            "vote_unread_notice", at=notices.clock_time(post.posted_at, referee.tz),
            why=referee.templates.render(why, target=a.target or ""), closes=notices.clock_time(closes, referee.tz),
        )  # fmt: skip
        drafts.append(Draft(f"{referee.keys.reply(evidence, UNREAD_KIND)}:{step}", UNREAD_KIND, "pm", a.subject, text, (evidence,)))
        break  # (one PM per post)
    return drafts


def stands(referee: Referee, voter: str, step: str) -> bool:
    """Whether the PM telling ``voter`` his ballot of round ``step`` was stray still holds: that
    round is open and his seat has no ballot in it yet."""
    state = referee.state
    if state.phase is not Phase.DAY or not state.round or state.outcome is not None or ballot_step(state) != step:
        return False
    seat = {new: old for old, new in state.pending_substitutions}.get(voter, voter)  # a substitute entering
    return not any(b.voter == seat and b.round == state.round for b in state.ballots)


__all__ = ["KIND", "KINDS", "UNREAD_KIND", "notices_for", "stands", "unread_notices"]
