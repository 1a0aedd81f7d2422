"""phpwind 8.7 wire format over a :class:`~.state.SandboxForum` (FORUMS.md, captured flows).

Session cookie ``{pre}winduser`` (``pre`` = 5 hex chars + ``_``); ``verify`` =
``md5(uid + site + User-Agent)[8:16]`` so a changed User-Agent or an expired session gets
``非法请求，请返回重试！``; post forms carry ``_hexie`` set by inline JS (not enforced, as on the
real site). Ajax answers are ``<ajax><![CDATA[…]]></ajax>``; a reply answers
``success\\tread.php?tid=T&ds=1&page=e#a`` without the new pid. Pages can be served in GBK.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections import Counter
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

from shenshi.adapters.phpwind import PhpwindAdapter
from shenshi.adapters.sandbox import bbcode
from shenshi.adapters.sandbox.server import Request, Response, set_cookie, template_environment
from shenshi.adapters.sandbox.state import (
    GROUP_TITLES,
    ForumRefusal,
    SandboxForum,
    StoredPost,
    Thread,
    User,
)
from shenshi.adapters.sandbox.timefmt import local, phpwind_absolute, phpwind_relative

FACTS = PhpwindAdapter  # the engine facts the sandbox imitates
POSTS_PER_PAGE = FACTS.posts_per_page
FLOOD_STATED = int(FACTS.flood_interval) - 1  # "在5秒内": the 5th second included, so 6 apart
POST_BYTES = f"{FACTS.min_post_bytes}-{FACTS.max_post_bytes}"
SHOWS_SECONDS = FACTS.time_precision.shows_seconds
THREADS_PER_PAGE = 20
PMS_PER_PAGE = 20
FLOOR_NAMES = {0: "楼主", 1: "沙发", 2: "板凳", 3: "地板"}

MESSAGES = {
    "flood": f"灌水预防机制已经打开，在{FLOOD_STATED}秒内不能发帖",
    "too_short": f'内容长度错误(请控制在  <font color="red">{POST_BYTES}</font> 字节)',
    "too_long": f'内容长度错误(请控制在  <font color="red">{POST_BYTES}</font> 字节)',
    "newbie": "您所在的用户组暂时不能发帖",
    "bad_verify": "非法请求，请返回重试！",
    "bad_tid": "帖子ID非法",
    "missing": "读取数据错误,原因：您要访问的链接无效,可能链接不完整,或数据已被删除！",
    "no_space": "您访问的空间不存在!",
    "no_edit": "您无权限编辑别人的帖子",
    "captcha": "认证码不正确或已过期",
    "login_failed": "用户名或密码错误,您还可以尝试 5 次",
    "login_ok": "您已经顺利登录",
    "logout_ok": "状态：您已经顺利退出网站",
    "posted": "[ 发帖完毕点击进入主题列表 ]",
    "closed": "网站升级中，请稍后访问",  # phpwind's install default for db_whybbsclose
    "empty_title": "标题不能为空",
    "own_box_full": "你已超过每日发送消息数或你的消息总数已满",  # the sender's daily limit, or his box
}
LOGIN_REASONS = {
    "reply": ["1、用户组权限：你所属的用户组没有发表回复的权限！", "2、您还不是站点会员,请先登录站点"],
    "post": ["1、用户组权限：你所属的用户组没有发表主题的权限！", "2、您还不是站点会员,请先登录站点"],
    "pm": ["1、您还没有登录或注册，暂时不能使用此功能！", "2、您还不是站点会员,请先登录站点"],
}


class PhpwindSite:
    """Answers phpwind 8.7 URLs from the forum's state."""

    def __init__(self, forum: SandboxForum) -> None:
        self.forum = forum
        self.charset = forum.charset
        self.env = template_environment()
        self.cookiepre = hashlib.md5(forum.site_key.encode()).hexdigest()[:5] + "_"

    # ------------------------------------------------------------------ plumbing
    def handle(self, request: Request) -> Response:
        ctx = _Ctx(self, request)
        response = self._route(ctx, request.path.lstrip("/"))
        response.cookies[:0] = ctx.cookies
        return response

    def _route(self, ctx: _Ctx, path: str) -> Response:
        req = ctx.req
        if path == "login.php":
            if req.arg("action") == "quit":
                return self._logout(ctx)
            if req.method == "POST" and req.arg("step") == "2":
                return self._login(ctx)
            if ctx.me is not None:  # the real site sends a member back to the index
                return Response().redirect(f"{self.forum.base_url}index.php", 302)
            return self._page(ctx, "login.html", "登录", captcha=self.forum.faults.captcha_login)
        if path in ("", "index.php"):
            return self._page(ctx, "index.html", "首页",
                              boards=sorted(self.forum.boards.values(), key=lambda b: b.fid))
        if path == "thread.php":
            return self._thread_list(ctx)
        if path == "read.php":
            return self._read(ctx)
        if path == "job.php" and req.arg("action") == "topost":
            return self._topost(ctx)
        if path == "post.php":
            if req.method == "POST" and req.arg("step") == "2":
                return self._submit_post(ctx)
            return self._post_form(ctx)
        if path == "message.php":
            return self._message_center(ctx)
        if path == "u.php":
            return self._profile(ctx)
        return self._message(ctx, MESSAGES["missing"])

    def closed_page(self, request: Request) -> Response:
        """The closed-site 提示信息 page (db_whybbsclose)."""
        return self._message(_Ctx(self, request), MESSAGES["closed"])

    def verify(self, ctx: _Ctx) -> str:
        """``md5(uid + site + User-Agent)[8:16]``: bound to the login and the User-Agent."""
        uid = ctx.me.uid if ctx.me else 0
        seed = f"{uid}{self.forum.site_key}{ctx.req.user_agent}"
        return hashlib.md5(seed.encode()).hexdigest()[8:16]

    def _site_root(self) -> str:
        return self.forum.base_url.rstrip("/")

    # ------------------------------------------------------------------ rendering helpers
    def _page(self, ctx: _Ctx, template: str, title: str, **values: Any) -> Response:
        html = self.env.get_template(f"phpwind/{template}").render({**ctx.common(title), **values})
        return Response(html, 200, self._html_type())

    def _html_type(self) -> str:
        """The HTML Content-Type: ``charset=UTF-8`` on a UTF-8 forum; a GBK forum names no
        charset in the header (its pages say ``<meta charset="gbk" />``), as the real GBK 8.7."""
        return "text/html; charset=UTF-8" if self.charset == "utf-8" else "text/html"

    def _message(self, ctx: _Ctx, text: str, *, kind: str = "error", location: str = "",
                 refresh: str = "", reasons: list[str] | None = None) -> Response:
        """The 提示信息 page (``p.f14.mb10``)."""
        html = self.env.get_template("phpwind/message.html").render(
            **ctx.common("提示信息"), message=text, kind=kind, location=location, refresh=refresh,
            reasons=reasons or [],
        )
        return Response(html, 200, self._html_type())

    def _ajax(self, text: str) -> Response:
        label = "utf-8" if self.charset == "utf-8" else "gbk"
        body = f'<?xml version="1.0" encoding="{label}"?><ajax><![CDATA[{text}]]></ajax>'
        return Response(body, 200, f"text/xml;charset={label}")

    def _ajax_json(self, ok: bool | None, message: str) -> Response:
        return self._ajax(json.dumps({"bool": ok, "message": message}, ensure_ascii=False,
                                     separators=(",", ":")))

    def _time(self, moment: datetime) -> tuple[str, str]:
        """(title, text) of a post time: ``2026-11-24 03:01:59`` and ``11-24``/``8小时前``."""
        absolute = phpwind_absolute(moment, seconds=SHOWS_SECONDS("post"))
        return absolute, phpwind_relative(moment, self.forum.now())

    # ------------------------------------------------------------------ login
    def _login(self, ctx: _Ctx) -> Response:
        req = ctx.req
        if self.forum.faults.captcha_login and req.arg("gdcode").upper() != self.forum.faults.captcha_answer:
            return self._message(ctx, MESSAGES["captcha"])
        lifetime = req.int_arg("cktime", 0)
        name = req.arg("pwuser")
        if req.arg("lgt") == "1":  # log in by uid
            user = self.forum.users.get(req.int_arg("pwuser"))
            name = user.name if user else ""
        session = self.forum.login(name, req.arg("pwpwd"),
                                   lifetime=timedelta(seconds=lifetime) if lifetime > 0 else None,
                                   user_agent=req.user_agent)
        if session is None:
            return self._message(ctx, MESSAGES["login_failed"])
        ctx.login(session.token, lifetime)
        jump = req.arg("jumpurl") or f"{self._site_root()}/index.php"
        return self._message(ctx, MESSAGES["login_ok"], kind="right", location=jump, refresh=jump)

    def _logout(self, ctx: _Ctx) -> Response:
        if ctx.me and ctx.req.arg("verify") == self.verify(ctx):
            self.forum.logout(ctx.token)
            ctx.logout()
            ctx.me = None
        return self._message(ctx, MESSAGES["logout_ok"], kind="right",
                             location=f"{self._site_root()}/index.php")

    # ------------------------------------------------------------------ reading
    def _thread_list(self, ctx: _Ctx) -> Response:
        fid = ctx.req.int_arg("fid")
        board = self.forum.boards.get(fid)
        if board is None:
            return self._message(ctx, MESSAGES["missing"])
        threads = self.forum.board_threads(fid)
        pages = max(1, -(-len(threads) // THREADS_PER_PAGE))
        page = min(max(ctx.req.int_arg("page", 1), 1), pages)
        now = self.forum.now()
        rows = []
        for thread in threads[(page - 1) * THREADS_PER_PAGE: page * THREADS_PER_PAGE]:
            last = self.forum.last_post(thread.tid)
            lastposter = self.forum.users[last.author_uid].name
            rows.append({
                "tid": thread.tid, "subject": thread.subject,
                "author": self.forum.users[thread.author_uid],
                "created": f"{local(thread.created_at):%Y-%m-%d}",
                "today": local(thread.created_at).date() == local(now).date(),
                "replies": self.forum.reply_count(thread.tid), "views": thread.views,
                "lastposter": lastposter, "lastposter_q": quote(lastposter),
                "lastpost_title": phpwind_absolute(last.posted_at, seconds=SHOWS_SECONDS("board")),
                "lastpost_text": phpwind_relative(last.posted_at, now),
                "pages": self.forum.page_count(thread.tid),
            })
        return self._page(ctx, "thread.html", board.name, board=board, rows=rows,
                          pages_html=numofpage(f"thread.php?fid={fid}&", page, pages))

    def _read(self, ctx: _Ctx) -> Response:
        req = ctx.req
        tid = req.int_arg("tid")
        if tid <= 0 or tid not in self.forum.threads:
            return self._message(ctx, MESSAGES["bad_tid"])
        try:
            thread = self.forum.thread(tid)
        except KeyError:
            return self._message(ctx, MESSAGES["missing"])
        posts = self.forum.visible_posts(tid)
        if req.int_arg("uid"):
            posts = [p for p in posts if p.author_uid == req.int_arg("uid")]
        if req.arg("ordertype") == "desc":
            posts = posts[::-1]
        pages = max(1, -(-len(posts) // POSTS_PER_PAGE))
        page = pages if req.arg("page") == "e" else min(max(req.int_arg("page", 1), 1), pages)
        with self.forum.locked():
            thread.views += 1
        counts = Counter(p.author_uid for p in self.forum.posts.values() if not p.deleted)
        start = (page - 1) * POSTS_PER_PAGE
        shown = [self._floor(thread, post, start + i, counts)
                 for i, post in enumerate(posts[start: start + POSTS_PER_PAGE])]
        board = self.forum.boards[thread.fid]
        return self._page(
            ctx, "read.html", f"{thread.subject}|{board.name}", thread=thread, board=board,
            posts=shown, page=page, replies=self.forum.reply_count(tid),
            pages_html=numofpage(f"read.php?tid={tid}&", page, pages), hexie=_hex(8),
            captcha=self.forum.faults.captcha_post,
        )

    def _floor(self, thread: Thread, post: StoredPost, lou: int, counts: Counter) -> dict[str, Any]:
        author = self.forum.users[post.author_uid]
        title, text = self._time(post.posted_at)
        mark = None
        if post.edited_at is not None and post.edited_by is not None:
            editor = self.forum.users[post.edited_by].name
            mark = {"by": editor, "at": phpwind_absolute(post.edited_at, seconds=SHOWS_SECONDS("edit"))}
        if post.first:
            lou = 0
        return {
            "pid": "tpc" if post.first else post.pid, "first": post.first, "author": author,
            "index": lou % POSTS_PER_PAGE,
            "lou": lou, "floor_name": FLOOR_NAMES.get(lou, f"{lou}楼"),
            "reply_label": "楼主" if lou == 0 else f"{lou}楼",
            "time_title": title, "time_text": text, "subject": post.subject,
            "html": bbcode.phpwind_html(post.text, self._site_root()), "edit_mark": mark,
            "group": GROUP_TITLES[author.group], "posts": counts[author.uid],
        }

    def _topost(self, ctx: _Ctx) -> Response:
        tid = ctx.req.int_arg("tid")
        raw_pid = ctx.req.arg("pid")
        try:
            thread = self.forum.thread(tid)
        except KeyError:
            return self._message(ctx, MESSAGES["missing"])
        pid = thread.pids[0] if raw_pid == "tpc" else ctx.req.int_arg("pid")
        post = self.forum.posts.get(pid)
        if post is None or post.deleted or post.tid != tid:
            return self._message(ctx, MESSAGES["missing"])
        anchor = "tpc" if post.first else str(pid)
        return Response().redirect(f"read.php?tid={tid}&ds=1&page={self.forum.page_of(pid)}#{anchor}", 302)

    def _profile(self, ctx: _Ctx) -> Response:
        req = ctx.req
        user: User | None
        if req.has("username"):
            user = self.forum.find_user(req.arg("username"))
        else:
            user = self.forum.users.get(req.int_arg("uid") or (ctx.me.uid if ctx.me else 0))
        if user is None:
            return self._message(ctx, MESSAGES["no_space"])
        posts = sum(1 for p in self.forum.posts.values() if p.author_uid == user.uid and not p.deleted)
        return self._page(ctx, "profile.html", f"{user.name}的个人主页", user=user, posts=posts,
                          group=GROUP_TITLES[user.group],
                          registered=f"{local(user.registered_at or self.forum.now()):%Y-%m-%d}")

    # ------------------------------------------------------------------ posting
    def _post_form(self, ctx: _Ctx) -> Response:
        req = ctx.req
        action = req.arg("action") or "new"
        fid = req.int_arg("fid")
        board = self.forum.boards.get(fid)
        if board is None:
            return self._message(ctx, MESSAGES["missing"])
        if ctx.me is None:
            return self._message(ctx, "", kind="login", reasons=LOGIN_REASONS["post" if action == "new" else "reply"],
                                 location=self._site_root() + "/" + req.path.lstrip("/"))
        thread = None
        content = title = ""
        pid: str | int = ""
        article = req.arg("article")
        if action != "new":
            try:
                thread = self.forum.thread(req.int_arg("tid"))
            except KeyError:
                return self._message(ctx, MESSAGES["missing"])
            title = f"Re:{thread.subject}"
        if action == "quote":
            quoted = self._post_by_ref(thread, req.arg("pid"))
            if quoted is None:
                return self._message(ctx, MESSAGES["missing"])
            author = self.forum.users[quoted.author_uid].name
            content = bbcode.phpwind_quote_bbcode(author, "tpc" if quoted.first else quoted.pid,
                                                  quoted.tid, bbcode.strip_bbcode(quoted.text)[:200],
                                                  self._site_root())
            pid = req.arg("pid")  # the form keeps action=quote, pid and article (reply_form_with_quote.html)
        elif action == "modify":
            post = self._post_by_ref(thread, req.arg("pid"))
            if post is None:
                return self._message(ctx, MESSAGES["missing"])
            if post.author_uid != ctx.me.uid and not ctx.me.is_admin:
                return self._message(ctx, MESSAGES["no_edit"])
            content, title, pid = post.text, post.subject, req.arg("pid")
        return self._page(ctx, "reply_form.html", "发帖", board=board, thread=thread, action=action,
                          content=content, title_value=title, pid=pid, article=article,
                          hexie=_hex(8), captcha=self.forum.faults.captcha_post)

    def _post_by_ref(self, thread: Thread | None, ref: str) -> StoredPost | None:
        if thread is None:
            return None
        if ref == "tpc":
            return self.forum.posts[thread.pids[0]]
        post = self.forum.posts.get(int(ref)) if ref.isdigit() else None
        return post if post is not None and post.tid == thread.tid and not post.deleted else None

    def _submit_post(self, ctx: _Ctx) -> Response:
        req = ctx.req
        ajax = bool(req.arg("ajax"))
        action = req.arg("action") or "new"

        def refuse(text: str) -> Response:
            return self._ajax(text) if ajax else self._message(ctx, text)

        if req.arg("verify") != self.verify(ctx):
            return refuse(MESSAGES["bad_verify"])
        if ctx.me is None:
            return self._message(ctx, "", kind="login", reasons=LOGIN_REASONS["reply"])
        if self.forum.faults.captcha_post and req.arg("gdcode").upper() != self.forum.faults.captcha_answer:
            return refuse(MESSAGES["captcha"])
        fid = req.int_arg("fid")
        if fid not in self.forum.boards:
            return refuse(MESSAGES["missing"])
        content = req.arg("atc_content")
        title = req.arg("atc_title").strip()
        if action == "modify":
            return self._submit_edit(ctx, refuse, content)
        with self.forum.locked():
            try:
                self.forum.check_post_allowed(ctx.me, content)
            except ForumRefusal as error:
                return refuse(MESSAGES[error.code])
            if action == "new":
                if not title:
                    return refuse(MESSAGES["empty_title"])
                thread = self.forum.create_thread(ctx.me, fid, title, content)
                target = f"read.php?tid={thread.tid}&ds=1"
            else:
                try:
                    thread = self.forum.thread(req.int_arg("tid"))
                except KeyError:
                    return refuse(MESSAGES["missing"])
                subject = "" if title.startswith("Re:") else title
                self.forum.post(ctx.me, thread.tid, content, subject=subject)
                target = f"read.php?tid={thread.tid}&ds=1&page=e#a"
        if ajax:
            return self._ajax(f"success\t{target}")
        return self._message(ctx, f"<a href=thread.php?fid={fid}>{MESSAGES['posted']}</a>", kind="right",
                             location=target, refresh=target)

    def _submit_edit(self, ctx: _Ctx, refuse: Any, content: str) -> Response:
        req = ctx.req
        assert ctx.me is not None
        try:
            thread = self.forum.thread(req.int_arg("tid"))
        except KeyError:
            return refuse(MESSAGES["missing"])
        post = self._post_by_ref(thread, req.arg("pid"))
        if post is None:
            return refuse(MESSAGES["missing"])
        if post.author_uid != ctx.me.uid and not ctx.me.is_admin:
            return refuse(MESSAGES["no_edit"])
        size = len(content.encode(self.charset, errors="replace"))
        if not FACTS.min_post_bytes <= size <= FACTS.max_post_bytes:
            return refuse(MESSAGES["too_short"])
        self.forum.edit_post(post.pid, content, by=ctx.me)
        anchor = "tpc" if post.first else str(post.pid)
        target = f"read.php?tid={thread.tid}&ds=1&page={self.forum.page_of(post.pid)}&toread=1#{anchor}"
        return self._ajax(f"success\t{target}") if req.arg("ajax") else self._message(
            ctx, MESSAGES["posted"], kind="right", location=target)

    # ------------------------------------------------------------------ private messages
    def _message_center(self, ctx: _Ctx) -> Response:
        req = ctx.req
        kind, action = req.arg("type"), req.arg("action")
        if kind == "ajax":
            return self._pm_ajax(ctx, action)
        if ctx.me is None:
            return self._message(ctx, "", kind="login", reasons=LOGIN_REASONS["pm"])
        if kind == "post":
            return self._page(ctx, "pm_compose.html", "写消息", to_name=req.arg("username"))
        if kind == "clear":  # 消息清理: the box's figures (actions/message/ms_clear.php)
            return self._page(ctx, "pm_clear.html", "消息中心", tip=self._box_tip(ctx.me))
        if action == "info":
            return self._pm_view(ctx)
        box = "outbox" if action == "outbox" else "inbox"
        return self._pm_list(ctx, box, only_unread=action == "unread")

    def _pm_rows(self, ctx: _Ctx, box: str, only_unread: bool = False) -> list[dict[str, Any]]:
        """The inbox (or outbox) rows, newest first: one per relation, as phpwind keeps them.

        A conversation's own row shows its first message; a reply written inside it (回复) is a
        row of its own in the recipient's inbox, "RE:" + the subject, showing that reply. Each
        row opens the whole conversation.
        """
        assert ctx.me is not None
        me = ctx.me
        now = self.forum.now()
        rows = []
        for conversation in self.forum.conversations_of(me):
            messages = {m.mid: m for m in self.forum.conversation_messages(conversation.cid)}
            for rid, mid in conversation.rows_of(me.uid):
                message = messages[mid]
                first = mid == conversation.mids[0]
                if (box == "outbox") != (message.sender_uid == me.uid) or (box == "outbox" and not first):
                    continue
                unread = box == "inbox" and rid in conversation.unread_rows
                if only_unread and not unread:
                    continue
                rows.append({
                    "rid": rid, "mid": mid, "partner": self.forum.users[conversation.partner_of(me.uid)],
                    "unread": unread, "subject": conversation.subject if first else f"RE:{conversation.subject}",
                    "preview": bbcode.strip_bbcode(message.text)[:100],
                    "time_title": phpwind_absolute(message.sent_at, seconds=SHOWS_SECONDS("pm")),
                    "time_text": phpwind_relative(message.sent_at, now), "at": message.sent_at,
                })
        rows.sort(key=lambda r: (r["at"], r["rid"]), reverse=True)
        return rows

    def _pm_list(self, ctx: _Ctx, box: str, only_unread: bool) -> Response:
        rows = self._pm_rows(ctx, box, only_unread)
        pages = max(1, -(-len(rows) // PMS_PER_PAGE))
        page = min(max(ctx.req.int_arg("page", 1), 1), pages)
        rows = rows[(page - 1) * PMS_PER_PAGE: page * PMS_PER_PAGE]
        today = local(self.forum.now()).date()
        groups: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            day = local(row["at"]).date()
            label = "今天" if day == today else "昨天" if day == today - timedelta(days=1) else "更早"
            groups.setdefault(label, []).append(row)
        action = "outbox" if box == "outbox" else "unread" if only_unread else "inbox"
        return self._page(ctx, "pm_inbox.html", "消息中心", box=box, action=action,
                          groups=[{"label": k, "rows": v} for k, v in groups.items()],
                          total=len(self._pm_rows(ctx, "inbox")),
                          pages_html=numofpage(f"message.php?type=sms&action={action}&", page, pages))

    def _pm_view(self, ctx: _Ctx) -> Response:
        """A conversation, opened from any of its inbox rows (which alone is then read): the first
        message as a full row, each reply as the pair ``tr#sms_0_N`` (collapsed) and
        ``tr#sms_1_N`` (expanded), as the real 8.7 renders replies written with 回复."""
        assert ctx.me is not None
        rid = ctx.req.int_arg("rid")
        found = self.forum.conversation_by_rid(rid)
        if found is None or found[1] != ctx.me.uid:
            return self._message(ctx, MESSAGES["missing"])
        conversation, _ = found
        self.forum.mark_row_read(rid)
        now = self.forum.now()
        rows = []
        for message in self.forum.conversation_messages(conversation.cid):
            html = bbcode.phpwind_html(message.text, self._site_root())
            rows.append({
                "mid": message.mid, "sender": self.forum.users[message.sender_uid],
                "from_me": message.sender_uid == ctx.me.uid,
                "time_title": phpwind_absolute(message.sent_at, seconds=SHOWS_SECONDS("pm")),
                "time_text": phpwind_relative(message.sent_at, now), "html": html,
                "preview": bbcode.strip_bbcode(message.text)[:100],
            })
        return self._page(ctx, "pm_view.html", "消息中心", rows=rows, subject=conversation.subject,
                          partner=self.forum.users[conversation.partner_of(ctx.me.uid)], rid=rid,
                          parent_mid=conversation.mids[0], total=len(self._pm_rows(ctx, "inbox")))

    def _pm_ajax(self, ctx: _Ctx, action: str) -> Response:
        req = ctx.req
        if ctx.me is None:
            return self._ajax_json(None, "你还没有登录")
        if req.arg("verify") != self.verify(ctx):
            return self._ajax(MESSAGES["bad_verify"])
        if action == "mark":
            for rid in req.form.get("rids[]", []) + req.query.get("rids[]", []):
                found = self.forum.conversation_by_rid(int(rid)) if rid.isdigit() else None
                if found and found[1] == ctx.me.uid:
                    self.forum.mark_row_read(int(rid))
            return self._ajax("标记已读操作成功!")
        if action == "postReply":
            found = self.forum.conversation_by_rid(req.int_arg("rid"))
            content = req.arg("atc_content").strip()
            if found is None or found[1] != ctx.me.uid:
                return self._ajax_json(False, "消息不存在")
            if not content:
                return self._ajax_json(False, "内容不能为空")
            self.forum.reply_pm(ctx.me, found[0].cid, content)
            return self._ajax_json(True, "消息已发送")
        if action == "post":
            names = [n.strip() for n in req.form.get("_usernames[]", []) + req.query.get("_usernames[]", [])
                     if n.strip()]
            if not names:
                return self._ajax_json(False, "收件人不能为空")
            recipients = [self.forum.find_user(n) for n in names]
            if any(r is None for r in recipients):
                return self._ajax_json(False, "用户不存在")
            if any(r.uid == ctx.me.uid for r in recipients if r):
                return self._ajax_json(False, "你不能给自己发消息")
            if self._box_refuses(ctx.me):  # the sender's own box and daily limit come first
                return self._ajax_json(False, MESSAGES["own_box_full"])
            full = next((r for r in recipients if r and r.pm_box and self.forum.pm_count(r) >= r.pm_box), None)
            if full is not None:
                return self._ajax_json(False, f"{full.name}消息数已满,不能接收你的消息")
            title, content = req.arg("atc_title").strip(), req.arg("atc_content").strip()
            if not title:
                return self._ajax_json(False, "标题不能为空")
            if not content:
                return self._ajax_json(False, "内容不能为空")
            for recipient in recipients:
                assert recipient is not None
                self.forum.send_pm(ctx.me, recipient, content, subject=title)
            return self._ajax_json(True, "消息已发送")
        return self._ajax_json(False, "非法操作")


    def _box_refuses(self, me: Any) -> bool:
        """phpwind's ``_checkUserLevle``: the daily limit, then the sender's own box (his sent
        PMs count in it); one ambiguous message for both."""
        today = local(self.forum.now()).replace(hour=0, minute=0, second=0, microsecond=0)
        if me.pm_daily and self.forum.pms_sent_since(me, today) >= me.pm_daily:
            return True
        return bool(me.pm_box and self.forum.pm_count(me) >= me.pm_box)

    def _box_tip(self, me: Any) -> str:
        """The clean-up page's line (ms_clear.php): messages, the daily limit, the box, its use."""
        total = self.forum.pm_count(me)
        tip = f"您目前有消息{total}条,每日可发送消息{me.pm_daily or 20}条"
        if me.pm_box:
            used = round(total / me.pm_box, 4) * 100
            tip += f",最多可存消息{me.pm_box}条,空间使用率{'100' if used >= 100 else f'{used:g}'}%"
        return tip


class _Ctx:
    """Per-request context: who is logged in, the cookies to set."""

    def __init__(self, site: PhpwindSite, request: Request) -> None:
        self.site = site
        self.req = request
        self.cookies: list[str] = []
        self.now = site.forum.now()
        self.token = request.cookies.get(site.cookiepre + "winduser", "")
        self.me = site.forum.session_user(self.token)
        stamp = int(self.now.timestamp())
        self._set("lastvisit", f"0%09{stamp}%09{quote(request.path, safe='')}", 31536000)

    def _set(self, name: str, value: str, max_age: int | None, http_only: bool = False) -> None:
        self.cookies.append(set_cookie(self.site.cookiepre + name, value, self.now, max_age,
                                       http_only=http_only, phpwind=True))

    def login(self, token: str, lifetime: int) -> None:
        self.token = token
        self.me = self.site.forum.session_user(token)
        self._set("winduser", quote(token, safe=""), lifetime or None, http_only=True)
        self._set("ck_info", "%2F%09", lifetime or None)

    def logout(self) -> None:
        self._set("winduser", "deleted", 0)
        self._set("ck_info", "deleted", 0)

    def common(self, title: str) -> dict[str, Any]:
        forum = self.site.forum
        return {
            "title": title, "site_url": forum.base_url, "site_root": self.site._site_root(),
            "me": self.me, "verify": self.site.verify(self), "charset": self.site.charset,
            "groupid": "8" if self.me else "guest",
            "newpm": forum.unread_count(self.me) if self.me else 0,
            "page_url": forum.base_url + self.req.path.lstrip("/"),
            "now_text": f"{local(self.now):%m-%d %H:%M}", "posttime": int(self.now.timestamp()),
        }


def numofpage(url: str, page: int, pages: int, window: int = 7) -> str:
    """phpwind's ``div.pages``: ``<b>current</b>`` among page links (empty for one page)."""
    if pages <= 1:
        return ""
    first = max(1, min(page - window // 2, pages - window + 1))
    last = min(pages, first + window - 1)
    parts = ['<div class="pages">']
    if first > 1:
        parts.append(f'<a href="{url}page=1">1..</a>')
    for n in range(first, last + 1):
        parts.append(f"<b>{n}</b>" if n == page else f'<a href="{url}page={n}">{n}</a>')
    if last < pages:
        parts.append(f'<a href="{url}page={pages}">..{pages}</a>')
    parts.append("</div>")
    return "".join(parts)


def _hex(n: int) -> str:
    return secrets.token_hex(n // 2)
