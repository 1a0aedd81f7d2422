"""Text layout for the terminal: columns that fit its width, CJK characters counted as two
cells, and no player's name ever split across two lines.

A text is cut into atoms (a player's name, an ASCII word, one CJK character, a punctuation
mark) and lines are filled atom by atom, so a line may break between two characters of a
sentence but never inside a name or a word.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable, Sequence
from unicodedata import combining, east_asian_width

DEFAULT_WIDTH = 100
MIN_WIDTH = 40
STACK_INDENT = 4  # a narrow table's last column, under its row


def terminal_width() -> int:
    """The terminal's width in cells (``$COLUMNS`` first; 100 when it cannot be known)."""
    return max(MIN_WIDTH, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes: wide and full-width characters count two,
    combining marks none."""
    return sum(0 if combining(ch) else 2 if east_asian_width(ch) in "WF" else 1 for ch in text)


def atoms(text: str, names: Iterable[str] = ()) -> list[str]:
    """``text`` cut where a line may break: player names and ASCII words stay whole, each
    other character is its own atom (whitespace sticks to the atom before it)."""
    known = sorted({n for n in names if n}, key=len, reverse=True)
    pattern = "|".join(re.escape(n) for n in known)
    word = r"[\x21-\x7e]+"
    token = re.compile(rf"(?:{pattern}|{word}|\S)\s*" if pattern else rf"(?:{word}|\S)\s*")
    return token.findall(text)


def wrap(text: str, width: int, names: Iterable[str] = (), indent: str = "") -> list[str]:
    """``text`` on lines of at most ``width`` cells (an atom wider than a line stands alone);
    continuation lines start with ``indent``."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for atom in atoms(paragraph, names):
            if line and cells(line + atom.rstrip()) > width:
                lines.append(line.rstrip())
                line = indent
            line += atom
        lines.append(line.rstrip())
    return lines


def listing(label: str, items: Sequence[str], width: int, sep: str = "、") -> list[str]:
    """``label`` followed by ``items`` joined by ``sep``, each item kept whole on its line."""
    lines: list[str] = []
    line = label
    indent = " " * min(cells(label), 8, width // 4)
    for i, item in enumerate(items):
        piece = item + (sep if i < len(items) - 1 else "")
        if line.strip() and cells(line + piece.rstrip()) > width and line != label:
            lines.append(line.rstrip())
            line = indent
        line += piece
    lines.append(line.rstrip())
    return lines


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int,
    names: Iterable[str] = (),
    gap: int = 2,
) -> list[str]:
    """Rows under ``headers``; every column but the last is as wide as its widest cell, the
    last takes the rest of ``width`` and wraps (atom by atom, names whole)."""
    if not rows:
        return []
    names = list(names)
    columns = len(headers)
    fixed = [max(cells(str(r[i])) for r in [headers, *rows]) for i in range(columns - 1)]
    used = sum(fixed) + gap * (columns - 1)
    widest = max((cells(a.rstrip()) for r in rows for a in atoms(str(r[-1]), names)), default=0)
    stacked = width - used < max(widest, 12)  # too narrow: the last column goes under its row
    last = width - STACK_INDENT if stacked else width - used
    out = []
    for row in [headers, *rows]:
        head = "".join(_pad(str(row[i]), fixed[i]) + " " * gap for i in range(columns - 1))
        tail = wrap(str(row[-1]), last, names)
        if stacked:
            out.append(head.rstrip() if row is not headers else (head + str(row[-1])).rstrip())
            if row is not headers:
                out += [(" " * STACK_INDENT + line).rstrip() for line in tail]
            continue
        out.append((head + tail[0]).rstrip())
        out += [(" " * cells(head) + more).rstrip() for more in tail[1:]]
    return out


def _pad(text: str, width: int) -> str:
    return text + " " * (width - cells(text))
