"""Engine-neutral reading algorithms: a thread after a cursor, the inbox after a cursor.

The engines give page fetchers; these functions decide which pages to fetch so that
catching up K posts costs at most ``ceil(K / per_page) + 1`` page requests, pages that were
complete are never fetched again, posts are never reported twice, and a thread that shrank
(deleted posts) is reported rather than crashed on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime

from shenshi.adapters import errors
from shenshi.records import (
    ConversationMark,
    ConversationSummary,
    InboxCursor,
    InboxDelta,
    Post,
    PrivateMessage,
    ThreadCursor,
    ThreadDelta,
    ThreadPage,
)

MAX_PAGES = 500  # a runaway guard, far above any game thread


def read_after(
    tid: str,
    cursor: ThreadCursor | None,
    fetch: Callable[[int], ThreadPage],
    per_page: int,
) -> ThreadDelta:
    """Posts of thread ``tid`` after ``cursor``, fetching pages with ``fetch(page)``."""
    cursor = cursor or ThreadCursor(tid=tid, per_page=per_page)
    requests = 0
    start = cursor.floor // per_page + 1 if cursor.floor else 1
    try:
        first = fetch(start)
    except errors.NotFound:
        return ThreadDelta(tid=tid, posts=(), cursor=cursor, requests=1, deleted=True)
    requests += 1
    pages = [first]
    shrunk = bool(cursor.pages and first.pages < cursor.pages)
    # Walk back while the cursor's post is not anchored (posts moved to earlier pages).
    while cursor.floor and not _anchored(cursor, pages, per_page) and pages[0].page > 1:
        shrunk = True
        pages.insert(0, fetch(pages[0].page - 1))
        requests += 1
        if _before_cursor(cursor, pages[0]):
            break
    while pages[-1].page < pages[-1].pages and len(pages) < MAX_PAGES:
        following = fetch(pages[-1].page + 1)
        requests += 1
        if following.page <= pages[-1].page:  # the forum clamped: no more pages
            break
        pages.append(following)
    posts = [post for page in pages for post in page.posts]
    new, anchored_at = _after_cursor(cursor, posts)
    if cursor.floor and anchored_at is not None and anchored_at != cursor.floor:
        shrunk = True
    if cursor.floor and anchored_at is None and cursor.pid is not None:
        shrunk = True
    last = pages[-1]
    tail_posts = last.posts or (posts[-1:] if posts else ())
    end = posts[-1] if posts else None
    new_cursor = cursor.advanced(
        floor=end.floor if end else cursor.floor,
        pid=end.pid if end else cursor.pid,
        last_at=end.posted_at.isoformat() if end else cursor.last_at,
        tail=tuple(p.pid for p in tail_posts),
        pages=last.pages,
        per_page=per_page,
        fid=last.fid or cursor.fid,
    )
    moved = bool(cursor.fid and last.fid and cursor.fid != last.fid)
    return ThreadDelta(
        tid=tid,
        posts=tuple(new),
        cursor=new_cursor,
        requests=requests,
        shrunk=shrunk,
        moved=moved,
        subject=next((p.subject for p in pages if p.subject), None),
    )


def _anchored(cursor: ThreadCursor, pages: list[ThreadPage], per_page: int) -> bool:
    pids = {p.pid for page in pages for p in page.posts}
    if cursor.pid in pids:
        return True
    first = pages[0].posts[0] if pages[0].posts else None
    # The cursor ended a full page: the next page must start right after it.
    return (
        first is not None
        and cursor.floor % per_page == 0
        and first.floor == cursor.floor + 1
        and first.pid not in cursor.tail
    )


def _before_cursor(cursor: ThreadCursor, page: ThreadPage) -> bool:
    return bool(page.posts) and (page.posts[0].floor <= cursor.floor or page.posts[0].pid in cursor.tail)


def _after_cursor(cursor: ThreadCursor, posts: list[Post]) -> tuple[list[Post], int | None]:
    if not cursor.floor:
        return posts, None
    for index, post in enumerate(posts):
        if post.pid == cursor.pid:
            return posts[index + 1 :], post.floor
    seen = set(cursor.tail)
    if posts and posts[0].floor == cursor.floor + 1 and posts[0].pid not in seen:
        return posts, cursor.floor  # the cursor ended a full page: this one starts right after
    since = datetime.fromisoformat(cursor.last_at) if cursor.last_at else None
    fresh = [
        p
        for p in posts
        if p.pid not in seen
        and (p.floor > cursor.floor or (since is not None and p.posted_at >= since))
    ]
    return fresh, None


# --------------------------------------------------------------------------- inbox


def read_inbox_after(
    cursor: InboxCursor | None,
    conversations: Iterable[ConversationSummary],
    fetch: Callable[[ConversationSummary, ConversationMark | None], list[PrivateMessage]],
    fingerprint: Callable[[ConversationSummary], str],
    *,
    requests: int = 0,
    counter: Callable[[], int] | None = None,
    since: datetime | None = None,
) -> InboxDelta:
    """New messages of every conversation whose inbox row changed since ``cursor``.

    The cursor (what was stored) decides, not the forum's unread flag: viewing a Discuz
    conversation marks it read, and a crash between reading and storing must not lose it.

    A message is new once, whichever row shows it: a phpwind conversation answered with the
    回复 button gets a new ``RE:`` inbox row that opens the same whole conversation. ``since``
    (the game's start) is the horizon: a row whose last message is older is noted without
    being opened, and older messages are never reported. A conversation whose page cannot be
    read is left for the next poll (its mark unchanged) and reported in ``failures``; the
    others are read all the same.
    """
    cursor = cursor or InboxCursor()
    rows = tuple(conversations)
    found: list[PrivateMessage] = []
    touched: list[str] = []
    failures: list[Exception] = []
    known = {ident for mark in cursor.marks for ident in mark.seen}
    updated = cursor
    for row in rows:
        mark = cursor.get(row.id)
        if mark is not None and mark.fingerprint == fingerprint(row):
            continue
        if mark is None and since is not None and row.last_at is not None and row.last_at < since:
            updated = updated.with_mark(ConversationMark(id=row.id, fingerprint=fingerprint(row)))
            continue  # nothing in it since the game started: not worth a request
        try:
            messages = fetch(row, mark)
        except errors.UnexpectedPage as exc:
            failures.append(exc)
            continue
        new = [m for m in messages if m.id not in known]
        known.update(m.id for m in new)
        fresh = [m for m in new if since is None or m.sent_at >= since]
        found.extend(fresh)
        if new:
            touched.append(row.id)
        ids = tuple(mark.seen if mark else ()) + tuple(m.id for m in new)
        # Reading a conversation marks it read: store the row as it will look from now on.
        stored = fingerprint(replace(row, unread=False))
        updated = updated.with_mark(ConversationMark(id=row.id, seen=ids, fingerprint=stored))
    return InboxDelta(
        messages=tuple(found),
        conversations=rows,
        cursor=updated,
        requests=counter() if counter else requests,
        unread=tuple(touched),
        failures=tuple(failures),
    )
