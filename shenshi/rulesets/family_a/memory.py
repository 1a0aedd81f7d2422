"""What family A (游戏五/游戏六) remembers between phases, keyed by seat number.

Everything here belongs to a seat, not to the person: a substitute (替补) inherits the bind
streak, the bound status, a pending curse or bless, the 8p parity and the prize record
(RES-A18, A-D16).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LastWords:
    """遗言 of a night victim, with the players it accuses (指控)."""

    author: int  # seat
    accused: tuple[str, ...]


@dataclass(frozen=True)
class FamilyAMemory:
    """Family A state carried from phase to phase."""

    killer_order: tuple[int, ...] = ()  # game6-8: seats of the first and second killer (RES-A1)
    unattacked_bind: int | None = None  # last night's valid bind target that no kill touched
    bound: int | None = None  # this day's bound survivor (被束魂者), who may not vote
    curse: int | None = None  # pending curse target for the day's first round
    bless: int | None = None  # pending bless target for the day's first round
    victims: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (night n, victim seats), 招魂 order
    last_words: tuple[LastWords, ...] = ()  # recorded for the coming day's tie-break
    final_day: bool = False  # the 1v1 final-day exception is in force today (§1.7.3)
    short_declaration_night: int | None = None  # last night with a short declaration (RES-A19)
    extra_divination_used: bool = False  # today's penalty divination was answered
    extra_divination_actor: int | None = None  # the civilian the GM drew by lot (RES-A19)
    prize: frozenset[int] = frozenset()  # seats that voted for an executed killer (D-7)
    runoff: tuple[int, ...] = ()  # today's runoff (or summoning) candidates
    first_round_voters: tuple[tuple[int, str], ...] = ()  # (seat, target) of today's round 1
    final_counts: tuple[tuple[int, int], ...] = ()  # counts after the last-words count (D-3)
    runoff_voters: tuple[tuple[int, str], ...] = ()  # (seat, target) of today's runoff (D-7)
    missed_ballot: tuple[int, ...] = ()  # seats with a missing ballot today: exit at the result
