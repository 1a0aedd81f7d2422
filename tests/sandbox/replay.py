"""Replay a captured page into a sandbox forum, so both can be parsed by the adapters side by side.

The records the real parsers read from a captured page (``fixtures/<engine>/<version>/``) say who
wrote what, when, with which ids. :class:`Replay` puts the same content into a
:class:`~shenshi.adapters.sandbox.SandboxForum` on a clock stopped at the capture's ``now``: the
same users and uids, posts with the same pids, floors, times, quotes and edit marks (their bodies
turned back into the BBCode the forum stored), the same conversations and messages. The sandbox
then renders the page in its own markup; parsing it must give the same records.

Only content is taken from the captures, never markup: whatever the sandbox renders wrong shows as
a difference in the parsed records.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import lxml.html
from sandbox_helpers import client, discuz_login, phpwind_login

from shenshi.adapters import discuz_parse, phpwind_parse
from shenshi.adapters.sandbox import ManualClock, SandboxForum, serve
from shenshi.adapters.sandbox.seed import BOARD_FID, BOARD_NAME, GM_NAME, GM_PASSWORD
from shenshi.adapters.text import decode_page, html_tree, zone
from shenshi.records import (
    BoardThread,
    EditMark,
    Post,
    PrivateMessage,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
ENGINE_DIRS = {"discuz": FIXTURES / "discuz" / "x3.5", "phpwind": FIXTURES / "phpwind" / "8.7"}
PARSERS = {"discuz": discuz_parse, "phpwind": phpwind_parse}
TZ = zone("Asia/Shanghai")
GM_UID = 2
FILLER = "（此楼内容不在这份抓取里）"


def captured(engine: str, name: str) -> bytes:
    """A captured page, byte for byte."""
    return (ENGINE_DIRS[engine] / name).read_bytes()


def captured_now(engine: str, name: str) -> datetime:
    """The ``now`` the capture's expected parse was made at (relative times resolve against it)."""
    stem = re.sub(r"\.(html|xml|json)$", "", name)
    spec = json.loads((ENGINE_DIRS[engine] / f"{stem}.expected.json").read_text(encoding="utf-8"))
    return datetime.fromisoformat(spec["now"])


# --------------------------------------------------------------------------- HTML back to BBCode


def bbcode_of(body: Any, site_url: str) -> str:
    """The BBCode a forum stored for a rendered post or PM body (the inverse of its renderer).

    Edit marks (Discuz ``i.pstatus``, phpwind ``div#alert_*``) are left out: a replay sets them
    with ``edit_post``. Links lose the captured site's root so the sandbox can add its own.
    """
    out: list[str] = []
    if body.text:
        out.append(_text(body.text))
    for child in body:
        _bbcode(child, out, site_url)
    return "".join(out).strip()


def _text(value: str) -> str:
    # Rendered line breaks are <br />; newlines in the HTML source are layout only.
    return value.replace("\r", "").replace("\n", "").replace("\xa0", " ")


def _relative(url: str, site_url: str) -> str:
    return url[len(site_url):] if url.startswith(site_url) else url


def _bbcode(el: Any, out: list[str], site_url: str) -> None:
    tag = el.tag if isinstance(el.tag, str) else ""
    classes = (el.get("class") or "").split()
    style = (el.get("style") or "").replace(" ", "")
    if tag == "br":
        out.append("\n")
    elif (tag == "i" and "pstatus" in classes) or (el.get("id") or "").startswith("alert_"):
        pass
    elif tag in ("div", "blockquote") and {"quote", "reply_wrap", "blockquote3"} & set(classes):
        _wrap(el, out, site_url, "[quote]", "[/quote]")
    elif tag in ("strong", "b"):
        _wrap(el, out, site_url, "[b]", "[/b]")
    elif tag == "font" and el.get("color"):
        _wrap(el, out, site_url, f"[color={el.get('color')}]", "[/color]")
    elif tag == "font" and el.get("size"):
        _wrap(el, out, site_url, f"[size={el.get('size')}]", "[/size]")
    elif tag == "span" and style.startswith("color:"):
        _wrap(el, out, site_url, f"[color={style[6:].rstrip(';')}]", "[/color]")
    elif tag == "a" and el.get("href"):
        href = _relative(el.get("href").replace("&amp;", "&"), site_url)
        _wrap(el, out, site_url, f"[url={href}]", "[/url]")
    elif tag == "img" and el.get("src"):
        out.append(f"[img]{_relative(el.get('src'), site_url)}[/img]")
    elif tag:
        _wrap(el, out, site_url, "", "")
    if el.tail:
        out.append(_text(el.tail))


def _wrap(el: Any, out: list[str], site_url: str, opening: str, closing: str) -> None:
    out.append(opening)
    if el.text:
        out.append(_text(el.text))
    for child in el:
        _bbcode(child, out, site_url)
    out.append(closing)


def site_of(page: bytes) -> str:
    """The captured site's root URL (every capture links to it)."""
    found = re.search(rb"http://127\.0\.0\.1:808[12]/", page)
    return found.group(0).decode() if found else "http://127.0.0.1/"


def html_bodies(engine: str, page: bytes) -> dict[str, str]:
    """pid → BBCode of every post body on a captured HTML thread page."""
    site = site_of(page)
    tree = html_tree(decode_page(page))
    if engine == "discuz":
        cells = tree.xpath("//td[starts-with(@id, 'postmessage_')]")
        return {c.get("id")[len("postmessage_"):]: bbcode_of(c, site) for c in cells}
    cells = tree.xpath("//div[starts-with(@id, 'read_') and contains(@class, 'f14')]")
    return {c.get("id")[len("read_"):]: bbcode_of(c, site) for c in cells}


def api_bodies(found: dict[str, Any]) -> dict[str, str]:
    """pid → BBCode of every post of a Discuz mobile API ``viewthread`` answer."""
    bodies = {}
    for row in found["Variables"]["postlist"]:
        html = row["message"].replace("&amp;amp;", "&amp;")
        wrapper = lxml.html.fragment_fromstring(html, create_parent="div")
        bodies[str(row["pid"])] = bbcode_of(wrapper, "http://127.0.0.1:8081/")
    return bodies


# --------------------------------------------------------------------------- the replay


@dataclass
class Replay:
    """A sandbox forum on a clock stopped at a capture's ``now``, filled with its content."""

    forum: SandboxForum
    clock: ManualClock

    @classmethod
    def at(cls, engine: str, now: datetime, charset: str = "utf-8") -> Replay:
        clock = ManualClock(now)
        forum = SandboxForum(engine, clock=clock, charset=charset)
        forum.add_user(GM_NAME, GM_PASSWORD, uid=GM_UID)
        forum.create_board(BOARD_NAME, fid=BOARD_FID)
        return cls(forum, clock)

    @property
    def engine(self) -> str:
        return self.forum.engine

    def user(self, name: str, uid: str | int) -> None:
        """Make sure member ``name`` exists with ``uid`` (the captures' own uids)."""
        found = self.forum.find_user(name)
        if found is None:
            self.forum.add_user(name, f"pw_{uid}", uid=int(uid))
        elif found.uid != int(uid):
            raise AssertionError(f"{name} is uid {found.uid} here and {uid} in the capture")

    # ------------------------------------------------------------------ threads

    def thread(
        self, tid: str, subject: str, posts: Iterable[Post], bodies: dict[str, str], total: int,
        edits: dict[str, EditMark] | None = None,
    ) -> None:
        """Thread ``tid`` with ``total`` posts: the captured ones at their floors, fillers elsewhere.

        ``edits`` adds edit marks the page itself does not show (the mobile API drops them).
        """
        posts = list(posts)
        edits = {**(edits or {}), **{p.pid: p.edited for p in posts if p.edited}}
        known = {p.floor: p for p in posts}
        first_at = min(p.posted_at for p in known.values())
        last_at = max(p.posted_at for p in known.values())
        for floor in range(1, total + 1):
            post = known.get(floor)
            if post is None:
                moment = first_at - timedelta(minutes=total - floor) if floor < min(known) else last_at
                author, text, pid = GM_NAME, FILLER, 100000 + floor
            else:
                self.user(post.author, post.author_uid)
                moment, author, text = post.posted_at, post.author, bodies[post.pid]
                pid = int(post.pid) if post.pid.isdigit() else 100000 + floor
            if floor == 1:
                self.forum.create_thread(author, BOARD_FID, subject, text, at=moment, tid=int(tid), pid=pid)
            else:
                self.forum.post(author, int(tid), text, at=moment, pid=pid)
            edit = edits.get(post.pid) if post is not None else None
            if edit is not None:
                self.forum.edit_post(pid, text, by=edit.by, at=edit.at)

    def board(self, rows: list[BoardThread], authors: dict[str, str]) -> None:
        """Threads listed as ``rows`` show (same order, replies, last post and poster)."""
        for rank, row in enumerate(rows):
            assert row.author and row.last_poster and row.last_post_at
            self.user(row.author, authors[row.author])
            self.user(row.last_poster, authors[row.last_poster])
            last = _ordered(row.last_post_at, rank)
            if not row.replies and row.last_poster != row.author:
                raise AssertionError(f"thread {row.tid}: no reply, yet the last poster is not its author")
            start = last - timedelta(days=1) if row.replies else last
            self.forum.create_thread(row.author, BOARD_FID, row.subject, FILLER, at=start, tid=int(row.tid))
            for n in range(row.replies, 0, -1):
                poster, moment = (row.last_poster, last) if n == 1 else (row.author, last - timedelta(hours=n))
                self.forum.post(poster, int(row.tid), FILLER, at=moment)

    # ------------------------------------------------------------------ PMs

    def conversation(
        self, partner: str, partner_uid: str, messages: list[PrivateMessage], *, cid: int | None = None,
        rids: dict[int, int] | None = None, unread: bool = False, subject: str | None = None,
    ) -> None:
        """One conversation of the GM with ``partner``, holding ``messages`` in order."""
        self.user(partner, partner_uid)
        conversation = None
        for message in messages:
            to = partner if message.sender_uid == str(GM_UID) else GM_NAME
            mid = int(message.id) if message.id.isdigit() else None
            if conversation is None:
                sent = self.forum.send_pm(message.sender, to, message.text, subject=subject or message.subject,
                                          new_conversation=True, at=message.sent_at, cid=cid, mid=mid, rids=rids)
                conversation = sent.cid
            else:
                self.forum.reply_pm(message.sender, conversation, message.text, at=message.sent_at, mid=mid)
        assert conversation is not None
        if not unread:
            self.forum.mark_read(GM_NAME, conversation)

    # ------------------------------------------------------------------ serving

    def fetch(self, *paths: str, guest: bool = False) -> list[bytes]:
        """GET ``paths`` from the sandbox over loopback HTTP, as the GM unless ``guest``."""
        with serve(self.forum) as base_url, client(base_url) as http:
            if not guest:
                login = discuz_login if self.engine == "discuz" else phpwind_login
                args = (self.forum.charset,) if self.engine == "phpwind" else ()
                login(http, GM_NAME, GM_PASSWORD, *args)
            return [_ok(http.get(path)) for path in paths]


def _ok(response: httpx.Response) -> bytes:
    assert response.status_code < 500, f"{response.url}: HTTP {response.status_code}"
    return response.content


def _ordered(moment: datetime, rank: int) -> datetime:
    """``moment`` nudged by microseconds so that rows of the same second keep the captured order."""
    return moment + timedelta(microseconds=999_999 - rank) if moment.microsecond == 0 else moment


def later_install() -> set[str]:
    """The pages captured from the installs of 2026-12-01 (fixtures/REALFORUM.md): other uids."""
    table = (FIXTURES / "REALFORUM.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `([^`]+)`", table, re.M))


def cast(engine: str) -> dict[str, str]:
    """Every member name → uid that the captured thread pages and PM pages of ``engine`` show
    (the first captures; the later install numbered its members differently)."""
    names: dict[str, str] = {GM_NAME: str(GM_UID)}
    pattern = re.compile(r'(?:mod=space&(?:amp;)?uid=|u\.php\?uid=)(\d+)"[^>]*>([^<]+)</a>')
    later = later_install()
    pages = ENGINE_DIRS[engine].glob("*.html")
    for path in sorted(p for p in pages if "_gbk" not in p.name and p.name not in later):
        for uid, name in pattern.findall(path.read_text(encoding="utf-8")):
            if name.strip() and not name.strip().isdigit():
                names.setdefault(name.strip(), uid)
    return names


_TIME_TITLE = re.compile(rb'(<(?:span|a)\b[^>]*?\btitle=")\d{4}-\d{1,2}-\d{1,2}[^"]*(")')
_SECONDS_AGO = re.compile(r'title="(\d{4}-\d{1,2}-\d{1,2} \d{1,2}:\d{2}:\d{2})">(?:发表于:?\s*)?(\d+)(?:&nbsp;|\s)*秒前')


def visible_times_only(page: bytes) -> bytes:
    """The page with every time ``title`` emptied: parsers must then read the visible, often
    relative, time text (``7&nbsp;天前``, ``昨天&nbsp;19:31``, ``8小时前``, ``11-24``)."""
    return _TIME_TITLE.sub(rb"\1\2", page)


def rendered_at(engine: str, name: str) -> datetime:
    """When the forum rendered a captured page: a "N 秒前" beside its absolute title pins it to the
    second; otherwise the ``now`` of the capture's expected parse."""
    found = _SECONDS_AGO.search(captured(engine, name).decode("utf-8", "replace"))
    if found is None:
        return captured_now(engine, name)
    shown = datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S").replace(tzinfo=TZ)  # 2026-12-1 23:08:57
    return shown + timedelta(seconds=int(found.group(2)))
