"""Helpers shared by the engine parsers: charset, forum times, HTML to plain text.

Pure functions, no engine knowledge: the selectors live in ``discuz_parse`` / ``phpwind_parse``.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

import lxml.html
from lxml import etree

from shenshi.adapters import errors

# --------------------------------------------------------------------------- charset

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_\-]+)""")  # (lower-cased head)
_XML_ENCODING = re.compile(rb"""<\?xml[^>]+encoding\s*=\s*["']([a-z0-9_\-]+)""")

# GB2312 and GBK pages routinely contain characters only GB18030 (their superset) names.
_ALIASES = {"gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "utf8": "utf-8"}


def normalise_charset(name: str | None) -> str | None:
    """A Python codec name for a charset label (``GBK`` → ``gb18030``), or None if unknown."""
    if not name:
        return None
    label = name.strip().lower()
    label = _ALIASES.get(label, label)
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def declared_charset(data: bytes) -> str | None:
    """The charset a page declares in its own markup (meta tag or XML declaration)."""
    head = data[:4096].lower()
    match = _XML_ENCODING.search(head) or _META_CHARSET.search(head)
    return normalise_charset(match.group(1).decode("ascii")) if match else None


def decode_page(data: bytes, fallback: str | None = None) -> str:
    """Decode a page by its own declaration; else ``fallback``; else UTF-8, then GB18030.

    Never assumes UTF-8 when the page says otherwise: many phpwind 8.x sites are GBK. A byte
    the charset cannot decode becomes U+FFFD where it stands, and the rest of the page is read
    as declared (decoding the whole page by another charset would turn every post into
    mojibake); the daemon tells the GM which post holds such bytes.
    """
    for candidate in (declared_charset(data), normalise_charset(fallback)):
        if candidate:
            return data.decode(candidate, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("gb18030", errors="replace")


def is_complete(text: str, markers: Sequence[str]) -> bool:
    """Whether a page holds one of ``markers``: the closing structure its engine always prints
    after the list (of posts, of conversations, of messages, of a board's threads).

    One look at the page's end: the markers stand after the list, near the end, and are
    searched for from there backwards (a whole page is not walked a second time)."""
    return any(text.rfind(marker) >= 0 for marker in markers)


def require_complete(text: str, markers: Sequence[str], what: str, says: Callable[[str], object]) -> None:
    """Raise :class:`~shenshi.adapters.errors.IncompletePage` unless the page holds one of
    ``markers``; a message page (not logged in, no permission…) raises its own error first
    (``says``: the engine's ``check_page``)."""
    if is_complete(text, markers):
        return
    says(text)
    raise errors.IncompletePage(
        f"{what} cut short: no {markers[0]} after the list", snippet=errors.snippet_of(text[-200:])
    )


_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)


def html_tree(text: str) -> lxml.html.HtmlElement:
    """Parse decoded HTML (lxml, tolerant of the forums' invalid markup)."""
    text = _XML_DECL.sub("", text, count=1)
    if not text.strip():
        raise ValueError("empty page")
    return lxml.html.document_fromstring(text)


def forms_in(page: str, xpath: str) -> list[lxml.html.HtmlElement]:
    """The forms of ``page`` that ``xpath`` finds; none on an empty page (a login page answered
    by a redirect elsewhere, which is not followed: the login page changed)."""
    return html_tree(page).xpath(xpath) if page.strip() else []



def load_page(data: bytes | str, charset: str | None = None) -> tuple[str, lxml.html.HtmlElement]:
    """The decoded text and its tree; what is not HTML at all is an :class:`UnexpectedPage`."""
    text = data if isinstance(data, str) else decode_page(data, charset)
    try:
        return text, html_tree(text)
    except (ValueError, etree.ParserError) as exc:
        raise errors.UnexpectedPage(f"not an HTML page: {exc}", snippet=errors.snippet_of(text)) from exc

def fragment_tree(html: str) -> lxml.html.HtmlElement:
    """Parse an HTML fragment (e.g. a post body from the JSON API) inside a wrapper div."""
    return lxml.html.fragment_fromstring(html or "", create_parent="div")


# --------------------------------------------------------------------------- time

DEFAULT_TZ = "Asia/Shanghai"

_ABSOLUTE = re.compile(
    r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T\xa0]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?"
)
_MONTH_DAY = re.compile(r"^(\d{1,2})-(\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?$")
_DAY_WORD = re.compile(r"(今天|昨天|前天)\s*(\d{1,2}):(\d{2})")
_AGO = re.compile(r"(\d+)\s*(秒|分钟|小时|天)前")
_AGO_UNIT = {"秒": "seconds", "分钟": "minutes", "小时": "hours", "天": "days"}
_DAY_OFFSET = {"今天": 0, "昨天": 1, "前天": 2}
_PREFIX = re.compile(r"^\s*(发表于|发布于|最后发表|回复于)\s*[:：]?\s*")


def zone(name: str | tzinfo | None) -> tzinfo:
    """A tzinfo for a zone name (default Asia/Shanghai, the forums' +8)."""
    if isinstance(name, tzinfo):
        return name
    return ZoneInfo(name or DEFAULT_TZ)


def parse_forum_time(
    text: str | None, *, title: str | None = None, tz: tzinfo, now: datetime
) -> datetime:
    """Resolve a time as a forum shows it into an aware datetime in the forum's zone.

    ``title`` (the absolute time in a ``span[title]``) wins over the visible text. Handles the
    formats of FORUMS.md: ``Y-n-j H:i[:s]``, ``n-j`` (year from ``now``), ``刚刚``, ``N 秒前``,
    ``N 分钟前``, ``半小时前``, ``N 小时前``, ``今天/昨天/前天 HH:MM``, ``N 天前``. Raises
    ``ValueError`` for anything else.
    """
    local_now = now.astimezone(tz) if now.tzinfo else now.replace(tzinfo=tz)
    for candidate in (title, text):
        if not candidate:
            continue
        value = _PREFIX.sub("", candidate.replace("\xa0", " ").replace("&nbsp;", " ")).strip()
        found = _absolute(value, tz) or _relative(value, tz, local_now)
        if found is not None:
            return found
    raise ValueError(f"not a forum time: {text!r} (title {title!r})")


def _absolute(value: str, tz: tzinfo) -> datetime | None:
    match = _ABSOLUTE.search(value)
    if not match:
        return None
    y, mo, d, h, mi, s = (int(g) if g else 0 for g in match.groups())
    return datetime(y, mo, d, h, mi, s, tzinfo=tz)


def _relative(value: str, tz: tzinfo, now: datetime) -> datetime | None:
    if value.startswith("刚刚"):
        return now
    if value.startswith("半小时前"):
        return now - timedelta(minutes=30)
    match = _AGO.search(value)
    if match:
        return now - timedelta(**{_AGO_UNIT[match.group(2)]: int(match.group(1))})
    match = _DAY_WORD.search(value)
    if match:
        day = now.date() - timedelta(days=_DAY_OFFSET[match.group(1)])
        return datetime(day.year, day.month, day.day, int(match.group(2)), int(match.group(3)), tzinfo=tz)
    match = _MONTH_DAY.match(value)
    if match:
        mo, d = int(match.group(1)), int(match.group(2))
        h, mi = int(match.group(3) or 0), int(match.group(4) or 0)
        guess = datetime(now.year, mo, d, h, mi, tzinfo=tz)
        return guess if guess <= now + timedelta(days=1) else guess.replace(year=now.year - 1)
    return None


def from_unix(seconds: str | int | float, tz: tzinfo) -> datetime:
    """A Unix timestamp (the Discuz API's ``dbdateline``) as an aware datetime in ``tz``."""
    return datetime.fromtimestamp(int(seconds), tz)


# --------------------------------------------------------------------------- text

_BLOCK = frozenset(
    ["div", "p", "blockquote", "li", "ul", "ol", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "dl", "dt", "dd", "center", "hr"]
)
_SKIP = frozenset(("script", "style", "img", "input", "textarea", "select", "button", "object", "embed"))
_SOFT = "\x00"  # block boundary: a line break unless one is already there
_SOURCE_NEWLINE = re.compile(r"[ \t]*[\r\n]+[ \t]*")
_SOFT_RUN = re.compile("\n?\x00+\n?")


def element_text(el: etree._Element) -> str:
    """Plain text of an element: ``<br>`` and block ends become line breaks, markup is dropped.

    BBCode the forum already rendered (``<strong>``, ``<font color>``, ``<font size>``) leaves only
    its text; newlines in the HTML source are whitespace (as in a browser); each line is stripped
    and blank lines at both ends are removed.
    """
    out: list[str] = []
    if el.text:
        out.append(_SOURCE_NEWLINE.sub(" ", el.text))
    for child in el:
        _walk(child, out)
    return tidy("".join(out))


def _walk(el: etree._Element, out: list[str]) -> None:
    tag = el.tag if isinstance(el.tag, str) else None
    if tag == "br":
        out.append("\n")
    elif tag is not None and tag.lower() not in _SKIP:
        block = tag.lower() in _BLOCK
        if block:
            out.append(_SOFT)
        if el.text:
            out.append(_SOURCE_NEWLINE.sub(" ", el.text))
        for child in el:
            _walk(child, out)
        if block:
            out.append(_SOFT)
    if el.tail:
        out.append(_SOURCE_NEWLINE.sub(" ", el.tail))


def tidy(text: str) -> str:
    """Normalise extracted text: soft breaks, non-breaking spaces, per-line and outer strip."""
    text = _SOFT_RUN.sub("\n", text).replace(_SOFT, "").replace("\xa0", " ")
    lines = [line.strip(" \t") for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def squash(text: str | None) -> str:
    """Collapse all whitespace (for names, headers and error messages)."""
    return " ".join((text or "").replace("\xa0", " ").split())


_CLAUSE_END = "，。：；！？、,.:;!?）)】」』 "
_CLAUSE_START = "（(【「『"
_TRAILING = frozenset("，、,：:；;—")  # what a title does not end with


def pm_title(text: str, limit: int = 20, empty: str = "消息") -> str:
    """A PM's title from its text, for an engine that requires one: its first line, cut at
    the last clause boundary within ``limit`` characters (never inside a word, a number or a
    name written in Latin letters); ``empty`` if nothing is left."""
    first = squash(next((line for line in text.splitlines() if line.strip()), ""))
    if len(first) <= limit:
        return first or empty
    head = first[: limit + 1]
    cut = max(head.rfind(c, 1, limit + 1) for c in _CLAUSE_END + _CLAUSE_START)
    if cut > 0:
        keep = head[:cut] if head[cut] in _CLAUSE_START or head[cut] == " " else head[: cut + 1]
    else:  # no boundary: stop before a Latin word or number the limit would split
        keep = first[:limit]
        while keep and first[len(keep)].isascii() and first[len(keep)].isalnum() and keep[-1].isascii() and keep[-1].isalnum():
            keep = keep[:-1]
    for opening, closing in (("（", "）"), ("(", ")"), ("【", "】"), ("「", "」"), ("《", "》")):
        if keep.count(opening) > keep.count(closing):  # never leave a bracket open
            keep = keep[: keep.rfind(opening)]
    keep = keep.strip()
    while keep and keep[-1] in _TRAILING:
        keep = keep[:-1]
    return keep or first[:limit]


def drop(el: etree._Element) -> None:
    """Remove an element but keep the text that follows it (its tail)."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def has_class(name: str) -> str:
    """XPath predicate matching one CSS class among several (``contains(concat(...))``)."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


_PARAM_CACHE: dict[str, re.Pattern[str]] = {}


def url_param(url: str | None, name: str) -> str | None:
    """The value of a query parameter in a (possibly HTML-escaped) link, or None."""
    if not url:
        return None
    pattern = _PARAM_CACHE.get(name)
    if pattern is None:
        pattern = _PARAM_CACHE[name] = re.compile(rf"(?:^|[?&;]){re.escape(name)}=([^&#;]*)")
    match = pattern.search(url)
    return match.group(1) if match else None
