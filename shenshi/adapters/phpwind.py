"""phpwind 8.x adapter (HTML only; many 8.x sites are GBK: pages are decoded by their own
declaration and forms are sent in the forum's charset).

``verify`` (anti-CSRF) is ``md5(uid + siteid + User-Agent)[8:16]``: the one stable
User-Agent of :mod:`shenshi.adapters.http` keeps it valid for the whole session. A reply does
not return the new post's id: it is read back from the thread's last page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

import httpx

from shenshi.adapters import errors
from shenshi.adapters import phpwind_parse as pw
from shenshi.adapters.base import MINUTE, SECOND, TimePrecision
from shenshi.adapters.text import forms_in, html_tree, pm_title, squash
from shenshi.adapters.web import WebAdapter
from shenshi.records import (
    BoardThread,
    ConversationMark,
    ConversationSummary,
    PrivateMessage,
    ThreadPage,
)

_PROFILE_UID = re.compile(r"Addtoie\('[^']*u\.php\?uid=(\d+)'")


class PhpwindAdapter(WebAdapter):
    """One GM account on a phpwind 8.x forum."""

    engine = "phpwind"
    aliases = ("pw", "phpwind8", "phpwind-8")

    # Engine facts of a default phpwind 8.7 install (FORUMS.md, and the real install).
    flood_interval = 6.0  # "在5秒内不能发帖" (新手上路): whole seconds, the 5th included
    flood_counts_pms = False  # no PM flood limit
    min_post_bytes = 2  # "内容长度错误(请控制在 2-50000 字节)"
    max_post_bytes = 50000
    posts_per_page = 10
    default_charset = "utf-8"  # the GBK edition declares gbk on every page
    # PM and edit-mark times show minutes ("2026-11-29 18:49"), post times seconds.
    time_precision = TimePrecision(post=SECOND, edit=MINUTE, board=MINUTE, pm=MINUTE)
    last_page = "e"  # read.php?tid=T&page=e

    def post_url(self, tid: str, pid: str) -> str:
        """A link to one post (``tpc``: the thread's first post)."""
        if pid == "tpc":
            return f"{self.settings.base_url}read.php?tid={tid}"
        return f"{self.settings.base_url}job.php?action=topost&tid={tid}&pid={pid}"

    def pm_url(self, pm: PrivateMessage) -> str:
        """A link to the conversation holding ``pm`` (as the GM sees it: the inbox row's rid)."""
        mid = pm.id.split(".")[0]
        rid = self._rids.get(pm.conversation, pm.conversation)
        return (
            f"{self.settings.base_url}message.php?type=sms&action=info&boxname=inbox&page=1"
            f"&rid={rid}&itype=inbox&mid={mid}&redirect=1"
        )

    def __init__(self, settings, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(settings, **kwargs)
        self.verify: str | None = None
        self._rids: dict[str, str] = {}  # conversation (parentMid) → an inbox row (rid) opening it

    # ------------------------------------------------------------------ session

    def load_guard(self, text: str) -> bool:
        """phpwind's load guard ("Forbidden, Please Refresh"): :class:`ForumBusy`, waited out."""
        return pw.is_load_guard(text)

    def _page(self, text: str, response: httpx.Response) -> str:
        pw.check_page(text, url=str(response.url))
        state = pw.page_state(text)
        self._guard_session(state.uid, str(response.url))
        if state.logged_in and state.verify:
            self.verify = state.verify
        return text

    def _send_password(self, password: str) -> None:
        """The login form (``login.php``, step 2). The password goes only to the configured
        forum: no form shenshi knows, or one that posts elsewhere, is :class:`LoginPageChanged`
        (nothing sent); the load guard is :class:`ForumBusy`, never a form or an answer."""

        def login_page(text: str, response: httpx.Response) -> str | None:
            if response.status_code in (301, 302, 303):
                target = response.url.join(response.headers.get("location", ""))
                if (target.scheme, target.host, target.port) != (response.url.scheme, response.url.host, response.url.port):
                    raise errors.LoginPageChanged(f"the login page sends us to another site ({target.host})")
                return None  # a live session: phpwind sends a member on to index.php
            pw.check_page(text, url=str(response.url))
            return text

        page = self._get("login.php", login_page, relogin=False)
        if page is None:
            return
        if pw.login_has_captcha(page):
            raise errors.CaptchaRequired("login")
        forms = forms_in(page, "//form[@name='login'][.//input[@name='pwuser']][.//input[@name='pwpwd']]")
        if not forms:
            raise errors.LoginPageChanged(
                "the login page has no login form (form[name=login] with pwuser, pwpwd) shenshi knows",
                snippet=errors.snippet_of(page),
            )
        action = self._login_action(forms[0].get("action") or "login.php")
        data = {
            "forward": "",
            "jumpurl": self.http.base_url + "index.php",
            "step": "2",
            "lgt": "0",
            "pwuser": self.settings.username,
            "pwpwd": password,
            "hideid": "0",
            "cktime": "31536000",
        }
        self._post(action, data, self._login_answer(pw.check_page, pw.login_has_captcha), relogin=False)

    def _refresh_session(self) -> bool:
        state = self._get("index.php", lambda text, r: pw.page_state(text), relogin=False)
        if not state.logged_in:
            return False
        self.own_uid, self.own_name, self.verify = state.uid, state.username, state.verify
        return True

    def _verify(self) -> str:
        if not self.verify:
            self._refresh_session()
        if not self.verify:
            raise errors.NotLoggedIn("no verify token: not logged in")
        return self.verify

    # ------------------------------------------------------------------ reading

    def _thread_page_html(self, tid: str, page: int | str) -> ThreadPage:
        return self._get(
            "read.php",
            lambda text, r: pw.parse_thread_page(self._page(text, r), tz=self.tz, now=self.now(), tid=tid),
            params={"tid": tid, "page": str(page)},
        )

    def list_board(self, fid: str, page: int = 1) -> list[BoardThread]:
        """A board listing (``<em>replies</em>/hits`` and last posts); its header's 消息(N)
        becomes :attr:`pm_notice`."""

        def parse(text: str, response: httpx.Response) -> list[BoardThread]:
            rows = pw.parse_board(self._page(text, response), tz=self.tz, now=self.now())
            self.pm_notice = pw.unread_messages(text)
            return rows

        return self._get("thread.php", parse, params={"fid": str(fid), "page": str(page)})

    def _inbox_page(self, page: int) -> tuple[list[ConversationSummary], int]:
        def parse(text: str, response: httpx.Response) -> tuple[list[ConversationSummary], int]:
            self._page(text, response)
            return pw.parse_inbox(text, tz=self.tz, now=self.now()), pw.pagination(html_tree(text))[1]

        params = {"type": "sms"} if page == 1 else {"type": "sms", "action": "inbox", "page": str(page)}
        return self._get("message.php", parse, params=params)

    def _conversation(self, row: ConversationSummary, mark: ConversationMark | None) -> list[PrivateMessage]:
        ref = row.ref or (
            "message.php?type=sms&action=info&boxname=inbox&page=1"
            f"&rid={row.id}&itype=inbox&smstype=&redirect=1"
        )
        messages = self._get(
            ref,
            lambda text, r: pw.parse_conversation(self._page(text, r), tz=self.tz, now=self.now(), conversation=row.id),
        )
        for message in messages[:1]:
            self._rids.setdefault(message.conversation, row.id)
        return messages

    def _sent_to(self, username: str, since: datetime) -> list[PrivateMessage]:
        def parse(text: str, response: httpx.Response) -> list[ConversationSummary]:
            return pw.parse_inbox(self._page(text, response), tz=self.tz, now=self.now())

        rows = self._get("message.php", parse, params={"type": "sms", "action": "outbox"})
        found: list[PrivateMessage] = []
        for row in rows:
            if row.partner.casefold() == username.casefold() and (row.last_at is None or row.last_at >= since):
                found += [m for m in self._conversation(row, None) if m.sent_at >= since]
        return found

    def fingerprint(self, row: ConversationSummary) -> str:
        # Rows carry no message count: a new reply shows as a newer time or an unread mark.
        last = row.last_at.isoformat() if row.last_at else ""
        return f"{last}|{row.ref}|{row.unread}"

    def mark_read(self, conversation_ids: Sequence[str]) -> None:
        """Mark conversations read (``message.php?type=ajax&action=mark``), after storing them."""
        if not conversation_ids:
            return

        def form() -> list[tuple[str, str]]:
            return [*(("rids[]", str(rid)) for rid in conversation_ids), ("verify", self._verify())]

        self._post("message.php", form, self._ajax, params={"type": "ajax", "action": "mark"})

    def _ajax(self, text: str, response: httpx.Response) -> pw.AjaxResult:
        return pw.check_ajax(text, url=str(response.url))

    # ------------------------------------------------------------------ writing

    def post_reply(self, tid: str, text: str) -> str:
        """Reply to thread ``tid``; the pid is read back from the last page (phpwind omits it)."""
        tid = str(tid)
        fid = self._fid_for(tid)
        fields: dict[str, str] = {}

        def load_form() -> None:
            def parse(body: str, response: httpx.Response) -> dict[str, str]:
                self._page(body, response)
                return pw.form_fields(body)

            fields.clear()
            fields.update(self._get("post.php", parse, params={"action": "reply", "fid": fid, "tid": tid}))

        load_form()

        def form() -> dict[str, str]:
            if fields.get("verify") != self.verify and self.verify:
                load_form()  # after a re-login the form's verify and _hexie are stale
            return {**fields, "atc_content": text, "ajax": "1", "verify": self._verify()}

        sent_at = self.now()
        self._paced("post", lambda: self._post("post.php", form, self._ajax, params={"fid": fid}))
        last = self._thread_page_html(tid, "e")
        mine = [p for p in last.posts if p.author_uid == self.own_uid]
        wanted = squash(text)
        for post in reversed(mine):
            if squash(post.text) == wanted:
                return post.pid
        recent = [p for p in mine if (sent_at - p.posted_at).total_seconds() <= 120]
        if recent:  # the forum rewrote the text (BBCode, autourl): our newest post of just now
            return recent[-1].pid
        raise errors.UnexpectedPage(f"reply to thread {tid} accepted but not found on its last page")

    def lookup_uid(self, username: str) -> str:
        """The uid of a member by name (``u.php?username=NAME``), cached."""
        if username in self._uids:
            return self._uids[username]

        def parse(text: str, response: httpx.Response) -> str:
            self._page(text, response)
            found = _PROFILE_UID.search(text)
            if not found:
                raise errors.NotFound(f"no member named {username!r}", url=str(response.url))
            return found.group(1)

        uid = self._get("u.php", parse, params={"username": username})
        self._uids[username] = uid
        return uid

    def send_pm(self, username: str, text: str, subject: str | None = None) -> str | None:
        """PM a member by name. phpwind requires a title; it returns no message id (None)."""
        title = subject or pm_title(text)

        def form() -> list[tuple[str, str]]:
            return [
                ("verify", self._verify()),
                ("step", "2"),
                ("_usernames[]", username),
                ("atc_title", title),
                ("atc_content", text),
            ]

        try:
            self._paced("pm", lambda: self._post("message.php", form, self._ajax, params={"type": "ajax", "action": "post"}))
        except errors.Rejected as exc:
            if pw.SENDER_LIMIT.search(exc.message):
                raise self._sender_limit(exc) from exc
            raise
        return None

    def _sender_limit(self, refusal: errors.Rejected) -> errors.Rejected:
        """The forum's "你已超过每日发送消息数或你的消息总数已满" says one of two things: its
        clean-up page tells which. The GM's own box full (the PMs he sent count in it) is
        :class:`OwnBoxFull`; otherwise the account reached its PMs of the day."""
        try:
            box = self._get("message.php", lambda text, r: pw.parse_pm_box(self._page(text, r)), params={"type": "clear"})
        except errors.ForumError:
            return refusal  # the figures cannot be read: the forum's own words
        if box.full:
            return errors.OwnBoxFull(
                f"the GM's own PM box is full: {box.total} of {box.size} messages, the PMs he sent "
                f"included ({refusal.message})", total=box.total, box=box.size or box.total, url=refusal.url,
            )  # fmt: skip
        return errors.Rejected(
            f"the GM account has sent its {box.daily or '?'} PMs of today ({refusal.message})", url=refusal.url
        )

    def member_name(self, uid: str) -> str:
        """The forum name of member ``uid`` (their space page ``u.php?uid=U``)."""
        return self._get("u.php", lambda text, r: pw.parse_member_name(self._page(text, r), str(uid)), params={"uid": str(uid)})
