"""Text as intake reads it: BBCode stripped, folded for matching, mapped back to the original.

Players write full-width letters (Ｌｉｌｙ９９), traditional characters (棄票, 白色的貓), any case,
and typed BBCode (in PMs, and in posts on a forum with BBCode switched off). Matching happens on
a *folded* copy (NFKC, traditional to simplified, case-folded, invisible format characters
such as U+200B or bidi controls removed, a run of ``????`` that stands for characters a
utf8mb3 forum could not store read as one unknown character); :class:`Folded` keeps, for every
folded character, the index of the original character it came from, so that a declaration or
last words are returned as written. The evidence keeps the original text.
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
# The innermost quote (no [quote inside it); removed repeatedly, nested quotes go whole.
_BBCODE_QUOTE = re.compile(
    r"\[quote(?:=[^\]]*)?\](?:(?!\[quote[\]=]).)*?\[/quote\]", re.IGNORECASE | re.S
)
_QUOTE_TAG = re.compile(r"\[/?quote(?:=[^\]]*)?\]", re.IGNORECASE)
_SMILEY = re.compile(r"\[s:\d+\]|\[em\d+\]|\{:\d+_\d+:\}", re.IGNORECASE)


def strip_bbcode(text: str) -> tuple[str, tuple[str, ...]]:
    """Remove typed BBCode from ``text``; return the plain text and the quoted passages.

    Quotes are taken out whole, at any depth (a vote inside a quote never counts); an
    unclosed ``[quote]`` hides everything after it. Images and media are dropped; formatting
    tags are removed and their content kept.
    """
    quotes: list[str] = []
    while True:
        found = list(_BBCODE_QUOTE.finditer(text))
        if not found:
            break
        quotes += [m.group(0) for m in found]
        text = _BBCODE_QUOTE.sub("\n", text)
    opened = _QUOTE_TAG.search(text)
    if opened is not None and not opened.group(0).startswith("[/"):
        quotes.append(text[opened.start() :])
        text = text[: opened.start()]
    text = _QUOTE_TAG.sub("", text)
    text = _BBCODE_DROP.sub("", text)
    text = _SMILEY.sub(" ", text)
    text = _BBCODE_TAG.sub("", text)
    return text, tuple(quotes)


# Characters that show nothing, or only steer the display: zero-width spaces and joiners, the
# soft hyphen, the combining grapheme joiner, the Mongolian vowel separator, bidi controls, the
# byte-order mark, variation selectors. Folding drops them, so 小明\u200b明 reads as 小明明.
_INVISIBLE = frozenset("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u3164\ufeff\uffa0")
REPLACED = "\ufffd"  # what a run of ???? (characters a utf8mb3 forum could not store) folds to
_REPLACED_RUN = re.compile(r"(?:\?{4})+")


def is_invisible(ch: str) -> bool:
    """True for a format or invisible character (U+200B, U+200D, U+2060, U+FEFF, U+00AD,
    U+034F, U+180E, bidi controls, variation selectors …)."""
    if ch in _INVISIBLE:
        return True
    cat = unicodedata.category(ch)
    return cat == "Cf" or (cat == "Mn" and ("\ufe00" <= ch <= "\ufe0f" or ch >= "\U000e0100"))


@lru_cache(maxsize=8192)
def fold_char(ch: str) -> str:
    """One character folded for matching: NFKC, traditional to simplified, case-folded;
    invisible characters fold to nothing."""
    if is_invisible(ch):
        return ""
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
        runs = {m.start(): m.end() for m in _REPLACED_RUN.finditer(original)}
        i = 0
        while i < len(original):
            if i in runs:  # ????: characters the forum replaced, not question marks
                parts.append(REPLACED)
                origin.append(i)
                i = runs[i]
                continue
            f = fold_char(original[i])
            parts.append(f)
            origin.extend([i] * len(f))
            i += 1
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
