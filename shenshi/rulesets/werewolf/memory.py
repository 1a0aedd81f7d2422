"""What the werewolf ruleset remembers between phases.

Almost everything belongs to the character (角色), that is, to the seat: a substitute takes over
the character account with its camp, add-ons, lovers, guard and silence history, madness and
sheriff badge (RES-W25). Those records are keyed by seat number, and the add-ons live on the
seat itself (``Seat.addons``: ``lover``, ``sheriff``, ``lone_wolf``). Penalty points are the
*player's* (RES-W25, [WW:L109]) and are keyed by the player's name, so they stay with the player
who leaves.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from shenshi.rulesets.base import Seat


@dataclass(frozen=True)
class DaySnapshot:
    """The day's seats and what its close may change, kept so that a GM can still force or
    cancel the vote-out after the close (ForceExecution in dusk)."""

    number: int  # the day
    seats: tuple[Seat, ...]
    madness: frozenset[int]
    blade_used: frozenset[int]
    out_order: tuple[int, ...]
    last_words: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class WerewolfMemory:
    """Werewolf state carried from phase to phase (the settings live in the game's config)."""

    cupid: int | None = None  # the seat whose 【金箭】 made the lovers
    identity: tuple[tuple[int, str], ...] = ()  # 奇缘: (seat, identity type it took), RES-W24
    lone_wolf_given: bool = False  # 【托孤】 is single-use for the pack
    guarded: frozenset[int] = frozenset()  # every 【守护】 target so far (once per character)
    silenced: frozenset[int] = frozenset()  # every 【隔音】 target so far (once per character)
    heal_used: frozenset[int] = frozenset()  # witches whose 【救药】 is spent (通灵 is lost too)
    poison_used: frozenset[int] = frozenset()  # witches whose 【毒药】 is spent
    blade_used: frozenset[int] = frozenset()  # lone wolves whose 【孤刀】 is spent
    madness: frozenset[int] = frozenset()  # maddened (癫狂) characters
    out_order: tuple[int, ...] = ()  # every character out, in the order they went out (RES-W15)
    last_words: tuple[tuple[int, int], ...] = ()  # (seat, game day it went out): granted 遗言
    last_words_received: tuple[int, ...] = ()  # seats whose last words came in time and length
    # (player name, points): penalty points are the player's, not the seat's
    penalties: tuple[tuple[str, int], ...] = ()
    before_close: DaySnapshot | None = None  # the last day's close, for GM corrections

    def identity_of(self, seat: Seat) -> str:
        """The seat's identity type: its base identity, or the one 【奇缘】 gave cupid."""
        for number, kind in self.identity:
            if number == seat.number:
                return kind
        return seat.role

    def points(self, player: str) -> int:
        """Penalty points of ``player`` (a player's name, not a seat)."""
        return sum(p for name, p in self.penalties if name == player)

    def with_points(self, player: str, points: int) -> WerewolfMemory:
        """The memory with ``points`` more for ``player``."""
        return replace(self, penalties=self.penalties + ((player, points),))
