"""What the two engine adapters share: settings, the HTTP session, the clock, the cursors.

An engine subclass supplies the URLs and parsers (``_thread_page``, ``_inbox``,
``_conversation``, ``_fingerprint``, ``login`` and the posting calls); reading after a cursor is
the engine-neutral algorithm of :mod:`shenshi.adapters.incremental`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import httpx

from shenshi.adapters import errors
from shenshi.adapters.base import ForumSettings, TimePrecision
from shenshi.adapters.http import UNENCODABLE, FormSource, ForumHttp, load_cookies, outgoing
from shenshi.adapters.incremental import read_after, read_inbox_after
from shenshi.adapters.session import (
    SavedSession,
    SessionFile,
    cookies_of,
    password_digest,
    restore_cookies,
)
from shenshi.adapters.text import decode_page, zone
from shenshi.clock import system_clock
from shenshi.records import (
    BoardThread,
    ConversationMark,
    ConversationSummary,
    InboxCursor,
    InboxDelta,
    PrivateMessage,
    ThreadCursor,
    ThreadDelta,
    ThreadPage,
)
from shenshi.sent_text import same_message
from shenshi.wording.defaults import TEMPLATES

log = logging.getLogger("shenshi.adapters")

T = TypeVar("T")

# Engine facts a forum's settings may override (its admin changed them).
FORUM_FACTS = (
    "flood_interval", "min_post_bytes", "max_post_bytes", "posts_per_page", "api_posts_per_page",
)
PADDING = TEMPLATES["padding"].default  # added to a post shorter than the forum's minimum


class WebAdapter:
    """Base of the HTML forum adapters (one instance per forum account).

    Each engine subclass declares its engine facts (:class:`~shenshi.adapters.base.ForumAdapter`
    lists them); an instance carries the forum's own value where ``settings`` overrides one.
    """

    engine = ""
    aliases: tuple[str, ...] = ()
    last_page: int | str = 999999  # a page number past the end: the forum shows its last page

    # Engine facts: every engine declares each one (tests/adapters/test_contract.py checks).
    flood_interval: float
    flood_counts_pms: ClassVar[bool]
    min_post_bytes: int
    max_post_bytes: int
    posts_per_page: int
    default_charset: ClassVar[str]
    time_precision: ClassVar[TimePrecision]

    def __init__(
        self,
        settings: ForumSettings,
        *,
        client: httpx.Client | None = None,
        clock: Callable[[], datetime] | None = None,
        sleep: Callable[[float], None] | None = None,
        session_file: Path | str | None = None,
    ) -> None:
        self.settings = settings
        for fact in FORUM_FACTS:
            value = getattr(settings, fact)
            if value is not None:
                setattr(self, fact, value)
        self.tz = zone(settings.timezone)
        self.clock = clock or system_clock
        self.http = ForumHttp(
            base_url=settings.base_url,
            user_agent=settings.user_agent,
            charset=settings.charset,
            default_charset=self.default_charset,
            timeout=settings.timeout,
            deadline=settings.deadline,
            max_answer_bytes=settings.max_answer_bytes,
            min_interval=settings.min_interval,
            retries=settings.retries,
            backoff=settings.backoff,
            flood_retries=settings.flood_retries,
            flood_wait=self.flood_interval,
            client=client,
            clock=self.clock,
            sleep=sleep,
            meaningful_5xx=self._meaningful_5xx,
        )
        self.http.relogin = self.login
        self.own_uid: str | None = None
        self.own_name: str | None = None
        # Once we log in, a guest page means the session expired (log in again), however many
        # logins failed in between: the uid may be unknown then, this stays true.
        self.session_expected = False
        self._fids: dict[str, str] = {}
        self._uids: dict[str, str] = {}
        self._last_sends: dict[str, datetime] = {}  # "post"/"pm" → when the forum accepted one
        self._rejected: str | None = None  # digest of the password the forum rejected
        self._saved: SavedSession | None = None  # a session from the session file, not yet tried
        self._session_file = SessionFile(session_file, settings.base_url, settings.username) if session_file else None
        self._cookies_loaded = False
        # What the last board listing said of the account's unread PMs (Discuz API: the new-PM
        # notice; phpwind: the header's 消息(N)); None where the page does not say.
        self.pm_notice: int | None = None
        cookies_file = settings.private_cookies_file()
        if cookies_file:
            count = load_cookies(self.http.client, cookies_file)
            self._cookies_loaded = count > 0
            log.info("从 cookie 文件读入 %d 个 cookie", count)
        if self._session_file is not None:
            self._saved = self._session_file.load()
            if self._saved is not None:
                self._rejected = self._saved.rejected
                restore_cookies(self.http.client, self._saved.cookies)

    # ------------------------------------------------------------------ helpers

    def fit_min_length(self, text: str, padding: str = PADDING) -> str:
        """``text``, padded with ``padding`` (the GM's ``padding`` template) until it is as long
        as the forum's minimum post.

        The minimum counts bytes in the forum's charset as it is sent (``平安夜`` is 9 bytes in
        UTF-8, 6 in GBK), not characters.
        """
        codec = outgoing(self.http.charset)
        while len(text.strip().encode(codec, errors=UNENCODABLE)) < self.min_post_bytes:
            text = text.rstrip() + (padding or PADDING)
        return text

    @property
    def requests(self) -> int:
        """Requests sent so far (the request budget of a poll is a difference of two readings)."""
        return self.http.requests

    def now(self) -> datetime:
        """The injected clock, in the forum's zone (relative times are resolved against it)."""
        return self.clock().astimezone(self.tz)

    def text_of(self, response: httpx.Response) -> str:
        """A response body decoded by the page's own declaration, else the configured charset."""
        return decode_page(response.content, self.settings.charset or self.http.charset)

    def charset_decision(self) -> str:
        """Which charset the adapter reads and writes in, and where that came from."""
        http = self.http
        where = {
            "configured": "配置里写明的", "page": "依据论坛页面自己的声明",
            "header": "依据 HTTP 头（页面没有声明）",
            "default": f"论坛程序的默认值 {self.default_charset}（还没有页面说明）",
        }[http.charset_source]  # fmt: skip
        text = f"{outgoing(http.charset)}（{where}）"
        if http.header_charset:
            text += f"；HTTP 头写的是 {http.header_charset}，以页面为准（浏览器按页面的编码提交表单）"
        return text

    def _meaningful_5xx(self, response: httpx.Response) -> bool:
        return False

    def load_guard(self, text: str) -> bool:
        """Whether an answer is the engine's load guard instead of a page (none by default)."""
        return False

    def _get(self, path: str, parse: Callable[[str, httpx.Response], T], *, params: Mapping[str, Any] | None = None, relogin: bool = True) -> T:
        return self.http.fetch("GET", path, params=params, check=self._checked(parse), relogin=relogin)

    def _post(self, path: str, data: FormSource, parse: Callable[[str, httpx.Response], T], *, params: Mapping[str, Any] | None = None, relogin: bool = True) -> T:
        return self.http.fetch("POST", path, params=params, data=data, check=self._checked(parse), relogin=relogin)

    def _checked(self, parse: Callable[[str, httpx.Response], T]) -> Callable[[httpx.Response], T]:
        def check(response: httpx.Response) -> T:
            try:
                text = self.text_of(response)
                if self.load_guard(text):  # the forum did nothing: never a page, a charset or an answer
                    raise errors.ForumBusy(f"the forum's load guard answered {text.strip()[:60]!r}")
                return parse(text, response)
            except errors.SessionExpired:
                raise
            except errors.NotLoggedIn as exc:
                if self.session_expected:  # we logged in: the forum forgot us
                    raise errors.SessionExpired(exc.message, url=str(response.url)) from exc
                raise
            except errors.ForumError as exc:
                exc.url = exc.url or str(response.url)
                raise
            except (ValueError, LookupError, AttributeError) as exc:  # markup a parser did not expect
                raise errors.UnexpectedPage(
                    f"{type(exc).__name__}: {exc}", url=str(response.url), snippet=errors.snippet_of(response.content)
                ) from exc

        return check

    def _guard_session(self, uid: str | None, url: str) -> None:
        """Raise ``SessionExpired`` when a page we expected as a member renders as a guest."""
        if self.session_expected and uid is not None and uid in ("", "0"):
            raise errors.SessionExpired("the page rendered as a guest: the session expired", url=url)

    def _remember(self, page: ThreadPage) -> ThreadPage:
        if page.fid:
            self._fids[page.tid] = page.fid
        return page

    # ------------------------------------------------------------------ reading

    def per_page(self) -> int:
        """Posts per thread page on the path this adapter reads."""
        return self.posts_per_page

    def read_thread(self, tid: str, cursor: ThreadCursor | None = None) -> ThreadDelta:
        """Posts after ``cursor`` (all posts without one), the new cursor and what changed."""
        per_page = self.per_page()
        return read_after(str(tid), cursor, lambda page: self._remember(self._thread_page(str(tid), page)), per_page)

    def reread_pages(self, tid: str, pages: Sequence[int]) -> list[ThreadPage]:
        """Fetch given HTML pages again (edits change no reply count; the HTML carries edit marks).

        Pages are numbered as the HTML shows them (``posts_per_page`` posts each), whichever path
        ``read_thread`` takes: :meth:`pages_of` turns floors into them. No pages at all: the last
        page, where a post just sent shows (one request).
        """
        wanted: list[int | str] = list(pages) or [self.last_page]
        return [self._remember(self._thread_page_html(str(tid), page)) for page in wanted]

    def pages_of(self, first_floor: int, last_floor: int) -> list[int]:
        """The HTML pages (``reread_pages`` numbering) that show floors ``first_floor``..``last_floor``."""
        per_page = self.posts_per_page
        first, last = (max(1, first_floor) - 1) // per_page + 1, (max(first_floor, last_floor, 1) - 1) // per_page + 1
        return list(range(first, last + 1))

    def close(self) -> None:
        """Keep the session for the next run (the session file), release the connections."""
        if self.own_uid and self.session_expected:
            self._save_session()
        self.http.close()

    def poll_board(
        self,
        fid: str,
        cursors: Mapping[str, ThreadCursor | None],
        discover: Callable[[BoardThread], bool] | None = None,
        listing: Sequence[BoardThread] | None = None,
    ) -> dict[str, ThreadDelta]:
        """Read only the threads of board ``fid`` whose reply count moved past their cursor.

        One board request (none when ``listing`` gives the board's rows, read once for several
        games); a thread not on the first board page has no new reply (boards list the latest
        activity first), unless it was never read. ``discover`` picks threads of the listing
        that have no cursor yet (a player's new analysis thread): they are read from their
        first post.
        """
        rows = {row.tid: row for row in (self.list_board(fid) if listing is None else listing)}
        if discover is not None:
            cursors = {**{tid: None for tid, row in rows.items() if tid not in cursors and discover(row)}, **cursors}
        found = {}
        for tid, cursor in cursors.items():
            row = rows.get(str(tid))
            if cursor is not None and (row is None or not cursor.is_behind(row)):
                continue
            found[str(tid)] = self.read_thread(str(tid), cursor)
        return found

    # ------------------------------------------------------------------ session

    def login(self) -> None:
        """Log in: a session saved by an earlier run (trusted until a page renders as a
        guest's), the cookies file, else the password.

        A password the forum rejected raises :class:`~shenshi.adapters.errors.PasswordRejected`
        and is never sent again: the next login waits for another password from the password
        source. Transient failures (forum down, timeouts) leave everything as it was: the next
        guest page logs in again.
        """
        self.session_expected = True
        saved, self._saved = self._saved, None
        if saved is not None and saved.uid and saved.cookies:
            self.own_uid, self.own_name = saved.uid, saved.name
            log.debug("使用会话文件里保存的登录")
            return
        if self._cookies_loaded and self._refresh_session():
            self._save_session()
            return
        password = self.settings.login_password()
        if not password:
            raise errors.NotLoggedIn("没有配置密码，cookies_file 里也没有仍有效的登录：请设置 password_env 或 password_file，或更新 cookies_file")
        digest = password_digest(self.settings.base_url, self.settings.username, password)
        if digest == self._rejected:
            raise errors.PasswordRejected(
                f"the forum rejected the password of {self.settings.username}; shenshi will not send it "
                "again (forums lock accounts after a few failures): correct the password source "
                "(password_env / password_file) and shenshi logs in with the new one"
            )
        try:
            self._send_password(password)
        except errors.PasswordRejected:
            self._rejected = digest
            self._save_session()
            raise
        self._finish_login()
        self._rejected = None
        self._save_session()

    def _send_password(self, password: str) -> None:  # pragma: no cover - engines override
        """Fill in and send the engine's login form."""
        raise NotImplementedError

    def _save_session(self) -> None:
        if self._session_file is None:
            return
        self._session_file.save(
            SavedSession(self.own_uid, self.own_name, cookies_of(self.http.client), self._rejected)
        )

    def remember_uids(self, uids: Mapping[str, str]) -> None:
        """Known uids by name (the players file): a PM to them needs no look-up."""
        self._uids.update({name: str(uid) for name, uid in uids.items() if uid})

    # ------------------------------------------------------------------ flood pacing

    def send_wait(self, kind: str = "post") -> float:
        """Seconds until the forum's flood control accepts our next post (``kind="pm"``: PM).

        PMs share the posts' flood control where the engine says so (Discuz); the publisher
        may ask before sending, and each send waits that long itself (pacing ahead of the
        limit, instead of being refused and waiting after).
        """
        kinds = ("post", "pm") if self.flood_counts_pms else (kind,)
        if kind == "pm" and not self.flood_counts_pms:
            return 0.0
        sent = [self._last_sends[k] for k in kinds if k in self._last_sends]
        if not sent:
            return 0.0
        return max(0.0, (max(sent) - self.clock()).total_seconds() + self.flood_interval)

    def _paced(self, kind: str, send: Callable[[], T]) -> T:
        """Send after the flood interval has passed since our last send; note when it went."""
        wait = self.send_wait(kind)
        if wait > 0:
            log.debug("放慢节奏：等 %.1f 秒再发下一条（%s）", wait, kind)
            self.http.sleep(wait)
        try:
            return send()
        finally:  # after the answer, or after an unclear one: the forum may have stored it
            self._last_sends[kind] = self.clock()

    def _login_answer(
        self, check_page: Callable[..., str | None], has_captcha: Callable[[str], bool]
    ) -> Callable[[str, httpx.Response], str]:
        """How the answer to the login form is read: a message, or a typed error."""

        def accepted(text: str, response: httpx.Response) -> str:
            url = str(response.url)
            try:
                message = check_page(text, url=url)
            except errors.PasswordRejected as exc:
                raise errors.PasswordRejected(exc.message, url=url) from exc
            except errors.NotFound as exc:  # 用户"X"不存在: the name; 页面不存在: not a verdict
                if _names_the_account(exc.message):
                    raise errors.PasswordRejected(exc.message, url=url) from exc
                raise errors.LoginFailed(exc.message, url=url) from exc
            except errors.NotLoggedIn as exc:
                raise errors.LoginFailed(exc.message, url=url) from exc
            if message is None:
                if has_captcha(text):
                    raise errors.CaptchaRequired("login", url=url)
                raise errors.UnexpectedPage(
                    "no message after the login form", url=url, snippet=errors.snippet_of(text)
                )
            return message

        return accepted

    def _login_action(self, action: str) -> str:
        """Where a login form sends the password: only the configured forum's site, else
        :class:`~shenshi.adapters.errors.LoginPageChanged` before anything is sent."""
        try:
            self.http.url(action)
        except errors.OtherSite as exc:
            raise errors.LoginPageChanged(
                f"the login form sends the password to another site: {exc.message}"
            ) from exc
        return action

    def _finish_login(self) -> None:
        """After the form: the next page must show us logged in."""
        if not self._refresh_session():
            raise errors.LoginFailed("the forum accepted the password but the next page is a guest's")

    def _refresh_session(self) -> bool:  # pragma: no cover - engines override
        raise NotImplementedError

    def find_sent_pm(self, username: str, text: str, since: datetime) -> str | None:
        """The id of a PM this account sent ``username`` with ``text`` since ``since``, if any.

        Crash recovery: a PM whose sending was not recorded is looked for before it is sent
        again. Discuz shows both directions in the conversation; phpwind lists what the GM
        sent in the outbox (the inbox shows it only once the player answers).
        """
        found = self.find_sent_pms(username, text, since)
        return found[0] if found else None

    def find_sent_pms(self, username: str, text: str, since: datetime) -> list[str]:
        """The ids of every PM this account sent ``username`` with ``text`` since ``since``,
        oldest first: the same text may go to the same player twice (two identical receipts),
        and the caller tells which of them are already recorded."""
        return [
            message.id
            for message in self._sent_to(username, since - timedelta(minutes=1))
            if message.sender_uid == self.own_uid and same_message(message.text, text)
        ]

    def _sent_to(self, username: str, since: datetime) -> list[PrivateMessage]:  # pragma: no cover
        raise NotImplementedError

    def read_pms(self, cursor: InboxCursor | None = None, since: datetime | None = None) -> InboxDelta:
        """New PMs in both directions since ``cursor``; only changed conversations are opened.

        ``since`` (the game's start): conversations with nothing newer are not opened and older
        messages are not reported, so that the first poll on a GM account with years of PMs
        reads only this game's (times shown to the minute count from the minute's start).
        """
        before = self.http.requests
        horizon = since - self.time_precision.pm if since is not None else None
        rows = self._inbox(cursor, horizon)
        return read_inbox_after(
            cursor, rows, self._conversation, self.fingerprint,
            counter=lambda: self.http.requests - before, since=horizon,
        )  # fmt: skip

    # ------------------------------------------------------------------ engine hooks

    def list_board(self, fid: str, page: int = 1) -> list[BoardThread]:  # pragma: no cover
        raise NotImplementedError

    def _thread_page(self, tid: str, page: int) -> ThreadPage:
        return self._thread_page_html(tid, page)

    def _thread_page_html(self, tid: str, page: int | str) -> ThreadPage:  # pragma: no cover
        raise NotImplementedError

    def _inbox(self, cursor: InboxCursor | None = None, since: datetime | None = None) -> list[ConversationSummary]:
        """Every inbox row that may have changed since ``cursor``, newest activity first.

        The inbox lists the latest activity first, so once a page shows a conversation exactly as
        the cursor stored it, or one older than ``since``, every later page is older and
        unchanged: paging stops there (a quiet poll reads one inbox page, however many
        conversations the GM has).
        """
        rows: list[ConversationSummary] = []
        page, pages = 1, 1
        while page <= pages:
            found, pages = self._inbox_page(page)
            rows.extend(r for r in found if r.id not in {x.id for x in rows})
            if cursor is not None and any(self._unchanged(r, cursor) for r in found):
                break
            if since is not None and any(r.last_at is not None and r.last_at < since for r in found):
                break
            page += 1
        return rows

    def _unchanged(self, row: ConversationSummary, cursor: InboxCursor) -> bool:
        mark = cursor.get(row.id)
        return mark is not None and mark.fingerprint == self.fingerprint(row)

    def _inbox_page(self, page: int) -> tuple[list[ConversationSummary], int]:  # pragma: no cover
        """One inbox page's rows and the number of pages."""
        raise NotImplementedError

    def _conversation(self, row: ConversationSummary, mark: ConversationMark | None) -> list[PrivateMessage]:  # pragma: no cover
        raise NotImplementedError

    def fingerprint(self, row: ConversationSummary) -> str:
        last = row.last_at.isoformat() if row.last_at else ""
        return f"{row.count}|{last}|{row.unread}"

    def _fid_for(self, tid: str) -> str:
        if tid not in self._fids:
            self._remember(self._thread_page(tid, 1))
        fid = self._fids.get(tid)
        if not fid:
            raise errors.UnexpectedPage(f"thread {tid}: could not tell which board it is in")
        return fid


def _names_the_account(message: str) -> bool:
    """Whether a forum's "does not exist" answer to the login form is about the account (用户
    不存在, the user name judged wrong) rather than a page (页面不存在, which says nothing about
    the password, so the password must not be blacklisted for it)."""
    return "用户" in message and "空间" not in message
