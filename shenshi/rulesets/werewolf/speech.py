"""W-D5: what a maddened (癫狂) character may post [WW:L129].

Only the vote-target name, emoticons, and the 20 characters 啊嗷嘎咯咕呱哼咴叽啾哩喵咩哞嘶汪嗡喔喳吱,
plus space and newline. Emoticons are forum markup, so the adapter (or intake) removes them
before asking; hidden encodings built from the allowed characters cannot be detected (§7).
"""

from __future__ import annotations

from collections.abc import Iterable

MADDENED_CHARACTERS = frozenset("啊嗷嘎咯咕呱哼咴叽啾哩喵咩哞嘶汪嗡喔喳吱")
WHITESPACE = frozenset(" \n")


def forbidden_in_maddened_speech(text: str, names: Iterable[str] = ()) -> str:
    """The characters of ``text`` a maddened character may not post (empty if it is fine).

    ``names`` are the vote-target names that may appear (the ballot of the vote thread);
    emoticons must already be stripped by the caller.
    """
    for name in sorted(set(names), key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    return "".join(ch for ch in text if ch not in MADDENED_CHARACTERS and ch not in WHITESPACE)


def maddened_speech_ok(text: str, names: Iterable[str] = ()) -> bool:
    """Whether a maddened character may post ``text`` (W-D5)."""
    return not forbidden_in_maddened_speech(text, names)
