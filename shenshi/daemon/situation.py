"""The :class:`~shenshi.daemon.hints.Situation` of a running game, read from its service: the
mode, the referee's state and rules, the substitutes on the bench, and the outbox (each post
or PM's receipts, every announcement by key). Hints, status and the console all build it here.

Map::

    situation_of(service) → Situation     now, from the store and the referee
    phase_closed(service, action) → time   when the night phase of an action closed, if it has
    facts_of(alert) → AlertFacts           a stored alert as advice reads it
    on_forum(announcement) → happenings    what an announcement out on the forum settles
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from shenshi.daemon.hints import (
    AlertFacts,
    Cause,
    Happening,
    Outgoing,
    Situation,
    answered,
    delivered,
)
from shenshi.store.records import Alert, Announcement, DestinationKind

if TYPE_CHECKING:
    from shenshi.daemon.service import GameService

RECEIPT_KINDS = frozenset({"receipt", "vote_not_open", "vote_closed", "vote_kept", "vote_wrong_thread", "vote_unread"})  # PMs that answer one post or PM


def situation_of(service: GameService, outbox: list[Announcement] | None = None) -> Situation:
    """The hints' model of ``service``'s game now (``outbox``: its announcements, if read)."""
    referee = service.referee
    assert referee is not None, "start the service first"
    if outbox is None:
        with service.store.snapshot() as uow:
            outbox = uow.outbox.announcements(service.game_id)
    receipts: dict[int, list[Outgoing]] = {}
    by_key: dict[str, Outgoing] = {}
    for a in outbox:
        out = Outgoing(a.id, a.state.value, a.destination_kind is DestinationKind.THREAD, a.key)
        by_key[a.key] = out
        if a.kind in RECEIPT_KINDS:
            for e in a.evidence_ids:
                receipts.setdefault(int(e), []).append(out)
    return Situation(
        mode=service.config.daemon.mode,
        state=referee.state,
        ruleset=service.ruleset,
        bench=tuple(service.config.game.substitutes),
        game=service.config.game.name,
        receipts={k: tuple(v) for k, v in receipts.items()},
        outbox=by_key,
        voting=(opens := referee.ballots_from()) is not None and opens <= service.clock(),
        voting_since=opens.astimezone(referee.tz).strftime("%Y-%m-%dT%H:%M:%S")
        if opens is not None and opens <= service.clock() else "",
        closed_actions=frozenset(a for a in referee.profile.skills.night_phases if phase_closed(service, a)),
        successors=dict(referee.successors),
    )


def phase_closed(service: GameService, action: str) -> datetime | None:
    """When the open night's submission phase of ``action`` closed (werewolf 夜晚1 at 00:00),
    if it has: what its close sent (the witch's 【通灵】 list, RES-W3) stands on its actions,
    which are then neither voided nor entered (wolfadv W17); ``None`` while it is open."""
    referee = service.referee
    assert referee is not None, "start the service first"
    return referee.night_phase_closed(action, service.clock())


def facts_of(alert: Alert) -> AlertFacts:
    """A stored alert as :func:`~shenshi.daemon.hints.advise` reads it."""
    return AlertFacts(
        alert.kind, alert.subject, alert.key, Cause.from_json(alert.cause), alert.evidence_id,
        alert.resolved_at is not None,
    )


def on_forum(a: Announcement, by_hand: bool = False) -> list[Happening]:
    """What an announcement on the forum (sent by the daemon, or published by the GM by hand)
    settles: alerts about its sending, and for a receipt those about what it answers."""
    if a.kind in RECEIPT_KINDS:
        return answered(a.id, [int(e) for e in a.evidence_ids], by_hand)
    return [delivered(a.id, by_hand)]


__all__ = ["RECEIPT_KINDS", "facts_of", "on_forum", "situation_of"]
