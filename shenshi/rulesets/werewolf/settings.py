"""Werewolf settings a GM may change (``config`` of the game), with the spec's proposals as defaults.

The source gives no composition, no night order and no win conditions (RES-W1, RES-W2,
RES-W3); RULES.md §5 proposes them. Every proposal is a setting here, parsed once into a frozen
:class:`WerewolfSettings`; a setting that cannot work raises :class:`RulesetError`.

Keys of ``config`` (nested tables merge over the defaults key by key)::

    composition            {role: count}             RES-W1 (informative; a text is accepted)
    night_order            ["guard", "kill", …]      settlement steps P1–P5 (RES-W3); P6 is last
    night_phases           {"1": [actions], "2": …}  submission phase of each night skill
    win                    {piper_madness, last_camp_standing, draw_when_none_left}   RES-W2
    sheriff_weight         2.1                       【领导】
    sheriff_election_day   1                         day 1 elects the sheriff (RES-W5); 0: never
    sheriff_default        "none"                    host default when 【殉职】 is not used (RES-W21)
    last_words_limit       4                         the first N characters out (RES-W15)
    last_words_chars       3000
    sent_off_points        12                        罚下 at this many penalty points
    day_starts             "06:00"                   §5.4: day 06:00 D → 21:00 D+1, night → 06:00
    day_hours, night_hours 39, 9
    night_phase_deadlines  {"1": "00:00", "2": "03:00"}  default deadlines of 夜晚1/夜晚2: times of
                                                     day, whatever minute the night opened (the
                                                     host gives them per night)
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import time
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from shenshi.rulesets.base import RulesetError
from shenshi.rulesets.catalog import (
    DIVINE,
    GUARD,
    HEAL,
    KILL,
    LONE_WOLF,
    PAIR_LOVERS,
    PIPE,
    POISON,
    SILENCE_GUARD,
    WEREWOLF,
)
from shenshi.rulesets.settings import Kind, Setting

# Settlement steps P1–P5 of §5.5 (P6, the settlement itself, always comes last).
NIGHT_STEPS = ("guard", "kill", "witch", "seer", "piper")
NIGHT_SKILLS = (GUARD, SILENCE_GUARD, KILL, DIVINE, PIPE, HEAL, POISON, PAIR_LOVERS, LONE_WOLF)
SHERIFF_DEFAULTS = ("none",)

DEFAULTS: Mapping[str, Any] = {
    "composition": dict(WEREWOLF.composition),
    "night_order": list(NIGHT_STEPS),
    # 夜晚1: guard, kills, seer, piper (and the night-0 skills); 夜晚2: the witch, once she has
    # her 【通灵】 list (RES-W3).
    "night_phases": {
        "1": [GUARD, SILENCE_GUARD, KILL, DIVINE, PIPE, PAIR_LOVERS, LONE_WOLF],
        "2": [HEAL, POISON],
    },
    "win": {"piper_madness": True, "last_camp_standing": True, "draw_when_none_left": True},
    "sheriff_weight": 2.1,
    "sheriff_election_day": 1,
    "sheriff_default": "none",
    "last_words_limit": 4,
    "last_words_chars": 3000,
    "sent_off_points": 12,
    "day_starts": "06:00",
    "day_hours": 39,
    "night_hours": 9,
    # The source leaves each phase's deadline to the night's action thread [WW:L183]; the
    # proposal: 夜晚1 closes at 00:00 and 夜晚2 at 03:00, leaving time for 殉职 and last words.
    # Times of day: a night that opens at 21:01 still closes its phases at 00:00 and 03:00.
    "night_phase_deadlines": {"1": "00:00", "2": "03:00"},
}


WIN_CONDITIONS = ("piper_madness", "last_camp_standing", "draw_when_none_left")

# Each key of DEFAULTS with its type and range ([game.rules], checked when the configuration is
# loaded; :meth:`WerewolfSettings.from_config` then judges the whole). The night phases'
# deadlines are declared both as hours after the night opens and as times of day (branch
# i21-rules turns the first into the second): whichever DEFAULTS has is in force.
_DECLARABLE = (
    Setting("composition", Kind.TABLE, keys=tuple(WEREWOLF.composition), item=Setting("", Kind.WHOLE, least=0, most=32),
            meaning="the characters dealt: role → count (RES-W1)"),
    Setting("night_order", Kind.LIST, item=Setting("", Kind.TEXT, choices=NIGHT_STEPS), distinct=True,
            meaning="settlement steps P1–P5 (RES-W3)"),
    Setting("night_phases", Kind.TABLE, item=Setting("", Kind.LIST, item=Setting("", Kind.TEXT, choices=NIGHT_SKILLS),
            distinct=True), meaning="the night phase of each skill"),
    Setting("win", Kind.TABLE, keys=WIN_CONDITIONS, item=Setting("", Kind.FLAG), meaning="win conditions (RES-W2)"),
    Setting("sheriff_weight", Kind.NUMBER, least=1, most=10, meaning="the sheriff's ballot (【领导】)"),
    Setting("sheriff_election_day", Kind.WHOLE, least=0, most=30, meaning="the day that elects the sheriff; 0: never"),
    Setting("sheriff_default", Kind.TEXT, choices=SHERIFF_DEFAULTS, meaning="when 【殉职】 is not used (RES-W21)"),
    Setting("last_words_limit", Kind.WHOLE, least=0, most=100, meaning="the first N characters out leave last words"),
    Setting("last_words_chars", Kind.WHOLE, least=1, most=100_000, meaning="characters of last words"),
    Setting("sent_off_points", Kind.WHOLE, least=1, most=1000, meaning="penalty points for 罚下"),
    Setting("day_starts", Kind.CLOCK, meaning="when a day opens"),
    Setting("day_hours", Kind.WHOLE, least=1, most=168, meaning="hours of a day"),
    Setting("night_hours", Kind.WHOLE, least=1, most=168, meaning="hours of a night"),
    Setting("night_phase_hours", Kind.TABLE, item=Setting("", Kind.HOURS, most=168),
            meaning="deadlines of 夜晚1/夜晚2, hours after the night opens"),
    Setting("night_phase_deadlines", Kind.TABLE, item=Setting("", Kind.CLOCK),
            meaning="deadlines of 夜晚1/夜晚2, times of day"),
)  # fmt: skip


@dataclass(frozen=True)
class WinSettings:
    """Which of the proposed win conditions (RES-W2) are in force."""

    piper_madness: bool = True  # the piper wins when every other living character is maddened
    last_camp_standing: bool = True  # the one camp with living members wins
    draw_when_none_left: bool = True  # every remaining camp lost at once: a draw


@dataclass(frozen=True)
class WerewolfSettings:
    """The parsed settings of one game (plain values only, so the store can keep them)."""

    night_order: tuple[str, ...]
    night_phase: Mapping[str, str]  # action → phase key ("1", "2")
    win: WinSettings
    sheriff_weight: str  # exact decimal, e.g. "2.1" (see :attr:`weight`)
    sheriff_election_day: int
    sheriff_default: str
    last_words_limit: int
    last_words_chars: int
    sent_off_points: int
    day_starts: str  # "06:00" (see :attr:`day_start_time`)
    day_hours: int
    night_hours: int
    night_phase_deadlines: Mapping[str, str]  # phase key → "00:00" (see :attr:`night_phase_times`)

    @property
    def weight(self) -> Fraction:
        """The sheriff's ballot weight, exact (2.1 is 21/10)."""
        return Fraction(self.sheriff_weight)

    @property
    def day_start_time(self) -> time:
        """When a day opens (06:00)."""
        return time.fromisoformat(self.day_starts)

    @property
    def night_phase_times(self) -> dict[str, time]:
        """Each night phase's deadline as a time of day (夜晚1 00:00, 夜晚2 03:00)."""
        return {k: time.fromisoformat(v) for k, v in self.night_phase_deadlines.items()}

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> WerewolfSettings:
        """Parse ``config`` over :data:`DEFAULTS`; :class:`RulesetError` says what is wrong."""
        cfg = merged(config)
        order = tuple(str(step) for step in cfg["night_order"])
        if sorted(order) != sorted(NIGHT_STEPS):
            raise RulesetError(
                f"config.night_order must order exactly {', '.join(NIGHT_STEPS)}; got {list(order)}"
            )
        phase: dict[str, str] = {}
        for key, actions in dict(cfg["night_phases"]).items():
            for action in actions:
                if action not in NIGHT_SKILLS:
                    raise RulesetError(f"config.night_phases: {action!r} is not a night skill")
                if action in phase:
                    raise RulesetError(f"config.night_phases: {action!r} is in two phases")
                phase[str(action)] = str(key)
        win = dict(cfg["win"])
        unknown = set(win) - set(WIN_CONDITIONS)
        if unknown:
            raise RulesetError(f"config.win: unknown condition {sorted(unknown)[0]!r}")
        if cfg["sheriff_default"] not in SHERIFF_DEFAULTS:
            raise RulesetError(
                f"config.sheriff_default must be one of {', '.join(SHERIFF_DEFAULTS)}"
            )
        try:
            weight = str(cfg["sheriff_weight"])
            starts = str(cfg["day_starts"])
            Fraction(weight), time.fromisoformat(starts)  # both must parse
            numbers = {
                k: int(cfg[k])
                for k in ("sheriff_election_day", "last_words_limit", "last_words_chars",
                          "sent_off_points", "day_hours", "night_hours")
            }  # fmt: skip
        except (ValueError, TypeError) as exc:
            raise RulesetError(f"config: {exc}") from None
        try:
            phase_times = {str(k): str(v) for k, v in dict(cfg["night_phase_deadlines"]).items()}
            for at in phase_times.values():
                time.fromisoformat(at)
        except (ValueError, TypeError) as exc:
            raise RulesetError(f"config.night_phase_deadlines: {exc}") from None
        return cls(
            night_phase_deadlines=MappingProxyType(phase_times),
            night_order=order,
            night_phase=phase,
            win=WinSettings(**{k: bool(v) for k, v in win.items()}),
            sheriff_weight=weight,
            sheriff_default=str(cfg["sheriff_default"]),
            day_starts=starts,
            **numbers,
        )


DECLARED = tuple(s for s in _DECLARABLE if s.key in DEFAULTS)


def merged(config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` over :data:`DEFAULTS`; nested tables (``win``, ``night_phases``) merge by key."""
    out: dict[str, Any] = {}
    for key, default in DEFAULTS.items():
        value = config.get(key, default)
        if key == "win" and isinstance(value, Mapping):
            value = {**default, **value}
        out[key] = value
    return out


def default_config() -> dict[str, Any]:
    """A fresh copy of the defaults (the ruleset's ``default_config()``)."""
    return copy.deepcopy(merged({}))


@lru_cache(maxsize=128)
def _parsed(key: str) -> WerewolfSettings:
    return WerewolfSettings.from_config(json.loads(key))


def settings_of(config: Mapping[str, Any]) -> WerewolfSettings:
    """The parsed settings of a game's ``config`` (memoised: a game asks very often)."""
    return _parsed(json.dumps(config, sort_keys=True, ensure_ascii=False, default=_plain))


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    raise TypeError(f"config values must be plain data, not {type(value).__name__}")
