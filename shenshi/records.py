"""Forum records: what the adapters read, as intake and the store use it.

Frozen, engine-neutral, no markup.

Every datetime is timezone-aware (the forum's zone, or UTC). Ids are strings: a phpwind
thread's first post is ``"tpc"``. Text is the author's own text with BBCode rendered to plain
text and line breaks kept; quotes and the edit mark are *not* part of it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any


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
    fid: str | None = None  # the board the thread is in (a change means it was moved)
    per_page: int | None = None  # posts per page when the page says so (Discuz API ``ppp``)


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
    ref: str | None = None  # engine-specific handle to open the conversation (opaque outside adapters)


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
    subject: str | None = None  # phpwind PMs have a title (atc_title); players may write in it


# --------------------------------------------------------------------------- cursors and deltas
# Cursors are plain data: the daemon stores ``to_json()`` in its database between polls and
# across restarts, and gives ``from_json()`` back to the adapter.


class _JsonRecord:
    """``to_json``/``from_json`` for flat dataclasses of JSON-native fields."""

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)  # type: ignore[call-overload]

    @classmethod
    def from_json(cls, text: str) -> Any:
        return cls._from_dict(json.loads(text))

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> Any:
        known = cls.__dataclass_fields__  # type: ignore[attr-defined]
        values = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k in known}
        return cls(**values)


@dataclass(frozen=True)
class ThreadCursor(_JsonRecord):
    """How far a thread has been read and stored.

    ``floor`` is the last floor stored (0: nothing yet) and ``pid`` its post; ``tail`` holds the
    pids of the last page read, so that posts are never reported twice even after the thread
    shrank (deleted posts renumber phpwind floors). ``replies`` is the reply count the forum
    showed when the cursor was made; a board listing with the same count means "nothing new".
    """

    tid: str
    floor: int = 0
    pid: str | None = None
    last_at: str | None = None  # ISO 8601 time of that post
    tail: tuple[str, ...] = ()
    pages: int = 0
    per_page: int = 10
    fid: str | None = None

    def is_behind(self, row: BoardThread) -> bool:
        """True when a board row shows more posts than this cursor has read (a poll is due)."""
        return row.replies + 1 != self.floor

    def advanced(self, **changes: Any) -> ThreadCursor:
        return replace(self, **changes)


@dataclass(frozen=True)
class ThreadDelta:
    """What ``read_thread`` found: posts after the cursor, the new cursor, and what happened."""

    tid: str
    posts: tuple[Post, ...]
    cursor: ThreadCursor
    requests: int = 0
    shrunk: bool = False  # posts before the cursor were deleted (reported, not raised)
    moved: bool = False  # the thread is now in another board
    deleted: bool = False  # the thread itself is gone
    subject: str | None = None


@dataclass(frozen=True)
class ConversationMark(_JsonRecord):
    """What was stored of one PM conversation: its message ids and how the inbox row looked."""

    id: str
    seen: tuple[str, ...] = ()
    fingerprint: str = ""


@dataclass(frozen=True)
class InboxCursor:
    """What was stored of the inbox: one :class:`ConversationMark` per conversation."""

    marks: tuple[ConversationMark, ...] = ()

    def get(self, conversation: str) -> ConversationMark | None:
        return next((m for m in self.marks if m.id == conversation), None)

    def with_mark(self, mark: ConversationMark) -> InboxCursor:
        others = tuple(m for m in self.marks if m.id != mark.id)
        return InboxCursor(tuple(sorted((*others, mark), key=lambda m: m.id)))

    def to_json(self) -> str:
        return json.dumps([asdict(m) for m in self.marks], ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> InboxCursor:
        return cls(tuple(ConversationMark._from_dict(m) for m in json.loads(text)))


@dataclass(frozen=True)
class InboxDelta:
    """What ``read_pms`` found: new messages (both directions), every inbox row, the new cursor."""

    messages: tuple[PrivateMessage, ...]
    conversations: tuple[ConversationSummary, ...]
    cursor: InboxCursor
    requests: int = 0
    unread: tuple[str, ...] = field(default=())  # conversations to mark read after storing
    # Conversations that could not be read this time (a page the parser does not understand):
    # the others are read all the same, and these are tried again at the next poll.
    failures: tuple[Exception, ...] = field(default=())
