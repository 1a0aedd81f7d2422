"""shenshi.intake: from posts and PMs to game commands, GM alerts and receipts.

Public API (pure functions, no I/O)::

    read_post(ctx, post) -> IntakeResult        # a thread post (Post)
    read_pm(ctx, pm) -> IntakeResult            # a PM to the GM (PrivateMessage)
    read_post_edit(ctx, first, revision) -> IntakeResult   # an edit that changes a ballot
    read_gm_entry(ctx, actor, text, at) -> IntakeResult    # an action the GM enters (override action)

``ctx`` is a frozen :class:`GameContext`; see ``docs/intake.md`` for the grammar and every
alert kind.
"""

from __future__ import annotations

from shenshi.intake.alerts import ALERT_KINDS
from shenshi.intake.context import CountedBallot, GameContext, PhaseFacts, PlayerInfo
from shenshi.intake.model import Alert, IntakeCommand, IntakeResult, Receipt
from shenshi.intake.read import read_gm_entry, read_pm, read_post, read_post_edit

__all__ = [
    "ALERT_KINDS",
    "Alert",
    "CountedBallot",
    "GameContext",
    "IntakeCommand",
    "IntakeResult",
    "PhaseFacts",
    "PlayerInfo",
    "Receipt",
    "read_gm_entry",
    "read_pm",
    "read_post",
    "read_post_edit",
]
