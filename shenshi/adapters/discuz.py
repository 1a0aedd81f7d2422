"""Discuz! X3.x adapter: the mobile JSON API where the site has it, HTML otherwise.

Thread pages and board listings come from ``api/mobile/index.php?version=4`` when it answers
JSON (``use_mobile_api``: auto/yes/no) and from the HTML pages otherwise; both give the same
records except the edit mark, which only HTML carries (``reread_pages`` always reads HTML).
PMs are read from the HTML pages (their ``span[title]`` times are absolute; the API's are not).
Login goes through the web form (the API's ``module=login`` fatals on X3.5).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

import httpx

from shenshi.adapters import discuz_parse as dz
from shenshi.adapters import errors
from shenshi.adapters.base import MINUTE, SECOND, TimePrecision
from shenshi.adapters.text import forms_in, html_tree, url_param
from shenshi.adapters.web import WebAdapter
from shenshi.records import (
    BoardThread,
    ConversationMark,
    ConversationSummary,
    InboxCursor,
    InboxDelta,
    PrivateMessage,
    ThreadPage,
)

API = "api/mobile/index.php"
_SPACE_UID = re.compile(r"home\.php\?mod=space&(?:amp;)?uid=(\d+)&(?:amp;)?do=profile&(?:amp;)?from=space")


class DiscuzAdapter(WebAdapter):
    """One GM account on a Discuz! X3.x forum."""

    engine = "discuz"
    aliases = ("dz", "discuzx", "discuz!", "discuz-x3")

    # Engine facts of a default Discuz! X3.5 install (FORUMS.md, and the real install).
    flood_interval = 15.0  # floodctrl: "您两次发表间隔少于 15 秒"
    flood_counts_pms = True  # posts and PMs share one flood control
    min_post_bytes = 10  # "您的帖子小于 10 个字符的限制": counted in bytes
    max_post_bytes = 10000  # "您的帖子超过 10000 个字符的限制"
    posts_per_page = 10
    api_posts_per_page = 20  # the mobile API's ``ppp`` asked for (a site may cap it)
    default_charset = "utf-8"
    # PM times show minutes (<span title="2026-12-6 00:57">), post times seconds.
    time_precision = TimePrecision(post=SECOND, edit=MINUTE, board=MINUTE, pm=MINUTE)
    last_page = 999999  # a too-large page= shows the last page (viewthread_page99_overflow.html)

    def post_url(self, tid: str, pid: str) -> str:
        """A link to one post (the forum's findpost redirect)."""
        return f"{self.settings.base_url}forum.php?mod=redirect&goto=findpost&ptid={tid}&pid={pid}"

    def pm_url(self, pm: PrivateMessage) -> str:
        """A link to the conversation holding ``pm`` (as the GM sees it)."""
        partner = pm.recipient_uid if pm.sender_uid == self.own_uid else pm.sender_uid
        return f"{self.settings.base_url}home.php?mod=space&do=pm&subop=view&touid={partner}#pmlist_{pm.id}"

    def __init__(self, settings, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(settings, **kwargs)
        self.formhash: str | None = None
        self._api_ok: bool | None = {"yes": True, "no": False}.get(settings.use_mobile_api)
        self._pm_received: datetime | None = None  # a poll found a PM someone sent us by then

    def send_wait(self, kind: str = "post") -> float:
        """As the engine, and for a PM also UCenter's own flood control (``pmfloodctrl``, 15 s):
        it wants *more* than the interval since the last message in any of our conversations,
        received ones included (``ispminterval``: ``time - lastupdate > interval``). A PM
        received is dated by the poll that found it (its page shows only the minute)."""
        wait = super().send_wait(kind)
        if kind != "pm":
            return wait
        moments = [t for t in (self._last_sends.get("pm"), self._pm_received) if t is not None]
        if moments:
            wait = max(wait, (max(moments) - self.clock()).total_seconds() + self.flood_interval + 1)
        return max(0.0, wait)

    def read_pms(self, cursor: InboxCursor | None = None, since: datetime | None = None) -> InboxDelta:
        """As the engine; a PM someone sent us starts UCenter's flood interval again."""
        delta = super().read_pms(cursor, since)
        if any(m.sender_uid != self.own_uid for m in delta.messages):
            self._pm_received = self.clock()
        return delta

    # ------------------------------------------------------------------ session

    def _meaningful_5xx(self, response: httpx.Response) -> bool:
        # A stale formhash is answered with HTTP 503 "非法字符": a session problem, not an outage.
        return response.status_code == 503 and "非法字符" in self.text_of(response)

    def _page(self, text: str, response: httpx.Response) -> str:
        """Check a page: typed errors for message pages, session expiry, fresh formhash."""
        dz.check_page(text, url=str(response.url))
        state = dz.page_state(text)
        self._guard_session(state.uid, str(response.url))
        if state.logged_in and state.formhash:
            self.formhash = state.formhash
        if response.status_code == 404:
            raise errors.NotFound("the forum answered 404", url=str(response.url))
        return text

    def _send_password(self, password: str) -> None:
        """The web login form (``member.php?mod=logging&action=login``). The password goes only
        to the configured forum: a form that posts elsewhere, or no form shenshi knows, is
        :class:`LoginPageChanged` (nothing sent)."""

        def login_page(text: str, response: httpx.Response) -> str:
            dz.check_page(text, url=str(response.url))  # closed, no permission…: the forum's own words
            return text

        form_page = self._get("member.php", login_page, params={"mod": "logging", "action": "login"}, relogin=False)
        if dz.page_state(form_page).logged_in:
            return  # the session is alive: a member opening the login page is welcomed back
        if dz.login_has_captcha(form_page):
            raise errors.CaptchaRequired("login")
        forms = forms_in(form_page, "//form[@name='login' and contains(@action, 'loginsubmit')]")
        if not forms:
            raise errors.LoginPageChanged(
                "the login page has no login form (form[name=login]) shenshi knows",
                snippet=errors.snippet_of(form_page),
            )
        action = self._login_action(forms[0].get("action") or "")
        fields = {el.get("name"): el.get("value") or "" for el in forms[0].xpath(".//input[@type='hidden'][@name]")}
        data = {
            "formhash": fields.get("formhash", ""),
            "referer": fields.get("referer", self.http.base_url + "forum.php"),
            "loginfield": "username",
            "username": self.settings.username,
            "password": password,
            "questionid": "0",
            "answer": "",
            "cookietime": "2592000",
        }
        self._post(action, data, self._login_answer(dz.check_page, dz.login_has_captcha), relogin=False)

    def _refresh_session(self) -> bool:
        """GET the forum index: learn our uid, name and formhash; False when we are a guest."""
        state = self._get("forum.php", lambda text, r: dz.page_state(text), relogin=False)
        if not state.logged_in:
            return False
        self.own_uid, self.own_name, self.formhash = state.uid, state.username, state.formhash
        return True

    def _formhash(self) -> str:
        if not self.formhash:
            self._refresh_session()
        if not self.formhash:
            raise errors.NotLoggedIn("no formhash: not logged in")
        return self.formhash

    # ------------------------------------------------------------------ mobile API

    def _api_usable(self) -> bool:
        return self._api_ok is not False

    def _api(self, params: dict[str, str]) -> dict:
        def parse(text: str, response: httpx.Response) -> dict:
            found = dz.api_load(text)
            state = dz.api_state(found)
            self._guard_session(state.uid, str(response.url))
            if state.logged_in and state.formhash:
                self.formhash = state.formhash
            dz.api_check(found, url=str(response.url))
            return found

        try:
            found = self._get(API, parse, params={"version": "4", **params})
        except (errors.UnexpectedPage, errors.TransportError):
            if self._api_ok is True:
                raise
            self._api_ok = False  # auto: this site has no usable mobile API
            raise _NoApi() from None
        self._api_ok = True
        return found

    def per_page(self) -> int:
        return self.api_posts_per_page if self._api_usable() else self.posts_per_page

    # ------------------------------------------------------------------ threads and boards

    def _thread_page(self, tid: str, page: int) -> ThreadPage:
        if self._api_usable():
            try:
                found = self._api({
                    "module": "viewthread", "tid": tid, "page": str(page), "ppp": str(self.api_posts_per_page),
                })
                result = dz.parse_api_thread(found, tz=self.tz, now=self.now())
                # the site capped ppp: pages follow it
                self.api_posts_per_page = result.per_page or self.api_posts_per_page
                return result
            except _NoApi:
                pass
        return self._thread_page_html(tid, page)

    def _thread_page_html(self, tid: str, page: int | str) -> ThreadPage:
        return self._get(
            "forum.php",
            lambda text, r: dz.parse_thread_page(self._page(text, r), tz=self.tz, now=self.now(), tid=tid),
            params={"mod": "viewthread", "tid": tid, "extra": "page=1", "page": str(page)},
        )

    def list_board(self, fid: str, page: int = 1) -> list[BoardThread]:
        """A board listing (reply counts and last posts), API first; the API's new-PM notice
        becomes :attr:`pm_notice` (the HTML listing does not say: ``None``)."""
        self.pm_notice = None
        if self._api_usable():
            try:
                found = self._api({"module": "forumdisplay", "fid": str(fid), "page": str(page)})
                rows = dz.parse_api_board(found, tz=self.tz, now=self.now())
                self.pm_notice = dz.api_unread_pms(found)
                return rows
            except _NoApi:
                pass
        return self._get(
            "forum.php",
            lambda text, r: dz.parse_board(self._page(text, r), tz=self.tz, now=self.now()),
            params={"mod": "forumdisplay", "fid": str(fid), "page": str(page)},
        )

    # ------------------------------------------------------------------ PMs

    def _inbox_page(self, page: int) -> tuple[list[ConversationSummary], int]:
        def parse(text: str, response: httpx.Response) -> tuple[list[ConversationSummary], int]:
            self._page(text, response)
            return dz.parse_inbox(text, tz=self.tz, now=self.now()), dz.conversation_pages(text)[1]

        return self._get("home.php", parse, params={"mod": "space", "do": "pm", "page": str(page)})

    def _conversation(self, row: ConversationSummary, mark: ConversationMark | None) -> list[PrivateMessage]:
        seen = set(mark.seen) if mark else set()
        params = {"mod": "space", "do": "pm", "subop": "view", "touid": row.partner_uid}
        messages: list[PrivateMessage] = []
        page: int | None = None
        while True:
            query = dict(params, page=str(page)) if page else params

            def parse(text: str, response: httpx.Response) -> tuple[list[PrivateMessage], int]:
                self._page(text, response)
                found = dz.parse_conversation(text, tz=self.tz, now=self.now(), conversation=row.id)
                return found, dz.conversation_pages(text)[0]

            found, current = self._get("home.php", parse, params=query)
            messages = found + [m for m in messages if m.id not in {f.id for f in found}]
            # The forum opens the newest page: walk back until what was stored is reached.
            if current <= 1 or (found and found[0].id in seen):
                return messages
            page = current - 1

    def _sent_to(self, username: str, since: datetime) -> list[PrivateMessage]:
        try:
            uid = self.lookup_uid(username)
        except errors.NotFound:
            return []  # no such member (a substitute entered offline): nothing was sent to him
        row = ConversationSummary(uid, username, uid, False, None)
        return [m for m in self._conversation(row, None) if m.sent_at >= since]

    def fingerprint(self, row: ConversationSummary) -> str:
        # "共 N 条" counts every message; the unread flag is the forum's, not ours.
        last = row.last_at.isoformat() if row.last_at else ""
        return f"{row.count}|{last}"

    def mark_read(self, conversation_ids: Sequence[str]) -> None:
        """Nothing to send: Discuz marks a conversation read when it is viewed."""
        return None

    # ------------------------------------------------------------------ writing

    def post_reply(self, tid: str, text: str) -> str:
        """Reply to thread ``tid``; returns the new pid (from the 301 ``Location``)."""
        tid = str(tid)
        fid = self._fid_for(tid)

        def form() -> dict[str, str]:
            return {
                "formhash": self._formhash(),
                "posttime": str(int(self.clock().timestamp())),
                "wysiwyg": "0",
                "noticeauthor": "",
                "noticetrimstr": "",
                "noticeauthormsg": "",
                "subject": "",
                "message": text,
                "usesig": "1",
            }

        def parse(body: str, response: httpx.Response) -> str:
            if response.status_code in (301, 302, 303):
                pid = url_param(response.headers.get("location"), "pid")
                if pid:
                    return pid
            self._page(body, response)
            raise errors.UnexpectedPage("reply sent but no redirect to the new post", url=str(response.url), snippet=errors.snippet_of(body))

        return self._paced("post", lambda: self._post(
            "forum.php", form, parse,
            params={"mod": "post", "action": "reply", "fid": fid, "tid": tid, "extra": "", "replysubmit": "yes"},
        ))  # fmt: skip

    def lookup_uid(self, username: str) -> str:
        """The uid of a member by name (``home.php?mod=space&username=NAME``), cached."""
        if username in self._uids:
            return self._uids[username]

        def parse(text: str, response: httpx.Response) -> str:
            self._page(text, response)
            tree = html_tree(text)
            for link in tree.xpath("//a[contains(@href, 'mod=space') and contains(@href, 'uid=')]"):
                if link.text_content().strip() == username and url_param(link.get("href"), "uid"):
                    return url_param(link.get("href"), "uid")  # type: ignore[return-value]
            found = _SPACE_UID.search(text)
            if found:
                return found.group(1)
            raise errors.NotFound(f"no member named {username!r}", url=str(response.url))

        uid = self._get("home.php", parse, params={"mod": "space", "username": username})
        self._uids[username] = uid
        return uid

    def send_pm(self, username: str, text: str, subject: str | None = None) -> str | None:
        """PM a member by name (the uid from the players file, else looked up); returns the new
        pmid. Discuz PMs have no subject: it is prepended."""
        uid = self.lookup_uid(username)
        message = f"{subject}\n{text}" if subject else text

        def form() -> dict[str, str]:
            return {
                "formhash": self._formhash(),
                "pmsubmit": "true",
                "touid": uid,
                "handlekey": f"showmsg_{uid}",
                "message": message,
            }

        def parse(body: str, response: httpx.Response) -> str | None:
            if "非法字符" in body[:5000]:
                raise errors.SessionExpired("stale formhash", url=str(response.url))
            result = dz.check_ajax(body, url=str(response.url))
            return result.values.get("pmid")

        return self._paced("pm", lambda: self._post(
            "home.php", form, parse,
            params={"mod": "spacecp", "ac": "pm", "op": "send", "touid": uid, "inajax": "1"},
        ))  # fmt: skip

    def member_name(self, uid: str) -> str:
        """The forum name of member ``uid`` (their profile page)."""
        return self._get(
            "home.php",
            lambda text, r: dz.parse_member_name(self._page(text, r), str(uid)),
            params={"mod": "space", "uid": str(uid), "do": "profile"},
        )


class _NoApi(Exception):
    """The mobile API is not usable on this site (auto mode falls back to HTML)."""
