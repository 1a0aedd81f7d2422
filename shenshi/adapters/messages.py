"""Turning a forum's message text (提示信息) into a typed error.

Each engine lists its known texts as ``Rule``s (a regex and the error it means); the first
matching rule wins. A message no rule knows becomes :class:`Rejected`, never silence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shenshi.adapters import errors

Factory = Callable[[str, "re.Match[str]", str | None], errors.ForumError]


@dataclass(frozen=True)
class Rule:
    """One known forum message: ``pattern`` found in the text means ``make(text, match, url)``."""

    pattern: re.Pattern[str]
    make: Factory


def rule(pattern: str, make: Factory) -> Rule:
    """A :class:`Rule` from a regex source."""
    return Rule(re.compile(pattern), make)


def raise_as(kind: type[errors.ForumError]) -> Factory:
    """A factory that wraps the message in ``kind``."""
    return lambda text, match, url: kind(text, url=url)


def flood(*, extra: float = 0.0) -> Factory:
    """A factory for :class:`FloodControl`, the wait from group 1 if the text gives one (else
    ``None``: the engine's flood interval applies); ``extra`` is added to a stated wait."""

    def make(text: str, match: re.Match[str], url: str | None) -> errors.ForumError:
        wait = None
        if match.groups() and match.group(1):
            amount = float(match.group(1))
            unit = match.group(2) if len(match.groups()) > 1 else None
            wait = amount * {"分钟": 60.0, "小时": 3600.0}.get(unit or "", 1.0) + extra
        return errors.FloodControl(text, wait, url=url)

    return make


def captcha(where: str) -> Factory:
    """A factory for :class:`CaptchaRequired` at ``where`` (login or posting)."""
    return lambda text, match, url: errors.CaptchaRequired(where, url=url)


def classify(text: str, rules: Sequence[Rule], *, url: str | None = None) -> errors.ForumError:
    """The typed error a forum message means (``Rejected`` when no rule knows it)."""
    for known in rules:
        match = known.pattern.search(text)
        if match:
            return known.make(text, match, url)
    return errors.Rejected(text or "the forum refused the request without a message", url=url)
