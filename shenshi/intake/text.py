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
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

import opencc

from shenshi.intake import lexicon

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
_QUOTE_TAG = re.compile(r"\[(/?)quote(?:=[^\]]*)?\]", re.IGNORECASE)
_SMILEY = re.compile(r"\[s:\d+\]|\[em\d+\]|\{:\d+_\d+:\}", re.IGNORECASE)


class Stripped(NamedTuple):
    """A text without its typed BBCode: ``text`` the author's own words, ``quotes`` the quoted
    passages, ``hidden`` what an unclosed ``[quote]`` hid (the author's words or a quote: nobody
    can tell, so the GM is told when it holds a command)."""

    text: str
    quotes: tuple[str, ...]
    hidden: str


def strip_bbcode(text: str) -> Stripped:
    """Remove typed BBCode from ``text``: the plain text, the quoted passages, the hidden rest.

    Quotes are taken out whole, at any depth, in one pass over the tags (a vote inside a quote
    never counts); a stray ``[/quote]`` is dropped; an unclosed ``[quote]`` hides everything
    after it. Images and media are dropped; formatting tags are removed and their content kept.
    """
    quotes: list[str] = []
    kept: list[str] = []
    depth, done, opened_at = 0, 0, 0
    hidden = ""
    for tag in _QUOTE_TAG.finditer(text):
        if not tag.group(1):  # [quote]
            if depth == 0:
                kept.append(text[done : tag.start()])
                opened_at = tag.start()
            depth += 1
        elif depth > 0:  # [/quote]
            depth -= 1
            if depth == 0:
                quotes.append(text[opened_at : tag.end()])
                kept.append("\n")
                done = tag.end()
        else:  # a stray [/quote]: the tag goes, the text stays
            kept.append(text[done : tag.start()])
            done = tag.end()
    if depth > 0:
        hidden = text[opened_at:]
        quotes.append(hidden)
    else:
        kept.append(text[done:])
    plain = "".join(kept)
    plain = _BBCODE_DROP.sub("", plain)
    plain = _SMILEY.sub(" ", plain)
    plain = _BBCODE_TAG.sub("", plain)
    return Stripped(plain, tuple(quotes), hidden)


def scrub(text: str) -> str:
    """``text`` with every lone surrogate (which no encoder accepts) replaced by U+FFFD."""
    return _SURROGATE.sub(REPLACED, text)


_SURROGATE = re.compile("[\ud800-\udfff]")

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


# Line breaks other than \n (a lone CR, NEL, the Unicode line and paragraph separators, VT, FF)
# fold to \n; a CR before an LF folds to nothing.
_LINE_BREAKS = frozenset("\r\x85\u2028\u2029\x0b\x0c")
# Terminal colour codes (ESC [ 31 m) show nothing on a page: they fold to nothing.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


@lru_cache(maxsize=8192)
def fold_char(ch: str) -> str:
    """One character (or a letter with its combining marks) folded for matching: spelling
    variants (砲 → 炮), NFKC, traditional to simplified, case-folded; invisible and control
    characters fold to nothing, other line breaks to ``\n``, a lone surrogate to U+FFFD."""
    return fold_char_cased(ch).casefold()


@lru_cache(maxsize=8192)
def fold_char_cased(ch: str) -> str:
    """:func:`fold_char` before case-folding (what the skeleton of a name is taken from:
    a capital I looks like a small l, a small i does not)."""
    if len(ch) == 1:
        if is_invisible(ch):
            return ""
        if ch in _LINE_BREAKS:
            return "\n"
        if "\ud800" <= ch <= "\udfff":
            return REPLACED
        if unicodedata.category(ch) == "Cc" and ch not in "\n\t":
            return ""
    s = unicodedata.normalize("NFKC", "".join(lexicon.CHAR_VARIANTS.get(c, c) for c in ch))
    if any(ord(c) > 0x2E7F for c in s):
        s = _T2S.convert(s)
    return s


def cluster_end(text: str, i: int) -> int:
    """The end of the character at ``i`` with the combining marks that follow it."""
    j = i + 1
    n = len(text)
    while j < n and text[j] >= _FIRST_MARK and _is_mark(text[j]):
        j += 1
    return j


_FIRST_MARK = "\u0300"  # no combining mark comes before U+0300


@lru_cache(maxsize=4096)
def _is_mark(ch: str) -> bool:
    """A visible combining mark: it belongs to the letter before it (e + U+0301 is é)."""
    return unicodedata.category(ch) in ("Mn", "Mc", "Me") and not is_invisible(ch)


def fold(text: str) -> str:
    """``text`` folded for matching (names, keywords)."""
    return Folded.of(text).text


@dataclass(frozen=True)
class Folded:
    """A folded text with the original index of each folded character. ``views`` caches what
    is derived from it once per text (the skeleton a reader sees: :mod:`~shenshi.intake.lookalike`)."""

    original: str
    text: str
    origin: tuple[int, ...]
    views: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, original: str) -> Folded:
        """Fold ``original`` and remember where each folded character came from. A letter and
        its combining marks fold together (``Evé`` is not ``Eve``). One read folds the same
        text and the same names several times: the last few short ones are kept."""
        if len(original) <= _KEPT_MAX:
            return _kept(original)
        return cls._fold(original)

    @classmethod
    def _fold(cls, original: str) -> Folded:
        parts: list[str] = []
        origin: list[int] = []
        skips = {m.start(): m.end() for m in _REPLACED_RUN.finditer(original)}
        skips.update({m.start(): -m.end() for m in _ANSI.finditer(original)})
        n = len(original)
        first_mark, is_mark, fold_one = _FIRST_MARK, _is_mark, fold_char  # (a hot loop)
        i = 0
        while i < n:
            if skips and i in skips:
                end = skips[i]
                if end > 0:  # ????: characters the forum replaced, not question marks
                    parts.append(REPLACED)
                    origin.append(i)
                i = abs(end)
                continue
            j = i + 1
            while j < n and original[j] >= first_mark and is_mark(original[j]):
                j += 1
            ch = original[i:j]
            f = "" if ch == "\r" and original[j : j + 1] == "\n" else fold_one(ch)
            parts.append(f)
            if len(f) == 1:
                origin.append(i)
            else:
                origin.extend([i] * len(f))
            i = j
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


_KEPT_MAX = 2000  # characters: a longer text is folded afresh (memory stays small)


@lru_cache(maxsize=256)
def _kept(original: str) -> Folded:
    return Folded._fold(original)


@lru_cache(maxsize=64)
def count_chars(text: str) -> int:
    """Characters without whitespace (RES-A29): CJK, letters, digits, punctuation count 1.
    Kept for the texts just counted: every kill of a PM carries its one declaration."""
    return sum(1 for c in text if not c.isspace() and not is_invisible(c))


def is_emoji(ch: str) -> bool:
    """True for pictographs and the joiners/selectors that build them (emoticons)."""
    cp = ord(ch)
    if ch in "\u200d\ufe0f\ufe0e\u20e3":
        return True
    if 0x1F000 <= cp <= 0x1FAFF or 0x2600 <= cp <= 0x27BF or 0x1F1E6 <= cp <= 0x1F1FF:
        return True
    return unicodedata.category(ch) == "So"
