"""Is this message on the forum the one we sent? What the forum shows is not what was sent.

A post or PM the GM's account sent is looked for on the forum after a crash or an unclear
answer (the publisher), or after the GM sent it by hand (dry-run). The forum changes the text
on the way, and the readers give it back as plain text (:mod:`shenshi.records`):

* whitespace is reflowed;
* BBCode is rendered (a GM's template may colour its title: ``[b]【第1夜结果】[/b]``), and what
  is quoted or an image is not part of the author's text;
* character references (``&#23567;``, sent for a character outside a GBK forum's charset, or
  typed by a player and repeated) are shown as the character, or escaped, by engine;
* a post shorter than the forum's minimum went out padded (``adapter.fit_min_length``).

:func:`same_message` compares the two after undoing each of these, and nothing more: two
messages that differ in a word are different.
"""

from __future__ import annotations

import html
import re

# The content of these is not part of the shown text (a quote is its own record; an image
# has no text).
_DROPPED = re.compile(r"\[(quote|img|attach|attachimg)(?:=[^\]]*)?\].*?\[/\1\]", re.S | re.I)
_TAG = re.compile(
    r"\[/?(?:b|i|u|s|strike|color|size|font|align|url|email|backcolor|float|indent|p|hr|list|"
    r"\*|code|free|hide|table|tr|td|sup|sub|media|audio|flash|qq|i=s)(?:=[^\]]*)?\]",
    re.I,
)


def skeleton(text: str) -> str:
    """The text as a reader gives it back, whatever the engine: BBCode rendered, character
    references resolved, no whitespace."""
    text = _TAG.sub("", _DROPPED.sub("", text))
    return "".join(html.unescape(html.unescape(text)).split())


def same_message(shown: str, sent: str, padding: str = "") -> bool:
    """Whether ``shown`` (a message as the forum shows it) is ``sent`` (what was sent, before
    any padding): the same after :func:`skeleton`, ``padding`` repeated at its end aside."""
    have, want = skeleton(shown), skeleton(sent)
    pad = skeleton(padding)
    while pad and len(have) > len(want) and have.endswith(pad):
        have = have[: -len(pad)]
    return have == want
