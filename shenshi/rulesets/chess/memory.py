"""What chess32 (楚汉) remembers between phases.

Seat-attached records are keyed by seat number, so a substitute (替补) inherits them with the
seat (RES-C33): the swaps used, a pending swap, a pending curse or bless. Lurking warnings are
keyed by the *person's name*: they stay with the player who leaves, and the substitute starts with
none (RES-C33).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

SWAPS_PER_GAME = 2  # 抽将: two uses per general per game [CH:L53]


@dataclass(frozen=True)
class PendingSwap:
    """A swap (抽将) submitted on night ``night``: it covers that night and day ``night + 1``."""

    general: int  # seat of the general
    grabbed: int  # seat of the grabbed player (may be an enemy or dead: then it fails)
    night: int


@dataclass(frozen=True)
class ChessMemory:
    """chess32 state carried from phase to phase."""

    swaps_used: tuple[tuple[int, int], ...] = ()  # (general seat, uses so far)
    pending_swaps: tuple[PendingSwap, ...] = ()  # untriggered swaps of the last night
    curse: tuple[int, ...] = ()  # seats cursed last night (not INV): +1 each in round 1
    bless: tuple[int, ...] = ()  # seats blessed last night: −1 each in round 1
    runoff: tuple[int, ...] = ()  # today's round-2 candidates (seats)
    post_counts: tuple[tuple[str, int], ...] = ()  # today's counted posts (lurking window)
    absent: tuple[int, ...] = ()  # seats without a counted ballot today (a lurking day)
    warnings: tuple[tuple[str, int], ...] = ()  # lurking warnings per person (not per seat)
    last_words: tuple[int, ...] = ()  # night victims (seats) who may still leave last words once

    # -- lookups -------------------------------------------------------------------------------

    def swaps_of(self, general: int) -> int:
        """How many swaps the general in seat ``general`` has used."""
        return dict(self.swaps_used).get(general, 0)

    def swaps_left(self, general: int) -> int:
        """How many swaps the general in seat ``general`` may still submit."""
        return max(0, SWAPS_PER_GAME - self.swaps_of(general))

    def pending_swap(self, general: int) -> PendingSwap | None:
        """The general's swap from the last night, if it did not trigger that night.

        A night replaces the pending swaps and the next day's close clears them, so whatever
        is pending during a day comes from the night just before it (RES-C13).
        """
        for swap in self.pending_swaps:
            if swap.general == general:
                return swap
        return None

    def warnings_of(self, person: str) -> int:
        """Lurking warnings of a person (by name)."""
        return dict(self.warnings).get(person, 0)

    # -- updates -------------------------------------------------------------------------------

    def with_swap_used(self, general: int) -> ChessMemory:
        """One more swap used by the general in seat ``general``."""
        used = dict(self.swaps_used)
        used[general] = used.get(general, 0) + 1
        return replace(self, swaps_used=tuple(sorted(used.items())))

    def with_warnings(self, persons: list[str]) -> ChessMemory:
        """One more warning for each of ``persons``."""
        counts = dict(self.warnings)
        for person in persons:
            counts[person] = counts.get(person, 0) + 1
        return replace(self, warnings=tuple(sorted(counts.items())))

    def with_post_counts(self, counts: dict[str, int]) -> ChessMemory:
        """Today's counted posts, later records overriding earlier ones per player."""
        merged = dict(self.post_counts) | counts
        return replace(self, post_counts=tuple(sorted(merged.items())))
