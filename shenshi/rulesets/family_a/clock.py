"""Family A timeline checks (RULES.md §1.10, A-D11..A-D13): sign-in, lurking, the phase clock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from shenshi.rulesets import common

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
    first: dict[str, datetime] = {}
    for e in events:
        if e["kind"] == "signin":
            first[e["actor"]] = min(e["t"], first.get(e["actor"], e["t"]))
    return common.missed_sign_in(players, start, first, SIGN_IN)


def lurkers(
    players: Sequence[str], start: datetime, now: datetime, events: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Living players with no post on the kill board for 48 consecutive hours by ``now``."""
    last: dict[str, datetime] = {}
    for e in events:
        if e["kind"] == "post" and e["t"] <= now:
            last[e["actor"]] = max(e["t"], last.get(e["actor"], e["t"]))
    return common.silent_players(players, start, now, last, LURK)


def schedule(
    cycle: Cycle,
    start: datetime,
    *,
    runoff: bool = False,
    substitutions: int = 0,
    substitution_phase: str = "day1",
) -> dict[str, datetime]:
    """The first cycle's boundaries from the player list, when night 1 starts (A-D13).

    Labels of FORMAT.md: ``night1_end``, ``day1_start``, ``vote_open``, ``vote_close`` (the
    first round) and ``day1_end``. ``runoff`` adds 24 h to day 1 (生死投票 and 招魂); each
    substitution adds 12 h to the phase it enters in (``night1`` or ``day1``). The vote closes
    with the day's regular end, so a day-1 substitution moves it too.
    """
    extra = SUBSTITUTION * substitutions
    night_extra = extra if substitution_phase == "night1" else timedelta(0)
    day_extra = extra if substitution_phase == "day1" else timedelta(0)
    day_start = start + cycle.night + night_extra
    vote_open = day_start + cycle.vote_opens_after
    return {
        "night1_end": day_start,
        "day1_start": day_start,
        "vote_open": vote_open,
        "vote_close": vote_open + cycle.vote_lasts + day_extra,
        "day1_end": day_start + cycle.day + day_extra + (RUNOFF if runoff else timedelta(0)),
    }
