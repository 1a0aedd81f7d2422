"""The sandbox forum's state and its in-process control API.

:class:`SandboxForum` holds users, boards, threads, posts (stored as BBCode, with their edit
history and deletion), private messages (短消息) and login sessions. The HTTP layer
(:mod:`.server`, :mod:`.discuz`, :mod:`.phpwind`) renders it in one engine's wire format; tests,
the demo and the scripted players drive it directly::

    forum = SandboxForum("discuz", clock=ManualClock(start))
    gm = forum.add_user("神的使者", "GmPass_2024")
    board = forum.create_board("杀人游戏")
    thread = forum.create_thread(gm, board.fid, "第一局", "[b]开始[/b]")
    forum.post("小明", thread.tid, "投票：阿杰")
    forum.send_pm("月光", gm, "占卜 夜行者")

Users may be given as a :class:`User`, a name or a uid. The control API never applies flood
control or length limits (a script may post as fast as it likes); the HTTP handlers call
:meth:`SandboxForum.check_post_allowed` / :meth:`check_pm_allowed` first, as the engines do.

State lives in memory; with ``db_path`` it is also kept in a SQLite file (one JSON snapshot row,
rewritten after every change) so a restarted sandbox finds the same forum.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from shenshi.adapters.base import ADAPTERS, ForumAdapter, find_adapter
from shenshi.adapters.sandbox.clock import Clock, system_clock
from shenshi.adapters.sandbox.faults import Faults

FORUM_TZ = timezone(timedelta(hours=8))  # both captured forums show UTC+8

GROUP_TITLES = {"admin": "管理员", "member": "新手上路", "newbie": "等待验证会员"}
EDIT_MARK_AFTER = timedelta(seconds=60)  # an edit sooner than this after the post shows no mark


class ForumRefusal(Exception):
    """A request the forum refuses; ``code`` names the engine message to show."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


@dataclass
class User:
    uid: int
    name: str
    password: str = field(repr=False)
    group: str = "member"  # member (新手上路) | admin | newbie (见习期)
    registered_at: datetime | None = None
    last_post_at: datetime | None = None
    last_pm_at: datetime | None = None
    # phpwind's PM limits of the user's group (None: none): the messages the box holds, the
    # sent ones included (``maxmsg``), and the PMs a day it may send (``maxsendmsg``).
    pm_box: int | None = None
    pm_daily: int | None = None

    @property
    def is_admin(self) -> bool:
        return self.group == "admin"


@dataclass
class Board:
    fid: int
    name: str
    description: str = ""


@dataclass
class Revision:
    """One version of a post's text; the first revision is the text as first posted."""

    text: str
    at: datetime
    by_uid: int


@dataclass
class StoredPost:
    pid: int
    tid: int
    author_uid: int
    posted_at: datetime
    text: str  # BBCode, current version (Discuz keeps its [i=s] edit mark inside)
    position: int  # 1 = the thread's first post (楼主)
    subject: str = ""
    revisions: list[Revision] = field(default_factory=list)
    edited_at: datetime | None = None
    edited_by: int | None = None
    deleted: bool = False

    @property
    def first(self) -> bool:
        return self.position == 1


@dataclass
class Thread:
    tid: int
    fid: int
    subject: str
    author_uid: int
    created_at: datetime
    pids: list[int] = field(default_factory=list)
    views: int = 0
    deleted: bool = False


@dataclass
class Message:
    """One private message inside a conversation."""

    mid: int
    cid: int
    sender_uid: int
    recipient_uid: int
    text: str
    sent_at: datetime


@dataclass
class Conversation:
    """A conversation between two users.

    Discuz keeps one per pair of users (``plid``); phpwind starts a new one per titled message and
    keeps replies under it (``parentMid`` = its first message). ``rids`` are phpwind's per-user
    relation ids (inbox row ``sms_{rid}``).
    """

    cid: int
    members: tuple[int, int]
    subject: str
    mids: list[int] = field(default_factory=list)
    unread: set[int] = field(default_factory=set)
    rids: dict[int, int] = field(default_factory=dict)
    last_at: datetime | None = None
    # phpwind: a reply inside the conversation (回复) gives its recipient an inbox row of its
    # own ("RE:" + subject), rid → (uid, mid); which rows are unread (each row is read alone).
    reply_rows: dict[int, tuple[int, int]] = field(default_factory=dict)
    unread_rows: set[int] = field(default_factory=set)

    def rows_of(self, uid: int) -> list[tuple[int, int]]:
        """The (rid, mid) inbox rows of member ``uid``: the conversation's own, then replies'."""
        own = [(self.rids[uid], self.mids[0])] if uid in self.rids and self.mids else []
        return own + [(rid, mid) for rid, (owner, mid) in self.reply_rows.items() if owner == uid]

    def partner_of(self, uid: int) -> int:
        a, b = self.members
        return b if uid == a else a


@dataclass
class Session:
    token: str
    uid: int
    created_at: datetime
    expires_at: datetime | None
    user_agent: str = ""


UserRef = User | str | int


class SandboxForum:
    """A whole forum in memory, driven in-process and served over HTTP by :func:`serve`.

    ``engine`` is ``"discuz"`` (Discuz! X3.5) or ``"phpwind"`` (phpwind 8.7). ``clock`` is the
    injected clock (see :mod:`.clock`). ``charset`` is ``"utf-8"`` or, for phpwind, ``"gbk"``.
    ``session_ttl`` caps how long a login lasts on the injected clock (default: the cookie
    lifetime the login form asked for, as the engines do).
    """

    def __init__(
        self,
        engine: str = "discuz",
        clock: Clock = system_clock,
        *,
        charset: str = "utf-8",
        db_path: str | Path | None = None,
        session_ttl: timedelta | None = None,
        site_key: str | None = None,
    ) -> None:
        engines = tuple(adapter.engine for adapter in ADAPTERS)
        if engine not in engines:
            raise ValueError(f"engine must be one of {engines}, got {engine!r}")
        charset = charset.lower()
        if charset not in ("utf-8", "gbk"):
            raise ValueError(f"charset must be utf-8 or gbk, got {charset!r}")
        if charset == "gbk" and engine != "phpwind":
            raise ValueError("only the phpwind sandbox serves GBK (Discuz X3.5 captures are UTF-8)")
        self.engine = engine
        # The engine facts the sandbox imitates (flood control, post length, posts per page):
        # the adapter class's own numbers, never a copy.
        self.facts: type[ForumAdapter] = find_adapter(engine)
        self.clock = clock
        self.charset = charset
        self.session_ttl = session_ttl
        self.site_key = site_key or secrets.token_hex(16)
        self.base_url = "http://127.0.0.1/"  # set by serve(): quotes carry absolute links
        self.faults = Faults()
        self.faults._expire_hook = self.expire_sessions
        self.users: dict[int, User] = {}
        self.boards: dict[int, Board] = {}
        self.threads: dict[int, Thread] = {}
        self.posts: dict[int, StoredPost] = {}
        self.messages: dict[int, Message] = {}
        self.conversations: dict[int, Conversation] = {}
        self.sessions: dict[str, Session] = {}
        self.requests: list[tuple[str, str]] = []  # (method, path?query) of every HTTP request served
        self._counters: dict[str, int] = {}
        self._lock = threading.RLock()
        self._db_path = Path(db_path) if db_path else None
        if self._db_path and self._db_path.exists():
            self._load()

    # ------------------------------------------------------------------ basics
    def now(self) -> datetime:
        """The injected clock's time, as an aware datetime."""
        moment = self.clock()
        if moment.tzinfo is None:
            raise ValueError("the injected clock returned a naive datetime")
        return moment

    def record_request(self, method: str, target: str) -> None:
        """Note one HTTP request (tests count what a poll costs; nothing is logged)."""
        with self._lock:
            self.requests.append((method, target))

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the forum's lock (the HTTP server is threaded)."""
        with self._lock:
            yield

    def _next(self, counter: str, wanted: int | None = None) -> int:
        """The next id of ``counter``, or ``wanted`` (replaying a captured forum keeps its ids)."""
        if wanted is None:
            self._counters[counter] = self._counters.get(counter, 0) + 1
            return self._counters[counter]
        taken: dict[str, Mapping[int, object]] = {
            "tid": self.threads, "pid": self.posts, "mid": self.messages, "cid": self.conversations,
        }
        if wanted <= 0 or wanted in taken.get(counter, {}):
            raise ValueError(f"{counter} {wanted} is taken or not positive")
        self._counters[counter] = max(self._counters.get(counter, 0), wanted)
        return wanted

    @contextmanager
    def _change(self) -> Iterator[None]:
        with self._lock:
            yield
            self._save()

    # ------------------------------------------------------------------ users
    def add_user(
        self, name: str, password: str, group: str = "member", uid: int | None = None
    ) -> User:
        """Register a user; ``group`` is ``member`` (新手上路), ``admin`` or ``newbie`` (见习期)."""
        if group not in GROUP_TITLES:
            raise ValueError(f"group must be one of {sorted(GROUP_TITLES)}, got {group!r}")
        with self._change():
            if self.find_user(name) is not None:
                raise ValueError(f"user {name!r} already exists")
            if uid is None:
                uid = max(self.users, default=0) + 1
            elif uid in self.users:
                raise ValueError(f"uid {uid} is taken by {self.users[uid].name!r}")
            user = User(uid, name, password, group, registered_at=self.now())
            self.users[uid] = user
            return user

    def find_user(self, name: str) -> User | None:
        """The user called ``name`` (case-insensitive, as both engines' MySQL collation)."""
        key = name.strip().casefold()
        with self._lock:
            for user in self.users.values():
                if user.name.casefold() == key:
                    return user
        return None

    def user(self, ref: UserRef) -> User:
        """Resolve a :class:`User`, a name or a uid; ``KeyError`` if unknown."""
        if isinstance(ref, User):
            return self.users[ref.uid]
        if isinstance(ref, int):
            return self.users[ref]
        found = self.find_user(ref)
        if found is None:
            raise KeyError(f"no user called {ref!r}")
        return found

    # ------------------------------------------------------------------ boards and threads
    def create_board(self, name: str, fid: int | None = None, description: str = "") -> Board:
        """Create a board (版块); the captured forums use fid 3 for 杀人游戏."""
        with self._change():
            if fid is None:
                fid = max(self.boards, default=0) + 1
            elif fid in self.boards:
                raise ValueError(f"fid {fid} exists")
            board = Board(fid, name, description)
            self.boards[fid] = board
            return board

    def create_thread(
        self, as_user: UserRef, fid: int, subject: str, text: str, *, at: datetime | None = None,
        tid: int | None = None, pid: int | None = None,
    ) -> Thread:
        """Open a thread in board ``fid`` with ``text`` (BBCode) as its first post.

        ``tid``/``pid`` choose the ids (a replay of a captured thread); by default the next ones.
        """
        author = self.user(as_user)
        with self._change():
            if fid not in self.boards:
                raise KeyError(f"no board {fid}")
            moment = at or self.now()
            tid = self._next("tid", tid)
            thread = Thread(tid, fid, subject, author.uid, moment)
            self.threads[tid] = thread
            self._append_post(thread, author, text, moment, subject=subject, pid=pid)
            return thread

    def post(
        self, as_user: UserRef, tid: int, text: str, *, at: datetime | None = None,
        subject: str = "", pid: int | None = None,
    ) -> StoredPost:
        """Reply to thread ``tid`` as ``as_user`` (no flood control: see the module doc)."""
        author = self.user(as_user)
        with self._change():
            thread = self.thread(tid)
            return self._append_post(thread, author, text, at or self.now(), subject=subject, pid=pid)

    def _append_post(
        self, thread: Thread, author: User, text: str, moment: datetime, subject: str = "",
        pid: int | None = None,
    ) -> StoredPost:
        text = self._storable(text)
        pid = self._next("pid", pid)
        post = StoredPost(
            pid, thread.tid, author.uid, moment, text, position=len(thread.pids) + 1,
            subject=subject, revisions=[Revision(text, moment, author.uid)],
        )
        self.posts[pid] = post
        thread.pids.append(pid)
        author.last_post_at = moment
        return post

    def _storable(self, text: str) -> str:
        text = text.replace("\r\n", "\n")
        if self.engine == "phpwind":
            # phpwind 8.7's utf8 (3-byte) tables keep an emoji as "????" (FORUMS.md)
            text = "".join("????" if ord(ch) > 0xFFFF else ch for ch in text)
        return text

    def edit_post(
        self, pid: int, text: str, by: UserRef | None = None, *, at: datetime | None = None
    ) -> StoredPost:
        """Replace a post's text, keeping the old one in ``revisions`` and setting the edit mark.

        Discuz writes its mark into the text (``[i=s] 本帖最后由 X 于 T 编辑 [/i]``), as the real
        engine does; phpwind shows ``div#alert_{pid}`` from ``edited_at``/``edited_by``. Neither
        marks an edit made within :data:`EDIT_MARK_AFTER` of the post (Discuz
        ``model_forum_post.php``: ``TIMESTAMP - dateline > 60``; phpwind ``db_postedittime`` 1
        minute), nor an administrator's.
        """
        with self._change():
            post = self.get_post(pid)
            editor = self.user(by) if by is not None else self.users[post.author_uid]
            moment = at or self.now()
            text = self._storable(text)
            marked = moment - post.posted_at > EDIT_MARK_AFTER and not editor.is_admin
            if self.engine == "discuz" and marked:
                from shenshi.adapters.sandbox.timefmt import discuz_absolute

                stamp = discuz_absolute(moment, seconds=False)
                text = f"[i=s] 本帖最后由 {editor.name} 于 {stamp} 编辑 [/i]\n\n{text}"
            post.text = text
            post.edited_at = moment if marked else post.edited_at
            post.edited_by = editor.uid if marked else post.edited_by
            post.revisions.append(Revision(text, moment, editor.uid))
            return post

    def delete_post(self, pid: int) -> None:
        """Delete one post (it disappears from pages; a first post deletes the thread)."""
        with self._change():
            post = self.get_post(pid)
            if post.first:
                self.threads[post.tid].deleted = True
            post.deleted = True

    def delete_thread(self, tid: int) -> None:
        """Delete a whole thread (the engines then answer with their 'deleted' page)."""
        with self._change():
            self.thread(tid).deleted = True

    def thread(self, tid: int, *, include_deleted: bool = False) -> Thread:
        """The thread ``tid``; ``KeyError`` if unknown or deleted."""
        with self._lock:
            thread = self.threads.get(tid)
            if thread is None or (thread.deleted and not include_deleted):
                raise KeyError(f"no thread {tid}")
            return thread

    def get_post(self, pid: int) -> StoredPost:
        """The post ``pid`` (deleted ones too); ``KeyError`` if unknown."""
        with self._lock:
            return self.posts[pid]

    def visible_posts(self, tid: int) -> list[StoredPost]:
        """The thread's posts a reader sees, in order."""
        with self._lock:
            thread = self.thread(tid)
            return [self.posts[p] for p in thread.pids if not self.posts[p].deleted]

    def page_count(self, tid: int, per_page: int | None = None) -> int:
        """How many pages the thread has (at least 1)."""
        per_page = per_page or self.facts.posts_per_page
        return max(1, -(-len(self.visible_posts(tid)) // per_page))

    def page_of(self, pid: int, per_page: int | None = None) -> int:
        """The page on which post ``pid`` is shown."""
        per_page = per_page or self.facts.posts_per_page
        post = self.get_post(pid)
        visible = [p.pid for p in self.visible_posts(post.tid)]
        return visible.index(pid) // per_page + 1 if pid in visible else 1

    def board_threads(self, fid: int) -> list[Thread]:
        """The board's live threads, most recently active first (as both engines list them)."""
        with self._lock:
            live = [t for t in self.threads.values() if t.fid == fid and not t.deleted]
            return sorted(live, key=lambda t: (self.last_post(t.tid).posted_at, t.tid), reverse=True)

    def last_post(self, tid: int) -> StoredPost:
        """The thread's newest visible post."""
        return self.visible_posts(tid)[-1]

    def reply_count(self, tid: int) -> int:
        """Replies = visible posts minus the first."""
        return len(self.visible_posts(tid)) - 1

    # ------------------------------------------------------------------ private messages
    def send_pm(
        self,
        from_user: UserRef,
        to_user: UserRef,
        text: str,
        subject: str | None = None,
        *,
        new_conversation: bool | None = None,
        at: datetime | None = None,
        cid: int | None = None,
        mid: int | None = None,
        rids: dict[int, int] | None = None,
    ) -> Message:
        """Send a private message (短消息). ``ValueError`` when sending to oneself.

        Discuz appends to the pair's one conversation; phpwind starts a new titled conversation
        (``subject``, default: the text's start) unless ``new_conversation=False``. ``cid``,
        ``mid`` and ``rids`` (uid → phpwind relation id) choose the ids of a new conversation and
        message (a replay of a captured inbox); by default the next ones.
        """
        sender, recipient = self.user(from_user), self.user(to_user)
        if sender.uid == recipient.uid:
            raise ValueError("a user cannot send a PM to themself")
        if new_conversation is None:
            new_conversation = self.engine == "phpwind"
        with self._change():
            conversation = None if new_conversation else self._pair_conversation(sender, recipient)
            if conversation is None:
                cid = self._next("cid", cid)
                first_line = text.strip().splitlines()[0] if text.strip() else ""
                title = (subject or first_line)[:60]
                conversation = Conversation(cid, (sender.uid, recipient.uid), title)
                for uid in conversation.members:
                    conversation.rids[uid] = self._next_rid((rids or {}).get(uid))
                self.conversations[cid] = conversation
            return self._append_message(conversation, sender, recipient, text, at or self.now(), mid)

    def _next_rid(self, wanted: int | None) -> int:
        if wanted is not None and any(wanted in c.rids.values() for c in self.conversations.values()):
            raise ValueError(f"rid {wanted} is taken")
        if wanted is not None:
            self._counters["rid"] = max(self._counters.get("rid", 0), wanted)
            return wanted
        return self._next("rid")

    def reply_pm(
        self, from_user: UserRef, cid: int, text: str, *, at: datetime | None = None,
        mid: int | None = None,
    ) -> Message:
        """Reply inside conversation ``cid`` (phpwind ``postReply``; Discuz the same pair)."""
        sender = self.user(from_user)
        with self._change():
            conversation = self.conversations[cid]
            if sender.uid not in conversation.members:
                raise KeyError(f"{sender.name} is not in conversation {cid}")
            recipient = self.users[conversation.partner_of(sender.uid)]
            return self._append_message(conversation, sender, recipient, text, at or self.now(), mid)

    def _pair_conversation(self, a: User, b: User) -> Conversation | None:
        pair = {a.uid, b.uid}
        for conversation in self.conversations.values():
            if set(conversation.members) == pair:
                return conversation
        return None

    def _append_message(
        self, conversation: Conversation, sender: User, recipient: User, text: str, moment: datetime,
        mid: int | None = None,
    ) -> Message:
        mid = self._next("mid", mid)
        message = Message(mid, conversation.cid, sender.uid, recipient.uid, self._storable(text), moment)
        self.messages[mid] = message
        if self.engine == "phpwind" and conversation.mids:
            row = self._next_rid(None)  # a reply: a row of its own in the recipient's inbox
            conversation.reply_rows[row] = (recipient.uid, mid)
            conversation.unread_rows.add(row)
        elif recipient.uid in conversation.rids:
            conversation.unread_rows.add(conversation.rids[recipient.uid])
        conversation.mids.append(mid)
        conversation.unread.add(recipient.uid)
        conversation.unread.discard(sender.uid)
        conversation.last_at = moment
        sender.last_pm_at = moment
        return message

    def pm_count(self, user: UserRef) -> int:
        """The messages in ``user``'s PM box as phpwind counts them: every relation (row) of
        his, those of the PMs he sent included."""
        uid = self.user(user).uid
        with self._lock:
            return sum(len(c.rows_of(uid)) for c in self.conversations.values())

    def pms_sent_since(self, user: UserRef, since: datetime) -> int:
        """How many PMs ``user`` sent since ``since`` (phpwind's daily limit counts them)."""
        uid = self.user(user).uid
        with self._lock:
            return sum(1 for m in self.messages.values() if m.sender_uid == uid and m.sent_at >= since)

    def delete_sent_pms(self, user: UserRef) -> int:
        """``user`` deletes the PMs he sent from his box (his rows of the conversations he
        started); the recipients keep theirs. Returns how many rows went."""
        uid = self.user(user).uid
        gone = 0
        with self._change():
            for c in self.conversations.values():
                if uid in c.rids and c.mids and self.messages[c.mids[0]].sender_uid == uid:
                    del c.rids[uid]
                    gone += 1
        return gone

    def conversations_of(self, user: UserRef) -> list[Conversation]:
        """The user's conversations, newest activity first."""
        uid = self.user(user).uid
        with self._lock:
            mine = [c for c in self.conversations.values() if uid in c.members]
            return sorted(mine, key=lambda c: (c.last_at, c.cid), reverse=True)

    def conversation_messages(self, cid: int) -> list[Message]:
        """The messages of conversation ``cid``, oldest first."""
        with self._lock:
            return [self.messages[m] for m in self.conversations[cid].mids]

    def conversation_with(self, user: UserRef, partner: UserRef) -> Conversation | None:
        """The (Discuz) conversation between two users, if any."""
        return self._pair_conversation(self.user(user), self.user(partner))

    def conversation_by_rid(self, rid: int) -> tuple[Conversation, int] | None:
        """The (phpwind) conversation owning relation ``rid`` (its own row or a reply's "RE:"
        row) and the uid it belongs to."""
        with self._lock:
            for conversation in self.conversations.values():
                for uid, own in conversation.rids.items():
                    if own == rid:
                        return conversation, uid
                if rid in conversation.reply_rows:
                    return conversation, conversation.reply_rows[rid][0]
        return None

    def mark_read(self, user: UserRef, cid: int) -> None:
        """Mark conversation ``cid`` read for ``user`` (every inbox row of it)."""
        uid = self.user(user).uid
        with self._change():
            conversation = self.conversations[cid]
            conversation.unread.discard(uid)
            conversation.unread_rows -= {rid for rid, _ in conversation.rows_of(uid)}

    def mark_row_read(self, rid: int) -> None:
        """phpwind: opening (or marking) one inbox row reads that row only."""
        with self._change():
            found = self.conversation_by_rid(rid)
            if found is None:
                return
            conversation, uid = found
            conversation.unread_rows.discard(rid)
            if not conversation.unread_rows & {r for r, _ in conversation.rows_of(uid)}:
                conversation.unread.discard(uid)

    def unread_count(self, user: UserRef) -> int:
        """Discuz: the user's conversations holding unread messages; phpwind: unread inbox rows
        (the header's 消息(N))."""
        uid = self.user(user).uid
        with self._lock:
            if self.engine == "phpwind":
                return sum(
                    1 for c in self.conversations.values() for rid, _ in c.rows_of(uid) if rid in c.unread_rows
                )
            return sum(1 for c in self.conversations.values() if uid in c.unread)

    # ------------------------------------------------------------------ engine rules
    def check_post_allowed(self, user: User, text: str) -> None:
        """Raise :class:`ForumRefusal` where the engine would refuse this post.

        Codes: ``flood`` (sooner than the engine's flood interval after the user's last post,
        or last PM where the engine counts them; admins exempt), ``newbie`` (Discuz 见习期),
        ``too_short`` / ``too_long`` (bytes in the forum's charset).
        """
        now = self.now()
        if user.group == "newbie" and self.engine == "discuz":
            raise ForumRefusal("newbie")
        size = len(text.encode(self.charset, errors="replace"))
        if size < self.facts.min_post_bytes:
            raise ForumRefusal("too_short", str(size))
        if size > self.facts.max_post_bytes:
            raise ForumRefusal("too_long", str(size))
        if self._flooding(user, now, include_pms=self.facts.flood_counts_pms):
            raise ForumRefusal("flood")

    def check_pm_allowed(self, user: User) -> None:
        """Raise ``ForumRefusal("pm_flood")`` where the engine's flood control counts PMs.

        Discuz's UCenter wants *more* than the interval since the last message in any of the
        sender's conversations, the ones received included (``ispminterval``).
        """
        if not self.facts.flood_counts_pms:
            return
        now = self.now()
        if self._flooding(user, now, include_pms=True):
            raise ForumRefusal("pm_flood")
        with self._lock:
            last = max((c.last_at for c in self.conversations.values() if user.uid in c.members and c.last_at),
                       default=None)
        if last is not None and not user.is_admin and int(now.timestamp()) - int(last.timestamp()) <= self.facts.flood_interval:
            raise ForumRefusal("pm_flood")

    def _flooding(self, user: User, now: datetime, include_pms: bool) -> bool:
        if user.is_admin:
            return False
        stamps = [user.last_post_at] + ([user.last_pm_at] if include_pms else [])
        last = max((s for s in stamps if s is not None), default=None)
        if last is None:
            return False
        elapsed = int(now.timestamp()) - int(last.timestamp())  # both engines use whole seconds
        return elapsed < self.facts.flood_interval

    # ------------------------------------------------------------------ sessions
    def login(self, name: str, password: str, *, lifetime: timedelta | None = None,
              user_agent: str = "") -> Session | None:
        """Check a user's password and open a session; ``None`` on a wrong name or password."""
        user = self.find_user(name)
        if user is None or not secrets.compare_digest(user.password, password):
            return None
        now = self.now()
        ttl = lifetime
        if self.session_ttl is not None:
            ttl = self.session_ttl if ttl is None else min(ttl, self.session_ttl)
        session = Session(secrets.token_urlsafe(24), user.uid, now, now + ttl if ttl else None,
                          user_agent)
        with self._lock:
            self.sessions[session.token] = session
        return session

    def session_user(self, token: str | None) -> User | None:
        """The user a session cookie belongs to, or ``None`` (unknown, ended or expired)."""
        if not token:
            return None
        with self._lock:
            session = self.sessions.get(token)
            if session is None:
                return None
            if session.expires_at is not None and self.now() >= session.expires_at:
                del self.sessions[token]
                return None
            return self.users.get(session.uid)

    def logout(self, token: str | None) -> None:
        """End one session."""
        with self._lock:
            self.sessions.pop(token or "", None)

    def expire_sessions(self) -> int:
        """End every session (the ``expire_sessions`` fault); returns how many ended."""
        with self._lock:
            count = len(self.sessions)
            self.sessions.clear()
            return count

    # ------------------------------------------------------------------ persistence
    def _snapshot(self) -> dict[str, Any]:
        def conv(c: Conversation) -> dict[str, Any]:
            data = asdict(c)
            data["unread"] = sorted(c.unread)
            data["rids"] = {str(k): v for k, v in c.rids.items()}
            data["reply_rows"] = {str(k): list(v) for k, v in c.reply_rows.items()}
            data["unread_rows"] = sorted(c.unread_rows)
            return data

        return {
            "counters": self._counters,
            "users": [asdict(u) for u in self.users.values()],
            "boards": [asdict(b) for b in self.boards.values()],
            "threads": [asdict(t) for t in self.threads.values()],
            "posts": [asdict(p) for p in self.posts.values()],
            "messages": [asdict(m) for m in self.messages.values()],
            "conversations": [conv(c) for c in self.conversations.values()],
            "site_key": self.site_key,
        }

    def _save(self) -> None:
        if self._db_path is None:
            return
        payload = json.dumps(self._snapshot(), default=_encode_datetime, ensure_ascii=False)
        with sqlite3.connect(self._db_path) as db:
            db.execute("CREATE TABLE IF NOT EXISTS forum_state (id INTEGER PRIMARY KEY, state TEXT)")
            db.execute("INSERT OR REPLACE INTO forum_state (id, state) VALUES (1, ?)", (payload,))

    def _load(self) -> None:
        assert self._db_path is not None
        with sqlite3.connect(self._db_path) as db:
            try:
                row = db.execute("SELECT state FROM forum_state WHERE id = 1").fetchone()
            except sqlite3.OperationalError:
                row = None
        if row is None:
            return
        data = json.loads(row[0], object_hook=_decode_datetime)
        self._counters = data["counters"]
        self.site_key = data["site_key"]
        self.users = {u["uid"]: User(**u) for u in data["users"]}
        self.boards = {b["fid"]: Board(**b) for b in data["boards"]}
        self.threads = {t["tid"]: Thread(**t) for t in data["threads"]}
        self.posts = {}
        for p in data["posts"]:
            p["revisions"] = [Revision(**r) for r in p["revisions"]]
            self.posts[p["pid"]] = StoredPost(**p)
        self.messages = {m["mid"]: Message(**m) for m in data["messages"]}
        self.conversations = {}
        for c in data["conversations"]:
            c["members"] = tuple(c["members"])
            c["unread"] = set(c["unread"])
            c["rids"] = {int(k): v for k, v in c["rids"].items()}
            c["reply_rows"] = {int(k): (v[0], v[1]) for k, v in c.get("reply_rows", {}).items()}
            c["unread_rows"] = set(c.get("unread_rows", ()))
            self.conversations[c["cid"]] = Conversation(**c)


def _encode_datetime(value: object) -> object:
    if isinstance(value, datetime):
        return {"$dt": value.astimezone(UTC).isoformat()}
    raise TypeError(f"cannot store {type(value).__name__}")


def _decode_datetime(obj: dict[str, Any]) -> object:
    if set(obj) == {"$dt"}:
        return datetime.fromisoformat(obj["$dt"])
    return obj

