"""BBCode (as stored) to the HTML each engine shows, matching the captured pages.

Discuz! ``discuzcode``: ``[b]`` → ``<strong>``, ``[color=Red]`` → ``<font color="Red">``,
``[size=4]`` → ``<font size="4">``, ``[quote]`` → ``<div class="quote"><blockquote>`` (one blank
character around it swallowed), ``[i=s]`` → ``<i class="pstatus">`` (the edit mark), relative
``[url]`` made absolute, line breaks ``<br />\\n``.

phpwind 8.7: ``[b]`` → ``<b>``, ``[color=red]`` → ``<span style="color:red ">``, ``[size=4]`` →
``<font size="4">``, ``[quote]`` → ``<blockquote class="blockquote3"><div class="text" …>`` with
the line breaks inside dropped, links ``<a … onclick="return checkUrl(this)" id="url_N">``,
line breaks ``<br />``.
"""

from __future__ import annotations

import itertools
import re

_QUOTE_DISCUZ = re.compile(r"\s?\[quote\][\n\r]*(.+?)[\n\r]*\[/quote\]\s?", re.S | re.I)
_QUOTE_PHPWIND = re.compile(r"\[quote\]\s*(.+?)\s*\[/quote\]", re.S | re.I)
_URL_WITH_TEXT = re.compile(r"\[url=([^\]\s]+)\](.*?)\[/url\]", re.S | re.I)
_URL_BARE = re.compile(r"\[url\]([^\[\s]+)\[/url\]", re.I)
_COLOR = re.compile(r"\[color=([#\w]+)\]", re.I)
_SIZE = re.compile(r"\[size=(\d+)\]", re.I)
_IMG = re.compile(r"\[img\]([^\[\s]+)\[/img\]", re.I)


def escape(text: str) -> str:
    """HTML-escape as ``dhtmlspecialchars`` does (``& < > "``)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _absolute(url: str, site_url: str) -> str:
    if re.match(r"^[a-z][a-z0-9+.-]*://", url, re.I):
        return url
    return site_url.rstrip("/") + "/" + url.lstrip("/")


def _replace_nested(pattern: re.Pattern[str], template: str, text: str) -> str:
    while True:
        new = pattern.sub(template, text)
        if new == text:
            return new
        text = new


def discuz_html(bbcode: str, site_url: str) -> str:
    """Render a Discuz post or PM body (the inner HTML of ``td.t_f``)."""
    s = escape(bbcode)
    s = _replace_nested(_QUOTE_DISCUZ, r'<div class="quote"><blockquote>\1</blockquote></div>', s)
    s = re.sub(r"\[i=s\]", '<i class="pstatus">', s, flags=re.I)
    s = _simple_tags(s, {"b": "strong", "i": "i", "u": "u"})
    s = _COLOR.sub(r'<font color="\1">', s)
    s = _SIZE.sub(r'<font size="\1">', s)
    s = re.sub(r"\[/(color|size)\]", "</font>", s, flags=re.I)
    s = _URL_WITH_TEXT.sub(
        lambda m: f'<a href="{_absolute(m.group(1), site_url)}" target="_blank">{m.group(2)}</a>', s
    )
    s = _URL_BARE.sub(
        lambda m: f'<a href="{_absolute(m.group(1), site_url)}" target="_blank">{m.group(1)}</a>', s
    )
    s = s.replace("\t", "&nbsp; &nbsp; &nbsp; &nbsp; ").replace("   ", "&nbsp; &nbsp;")
    s = s.replace("  ", "&nbsp;&nbsp;")
    return s.replace("\n", "<br />\n")


_MOBILE_QUOTE_HEAD = re.compile(
    r'<font size="2"><a href="([^"]*)" target="_blank">(<font color="#999999">.*?</font>)</a></font>'
)


_EDIT_MARK = re.compile(r"\[i=s\].*?\[/i\]\s*", re.S | re.I)


def discuz_mobile_html(bbcode: str, site_url: str, *, twice: bool = False) -> str:
    """The mobile JSON API's ``message``: quotes become ``div.reply_wrap``; no edit mark.

    The captured API answer for an edited post (pid 96 of ``api_viewthread_ppp20_p2.json``) starts
    with the author's text: the API drops the ``[i=s]`` 本帖最后由 … 编辑 mark and the blank line after it.
    ``twice``: a post's text, which the API escapes a second time before rendering its BBCode
    (mobile ``discuzcode.func.php:52`` runs ``dhtmlspecialchars`` on the stored, already escaped
    message): ``(>_<)`` arrives as ``(&amp;gt;_&amp;lt;)``, a quote's link as ``&amp;amp;goto``.
    A PM's text is escaped once, as on the page.
    """
    source = _EDIT_MARK.sub("", bbcode)
    s = discuz_html(escape(source) if twice else source, site_url)
    s = _MOBILE_QUOTE_HEAD.sub(lambda m: f'<a href="{m.group(1)}">{m.group(2)}</a>', s)
    return s.replace('<div class="quote"><blockquote>', '<div class="reply_wrap">').replace(
        "</blockquote></div>", "</div>"
    )


def _simple_tags(s: str, mapping: dict[str, str]) -> str:
    for bb, tag in mapping.items():
        s = re.sub(rf"\[{bb}\]", f"<{tag}>", s, flags=re.I)
        s = re.sub(rf"\[/{bb}\]", f"</{tag}>", s, flags=re.I)
    return s


def phpwind_html(bbcode: str, site_url: str) -> str:
    """Render a phpwind post or PM body (the inner HTML of ``div.f14#read_{pid}``)."""
    counter = itertools.count(1)
    s = escape(bbcode)

    def quote(m: re.Match[str]) -> str:
        inner = m.group(1).replace("\r", "").replace("\n", "")
        return f'<blockquote class="blockquote3"><div class="text" style="padding:15px;">{inner}</div></blockquote>'

    s = _replace_nested(_QUOTE_PHPWIND, quote, s)
    s = _simple_tags(s, {"b": "b", "i": "i", "u": "u"})
    s = _COLOR.sub(r'<span style="color:\1 ">', s)
    s = re.sub(r"\[/color\]", "</span>", s, flags=re.I)
    s = _SIZE.sub(r'<font size="\1">', s)
    s = re.sub(r"\[/size\]", "</font>", s, flags=re.I)
    s = _IMG.sub(lambda m: _phpwind_img(_absolute(m.group(1), site_url)), s)

    def link(m: re.Match[str]) -> str:
        href = _absolute(m.group(1), site_url)
        if "u.php?username=" in href:
            return f'<a href="{href}" target="_blank">{m.group(2)}</a>'
        return (f'<a href="{href}" target="_blank" onclick="return checkUrl(this)" '
                f'id="url_{next(counter)}">{m.group(2)}</a>')

    s = _URL_WITH_TEXT.sub(link, s)
    s = _URL_BARE.sub(lambda m: link(re.match(r"(.*)()", m.group(1)) or m), s)
    return s.replace("\n", "<br />")


def _phpwind_img(src: str) -> str:
    return (f'<img src="{src}" border="0" onclick="if(this.parentNode.tagName!=\'A\'&&this.width>=700) '
            f"window.open('{src}');\" style=\"max-width:700px;max-height:700px;\" "
            'onload="if(is_ie6&&this.offsetWidth>700)this.width=700;" >')


def discuz_quote_bbcode(author: str, pid: int, tid: int, posted: str, text: str) -> str:
    """The ``noticetrimstr`` Discuz puts in a reply form opened with ``repquote=PID``."""
    return (f"[quote][size=2][url=forum.php?mod=redirect&goto=findpost&pid={pid}&ptid={tid}]"
            f"[color=#999999]{author} 发表于 {posted}[/color][/url][/size]\n{text}[/quote]")


def phpwind_quote_bbcode(author: str, pid: int | str, tid: int, text: str, site_url: str) -> str:
    """The text phpwind pre-fills in the quote form (``post.php?action=quote``)."""
    base = site_url.rstrip("/")
    return (f"[quote][url={base}/u.php?username={author}]{author}[/url][color=gray]:[/color]\n"
            f"{text} [url={base}/job.php?action=topost&tid={tid}&pid={pid}][img]images/back.gif[/img][/url]\n"
            "[/quote]\n")


_TAG = re.compile(r"\[/?(?:b|i|u|i=s|color(?:=[^\]]*)?|size(?:=[^\]]*)?|url(?:=[^\]]*)?|img)\]", re.I)


def strip_bbcode(bbcode: str) -> str:
    """Text without BBCode tags or quotes (what a quote form quotes, trimmed)."""
    without_quotes = re.sub(r"\[quote\].*?\[/quote\]\s*", "", bbcode, flags=re.S | re.I)
    return _TAG.sub("", without_quotes).strip()
