"""What the forum itself holds, read from its database: the ground truth the suite checks the
daemon's announcements and PMs against (nothing here goes through shenshi's adapters).

Text columns are converted to UTF-8 in the query (a GBK phpwind keeps GBK bytes) and compared
unescaped: both engines store what was typed HTML-escaped.
"""

from __future__ import annotations

import binascii
import html
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from tests.forumctl import DB


def _text(column: str) -> str:
    return f"HEX(CONVERT({column} USING utf8mb4))"


def _decode(hexed: str) -> str:
    return "" if hexed in ("", "NULL") else binascii.unhexlify(hexed).decode("utf-8", "replace")


def _ident(prefix: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_]*", prefix):
        raise ValueError(f"bad table prefix {prefix!r}")
    return prefix


def plain(text: str) -> str:
    """Stored text as people read it: unescaped, whitespace collapsed."""
    return " ".join(html.unescape(text).split())


def plain_lines(text: str) -> str:
    """Stored text as people read it, line by line: unescaped, ``\r\n`` as ``\n``."""
    return html.unescape(text).replace("\r\n", "\n").replace("\r", "\n")


@dataclass(frozen=True)
class StoredPost:
    """One visible post of a thread, as the database keeps it."""

    pid: str  # phpwind: "tpc" for the first post, as the adapters name it
    tid: str
    author: str
    author_uid: int
    posted_at: datetime
    text: str
    first: bool


@dataclass(frozen=True)
class StoredPM:
    """One private message, as the database keeps it."""

    id: str
    sender_uid: int
    recipient_uid: int
    sent_at: datetime
    text: str


def members(db: DB, engine: str, names: list[str] | None = None) -> dict[str, int]:
    """uid by member name, for ``names`` or everyone (case-insensitive, as the engines' collations;
    keys as given, or folded)."""
    p = _ident(db.prefix)
    table = f"{p}common_member" if engine == "discuz" else f"{p}members"
    known = {_decode(name).casefold(): int(uid) for uid, name in db.query(f"SELECT uid, {_text('username')} FROM {table}")}
    if names is None:
        return known
    return {n: known[n.casefold()] for n in names if n.casefold() in known}


def thread_posts(db: DB, engine: str, tid: int) -> list[StoredPost]:
    """The thread's visible posts in floor order."""
    p, tid = _ident(db.prefix), int(tid)
    if engine == "discuz":
        rows = db.query(
            f"SELECT pid, authorid, {_text('author')}, dateline, {_text('message')}, first FROM {p}forum_post "
            f"WHERE tid={tid} AND invisible=0 ORDER BY position, pid"
        )
        return [StoredPost(r[0], str(tid), _decode(r[2]), int(r[1]), _at(r[3]), _decode(r[4]), r[5] == "1") for r in rows]
    head = db.query(
        f"SELECT t.authorid, {_text('t.author')}, t.postdate, {_text('m.content')} FROM {p}threads t "
        f"JOIN {p}tmsgs m ON m.tid=t.tid WHERE t.tid={tid}"
    )
    posts = [StoredPost("tpc", str(tid), _decode(r[1]), int(r[0]), _at(r[2]), _decode(r[3]), True) for r in head]
    rows = db.query(
        f"SELECT pid, authorid, {_text('author')}, postdate, {_text('content')} FROM {p}posts "
        f"WHERE tid={tid} AND ifcheck='1' ORDER BY postdate, pid"
    )
    return posts + [StoredPost(r[0], str(tid), _decode(r[2]), int(r[1]), _at(r[3]), _decode(r[4]), False) for r in rows]


def sent_pms(db: DB, engine: str, sender_uid: int, since: datetime) -> list[StoredPM]:
    """Every PM ``sender_uid`` sent since ``since`` (to whom, when, what)."""
    p, stamp, uid = _ident(db.prefix), int(since.timestamp()), int(sender_uid)
    found = []
    if engine == "discuz":
        uc = f"{p}ucenter_"
        for n in range(10):
            rows = db.query(
                f"SELECT m.pmid, l.min_max, m.dateline, {_text('m.message')} FROM {uc}pm_messages_{n} m "
                f"JOIN {uc}pm_lists l ON l.plid=m.plid WHERE m.authorid={uid} AND m.dateline>={stamp}"
            )
            for pmid, min_max, dateline, message in rows:
                other = [int(x) for x in min_max.split("_") if x.isdigit() and int(x) != uid] or [uid]
                found.append(StoredPM(pmid, uid, other[0], _at(dateline), _decode(message)))
        return sorted(found, key=lambda m: (m.sent_at, int(m.id)))
    rows = db.query(
        f"SELECT r.id, r.created_time, {_text('r.content')}, m.create_uid, {_text('m.extra')} FROM {p}ms_replies r "
        f"JOIN {p}ms_messages m ON m.mid=r.parentid WHERE r.create_uid={uid} AND r.created_time>={stamp} ORDER BY r.id"
    )
    names = members(db, engine)
    for rid, created, content, creator, extra in rows:
        if int(creator) != uid:
            recipient = int(creator)
        else:  # a:1:{i:0;s:6:"小明";}: the recipients' names
            listed = re.findall(r's:\d+:"(.*?)";', _decode(extra))
            recipient = names.get(listed[0].casefold(), 0) if listed else 0
        found.append(StoredPM(rid, uid, recipient, _at(created), _decode(content)))
    return found


def _at(stamp: str) -> datetime:
    return datetime.fromtimestamp(int(stamp), UTC)
