"""BBCode as a forum shows it, rendered safely for the console.

The text is HTML-escaped first (posts are hostile input); only then are the tags shenshi's
announcements and the players' posts use turned into a fixed set of elements: ``[b]``, ``[i]``,
``[u]``, ``[s]``, ``[color=…]`` (a colour name or ``#hex`` only), ``[size=1..7]``, ``[quote]``,
``[url]``/``[url=…]`` (http and https only, opened in a new tab with no referrer) and
``[img]`` shown as a link (the console loads nothing from elsewhere). Unknown or malformed
tags stay as written. Line breaks become ``<br>``.
"""

from __future__ import annotations

import re
from html import escape

from markupsafe import Markup

_SIMPLE = {"b": "strong", "i": "em", "u": "u", "s": "s"}
_COLOR = re.compile(r"^(?:[a-zA-Z]{3,20}|#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6})$")
_URL = re.compile(r"^https?://[^\s\"'<>]+$", re.I)
_TAG = re.compile(
    r"\[(b|i|u|s)\](.*?)\[/\1\]"
    r"|\[color=([^\]]{1,24})\](.*?)\[/color\]"
    r"|\[size=(\d)\](.*?)\[/size\]"
    r"|\[quote(?:=[^\]]{0,80})?\](.*?)\[/quote\]"
    r"|\[url=([^\]\s]{1,500})\](.*?)\[/url\]"
    r"|\[url\]([^\[\s]{1,500})\[/url\]"
    r"|\[img\]([^\[\s]{1,500})\[/img\]",
    re.S | re.I,
)
SIZES = {1: "0.7em", 2: "0.85em", 3: "1em", 4: "1.15em", 5: "1.4em", 6: "1.7em", 7: "2em"}


def render(bbcode: str) -> Markup:
    """``bbcode`` as safe HTML (everything escaped but the tags listed above)."""
    return Markup(_tags(escape(bbcode, quote=True)).replace("\n", "<br>\n"))


def _link(url: str, text: str) -> str:
    # ``url`` is already escaped: &amp; stands for &, which the browser reads back as written.
    if not _URL.match(url.replace("&amp;", "&")):
        return text
    return f'<a href="{url}" target="_blank" rel="noopener noreferrer">{text}</a>'


def _tags(text: str) -> str:
    """Replace the known tags, innermost content first, until none is left."""

    def one(m: re.Match[str]) -> str:
        simple, inner, color, colored, size, sized, quote, url, label, bare, img = m.groups()
        if simple:
            tag = _SIMPLE[simple.lower()]
            return f"<{tag}>{_tags(inner)}</{tag}>"
        if color is not None:
            if not _COLOR.match(color):
                return m.group(0)
            return f'<span style="color:{color}">{_tags(colored)}</span>'
        if size is not None:
            style = SIZES.get(int(size))
            return f'<span style="font-size:{style}">{_tags(sized)}</span>' if style else m.group(0)
        if quote is not None:
            return f'<blockquote class="quote">{_tags(quote)}</blockquote>'
        if url is not None:
            return _link(url, _tags(label))
        if bare is not None:
            return _link(bare, bare)
        return _link(img, f"[图片] {img}")

    return _TAG.sub(one, text)
