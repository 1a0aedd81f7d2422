"""The settings a ruleset lets the GM change (``[game.rules]``), declared with their types and
ranges, and checked before a game is built on them.

Each ruleset declares its settings next to its profile (``Ruleset.settings``: a tuple of
:class:`Setting`); :meth:`~shenshi.rulesets.base.Ruleset.check_settings` refuses a key no
setting declares and a value outside its declaration, then lets the ruleset judge the whole
(``declare``, e.g. werewolf's night order), so that a bad value is refused when the
configuration is loaded, never by a failing cycle on day 1.

Map::

    Setting(key, Kind.HOURS, most=168)          a number of hours, > 0, at most a week
    Setting(key, Kind.WHOLE, least=0)           a whole number
    Setting(key, Kind.TEXT, choices=("none",))  one of these words
    Setting(key, Kind.LIST, item=Setting(...))  a list of such values (``distinct``: no repeats)
    Setting(key, Kind.TABLE, keys=(...), item=) a table of such values under these keys
    problems(declared, given)                   every :class:`SettingProblem`, in key order

Messages are in Chinese, like every error the GM reads; the key path names the option
(``night_phase_hours.1``).
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import time
from enum import StrEnum
from typing import Any

WEEK_HOURS = 168  # the longest step a ruleset's hours may ask for


class Kind(StrEnum):
    """What a setting's value is."""

    HOURS = "hours"  # a number of hours: int or float, finite, above 0
    WHOLE = "whole"  # a whole number
    NUMBER = "number"  # an int or a float, finite
    TEXT = "text"  # a non-empty text
    FLAG = "flag"  # true or false
    CLOCK = "clock"  # a time of day, "06:00"
    LIST = "list"  # a list of ``item``
    TABLE = "table"  # a table of ``item`` under ``keys``


_KIND_WORDS = {
    Kind.HOURS: "小时数", Kind.WHOLE: "整数", Kind.NUMBER: "数字", Kind.TEXT: "文字",
    Kind.FLAG: "true 或 false", Kind.CLOCK: '时刻（如 "06:00"）', Kind.LIST: "列表", Kind.TABLE: "表",
}  # fmt: skip


@dataclass(frozen=True)
class SettingProblem:
    """One value a ruleset refuses: where (``night_phase_hours.1``; empty: the whole table)
    and why."""

    key: str
    reason: str

    def __str__(self) -> str:
        return f"{self.key}: {self.reason}" if self.key else self.reason


@dataclass(frozen=True)
class Setting:
    """One setting of ``[game.rules]``: its key, kind and range (see the module's map)."""

    key: str
    kind: Kind
    least: float | None = None
    most: float | None = None
    choices: tuple[str, ...] = ()  # TEXT: one of these
    keys: tuple[str, ...] = ()  # TABLE: the keys it may have (empty: any)
    item: Setting | None = None  # LIST / TABLE: each value
    distinct: bool = False  # LIST: no value twice
    meaning: str = ""  # what it sets, for the documentation

    def __post_init__(self) -> None:
        if self.kind is Kind.HOURS:
            least = 0.0 if self.least is None else self.least
            object.__setattr__(self, "least", least)
            object.__setattr__(self, "most", WEEK_HOURS if self.most is None else self.most)

    def check(self, value: Any, at: str | None = None) -> Iterator[SettingProblem]:
        """The problems of ``value`` (none: it fits the declaration)."""
        at = self.key if at is None else at
        kind = self.kind
        if kind is Kind.FLAG:
            if not isinstance(value, bool):
                yield SettingProblem(at, f"应为 true 或 false，得到 {_shown(value)}")
        elif kind in (Kind.HOURS, Kind.WHOLE, Kind.NUMBER):
            yield from self._number(value, at)
        elif kind is Kind.TEXT:
            if not isinstance(value, str) or not value.strip():
                yield SettingProblem(at, f"应为文字，得到 {_shown(value)}")
            elif self.choices and value not in self.choices:
                yield SettingProblem(at, f"应为 {_choices(self.choices)} 之一，得到 {_shown(value)}")
        elif kind is Kind.CLOCK:
            if not isinstance(value, str) or not _clock(value):
                yield SettingProblem(at, f'应为时刻（如 "06:00"），得到 {_shown(value)}')
        elif kind is Kind.LIST:
            yield from self._list(value, at)
        else:
            yield from self._table(value, at)

    def _number(self, value: Any, at: str) -> Iterator[SettingProblem]:
        words = _KIND_WORDS[self.kind]
        whole = self.kind is Kind.WHOLE
        if isinstance(value, bool) or not isinstance(value, int | float) or (whole and not isinstance(value, int)):
            yield SettingProblem(at, f"应为{words}，得到 {_shown(value)}")
            return
        if not math.isfinite(value):
            yield SettingProblem(at, f"应为有限的{words}，得到 {_shown(value)}")
            return
        least, most = self.least, self.most
        above = self.kind is Kind.HOURS  # a step of 0 hours never ends
        low = least is not None and (value <= least if above else value < least)
        high = most is not None and value > most
        if low or high:
            yield SettingProblem(at, f"应为{_range(words, least, most, above)}，得到 {_shown(value)}")

    def _list(self, value: Any, at: str) -> Iterator[SettingProblem]:
        if not isinstance(value, list | tuple):
            yield SettingProblem(at, f"应为列表，得到 {_shown(value)}")
            return
        for n, element in enumerate(value, start=1):
            if self.item is not None:
                yield from self.item.check(element, f"{at}[{n}]")
        if self.distinct:
            seen: set[Any] = set()
            for element in value:
                if isinstance(element, str | int) and element in seen:
                    yield SettingProblem(at, f"{_shown(element)} 出现了两次")
                    return
                if isinstance(element, str | int):
                    seen.add(element)

    def _table(self, value: Any, at: str) -> Iterator[SettingProblem]:
        if not isinstance(value, Mapping):
            yield SettingProblem(at, f"应为表（{{ 键 = 值 }}），得到 {_shown(value)}")
            return
        for key in value:
            if self.keys and str(key) not in self.keys:
                yield SettingProblem(f"{at}.{key}", unknown_key(str(key), self.keys))
            elif self.item is not None:
                yield from self.item.check(value[key], f"{at}.{key}")


def problems(declared: Sequence[Setting], given: Mapping[str, Any]) -> list[SettingProblem]:
    """Every problem of ``given`` against the ``declared`` settings: a key none declares, a
    value outside its declaration."""
    by_key = {s.key: s for s in declared}
    found: list[SettingProblem] = []
    for key, value in given.items():
        setting = by_key.get(str(key))
        if setting is None:
            found.append(SettingProblem(str(key), unknown_key(str(key), tuple(by_key))))
        else:
            found.extend(setting.check(value))
    return found


def unknown_key(key: str, known: Sequence[str]) -> str:
    """``不认识的设置；是不是 "summon_hours"？`` (the close known key, when there is one)."""
    close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
    if close:
        return f'不认识的设置；是不是 "{close[0]}"？'
    if not known:
        return "不认识的设置（这个规则没有可以改的设置）"
    return f"不认识的设置（可以设置：{'、'.join(known)}）"


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if not isinstance(value, float) or math.isfinite(value) else str(value)


def _choices(choices: Sequence[str]) -> str:
    return "、".join(f'"{c}"' for c in choices)


def _range(words: str, least: float | None, most: float | None, above: bool) -> str:
    low = None if least is None else f"{'大于' if above else '至少为'} {_n(least)}"
    high = None if most is None else f"不超过 {_n(most)}"
    return f"{'、'.join(p for p in (low, high) if p)} 的{words}"


def _n(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def _clock(value: str) -> bool:
    try:
        time.fromisoformat(value)
    except ValueError:
        return False
    return len(value) in (5, 8)  # "06:00" or "06:00:00"
