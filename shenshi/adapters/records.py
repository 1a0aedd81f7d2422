"""Records the adapters give to the rest of shenshi: frozen, engine-neutral, no markup.

Every datetime is timezone-aware (the forum's zone, or UTC). Ids are strings: a phpwind
thread's first post is ``"tpc"``. Text is the author's own text with BBCode rendered to plain
text and line breaks kept; quotes and the edit mark are *not* part of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Quote:
    """A quoted passage inside a post (never counted as the author's vote)."""

    author: str | None
    pid: str | None
    text: str


@dataclass(frozen=True)
class EditMark:
    """The forum's 'last edited by X at T' mark."""

    by: str
    at: datetime


@dataclass(frozen=True)
class Post:
    """One post of a thread as the forum shows it."""

    tid: str
    pid: str
    floor: int  # 1 = the first post (楼主)
    author: str
    author_uid: str
    posted_at: datetime
    text: str
    quotes: tuple[Quote, ...] = ()
    edited: EditMark | None = None


@dataclass(frozen=True)
class ThreadPage:
    """One page of a thread."""

    tid: str
    page: int
    pages: int
    posts: tuple[Post, ...]
    subject: str | None = None


@dataclass(frozen=True)
class BoardThread:
    """One row of a board listing: enough to skip a thread that did not change."""

    tid: str
    subject: str
    author: str | None
    replies: int
    last_post_at: datetime | None
    last_poster: str | None = None


@dataclass(frozen=True)
class ConversationSummary:
    """One row of the PM inbox."""

    id: str
    partner: str
    partner_uid: str
    unread: bool
    last_at: datetime | None
    count: int | None = None


@dataclass(frozen=True)
class PrivateMessage:
    """One private message (短消息), in either direction."""

    id: str
    conversation: str
    sender: str
    sender_uid: str
    recipient: str
    recipient_uid: str | None
    sent_at: datetime
    text: str
