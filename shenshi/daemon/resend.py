"""Refused PMs the players were told to send again: they keep the open step from closing early.

RULES.md §1.10 "Early close" (decided 2026-12-01): a step is complete only when nothing the
actors were told they may still fix is outstanding, among it *a rejected PM they may resend*.
The rules core never sees such a PM (intake refused it: a misspelt name, a PM whose game is
unknown…), so the referee keeps, for the open step, each holder whose latest PM was refused
with a receipt that asks him to send it again (:data:`RESENDABLE`), until his next PM is
accepted, the GM enters or voids his action, his seat changes hands or the step ends.

After a restart the refusals come back from the stored alerts (:meth:`Awaited.recall`): one
stands unless the replayed events cleared its holder since it was sent.

Map::

    RESENDABLE                the alert kinds whose receipt invites a resend
    Refusal                   one refused PM (who, kind, when it was sent)
    Awaited                   the open step's outstanding refusals
    clearing(event)           whom an event clears (a PM accepted, a GM entry, a void…)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from shenshi.rulesets.base import (
    BallotCast,
    BallotOverridden,
    Event,
    ExitDeclared,
    PhaseOpened,
    PowerSubmitted,
    Resolved,
    SeatTakenOver,
    SubmissionVoided,
    SubstitutionScheduled,
)

# The refusals whose receipt asks the player to write it again (「请…重新发送」「请重发」「请换一个
# 对象」「请投给候选人」): ``reason_<kind>`` (``receipt_which_game`` for a PM whose game is
# unknown). A refusal nothing can fix (no such power, a dead actor, the deadline passed) does
# not keep the step open. tests/daemon/test_resend.py holds this set to the templates' texts.
RESENDABLE = frozenset({
    "unknown_name", "ambiguous_name", "missing_target", "action_conflict", "alternatives",
    "conditional_action", "change_unclear", "invalid_platform", "dead_target", "self_target",
    "general_target", "lone_killer_suicide", "guard_once", "silence_once", "last_words_too_long",
    "abstain_not_allowed", "not_a_candidate", "delegation_to_player", "pm_game_unknown",
    "self_by_other_name",
})  # fmt: skip


@dataclass(frozen=True)
class Refusal:
    """A refused PM (or post) of ``who`` sent at ``at``, its receipt inviting a resend."""

    who: str
    kind: str
    at: datetime
    evidence: str | None = None


def clearing(event: Event) -> tuple[tuple[str, datetime | None], ...]:
    """Whom ``event`` clears, and as of when (the PM's time where it is a player's, ``None``:
    when it was recorded): an accepted action or ballot, the GM's entry or void, a seat
    exited or taken over."""
    if isinstance(event, PowerSubmitted):
        return ((event.submission.actor, event.submission.t),)
    if isinstance(event, (BallotCast, BallotOverridden)):
        return ((event.ballot.voter, event.ballot.t),)
    if isinstance(event, SubmissionVoided):
        return ((event.actor, None),)
    if isinstance(event, ExitDeclared):
        return ((event.name, None),)
    if isinstance(event, (SubstitutionScheduled, SeatTakenOver)):
        return ((event.old, None),)
    return ()


class Awaited:
    """The open step's refused PMs that their senders may still send again, by holder."""

    def __init__(self) -> None:
        self.refused: dict[str, Refusal] = {}
        self._cleared: dict[str, datetime] = {}  # holder → the latest time he was cleared at

    def __bool__(self) -> bool:
        return bool(self.refused)

    def holders(self) -> tuple[str, ...]:
        """Who the step waits for, sorted."""
        return tuple(sorted(self.refused))

    def refuse(self, refusal: Refusal) -> None:
        """``refusal`` is its holder's latest PM (read now, in order)."""
        self.refused[refusal.who] = refusal

    def follow(self, event: Event, recorded: datetime | None = None) -> None:
        """What ``event`` (applied now, or replayed: ``recorded`` is when it was stored) clears:
        a step's end clears everyone."""
        if isinstance(event, (PhaseOpened, Resolved)):
            self.refused.clear()
            self._cleared.clear()
            return
        for who, at in clearing(event):
            when = at or recorded
            if who in self.refused and (when is None or when >= self.refused[who].at):
                del self.refused[who]
            if when is not None and (who not in self._cleared or when > self._cleared[who]):
                self._cleared[who] = when

    def release(self, who: str) -> None:
        """The step no longer waits for ``who``'s refused PM (its cause is gone elsewhere)."""
        self.refused.pop(who, None)

    def recall(self, refusals: Iterable[Refusal], seated: Iterable[str]) -> None:
        """The refusals stored for the open step (after a restart, the events replayed): each
        stands unless its holder was cleared at or after it was sent, or left his seat."""
        living = set(seated)
        for r in sorted(refusals, key=lambda r: r.at):
            if r.who not in living:
                continue
            cleared = self._cleared.get(r.who)
            if cleared is not None and cleared >= r.at:
                continue
            self.refused[r.who] = r
