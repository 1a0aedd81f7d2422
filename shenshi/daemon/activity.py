"""Sign-in and lurking (潜水) for the daemon: who has not posted, and what to propose.

The windows are the ruleset's (``profile.clock.sign_in``, ``.lurking``). Family A (§1.10):
every player signs in by replying to the player list within 24 h; a living player with no
post on the game board for 48 h has left automatically. The daemon never
removes anyone by itself: it proposes a notice and raises an alert, and the GM confirms with
``shenshi override exit NAME`` (or brings in a substitute). chess32 counts analysis posts per
game day inside the rules core (warnings, replacement at 2); werewolf penalty points are the
referee's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from shenshi.rulesets.common import missed_sign_in as not_signed_in
from shenshi.rulesets.common import silent_players
from shenshi.rulesets.profile import ClockRules


@dataclass(frozen=True)
class Absence:
    """A player who missed the sign-in or has been silent too long."""

    name: str
    kind: str  # "signin" or "lurk"
    since: datetime  # the last post (or the player list)


def missed_sign_in(
    rules: ClockRules, players: Iterable[str], start: datetime, signed: Mapping[str, datetime]
) -> list[Absence]:
    """Players with no reply to the player list within the ruleset's sign-in window."""
    if rules.sign_in is None:
        return []
    return [Absence(n, "signin", start) for n in not_signed_in(list(players), start, signed, rules.sign_in)]


def lurking(
    rules: ClockRules,
    players: Iterable[str],
    start: datetime,
    now: datetime,
    last_post: Mapping[str, datetime],
) -> list[Absence]:
    """Living players with no post on the game board for the ruleset's lurking window."""
    if rules.lurking is None:
        return []
    return [
        Absence(n, "lurk", max(last_post.get(n, start), start))
        for n in silent_players(list(players), start, now, last_post, rules.lurking)
    ]
