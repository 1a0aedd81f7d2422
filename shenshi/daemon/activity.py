"""Sign-in and lurking (潜水) for the daemon: who has not posted, and what to propose.

Family A (§1.10): every player signs in by replying to the player list within 24 h; a living
player with no post on the game board for 48 h has left automatically. The daemon never
removes anyone by itself: it proposes a notice and raises an alert, and the GM confirms with
``shenshi override exit NAME`` (or brings in a substitute). chess32 counts analysis posts per
game day inside the rules core (warnings, replacement at 2); werewolf penalty points are the
referee's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from shenshi.rulesets.family_a import clock as family_a_clock


@dataclass(frozen=True)
class Absence:
    """A player who missed the sign-in or has been silent too long."""

    name: str
    kind: str  # "signin" or "lurk"
    since: datetime  # the last post (or the player list)


def missed_sign_in(
    players: Iterable[str], start: datetime, signed: Mapping[str, datetime]
) -> list[Absence]:
    """Players with no reply to the player list within 24 h of it."""
    events = [{"kind": "signin", "actor": n, "t": t} for n, t in signed.items()]
    return [Absence(n, "signin", start) for n in family_a_clock.missed_sign_in(list(players), start, events)]


def lurking(
    players: Iterable[str], start: datetime, now: datetime, last_post: Mapping[str, datetime]
) -> list[Absence]:
    """Living players with no post on the game board for 48 consecutive hours."""
    events = [{"kind": "post", "actor": n, "t": t} for n, t in last_post.items()]
    return [
        Absence(n, "lurk", max(last_post.get(n, start), start))
        for n in family_a_clock.lurkers(list(players), start, now, events)
    ]
