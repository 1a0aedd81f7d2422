"""What a reader sees: names compared through the Unicode confusables skeleton (UTS #39).

Two writings that look alike on the forum page (``Anna`` and ``Annа`` with a Cyrillic а,
``工藤`` and ``エ藤`` with a katakana エ, ``Iris`` and ``lris``) have the same *skeleton*. The
skeleton is ICU's (``SpoofChecker.getSkeleton``, the reference implementation of UTS #39 over
Unicode's own confusables data; the ``pyicu-wheels`` package ships ICU with it), never a table of
our own. It is taken from each character as intake folds it but with its case kept
(:func:`~shenshi.intake.text.fold_char_cased`: NFKC, traditional → simplified), then case-folded,
so that what folding already equates stays equal and a capital I still looks like a small l.

:class:`~shenshi.intake.names.NameIndex` reads a name through its skeleton only where the exact
(folded) reading does not reach as far: a look-alike counts for the player it looks like, with an
alert naming the look-alike letters; a skeleton two players share names neither.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import icu

from shenshi.intake.text import cluster_end, fold, fold_char, fold_char_cased

_CHECKER = icu.SpoofChecker()


@lru_cache(maxsize=16384)
def seen_char(cluster: str) -> str:
    """The skeleton of one character (with its combining marks), case-folded: ``а`` (Cyrillic)
    → ``a``, ``I`` → ``l``, ``エ`` → ``工``; empty for what shows nothing."""
    cased = fold_char_cased(cluster)
    if not cased or cased == "\n":
        return cased
    skeleton = _CHECKER.getSkeleton(0, cased)
    return unicodedata.normalize("NFC", skeleton).casefold()


def seen(text: str) -> str:
    """The skeleton of a whole name as written (see :func:`seen_char`)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        j = cluster_end(text, i)
        out.append(seen_char(text[i:j]))
        i = j
    return "".join(out)


def seen_piece(original: str, at: int, folded: str) -> str:
    """The skeleton of the written character at ``original[at]`` (with its marks) that folded to
    ``folded``; of ``folded`` itself where folding replaced it (a run of ????)."""
    cluster = original[at : cluster_end(original, at)]
    return seen_char(cluster) if fold_char(cluster) == folded else seen_char(folded)


def lookalike_letters(written: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """The characters of ``written`` a reader took for another's: those whose skeleton is not
    their folded self (Cyrillic а, a capital I read as l, 0, エ), and those not in any of
    ``names`` (the player's name and nicknames) as folded (``rn`` read as m); each once."""
    own = set("".join(fold(n) for n in names))
    out: list[str] = []
    i = 0
    while i < len(written):
        j = cluster_end(written, i)
        ch = written[i:j]
        folded = fold_char(ch)
        other = seen_char(ch) != folded or not set(folded) <= own
        if folded and not folded.isspace() and other and ch not in out:
            out.append(ch)
        i = j
    return tuple(out)


def describe(letters: tuple[str, ...]) -> str:
    """Look-alike letters for the GM: ``а (U+0430 CYRILLIC SMALL LETTER A)``."""
    return "、".join(f"{ch} (U+{ord(ch[0]):04X} {unicodedata.name(ch[0], '?')})" for ch in letters)
