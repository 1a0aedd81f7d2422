"""Rules about what one post may say (not about commands): the checks of RULES.md that a
daemon can make on a single post.

* werewolf W-D5: a maddened (癫狂) character may write only the vote target's name, emoticons,
  the 20 allowed characters, spaces and newlines [WW:L129];
* chess32 §4.8: no post of only quotes, emoticons or numbers, nor an empty or "路过" post;
* chess32 §7.1: a long quote block of another player's post (flag; the GM decides).
"""

from __future__ import annotations

import re

from shenshi.intake.text import count_chars, is_emoji, is_invisible

MADDENED_ALLOWED = frozenset("啊嗷嘎咯咕呱哼咴叽啾哩喵咩哞嘶汪嗡喔喳吱")
LONG_QUOTE_CHARS = 150  # a quoted block longer than this (non-whitespace) is flagged in chess32
# A post of nothing but passing by: 路过, 路过打酱油, 顶, 沙发, mark, +1 …
_PASSING_BY = re.compile(
    r"^(?:路过|飘过|经过|打酱油|酱油|围观|前排|占座|顶+|沙发|板凳|地板|mark|\+1|1|[ \t,，。.!！~～])+$",
    re.IGNORECASE,
)
_FILLER_CHARS = re.compile(r"[\s\d\W_]+")
# Emoticons typed in ASCII (:) :( :D ^_^ T_T orz xD) count as emoticons.
_ASCII_EMOTICON = re.compile(
    r"(?<![a-z0-9])(?:[:;=8][-'^]?[()\[\]dpo3|/\\*]+|\^[_.-]?\^|t[_.]t|orz|xd+|qaq|233+)(?![a-z0-9])",
    re.IGNORECASE,
)


def maddened_violations(text: str, allowed_spans: list[tuple[int, int]]) -> str:
    """The characters a maddened character may not write, in order, without repeats.

    ``allowed_spans`` are ``[start, end)`` ranges of ``text`` that are allowed anyway (the
    ballot: vote word and target name).
    """
    allowed: set[int] = set()
    for start, end in allowed_spans:
        allowed.update(range(start, end))
    bad: list[str] = []
    for i, ch in enumerate(text):
        if (
            i in allowed or ch.isspace() or ch in MADDENED_ALLOWED or is_emoji(ch)
            or is_invisible(ch)
        ):
            continue
        if ch not in bad:
            bad.append(ch)
    return "".join(bad)


def is_content_free(text: str, has_quotes: bool) -> bool:
    """True for a post with nothing of its own: empty, only emoticons/numbers, or 路过."""
    own = _ASCII_EMOTICON.sub(" ", "".join(c for c in text if not is_emoji(c)))
    stripped = _FILLER_CHARS.sub("", own)
    if not stripped:
        return True
    return bool(_PASSING_BY.match(own.strip(" 。.!！~～")))


def long_quotes(quotes: tuple[str, ...]) -> list[int]:
    """Lengths (non-whitespace characters) of the quote blocks that are too long."""
    return [n for n in (count_chars(q) for q in quotes) if n > LONG_QUOTE_CHARS]
