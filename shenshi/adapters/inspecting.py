"""Parse a saved page or API answer without a network, into the JSON shapes of
``shenshi inspect`` (and of the fixtures' expected parses).

Shapes (times ISO 8601 with the forum's offset; ids and uids as strings; floors from 1)::

    thread:        {"page", "pages", "posts": [{"pid", "floor", "author", "author_uid",
                     "posted_at", "text", "quotes": [{"author", "pid", "text"}],
                     "edited": {"by", "at"} | null}]}
    inbox:         {"conversations": [{"id", "partner", "partner_uid", "unread", "last_at", "count"}]}
    conversation:  {"messages": [{"id", "sender", "sender_uid", "sent_at", "text"}]}
    board:         {"threads": [{"tid", "subject", "author", "replies", "last_post_at", "last_poster"}]}
"""

from __future__ import annotations

import json
from datetime import datetime, tzinfo
from typing import Any

from shenshi.adapters import discuz_parse, errors, phpwind_parse
from shenshi.adapters.text import decode_page
from shenshi.records import (
    BoardThread,
    ConversationSummary,
    Post,
    PrivateMessage,
    ThreadPage,
)

KINDS = ("thread", "inbox", "conversation", "board")
ENGINES = {"discuz": discuz_parse, "phpwind": phpwind_parse}


def _iso(value: datetime | None, tz: tzinfo) -> str | None:
    return value.astimezone(tz).isoformat() if value else None


def post_json(post: Post, tz: tzinfo) -> dict[str, Any]:
    """One post in the ``inspect thread`` shape."""
    return {
        "pid": post.pid,
        "floor": post.floor,
        "author": post.author,
        "author_uid": post.author_uid,
        "posted_at": _iso(post.posted_at, tz),
        "text": post.text,
        "quotes": [{"author": q.author, "pid": q.pid, "text": q.text} for q in post.quotes],
        "edited": {"by": post.edited.by, "at": _iso(post.edited.at, tz)} if post.edited else None,
    }


def thread_json(page: ThreadPage, tz: tzinfo) -> dict[str, Any]:
    """A thread page in the ``inspect thread`` shape."""
    return {"page": page.page, "pages": page.pages, "posts": [post_json(p, tz) for p in page.posts]}


def inbox_json(rows: list[ConversationSummary], tz: tzinfo) -> dict[str, Any]:
    """Inbox rows in the ``inspect inbox`` shape."""
    return {
        "conversations": [
            {
                "id": r.id,
                "partner": r.partner,
                "partner_uid": r.partner_uid,
                "unread": bool(r.unread),
                "last_at": _iso(r.last_at, tz),
                "count": r.count,
            }
            for r in rows
        ]
    }


def conversation_json(messages: list[PrivateMessage], tz: tzinfo) -> dict[str, Any]:
    """Messages in the ``inspect conversation`` shape."""
    return {
        "messages": [
            {"id": m.id, "sender": m.sender, "sender_uid": m.sender_uid, "sent_at": _iso(m.sent_at, tz), "text": m.text}
            for m in messages
        ]
    }


def board_json(rows: list[BoardThread], tz: tzinfo) -> dict[str, Any]:
    """Board rows in the ``inspect board`` shape."""
    return {
        "threads": [
            {
                "tid": r.tid,
                "subject": r.subject,
                "author": r.author,
                "replies": r.replies,
                "last_post_at": _iso(r.last_post_at, tz),
                "last_poster": r.last_poster,
            }
            for r in rows
        ]
    }


def inspect_bytes(kind: str, engine: str, data: bytes, *, tz: tzinfo, now: datetime, charset: str | None = None) -> dict[str, Any]:
    """Parse ``data`` (HTML page, ajax XML or Discuz API JSON) as ``kind`` for ``engine``.

    Raises :class:`~shenshi.adapters.errors.ForumError` (a message page, markup we do not know)
    or ``ValueError`` (unknown kind or engine).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (one of {', '.join(KINDS)})")
    parser = ENGINES.get(engine)
    if parser is None:
        raise ValueError(f"unknown engine {engine!r} (discuz or phpwind)")
    if not data.strip():
        raise errors.UnexpectedPage("the file is empty (a redirect has no body)")
    if data.lstrip()[:1] in (b"{", b"["):
        return _inspect_api(kind, engine, data, tz=tz, now=now)
    text = decode_page(data, charset)
    if kind == "thread":
        return thread_json(parser.parse_thread_page(text, tz=tz, now=now), tz)
    if kind == "inbox":
        return inbox_json(parser.parse_inbox(text, tz=tz, now=now), tz)
    if kind == "conversation":
        return conversation_json(parser.parse_conversation(text, tz=tz, now=now), tz)
    return board_json(parser.parse_board(text, tz=tz, now=now), tz)


def _inspect_api(kind: str, engine: str, data: bytes, *, tz: tzinfo, now: datetime) -> dict[str, Any]:
    if engine != "discuz":
        raise errors.UnexpectedPage("JSON input is only understood for Discuz (its mobile API)")
    found = discuz_parse.api_load(data)
    held = discuz_parse.api_kind(found)
    if held is None:
        discuz_parse.api_check(found)
    if held != kind:
        raise errors.UnexpectedPage(f"this API answer holds {held or 'no inspectable record'}, not a {kind}")
    if kind == "thread":
        return thread_json(discuz_parse.parse_api_thread(found, tz=tz, now=now), tz)
    if kind == "inbox":
        return inbox_json(discuz_parse.parse_api_inbox(found, tz=tz, now=now), tz)
    if kind == "conversation":
        return conversation_json(discuz_parse.parse_api_conversation(found, tz=tz, now=now), tz)
    return board_json(discuz_parse.parse_api_board(found, tz=tz, now=now), tz)


def dumps(found: dict[str, Any]) -> str:
    """The JSON text ``inspect`` prints (UTF-8, not ASCII-escaped, indented)."""
    return json.dumps(found, ensure_ascii=False, indent=2)
