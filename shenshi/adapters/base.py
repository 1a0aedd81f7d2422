"""The forum adapter interface, its settings, and the registry of engines.

``make_adapter(settings)`` is what the shell calls; each engine is one class found by name in
:data:`ADAPTERS` (``find_adapter("discuz")``), as python-chess finds variants.

What an engine is like (its flood control, post length limits, posts per page, default charset,
how finely each page kind shows times) are *engine facts*: class attributes of its adapter,
measured on the real installs (gallery-dl's per-extractor attributes). A forum whose admin
changed one says so in its settings (``[forum] flood_interval = 30``); the adapter instance then
carries the forum's value. The daemon asks the adapter (``adapter.flood_interval``,
``adapter.fit_min_length(text)``) and the sandbox imitates the same numbers from the classes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import ClassVar, Protocol, runtime_checkable

import httpx

from shenshi.adapters.settings import DEFAULT_USER_AGENT, ForumSettings
from shenshi.records import (
    BoardThread,
    InboxCursor,
    InboxDelta,
    PrivateMessage,
    ThreadCursor,
    ThreadDelta,
    ThreadPage,
)

__all__ = [
    "ADAPTERS", "DEFAULT_USER_AGENT", "MINUTE", "SECOND", "ForumAdapter", "ForumSettings",
    "TimePrecision", "find_adapter", "make_adapter",
]

SECOND = timedelta(seconds=1)
MINUTE = timedelta(minutes=1)


@dataclass(frozen=True)
class TimePrecision:
    """How finely an engine shows the time on each kind of page (an engine fact).

    A time shown to the minute is an interval of a minute, not an instant: order within it
    comes from what is certain (ids, a conversation's order, when the daemon first saw it).
    """

    post: timedelta  # a post on a thread page (and the Discuz mobile API)
    edit: timedelta  # the edit mark under a post
    board: timedelta  # a board listing's last-post time
    pm: timedelta  # PM inbox rows and the messages of a conversation

    def shows_seconds(self, kind: str) -> bool:
        """Whether pages of ``kind`` (``post``, ``edit``, ``board``, ``pm``) show seconds."""
        precision: timedelta = getattr(self, kind)
        return precision < MINUTE


@runtime_checkable
class ForumAdapter(Protocol):
    """What the daemon and intake can ask of a forum, whatever its engine.

    The engine facts are class attributes of each engine's adapter; an instance carries the
    forum's own value where its settings override one.
    """

    engine: str
    settings: ForumSettings
    own_uid: str | None
    pm_notice: int | None  # unread PMs as the last board listing showed them (None: not shown)

    # Engine facts (see the module docstring).
    flood_interval: float  # seconds between two sends the flood control accepts (灌水预防)
    flood_counts_pms: ClassVar[bool]  # PMs share the posts' flood control
    min_post_bytes: int  # shortest post, in bytes of the forum's charset
    max_post_bytes: int  # longest post, likewise
    posts_per_page: int  # posts on an HTML thread page
    default_charset: ClassVar[str]  # the charset of a default install (``auto`` before a page says)
    time_precision: ClassVar[TimePrecision]

    def fit_min_length(self, text: str, padding: str = ...) -> str: ...

    def login(self) -> None: ...

    def read_thread(self, tid: str, cursor: ThreadCursor | None = None) -> ThreadDelta: ...

    def reread_pages(self, tid: str, pages: Sequence[int]) -> list[ThreadPage]: ...

    def list_board(self, fid: str, page: int = 1) -> list[BoardThread]: ...

    def poll_board(
        self,
        fid: str,
        cursors: Mapping[str, ThreadCursor | None],
        discover: Callable[[BoardThread], bool] | None = None,
        listing: Sequence[BoardThread] | None = None,
    ) -> dict[str, ThreadDelta]: ...

    def read_pms(self, cursor: InboxCursor | None = None, since: datetime | None = None) -> InboxDelta: ...

    def mark_read(self, conversation_ids: Sequence[str]) -> None: ...

    def post_reply(self, tid: str, text: str) -> str: ...

    def send_pm(self, username: str, text: str, subject: str | None = None) -> str | None: ...

    def lookup_uid(self, username: str) -> str: ...

    def remember_uids(self, uids: Mapping[str, str]) -> None: ...

    def member_name(self, uid: str) -> str: ...

    def send_wait(self, kind: str = "post") -> float: ...

    def post_url(self, tid: str, pid: str) -> str: ...

    def pm_url(self, pm: PrivateMessage) -> str: ...

    def find_sent_pm(self, username: str, text: str, since: datetime) -> str | None: ...

    def find_sent_pms(self, username: str, text: str, since: datetime) -> list[str]: ...


def _registry() -> tuple[type, ...]:
    from shenshi.adapters.discuz import DiscuzAdapter
    from shenshi.adapters.phpwind import PhpwindAdapter

    return (DiscuzAdapter, PhpwindAdapter)


class _Registry(Sequence[type]):
    """The engines, loaded on first use (the engine modules import this one)."""

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        return _registry()[index]

    def __len__(self) -> int:
        return len(_registry())


ADAPTERS: Sequence[type] = _Registry()


def find_adapter(engine: str) -> type:
    """The adapter class for an engine name or alias (``discuz``, ``dz``, ``phpwind``, ``pw``)."""
    wanted = engine.strip().lower()
    for adapter in ADAPTERS:
        if wanted == adapter.engine or wanted in getattr(adapter, "aliases", ()):
            return adapter
    known = ", ".join(a.engine for a in ADAPTERS)
    raise KeyError(f"unknown forum engine {engine!r} (known: {known})")


def make_adapter(
    settings: ForumSettings,
    client: httpx.Client | None = None,
    clock: Callable[[], datetime] | None = None,
    sleep: Callable[[float], None] | None = None,
    session_file: Path | str | None = None,
) -> ForumAdapter:
    """Build the adapter for ``settings.engine`` with an injected client, clock and sleep;
    ``session_file`` keeps the login between runs (:mod:`shenshi.adapters.session`)."""
    adapter: ForumAdapter = find_adapter(settings.engine)(
        settings, client=client, clock=clock, sleep=sleep, session_file=session_file
    )
    return adapter
