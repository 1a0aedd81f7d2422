"""Family A timeline checks (RULES.md §1.10, A-D11..A-D13): sign-in, lurking, the phase clock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

SIGN_IN = timedelta(hours=24)  # 签到 within 24 h of the player list [G6:L24][G5:L15-16]
LURK = timedelta(hours=48)  # 潜水: 48 h without a post on the kill board [G6:L35][G5:L55]
SUBSTITUTION = timedelta(hours=12)  # each substitution extends its phase [G6:L37][G5:L57]
RUNOFF = timedelta(hours=24)  # 生死投票 and 招魂 extend the day [G6:L30][G5:L53]


@dataclass(frozen=True)
class Cycle:
    """One night + day of a family A ruleset."""

    night: timedelta
    day: timedelta
    vote_opens_after: timedelta  # from the start of the day
    vote_lasts: timedelta


GAME5_CYCLE = Cycle(timedelta(hours=24), timedelta(hours=24), timedelta(0), timedelta(hours=24))
GAME6_CYCLE = Cycle(
    timedelta(hours=24), timedelta(hours=36), timedelta(hours=12), timedelta(hours=24)
)


def missed_sign_in(players: Sequence[str], start: datetime, events: Sequence[Mapping[str, Any]]) -> list[str]:
    """Players who did not sign in within 24 h of the player list (they left automatically)."""
    signed = {e["actor"] for e in events if e["kind"] == "signin" and e["t"] <= start + SIGN_IN}
    return [p for p in players if p not in signed]


def lurkers(
    players: Sequence[str], start: datetime, now: datetime, events: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Living players with no post on the kill board for 48 consecutive hours by ``now``."""
    last: dict[str, datetime] = {}
    for e in events:
        if e["kind"] == "post" and e["t"] <= now:
            last[e["actor"]] = max(e["t"], last.get(e["actor"], e["t"]))
    return [p for p in players if now - max(last.get(p, start), start) >= LURK]


def schedule(
    cycle: Cycle,
    start: datetime,
    *,
    runoff: bool = False,
    substitutions: int = 0,
    substitution_phase: str = "day1",
    cycles: int = 2,
) -> dict[str, datetime]:
    """Phase boundaries from the player list (night 1 starts then), A-D13.

    ``runoff`` adds 24 h to day 1; each substitution adds 12 h to ``substitution_phase``.
    """
    extra = SUBSTITUTION * substitutions
    out: dict[str, datetime] = {}
    t = start
    for n in range(1, cycles + 1):
        out[f"night{n}_start"] = t
        t += cycle.night + (extra if substitution_phase == f"night{n}" else timedelta(0))
        out[f"night{n}_end"] = t
        out[f"day{n}_start"] = t
        day_extra = extra if substitution_phase == f"day{n}" else timedelta(0)
        # The vote closes with the day's regular end, so a substitution moves it too.
        out[f"vote_open{n}" if n > 1 else "vote_open"] = t + cycle.vote_opens_after
        out[f"vote_close{n}" if n > 1 else "vote_close"] = (
            t + cycle.vote_opens_after + cycle.vote_lasts + day_extra
        )
        t += cycle.day + day_extra
        if n == 1 and runoff:
            t += RUNOFF
        out[f"day{n}_end"] = t
    return out
