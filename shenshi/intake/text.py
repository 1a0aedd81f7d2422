"""Text as intake reads it: BBCode stripped, folded for matching, mapped back to the original.

Players write full-width letters (Ｌｉｌｙ９９), traditional characters (棄票, 白色的貓), any case,
and typed BBCode in PMs. Matching happens on a *folded* copy (NFKC, traditional to
simplified, case-folded); :class:`Folded` keeps, for every folded character, the index of the
original character it came from, so that a declaration or last words are returned as written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import opencc

_T2S = opencc.OpenCC("t2s")

# Typed BBCode tags a PM may still hold ([b]…[/b], [color=red]…, [url=…]…, [s:12] smilies).
_BBCODE_TAG = re.compile(
    r"\[/?(?:b|i|u|s|strike|color|size|font|align|backcolor|bgcolor|url|email|p|indent|"
    r"float|table|tr|td|list|\*|sup|sub|hr|left|center|right|fly|move|glow|shadow|code|"
    r"hide|free|postbg|blockquote)(?:=[^\]\n]*)?\]",
    re.IGNORECASE,
)
_BBCODE_DROP = re.compile(
    r"\[(img|attach|attachimg|media|flash|audio)(?:=[^\]]*)?\].*?\[/\1\]", re.IGNORECASE | re.S
)
_BBCODE_QUOTE = re.compile(r"\[quote(?:=[^\]]*)?\].*?\[/quote\]", re.IGNORECASE | re.S)
_SMILEY = re.compile(r"\[s:\d+\]|\[em\d+\]|\{:\d+_\d+:\}", re.IGNORECASE)


def strip_bbcode(text: str) -> tuple[str, tuple[str, ...]]:
    """Remove typed BBCode from ``text``; return the plain text and the quoted passages.

    Quotes are taken out whole (a vote inside a quote never counts); images and media are
    dropped; formatting tags are removed and their content kept.
    """
    quotes = tuple(m.group(0) for m in _BBCODE_QUOTE.finditer(text))
    text = _BBCODE_QUOTE.sub("\n", text)
    text = _BBCODE_DROP.sub("", text)
    text = _SMILEY.sub(" ", text)
    text = _BBCODE_TAG.sub("", text)
    return text, quotes


@lru_cache(maxsize=8192)
def fold_char(ch: str) -> str:
    """One character folded for matching: NFKC, traditional to simplified, case-folded."""
    s = unicodedata.normalize("NFKC", ch)
    if any(ord(c) > 0x2E7F for c in s):
        s = _T2S.convert(s)
    return s.casefold()


def fold(text: str) -> str:
    """``text`` folded for matching (names, keywords)."""
    return "".join(fold_char(c) for c in text)


@dataclass(frozen=True)
class Folded:
    """A folded text with the original index of each folded character."""

    original: str
    text: str
    origin: tuple[int, ...]

    @classmethod
    def of(cls, original: str) -> Folded:
        """Fold ``original`` and remember where each folded character came from."""
        parts: list[str] = []
        origin: list[int] = []
        for i, ch in enumerate(original):
            f = fold_char(ch)
            parts.append(f)
            origin.extend([i] * len(f))
        return cls(original, "".join(parts), tuple(origin))

    def original_from(self, pos: int) -> str:
        """The original text from folded position ``pos`` to the end."""
        if pos >= len(self.origin):
            return ""
        return self.original[self.origin[pos] :]

    def original_slice(self, start: int, end: int) -> str:
        """The original text covering folded positions ``[start, end)``."""
        if start >= len(self.origin) or end <= start:
            return ""
        last = self.origin[end - 1] if end - 1 < len(self.origin) else len(self.original) - 1
        return self.original[self.origin[start] : last + 1]


def count_chars(text: str) -> int:
    """Characters without whitespace (RES-A29): CJK, letters, digits, punctuation count 1."""
    return sum(1 for c in text if not c.isspace())


def is_emoji(ch: str) -> bool:
    """True for pictographs and the joiners/selectors that build them (emoticons)."""
    cp = ord(ch)
    if ch in "\u200d\ufe0f\ufe0e\u20e3":
        return True
    if 0x1F000 <= cp <= 0x1FAFF or 0x2600 <= cp <= 0x27BF or 0x1F1E6 <= cp <= 0x1F1FF:
        return True
    return unicodedata.category(ch) == "So"
