"""Identities, camps, add-ons and who holds 【杀人】 (RULES.md §5.2, §5.3, §5.7).

Map::

    memory(), settings()          the game's WerewolfMemory and parsed settings
    lovers(), partner()           the two characters with the ``lover`` add-on
    same_type_lovers()            奇缘: both lovers have one base identity (RES-W24)
    sent_off(), active()          罚下 at 12 points; active = alive and not sent off
    kill_groups()                 the pack, cupid after 复仇 (RES-W11), the lovers after 遗志
    camp_down()                   a camp with no living member has lost (or never existed)
    sheriff(), with_sheriff()     the badge; weight(): its 2.1 ballot
    outcome()                     the proposed win conditions (RES-W2)
    status()                      madness, sheriff and camps for a step's report
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from shenshi.rulesets.base import GameState, Outcome, Report, Seat
from shenshi.rulesets.werewolf.memory import WerewolfMemory
from shenshi.rulesets.werewolf.settings import WerewolfSettings, settings_of

VILLAGE = "village"  # 〖村民阵营〗
WOLVES = "wolves"  # 〖狼人阵营〗
LOVERS = "lovers"  # 〖情侣阵营〗
PIPER = "piper"  # 〖吹笛阵营〗

LOVER = "lover"  # 情侣
SHERIFF = "sheriff"  # 警长
LONE_WOLF = "lone_wolf"  # 孤狼


def memory(state: GameState) -> WerewolfMemory:
    """The werewolf memory of ``state``."""
    mem = state.memory
    assert isinstance(mem, WerewolfMemory)
    return mem


def settings(state: GameState) -> WerewolfSettings:
    """The game's parsed settings (from its config)."""
    return settings_of(state.config)


def identity(state: GameState, seat: Seat) -> str:
    """The seat's identity type (base identity, or cupid's after 【奇缘】)."""
    return memory(state).identity_of(seat)


def lovers(state: GameState) -> tuple[Seat, ...]:
    """The lovers (dead or alive), in seat order: none or two."""
    return tuple(s for s in state.seats if LOVER in s.addons)


def partner(state: GameState, seat: Seat) -> Seat | None:
    """The other lover of ``seat``, or ``None`` if ``seat`` is not a lover."""
    pair = lovers(state)
    if seat.number not in {s.number for s in pair}:
        return None
    others = [s for s in pair if s.number != seat.number]
    return others[0] if others else None


def same_type_lovers(state: GameState) -> bool:
    """【奇缘】: both lovers have the same base identity (RES-W24: add-ons are ignored)."""
    pair = lovers(state)
    return len(pair) == 2 and pair[0].role == pair[1].role


def sent_off(state: GameState, seat: Seat) -> bool:
    """罚下: the player holding the seat has reached the sent-off points [WW:L109]."""
    return memory(state).points(seat.name) >= settings(state).sent_off_points


def active(state: GameState, seat: Seat) -> bool:
    """Alive and not sent off: may vote and use <常规>, <单次> and <强制> skills."""
    return seat.alive and not sent_off(state, seat)


def camp_down(state: GameState, camp: str) -> bool:
    """The camp has no living member: it has lost (判负), or it never existed (§5.7)."""
    return not any(s.alive and s.team == camp for s in state.seats)


@dataclass(frozen=True)
class KillGroup:
    """Holders of one 【杀人】 per night (RES-W7, RES-W13)."""

    who: str  # "wolves", "cupid" (复仇) or "lovers" (遗志)
    members: tuple[Seat, ...]


def kill_groups(state: GameState) -> list[KillGroup]:
    """Who may use 【杀人】 tonight: each group resolves one kill in P2.

    * the pack: every living werewolf, whatever his camp: a werewolf who eloped into
      〖情侣阵营〗 keeps 【杀人】 (RES-W26), except while the lovers hold 【遗志】: then he
      uses the lovers' kill, and nobody holds two kills in one night;
    * cupid after 【复仇】: both lovers are werewolves and every werewolf other than cupid
      is out (RES-W11; cupid's 奇缘 type never makes him part of the pack);
    * the lovers after 【遗志】: they are 〖情侣阵营〗, one is a werewolf, and the wolf camp
      has no living member (RES-W13).
    """
    mem = memory(state)
    groups: list[KillGroup] = []
    pair = lovers(state)
    legacy = (
        len(pair) == 2
        and all(s.team == LOVERS for s in pair)
        and any(s.role == "werewolf" for s in pair)
        and camp_down(state, WOLVES)
    )
    in_legacy = {s.number for s in pair} if legacy else set()
    pack = tuple(
        s
        for s in state.seats
        if s.role == "werewolf" and active(state, s) and s.number not in in_legacy
    )
    if pack:
        groups.append(KillGroup(WOLVES, pack))
    werewolves_out = not any(s.alive and s.role == "werewolf" for s in state.seats)
    if len(pair) == 2 and all(s.role == "werewolf" for s in pair) and werewolves_out:
        cupids = [s for s in state.seats if s.role == "cupid"]
        if mem.cupid is not None:
            cupids = [state.by_number(mem.cupid)]
        holders = tuple(s for s in cupids if active(state, s))
        if holders:
            groups.append(KillGroup("cupid", holders))
    if legacy:
        holders = tuple(s for s in pair if active(state, s))
        if holders:
            groups.append(KillGroup(LOVERS, holders))
    return groups


def sheriff(state: GameState) -> Seat | None:
    """The living sheriff (警长), if any."""
    for s in state.seats:
        if s.alive and SHERIFF in s.addons:
            return s
    return None


def with_sheriff(state: GameState, name: str) -> tuple[Seat, ...]:
    """The seats with the badge on ``name`` only (elected, appointed or succeeded)."""
    return tuple(
        replace(s, addons=(s.addons | {SHERIFF}) if s.name == name else s.addons - {SHERIFF})
        for s in state.seats
    )


def weight(state: GameState, seat: Seat) -> Fraction:
    """【领导】: the sheriff's ballot weighs 2.1, everyone else's 1."""
    return settings(state).weight if SHERIFF in seat.addons else Fraction(1)


def outcome(state: GameState) -> Outcome | None:
    """The proposed win conditions (§5.7, RES-W2), as far as the settings keep them.

    * the piper camp wins as soon as every living character outside it is maddened;
    * a camp with no living member has lost (sent-off members are alive);
    * when exactly one camp has living members, it wins; when none has, it is a draw.
    """
    win = settings(state).win
    living = state.alive()
    maddened = memory(state).madness
    if win.piper_madness:
        pipers = [s for s in living if s.team == PIPER]
        others = [s for s in living if s.team != PIPER]
        if pipers and others and all(s.number in maddened for s in others):
            return Outcome(PIPER, "all_maddened")
    standing = sorted({s.team for s in living})
    if not standing and win.draw_when_none_left:
        return Outcome("draw", "all_camps_lost")
    if len(standing) == 1 and win.last_camp_standing:
        return Outcome(standing[0], "last_camp_standing")
    return None


def status(state: GameState) -> Report:
    """The werewolf state keys of a step's report: madness, sheriff, camps."""
    mem = memory(state)
    chief = sheriff(state)
    return Report(
        madness=tuple(sorted(s.name for s in state.alive() if s.number in mem.madness)),
        sheriff=chief.name if chief else None,
        camps={s.name: s.team for s in state.seats},
    )
