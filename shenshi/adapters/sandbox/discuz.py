"""Discuz! X3.5 wire format over a :class:`~.state.SandboxForum` (FORUMS.md, captured flows).

Cookies ``{pre}saltkey``/``{pre}auth``/``{pre}sid``/``{pre}lastact`` with ``pre`` =
``cookiepre + md5(path|domain)[:4] + '_'``; the formhash is bound to the saltkey and the user, so a
stale one after a session expired gets the 503 "非法字符" System Error page. Pages come from the
templates under ``templates/discuz/`` (derived from the captures); the mobile JSON API
(``api/mobile/index.php?version=4``) answers with the captured shapes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
from collections import Counter
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

from shenshi.adapters.discuz import DiscuzAdapter
from shenshi.adapters.sandbox import bbcode
from shenshi.adapters.sandbox.server import Request, Response, set_cookie, template_environment
from shenshi.adapters.sandbox.state import (
    FORUM_TZ,
    GROUP_TITLES,
    ForumRefusal,
    SandboxForum,
    StoredPost,
    Thread,
    User,
)
from shenshi.adapters.sandbox.timefmt import (
    discuz_absolute,
    discuz_relative,
    discuz_time,
    discuz_time_text,
)

FACTS = DiscuzAdapter  # the engine facts the sandbox imitates
POSTS_PER_PAGE = FACTS.posts_per_page
FLOOD_SECONDS = int(FACTS.flood_interval)
SHOWS_SECONDS = FACTS.time_precision.shows_seconds
THREADS_PER_PAGE = 20
# home/space_pm.php: 15 conversations per inbox page (the captured mobile API says perpage 15);
# a conversation shows 10 messages a page (5 on the mobile API) and opens on its newest page.
PMS_PER_PAGE = 15
PM_VIEW_PER_PAGE = 10
PM_VIEW_PER_PAGE_MOBILE = 5
FLOOR_NAMES = {1: "楼主", 2: "沙发", 3: "板凳", 4: "地板"}
TAINTED = ('"', "'", "(", ")", "<", ">")

MESSAGES = {
    "flood": f"抱歉，您两次发表间隔少于 {FLOOD_SECONDS} 秒，请稍候再发表",
    "pm_flood": "两次发送短消息太快，请稍候再发送",
    "newbie": "抱歉，您目前处于见习期间，需要等待 2 分钟后才能进行本操作",
    "too_short": f"抱歉，您的帖子小于 {FACTS.min_post_bytes} 个字符的限制",
    "too_long": f"抱歉，您的帖子超过 {FACTS.max_post_bytes} 个字符的限制",
    "login_reply": "抱歉，您尚未登录，没有权限在该版块回帖",
    "login_post": "抱歉，您尚未登录，没有权限在该版块发帖",
    "login_pm": "请先登录后才能继续浏览",
    "login_generic": "您需要先登录才能继续本操作",
    "no_formhash": "抱歉，您的请求来路不正确或表单验证串不符，无法提交",
    "no_thread": "抱歉，指定的主题不存在或已被删除或正在被审核",
    "no_board": "抱歉，指定的版块不存在",
    "no_space": "抱歉，您指定的用户空间不存在",
    "no_edit": "抱歉，您没有权限编辑他人发表的帖子",
    "seccode": "抱歉，验证码填写错误",
    "pm_no_user": "抱歉，收件人不存在",
    "pm_self": "抱歉，您不能给自己发送短消息",
    "pm_empty": "抱歉，您需要输入短消息内容",
    "closed": '抱歉，本站点暂时关闭，详情请 <a href="mailto:admin@example.com">联系管理员</a>',
    "reply_ok": "非常感谢，回复发布成功，现在将转入主题页，请稍候……[ 点击这里转入主题列表 ]",
    "pm_ok": "操作成功 ",
}
MOBILE_CODES = {
    "flood": "post_flood_ctrl",
    "too_short": "post_message_tooshort",
    "too_long": "post_message_toolong",
    "newbie": "post_newbie_span",
    "pm_flood": "message_can_not_send_2",
    "seccode": "submit_seccode_invalid",
}


class DiscuzSite:
    """Answers Discuz! X3.5 URLs from the forum's state."""

    charset = "utf-8"

    def __init__(self, forum: SandboxForum) -> None:
        self.forum = forum
        self.env = template_environment()
        digest = hashlib.md5(forum.site_key.encode()).hexdigest()
        self.cookiepre = f"{digest[:4]}_2132_"  # cookiepre + md5("/|")[:4] + "_" on the real site

    # ------------------------------------------------------------------ plumbing
    def handle(self, request: Request) -> Response:
        ctx = _Ctx(self, request)
        path = request.path.lstrip("/")
        if path.startswith("api/mobile"):
            response = self._mobile(ctx)
        else:
            tainted = self._xss_check(ctx)
            response = tainted or self._route(ctx, path)
        response.cookies[:0] = ctx.cookies
        return response

    def _route(self, ctx: _Ctx, path: str) -> Response:
        req = ctx.req
        mod, action = req.arg("mod"), req.arg("action")
        if path == "member.php" and mod == "logging":
            if action == "logout":
                return self._logout(ctx)
            if req.arg("loginsubmit") == "yes" and req.method == "POST":
                return self._login(ctx)
            if ctx.me is not None:  # the real site: a member opening the login page is welcomed back
                return self._message(ctx, self._welcome(ctx.me), kind="welcome", location=self.forum.base_url + "./")
            return self._page(ctx, "login.html", "登录", loginhash=_token(5),
                              captcha=self.forum.faults.captcha_login, seccode_hash=_token(8))
        if path in ("forum.php", "", "index.php"):
            if mod == "viewthread":
                return self._viewthread(ctx)
            if mod == "forumdisplay":
                return self._forumdisplay(ctx)
            if mod == "redirect":
                return self._redirect(ctx)
            if mod == "post":
                return self._post(ctx)
            return self._index(ctx)
        if path == "home.php":
            if mod == "space" and req.arg("do") == "pm":
                return self._pm_view(ctx) if req.arg("subop") == "view" else self._pm_inbox(ctx)
            if mod == "space":
                return self._profile(ctx)
            if mod == "spacecp" and req.arg("ac") == "pm":
                return self._spacecp_pm(ctx)
        return self._message(ctx, "抱歉，您访问的页面不存在", status=404)

    def closed_page(self, request: Request) -> Response:
        """The closed-site message (board_closed), HTTP 200 as Discuz does."""
        ctx = _Ctx(self, request)
        return self._message(ctx, MESSAGES["closed"])

    # ------------------------------------------------------------------ anti-CSRF
    def formhash(self, ctx: _Ctx) -> str:
        """``md5(site key, saltkey, uid, username)[8:16]``: one value per login, as on the site."""
        me = ctx.me
        seed = f"{self.forum.site_key}|{ctx.saltkey}|{me.uid if me else 0}|{me.name if me else ''}"
        return hashlib.md5(seed.encode()).hexdigest()[8:16]

    def _xss_check(self, ctx: _Ctx) -> Response | None:
        req = ctx.req
        if req.has("formhash") and req.arg("formhash") != self.formhash(ctx):
            return self._system_error(ctx)
        if req.method == "POST" and not req.arg("formhash"):
            body = "".join(v for values in req.form.values() for v in values)
            if any(ch in body for ch in TAINTED):
                return self._system_error(ctx)
        return None

    def _system_error(self, ctx: _Ctx) -> Response:
        now = self.forum.now()
        html = self.env.get_template("discuz/system_error.html").render(
            host=ctx.req.headers.get("host", "127.0.0.1"),
            time_text=f"{now:%Y-%m-%d %H:%M:%S}",
            trace_id=secrets.token_hex(16),
        )
        return Response(html, 503)

    # ------------------------------------------------------------------ rendering helpers
    def _page(self, ctx: _Ctx, template: str, title: str, status: int = 200, **values: Any) -> Response:
        html = self.env.get_template(f"discuz/{template}").render({**ctx.common(title), **values})
        return Response(html, status)

    def _message(self, ctx: _Ctx, text: str, *, kind: str = "error", status: int = 200,
                 location: str = "") -> Response:
        """``showmessage``: ``div#messagetext`` page, or the inajax XML."""
        req = ctx.req
        if req.arg("inajax"):
            handle = req.arg("handlekey")
            extra = f"{{'floodctrl':'{FLOOD_SECONDS}'}}" if text == MESSAGES["flood"] else "{}"
            script = (f"<script type=\"text/javascript\" reload=\"1\">if(typeof errorhandle_{handle}=='function') "
                      f"{{errorhandle_{handle}('{text}', {extra});}}</script>")
            return _xml(f"{text}{script}")
        return self._page(ctx, "message.html", "提示信息", status=status, kind=kind, message=text,
                          location=location)

    def _post_view(self, ctx: _Ctx, thread: Thread, post: StoredPost, stats: dict[str, Counter],
                   page: int) -> dict[str, Any]:
        author = self.forum.users[post.author_uid]
        floor = post.position
        floor_html = FLOOR_NAMES.get(floor, f"<em>{floor}</em><sup>#</sup>")
        return {
            "pid": post.pid,
            "author": author,
            "first": post.first,
            "floor_html": floor_html,
            "time_html": discuz_time(post.posted_at, self.forum.now(), seconds=SHOWS_SECONDS("post")),
            "html": bbcode.discuz_html(post.text, self.forum.base_url),
            "threads": stats["threads"][author.uid],
            "replies": stats["replies"][author.uid],
            "credits": stats["threads"][author.uid] * 2 + stats["replies"][author.uid],
            "group": GROUP_TITLES[author.group],
        }

    def _author_stats(self) -> dict[str, Counter]:
        threads: Counter = Counter()
        replies: Counter = Counter()
        for post in self.forum.posts.values():
            if not post.deleted:
                (threads if post.first else replies)[post.author_uid] += 1
        return {"threads": threads, "replies": replies}

    # ------------------------------------------------------------------ login
    def _login(self, ctx: _Ctx) -> Response:
        req = ctx.req
        quick = bool(req.arg("lssubmit"))
        if self.forum.faults.captcha_login and req.arg("seccodeverify").upper() != self.forum.faults.captcha_answer:
            return self._message(ctx, MESSAGES["seccode"])
        if not quick and not req.arg("formhash"):
            return self._message(ctx, MESSAGES["no_formhash"])
        lifetime = req.int_arg("cookietime", 0)
        session = self.forum.login(req.arg("username"), req.arg("password"),
                                   lifetime=_seconds(lifetime), user_agent=req.user_agent)
        if session is None:
            return self._message(ctx, "登录失败，您还可以尝试 3 次")
        ctx.login(session.token, lifetime)
        user = self.forum.users[session.uid]
        referer = req.arg("referer") or self.forum.base_url + "forum.php"
        if quick:
            return _xml(f"<script type=\"text/javascript\" reload=\"1\">window.location.href='{self.forum.base_url}./';</script>")
        return self._message(ctx, self._welcome(user), kind="right", location=referer)

    @staticmethod
    def _welcome(user: User) -> str:
        return f"欢迎您回来，{GROUP_TITLES[user.group]} {user.name}，现在将转入登录前页面"

    def _logout(self, ctx: _Ctx) -> Response:
        self.forum.logout(ctx.token)
        ctx.me = None
        ctx.logout()
        return self._message(ctx, "您已退出站点，现在将以游客身份转入退出前页面，请稍候……", kind="right",
                             location=self.forum.base_url + "forum.php")

    # ------------------------------------------------------------------ reading
    def _index(self, ctx: _Ctx) -> Response:
        boards = sorted(self.forum.boards.values(), key=lambda b: b.fid)
        return self._page(ctx, "index.html", "论坛", boards=boards)

    def _forumdisplay(self, ctx: _Ctx) -> Response:
        fid = ctx.req.int_arg("fid")
        board = self.forum.boards.get(fid)
        if board is None:
            return self._message(ctx, MESSAGES["no_board"])
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
                "dateline_html": _discuz_list_date(thread.created_at, now),
                "replies": self.forum.reply_count(thread.tid), "views": thread.views,
                "lastposter": lastposter, "lastposter_q": quote(lastposter),
                "lastpost_html": discuz_time(last.posted_at, now, seconds=SHOWS_SECONDS("board")),
                "pages": self.forum.page_count(thread.tid),
            })
        today = now.astimezone(FORUM_TZ).date()
        today_posts = sum(1 for p in self.forum.posts.values()
                          if not p.deleted and p.posted_at.astimezone(FORUM_TZ).date() == today)
        pg = multipage(f"forum.php?mod=forumdisplay&fid={fid}&amp;", page, pages) if pages > 1 else ""
        return self._page(ctx, "forumdisplay.html", board.name, board=board, rows=rows, page=page,
                          pg_html=pg, thread_total=len(threads), today_posts=today_posts,
                          fid=fid, css="forum_forumdisplay", pg="forumdisplay")

    def _viewthread(self, ctx: _Ctx) -> Response:
        req = ctx.req
        try:
            thread = self.forum.thread(req.int_arg("tid"))
        except KeyError:
            return self._message(ctx, MESSAGES["no_thread"], status=404)
        posts = self.forum.visible_posts(thread.tid)
        authorid = req.int_arg("authorid")
        if authorid:
            posts = [p for p in posts if p.author_uid == authorid]
        if req.arg("ordertype") == "1" and posts:
            posts = posts[:1] + posts[1:][::-1] if posts[0].first else posts[::-1]
        pages = max(1, -(-len(posts) // POSTS_PER_PAGE))
        page = min(max(req.int_arg("page", 1), 1), pages)  # a too-large page shows the last page
        with self.forum.locked():
            thread.views += 1
        board = self.forum.boards[thread.fid]
        stats = self._author_stats()
        shown = [self._post_view(ctx, thread, p, stats, page)
                 for p in posts[(page - 1) * POSTS_PER_PAGE: page * POSTS_PER_PAGE]]
        if req.arg("viewpid"):
            pid = req.int_arg("viewpid")
            one = [p for p in shown if p["pid"] == pid] or [
                self._post_view(ctx, thread, self.forum.get_post(pid), stats, page)]
            html = self.env.get_template("discuz/post.html").render(
                p=one[0], thread=thread, page=page, **ctx.common(thread.subject))
            return _xml(html)
        mpurl = f"forum.php?mod=viewthread&tid={thread.tid}&amp;extra=page%3D1&amp;"
        return self._page(
            ctx, "viewthread.html", f"{thread.subject} - {board.name}", thread=thread, board=board,
            posts=shown, page=page, pages=pages, replies=self.forum.reply_count(thread.tid),
            pg_html=multipage(mpurl, page, pages), fid=board.fid, css="forum_viewthread",
            pg="viewthread", captcha=self.forum.faults.captcha_post, seccode_hash=_token(8),
        )

    def _redirect(self, ctx: _Ctx) -> Response:
        req = ctx.req
        goto = req.arg("goto")
        tid = req.int_arg("ptid") or req.int_arg("tid")
        try:
            thread = self.forum.thread(tid)
        except KeyError:
            return self._message(ctx, MESSAGES["no_thread"], status=404)
        if goto == "findpost":
            pid = req.int_arg("pid")
            post = self.forum.posts.get(pid)
            if post is None or post.deleted or post.tid != tid:
                return Response().redirect(f"forum.php?mod=viewthread&tid={tid}", 301)
            page = self.forum.page_of(pid)
            return Response().redirect(f"forum.php?mod=viewthread&tid={tid}&page={page}#pid{pid}", 301)
        if goto == "lastpost":
            page = self.forum.page_count(tid)
            return Response().redirect(f"forum.php?mod=viewthread&tid={tid}&page={page}#lastpost", 302)
        if req.has("postno"):
            number = req.int_arg("postno", 1)
            visible = self.forum.visible_posts(thread.tid)
            match = [p for p in visible if p.position == number] or visible[-1:]
            pid = match[0].pid
            page = self.forum.page_of(pid)
            return Response().redirect(f"forum.php?mod=viewthread&tid={tid}&page={page}#pid{pid}", 301)
        return Response().redirect(f"forum.php?mod=viewthread&tid={tid}", 301)

    def _profile(self, ctx: _Ctx) -> Response:
        req = ctx.req
        user: User | None
        if req.has("username"):
            user = self.forum.find_user(req.arg("username"))
        else:
            user = self.forum.users.get(req.int_arg("uid") or (ctx.me.uid if ctx.me else 0))
        if user is None:
            return self._message(ctx, MESSAGES["no_space"])
        stats = self._author_stats()
        registered = discuz_absolute(user.registered_at or self.forum.now(), seconds=False)
        if req.arg("inajax"):
            return _xml(f'<div class="card_gender_0"><div class="card_mn"><div class="c"><p class="pbn cl">'
                        f'<strong><a href="home.php?mod=space&amp;uid={user.uid}">{bbcode.escape(user.name)}</a></strong>'
                        f"</p></div></div></div>")
        return self._page(ctx, "profile.html", f"{user.name}的个人资料", user=user,
                          replies=stats["replies"][user.uid], threads=stats["threads"][user.uid],
                          group=GROUP_TITLES[user.group], registered=registered,
                          nv="home", pg="space", css="home_space")

    # ------------------------------------------------------------------ posting
    def _post(self, ctx: _Ctx) -> Response:
        req = ctx.req
        action = req.arg("action")
        if action == "reply":
            if req.arg("replysubmit") == "yes" and req.method == "POST":
                return self._submit_reply(ctx)
            return self._reply_form(ctx)
        if action == "newthread":
            if req.arg("topicsubmit") == "yes" and req.method == "POST":
                return self._submit_thread(ctx)
            if ctx.me is None:
                return self._message(ctx, MESSAGES["login_post"], kind="info")
            board = self.forum.boards.get(req.int_arg("fid"))
            if board is None:
                return self._message(ctx, MESSAGES["no_board"])
            return self._post_page(ctx, board, "发表帖子", f"forum.php?mod=post&action=newthread&fid={board.fid}&extra=&topicsubmit=yes")
        if action == "edit":
            return self._edit(ctx)
        return self._message(ctx, "抱歉，您访问的页面不存在", status=404)

    def _reply_form(self, ctx: _Ctx) -> Response:
        req = ctx.req
        try:
            thread = self.forum.thread(req.int_arg("tid"))
        except KeyError:
            return self._message(ctx, MESSAGES["no_thread"], status=404)
        if ctx.me is None:
            return self._message(ctx, MESSAGES["login_reply"], kind="info")
        trimstr = authormsg = quote_html = ""
        reppid = req.int_arg("repquote")
        if reppid and reppid in self.forum.posts:
            quoted = self.forum.posts[reppid]
            author = self.forum.users[quoted.author_uid].name
            authormsg = bbcode.strip_bbcode(quoted.text)[:200]
            stamp = discuz_absolute(quoted.posted_at, seconds=False)
            trimstr = bbcode.discuz_quote_bbcode(author, reppid, thread.tid, stamp, authormsg)
            quote_html = bbcode.discuz_html(trimstr, self.forum.base_url).replace("<br />\n", "<br />\n", 1)
        return self._page(
            ctx, "reply_form.html", "参与/回复主题", thread=thread, board=self.forum.boards[thread.fid],
            noticeauthor=_token(43) if reppid else "", noticetrimstr=trimstr,
            noticeauthormsg=authormsg, reppid=reppid or None, quote_html=quote_html,
            captcha=self.forum.faults.captcha_post, seccode_hash=_token(8),
            css="forum_post", pg="post", fid=thread.fid,
        )

    def _check_submit(self, ctx: _Ctx, login_message: str) -> Response | None:
        req = ctx.req
        if not req.arg("formhash"):
            return self._message(ctx, MESSAGES["no_formhash"])
        if ctx.me is None:
            return self._message(ctx, MESSAGES[login_message], kind="info")
        if self.forum.faults.captcha_post and req.arg("seccodeverify").upper() != self.forum.faults.captcha_answer:
            return self._message(ctx, MESSAGES["seccode"])
        return None

    def _submit_reply(self, ctx: _Ctx) -> Response:
        req = ctx.req
        try:
            thread = self.forum.thread(req.int_arg("tid"))
        except KeyError:
            return self._message(ctx, MESSAGES["no_thread"], status=404)
        refused = self._check_submit(ctx, "login_reply")
        if refused:
            return refused
        assert ctx.me is not None
        message = req.arg("message")
        with self.forum.locked():
            try:
                self.forum.check_post_allowed(ctx.me, message)
            except ForumRefusal as error:
                return self._message(ctx, MESSAGES[error.code])
            trimstr = req.arg("noticetrimstr")
            text = f"{trimstr}\n\n{message}" if trimstr else message
            post = self.forum.post(ctx.me, thread.tid, text, subject=req.arg("subject").strip())
        page = self.forum.page_of(post.pid)
        url = f"forum.php?mod=viewthread&tid={thread.tid}&pid={post.pid}&page={page}&extra=#pid{post.pid}"
        if req.arg("inajax"):
            handle = req.arg("handlekey") or "fastpost"
            values = f"{{'fid':'{thread.fid}','tid':'{thread.tid}','pid':'{post.pid}','from':'','sechash':''}}"
            return _xml(f"<script type=\"text/javascript\" reload=\"1\">if(typeof succeedhandle_{handle}=='function') "
                        f"{{succeedhandle_{handle}('{url}', '{MESSAGES['reply_ok']}', {values});}}</script>")
        return Response().redirect(url, 301)

    def _submit_thread(self, ctx: _Ctx) -> Response:
        req = ctx.req
        fid = req.int_arg("fid")
        if fid not in self.forum.boards:
            return self._message(ctx, MESSAGES["no_board"])
        refused = self._check_submit(ctx, "login_post")
        if refused:
            return refused
        assert ctx.me is not None
        subject, message = req.arg("subject").strip(), req.arg("message")
        if not subject:
            return self._message(ctx, "抱歉，您尚未输入标题或内容")
        with self.forum.locked():
            try:
                self.forum.check_post_allowed(ctx.me, message)
            except ForumRefusal as error:
                return self._message(ctx, MESSAGES[error.code])
            thread = self.forum.create_thread(ctx.me, fid, subject, message)
        return Response().redirect(f"forum.php?mod=viewthread&tid={thread.tid}&extra=", 301)

    def _edit(self, ctx: _Ctx) -> Response:
        req = ctx.req
        pid = req.int_arg("pid")
        post = self.forum.posts.get(pid)
        if post is None or post.deleted:
            return self._message(ctx, MESSAGES["no_thread"], status=404)
        if ctx.me is None:
            return self._message(ctx, MESSAGES["login_generic"], kind="info")
        if ctx.me.uid != post.author_uid and not ctx.me.is_admin:
            return self._message(ctx, MESSAGES["no_edit"])
        if req.arg("editsubmit") == "yes" and req.method == "POST":
            if not req.arg("formhash"):
                return self._message(ctx, MESSAGES["no_formhash"])
            self.forum.edit_post(pid, req.arg("message"), by=ctx.me)
            page = self.forum.page_of(pid)
            return Response().redirect(f"forum.php?mod=viewthread&tid={post.tid}&page={page}#pid{pid}", 301)
        thread = self.forum.thread(post.tid)
        text = re.sub(r"^\[i=s\][^\[]*\[/i\]\n*", "", post.text)  # the edit mark is not the author's
        return self._post_page(ctx, self.forum.boards[thread.fid], "编辑帖子",
                               "forum.php?mod=post&action=edit&extra=&editsubmit=yes",
                               thread=thread, post=post, message=text, page=self.forum.page_of(pid),
                               subject=post.subject)

    def _post_page(self, ctx: _Ctx, board: Any, heading: str, action_url: str, **values: Any) -> Response:
        """The full new-thread or edit page (``form#postform``, as the real X3.5 serves it)."""
        return self._page(ctx, "post_form.html", heading, board=board, heading=heading, action_url=action_url,
                          captcha=self.forum.faults.captcha_post, seccode_hash=_token(8), css="forum_post",
                          pg="post", fid=board.fid, **{"thread": None, "post": None, "message": "",
                                                       "subject": "", **values})

    # ------------------------------------------------------------------ private messages
    def _conversation_rows(self, ctx: _Ctx, only_new: bool) -> list[dict[str, Any]]:
        assert ctx.me is not None
        now = self.forum.now()
        rows = []
        for conversation in self.forum.conversations_of(ctx.me):
            unread = ctx.me.uid in conversation.unread
            if only_new and not unread:
                continue
            messages = self.forum.conversation_messages(conversation.cid)
            last = messages[-1]
            rows.append({
                "plid": conversation.cid,
                "partner": self.forum.users[conversation.partner_of(ctx.me.uid)],
                "unread": unread,
                "last": last,
                "last_from_me": last.sender_uid == ctx.me.uid,
                "summary_html": bbcode.discuz_html(bbcode.strip_bbcode(last.text), self.forum.base_url),
                "time_html": discuz_time(last.sent_at, now, seconds=SHOWS_SECONDS("pm")),
                "count": len(messages),
                "subject": conversation.subject,
            })
        return rows

    def _pm_inbox(self, ctx: _Ctx) -> Response:
        if ctx.me is None:
            return self._message(ctx, MESSAGES["login_pm"], kind="info")
        only_new = ctx.req.arg("filter") == "newpm"
        rows = self._conversation_rows(ctx, only_new=only_new)
        pages = max(1, -(-len(rows) // PMS_PER_PAGE))
        page = min(max(ctx.req.int_arg("page", 1), 1), pages)
        mpurl = f"home.php?mod=space&amp;do=pm&amp;filter={'newpm' if only_new else 'privatepm'}&amp;"
        pg = multipage(mpurl, page, pages) if pages > 1 else ""
        return self._page(ctx, "pm_inbox.html", ctx.me.name,
                          rows=rows[(page - 1) * PMS_PER_PAGE: page * PMS_PER_PAGE], pg_html=pg,
                          nv="home", pg="space", css="home_space")

    def _pm_view(self, ctx: _Ctx) -> Response:
        if ctx.me is None:
            return self._message(ctx, MESSAGES["login_pm"], kind="info")
        partner = self.forum.users.get(ctx.req.int_arg("touid"))
        if partner is None:
            return self._message(ctx, MESSAGES["no_space"])
        conversation = self.forum.conversation_with(ctx.me, partner)
        rows = []
        messages = self.forum.conversation_messages(conversation.cid) if conversation else []
        shown, page, pages = _newest_pages(messages, PM_VIEW_PER_PAGE, ctx.req.int_arg("page"))
        if conversation is not None:
            self.forum.mark_read(ctx.me, conversation.cid)  # opening it marks it read
            now = self.forum.now()
            for message in shown:
                rows.append({
                    "pmid": message.mid, "sender": self.forum.users[message.sender_uid],
                    "from_me": message.sender_uid == ctx.me.uid,
                    "html": bbcode.discuz_html(message.text, self.forum.base_url),
                    "time_html": discuz_time(message.sent_at, now, seconds=SHOWS_SECONDS("pm")),
                })
        mpurl = f"home.php?mod=space&amp;do=pm&amp;subop=view&amp;touid={partner.uid}"
        return self._page(ctx, "pm_view.html", ctx.me.name, rows=rows, partner=partner, total=len(messages),
                          plid=conversation.cid if conversation else 0, pg_html=pmmulti(mpurl, page, pages),
                          nv="home", pg="space", css="home_space")

    def _spacecp_pm(self, ctx: _Ctx) -> Response:
        req = ctx.req
        op = req.arg("op")
        if op == "checknewpm":
            return Response("", content_type="text/javascript;charset=UTF-8")
        if ctx.me is None:
            return self._message(ctx, MESSAGES["login_pm"], kind="info")
        if op == "send" and req.method == "POST":
            return self._send_pm(ctx)
        if op == "showmsg":
            partner = self.forum.users.get(req.int_arg("touid"))
            if partner is None:
                return self._message(ctx, MESSAGES["pm_no_user"])
            return _xml(self.env.get_template("discuz/pm_popup.xml").render(
                partner=partner, formhash=self.formhash(ctx), me=ctx.me))
        to_name = ""
        if req.int_arg("touid") in self.forum.users:
            to_name = self.forum.users[req.int_arg("touid")].name
        return self._page(ctx, "pm_send.html", "发送消息", to_name=to_name, nv="home", pg="spacecp",
                          css="home_spacecp")

    def _send_pm(self, ctx: _Ctx) -> Response:
        req = ctx.req
        assert ctx.me is not None
        if not req.arg("formhash"):
            return self._message(ctx, MESSAGES["no_formhash"])
        touid = req.int_arg("touid") or req.int_arg("topmuid")
        plid = req.int_arg("pmid")
        if not touid and plid in self.forum.conversations:
            touid = self.forum.conversations[plid].partner_of(ctx.me.uid)
        recipient = self.forum.users.get(touid) if touid else self.forum.find_user(req.arg("username"))
        message = req.arg("message").strip()
        if recipient is None:
            return self._message(ctx, MESSAGES["pm_no_user"])
        if recipient.uid == ctx.me.uid:
            return self._message(ctx, MESSAGES["pm_self"])
        if not message:
            return self._message(ctx, MESSAGES["pm_empty"])
        with self.forum.locked():
            try:
                self.forum.check_pm_allowed(ctx.me)
            except ForumRefusal as error:
                return self._message(ctx, MESSAGES[error.code])
            sent = self.forum.send_pm(ctx.me, recipient, message)
        if req.arg("inajax"):
            handle = req.arg("handlekey") or f"showmsg_{recipient.uid}"
            url = f"home.php?mod=space&do=pm&subop=view&touid={recipient.uid}"
            return _xml(f"<script type=\"text/javascript\" reload=\"1\">if(typeof succeedhandle_{handle}=='function') "
                        f"{{succeedhandle_{handle}('{url}', '{MESSAGES['pm_ok']}', {{'pmid':'{sent.mid}'}});}}</script>")
        return Response().redirect("home.php?mod=space&do=pm", 301)

    # ------------------------------------------------------------------ mobile JSON API
    def _mobile(self, ctx: _Ctx) -> Response:
        req = ctx.req
        module = req.arg("module")
        if module == "login":
            # this X3.5 build fatals after setting the cookies (missing wechat plugin)
            session = self.forum.login(req.arg("username"), req.arg("password"),
                                       lifetime=_seconds(2592000), user_agent=req.user_agent)
            if session is None:
                return self._json(ctx, {}, message="login_invalid")
            ctx.login(session.token, 2592000)
            return Response("", 503)
        if module == "checknewpm":
            return Response("", content_type="text/javascript;charset=UTF-8")
        tainted = self._xss_check(ctx)
        if tainted:
            return tainted
        handlers = {
            "viewthread": self._api_viewthread, "forumdisplay": self._api_forumdisplay,
            "mypm": self._api_mypm, "profile": self._api_profile,
            "sendreply": self._api_sendreply, "sendpm": self._api_sendpm,
        }
        handler = handlers.get(module)
        if handler is None:
            return self._json(ctx, {}, message="module_not_exists", status=404)
        return handler(ctx)

    def _json(self, ctx: _Ctx, variables: dict[str, Any], *, message: str | None = None,
              status: int = 200) -> Response:
        me = ctx.me
        base: dict[str, Any] = {
            "cookiepre": self.cookiepre,
            "auth": ctx.token if me else None,
            "saltkey": ctx.saltkey,
            "member_uid": str(me.uid if me else 0),
            "member_username": me.name if me else "",
            "member_avatar": f"{self.forum.base_url}uc_server/avatar.php?uid={me.uid if me else 0}&size=small&ts=1",
            "groupid": "10" if me else "7",
            "formhash": self.formhash(ctx),
            "ismoderator": None,
            "readaccess": "10" if me else "1",
            "notice": {"newpush": "0", "newpm": str(self.forum.unread_count(me) if me else 0),
                       "newprompt": "0", "newmypost": "0"},
        }
        body: dict[str, Any] = {"Version": "4", "Charset": "UTF-8", "Variables": {**base, **variables}}
        if message:
            body["Message"] = {"messageval": message, "messagestr": f"mobile:{message}"}
        return Response(json.dumps(body, ensure_ascii=False), status, "application/json")

    def _api_post(self, post: StoredPost, now: datetime) -> dict[str, Any]:
        author = self.forum.users[post.author_uid]
        return {
            "pid": str(post.pid), "tid": str(post.tid), "first": "1" if post.first else "0",
            "author": author.name, "authorid": str(author.uid),
            "dateline": discuz_time_text(post.posted_at, now, seconds=SHOWS_SECONDS("post")),
            "message": bbcode.discuz_mobile_html(post.text, self.forum.base_url, twice=True),
            "anonymous": "0", "attachment": "0", "status": "0", "replycredit": "0",
            "position": str(post.position), "username": author.name, "adminid": "0",
            "groupid": "10", "memberstatus": "0", "number": str(post.position),
            "dbdateline": str(int(post.posted_at.timestamp())), "groupiconid": "1",
        }

    def _api_viewthread(self, ctx: _Ctx) -> Response:
        req = ctx.req
        extra = {"allowpostcomment": ["1", "2"], "setting_rewriterule": "", "setting_rewritestatus": "",
                 "forum_threadpay": "", "cache_custominfo_postno": ["<sup>#</sup>", "楼主", "沙发", "板凳", "地板"],
                 "forum": {"password": "0"}}
        try:
            thread = self.forum.thread(req.int_arg("tid"))
        except KeyError:
            return self._json(ctx, {"thread": {"allreplies": "0", "lastpost": "1970-1-1 08:00",
                                               "ordertype": None, "recommend": "0"}, "fid": "0",
                                    "postlist": [], "comments": None, "commentcount": None,
                                    "ppp": str(POSTS_PER_PAGE), **extra},
                              message="thread_nonexistence", status=404)
        ppp = min(max(req.int_arg("ppp", POSTS_PER_PAGE), 1), 100)
        posts = self.forum.visible_posts(thread.tid)
        pages = max(1, -(-len(posts) // ppp))
        page = min(max(req.int_arg("page", 1), 1), pages)
        now = self.forum.now()
        last = posts[-1]
        author = self.forum.users[thread.author_uid]
        replies = str(len(posts) - 1)
        info = {
            "tid": str(thread.tid), "fid": str(thread.fid), "author": author.name,
            "authorid": str(author.uid), "subject": bbcode.escape(thread.subject),
            "dateline": str(int(thread.created_at.timestamp())),
            "lastpost": discuz_absolute(last.posted_at, seconds=SHOWS_SECONDS("board")),
            "lastposter": self.forum.users[last.author_uid].name, "views": str(thread.views),
            "replies": replies, "allreplies": replies, "maxposition": str(posts[-1].position),
            "closed": "0", "ordertype": "0", "recommend": "0",
        }
        postlist = [self._api_post(p, now) for p in posts[(page - 1) * ppp: page * ppp]]
        return self._json(ctx, {"thread": info, "fid": str(thread.fid), "postlist": postlist,
                                "comments": [], "commentcount": [], "ppp": str(ppp), **extra})

    def _api_forumdisplay(self, ctx: _Ctx) -> Response:
        fid = ctx.req.int_arg("fid")
        board = self.forum.boards.get(fid)
        if board is None:
            return self._json(ctx, {}, message="forum_nonexistence", status=404)
        now = self.forum.now()
        threads = self.forum.board_threads(fid)
        page = max(ctx.req.int_arg("page", 1), 1)
        listing = []
        for thread in threads[(page - 1) * THREADS_PER_PAGE: page * THREADS_PER_PAGE]:
            posts = self.forum.visible_posts(thread.tid)
            last = posts[-1]
            author = self.forum.users[thread.author_uid]
            listing.append({
                "tid": str(thread.tid), "typeid": "0", "readperm": "0", "price": "0",
                "author": author.name, "authorid": str(author.uid), "subject": bbcode.escape(thread.subject),
                "dateline": discuz_time_text(thread.created_at, now, seconds=SHOWS_SECONDS("board")),
                "lastpost": discuz_time_text(last.posted_at, now, seconds=SHOWS_SECONDS("board")),
                "lastposter": self.forum.users[last.author_uid].name, "views": str(thread.views),
                "replies": str(len(posts) - 1), "displayorder": "0", "digest": "0", "special": "0",
                "attachment": "0", "recommend_add": "0", "replycredit": "0",
                "dbdateline": str(int(thread.created_at.timestamp())),
                "dblastpost": str(int(last.posted_at.timestamp())), "rushreply": "0",
                "attachmentImageNumber": "0",
                "message": bbcode.escape(bbcode.strip_bbcode(posts[0].text)[:200]), "recommend": "0",
            })
        total_posts = sum(len(self.forum.visible_posts(t.tid)) for t in threads)
        return self._json(ctx, {
            "forum": {"fid": str(fid), "picstyle": "0", "fup": "1", "name": board.name,
                      "threads": str(len(threads)), "posts": str(total_posts), "autoclose": "0",
                      "threadcount": str(len(threads)), "password": "0"},
            "group": {"groupid": "10", "grouptitle": "新手上路"},
            "forum_threadlist": listing, "tpp": str(THREADS_PER_PAGE), "page": str(page),
        })

    def _api_mypm(self, ctx: _Ctx) -> Response:
        if ctx.me is None:
            return self._json(ctx, {}, message="to_login")
        me = ctx.me
        now = self.forum.now()
        if ctx.req.arg("subop") == "view":
            partner = self.forum.users.get(ctx.req.int_arg("touid"))
            conversation = self.forum.conversation_with(me, partner) if partner else None
            items = []
            page = 1
            if conversation is not None:
                self.forum.mark_read(me, conversation.cid)
                messages = self.forum.conversation_messages(conversation.cid)
                shown, page, _ = _newest_pages(messages, PM_VIEW_PER_PAGE_MOBILE, ctx.req.int_arg("page"))
                for message in shown:
                    items.append({
                        "plid": str(conversation.cid), "subject": bbcode.escape(conversation.subject),
                        "pmid": str(message.mid), "message": bbcode.discuz_mobile_html(message.text, self.forum.base_url),
                        "touid": str(message.recipient_uid), "msgfromid": str(message.sender_uid),
                        "msgfrom": self.forum.users[message.sender_uid].name,
                        "vdateline": discuz_time_text(message.sent_at, now, seconds=SHOWS_SECONDS("pm")),
                    })
            count = len(self.forum.conversation_messages(conversation.cid)) if conversation else 0
            return self._json(ctx, {"list": items, "count": str(count), "perpage": str(PM_VIEW_PER_PAGE_MOBILE),
                                    "page": str(page), "pmid": items[0]["pmid"] if items else "0"})
        items = []
        for row in self._conversation_rows(ctx, only_new=ctx.req.arg("filter") == "newpm"):
            last = row["last"]
            items.append({
                "plid": str(row["plid"]), "isnew": "1" if row["unread"] else "0",
                "subject": bbcode.escape(row["subject"]), "touid": str(row["partner"].uid), "pmid": str(last.mid),
                "msgfromid": str(last.sender_uid), "msgfrom": self.forum.users[last.sender_uid].name,
                "message": bbcode.escape(bbcode.strip_bbcode(last.text)), "tousername": row["partner"].name,
                "vdateline": discuz_time_text(last.sent_at, now, seconds=SHOWS_SECONDS("pm")),
            })
        return self._json(ctx, {"list": items, "count": str(len(items)), "perpage": str(PMS_PER_PAGE), "page": "1"})

    def _api_profile(self, ctx: _Ctx) -> Response:
        req = ctx.req
        if req.has("username"):
            user = self.forum.find_user(req.arg("username"))
        else:
            user = self.forum.users.get(req.int_arg("uid") or (ctx.me.uid if ctx.me else 0))
        if user is None:
            return self._json(ctx, {}, message="space_does_not_exist")
        stats = self._author_stats()
        return self._json(ctx, {"space": {
            "uid": str(user.uid), "username": user.name, "status": "0", "groupid": "10",
            "regdate": discuz_absolute(user.registered_at or self.forum.now(), seconds=False),
            "posts": str(stats["threads"][user.uid] + stats["replies"][user.uid]),
            "threads": str(stats["threads"][user.uid]),
            "newpm": str(self.forum.unread_count(user)),
            "group": {"type": "member", "grouptitle": GROUP_TITLES[user.group]},
        }})

    def _api_sendreply(self, ctx: _Ctx) -> Response:
        req = ctx.req
        tid = req.int_arg("tid")
        try:
            self.forum.thread(tid)
        except KeyError:
            return self._json(ctx, {"tid": str(tid), "pid": "0"}, message="thread_nonexistence")
        if ctx.me is None:
            return self._json(ctx, {"tid": str(tid), "pid": "0"}, message="postperm_login_nopermission")
        if not req.arg("formhash"):
            return self._json(ctx, {"tid": str(tid), "pid": "0"}, message="submit_invalid")
        with self.forum.locked():
            try:
                self.forum.check_post_allowed(ctx.me, req.arg("message"))
            except ForumRefusal as error:
                return self._json(ctx, {"tid": str(tid), "pid": "0"}, message=MOBILE_CODES[error.code])
            post = self.forum.post(ctx.me, tid, req.arg("message"))
        return self._json(ctx, {"tid": str(tid), "pid": str(post.pid)}, message="post_reply_succeed")

    def _api_sendpm(self, ctx: _Ctx) -> Response:
        req = ctx.req
        if ctx.me is None:
            return self._json(ctx, {"pmid": "0"}, message="to_login")
        if not req.arg("formhash"):
            return self._json(ctx, {"pmid": "0"}, message="submit_invalid")
        recipient = (self.forum.users.get(req.int_arg("touid")) if req.int_arg("touid")
                     else self.forum.find_user(req.arg("username")))
        if recipient is None or recipient.uid == ctx.me.uid:
            return self._json(ctx, {"pmid": "0"}, message="message_can_not_send_1")
        if not req.arg("message").strip():
            return self._json(ctx, {"pmid": "0"}, message="unable_to_send_air_news")
        with self.forum.locked():
            try:
                self.forum.check_pm_allowed(ctx.me)
            except ForumRefusal as error:
                return self._json(ctx, {"pmid": "0"}, message=MOBILE_CODES[error.code])
            sent = self.forum.send_pm(ctx.me, recipient, req.arg("message").strip())
        return self._json(ctx, {"pmid": str(sent.mid)}, message="do_success")


class _Ctx:
    """Per-request context: who is logged in, the saltkey, the cookies to set."""

    def __init__(self, site: DiscuzSite, request: Request) -> None:
        self.site = site
        self.req = request
        self.cookies: list[str] = []
        pre = site.cookiepre
        self.now = site.forum.now()
        self.saltkey = request.cookies.get(pre + "saltkey", "")
        if not self.saltkey:
            self.saltkey = _token(8)
            self._set("saltkey", self.saltkey, 2592000, http_only=True)
            self._set("lastvisit", str(int(self.now.timestamp()) - 3600), 2592000)
        self.token = request.cookies.get(pre + "auth", "")
        self.me = site.forum.session_user(self.token)
        sid = request.cookies.get(pre + "sid") or _token(6)
        self._set("sid", sid, 86400)
        self._set("lastact", f"{int(self.now.timestamp())}%09{request.path.strip('/') or 'forum.php'}%09{request.arg('mod')}", 86400)

    def _set(self, name: str, value: str, max_age: int | None, http_only: bool = False) -> None:
        self.cookies.append(set_cookie(self.site.cookiepre + name, value, self.now, max_age,
                                       http_only=http_only))

    def login(self, token: str, lifetime: int) -> None:
        self.token = token
        self.me = self.site.forum.session_user(token)
        self._set("auth", quote(token, safe=""), lifetime or None, http_only=True)
        self._set("ulastactivity", _token(20), 2592000)
        self._set("lastcheckfeed", f"{self.me.uid if self.me else 0}%7C{int(self.now.timestamp())}", 2592000)

    def logout(self) -> None:
        for name in ("saltkey", "lastvisit", "sid", "lastact", "ulastactivity", "auth", "lastcheckfeed"):
            self._set(name, "deleted", 0)

    def common(self, title: str) -> dict[str, Any]:
        forum = self.site.forum
        url = forum.base_url + self.req.path.lstrip("/") + ("?" + self.req.raw_query if self.req.raw_query else "")
        return {
            "title": title, "site_url": forum.base_url, "me": self.me,
            "formhash": self.site.formhash(self), "cookiepre": self.site.cookiepre,
            "report_url": base64.b64encode(url.encode()).decode(),
            "newpm": forum.unread_count(self.me) if self.me else 0,
            "me_credits": 0, "me_group": GROUP_TITLES[self.me.group] if self.me else "",
            "now_text": discuz_absolute(self.now, seconds=False), "rand": int(self.now.timestamp()),
            "posttime": int(self.now.timestamp()), "nv": "forum", "pg": "forum", "css": "forum_index",
            "fid": None,
        }


def multipage(mpurl: str, page: int, pages: int, window: int = 10) -> str:
    """Discuz ``multi()``: the inner HTML of ``div.pg`` (prev, numbers, jump box, next)."""
    if pages <= 1:
        return ""
    offset = window // 2
    if pages <= window:
        first, last = 1, pages
    else:
        first = page - offset
        last = first + window - 1
        if first < 1:
            first, last = 1, window
        elif last > pages:
            first, last = pages - window + 1, pages
    parts = []
    if page > 1:
        parts.append(f'<a href="{mpurl}page={page - 1}" class="prev">&nbsp;&nbsp;</a>')
    if first > 1:
        parts.append(f'<a href="{mpurl}page=1" class="first">1 ...</a>')
    for n in range(first, last + 1):
        parts.append(f"<strong>{n}</strong>" if n == page else f'<a href="{mpurl}page={n}">{n}</a>')
    if last < pages:
        parts.append(f'<a href="{mpurl}page={pages}" class="last">... {pages}</a>')
    parts.append(
        f'<label><input type="text" name="custompage" class="px" size="2" title="输入页码，按回车快速跳转" '
        f'value="{page}" onkeydown="if(event.keyCode==13) {{window.location=\'{mpurl}page=\'+this.value;; doane(event);}}" />'
        f'<span title="共 {pages} 页"> / {pages} 页</span></label>'
    )
    if page < pages:
        parts.append(f'<a href="{mpurl}page={page + 1}" class="nxt">下一页</a>')
    return "".join(parts)


def _newest_pages(messages: list[Any], per_page: int, wanted: int) -> tuple[list[Any], int, int]:
    """UCenter's conversation pages: ``(shown, page, pages)``; the last page holds the newest
    ``per_page`` messages, earlier pages the older ones, and no ``page=`` opens the last page."""
    pages = max(1, -(-len(messages) // per_page))
    page = min(max(wanted or pages, 1), pages)
    newest_first = messages[::-1]
    back = pages - page  # pages counted back from the newest
    return newest_first[back * per_page:(back + 1) * per_page][::-1], page, pages


def pmmulti(mpurl: str, page: int, pages: int) -> str:
    """``pmmulti()`` of space_pm.php: a conversation's pager has only 上一页 / 下一页 links."""
    following = f'<a href="{mpurl}&amp;page={page + 1}#last" class="nxt">下一页</a>' if page < pages else ""
    previous = f'<span class="pgb"><a href="{mpurl}&amp;page={page - 1}#last">上一页</a></span>' if page > 1 else ""
    return f'<div class="pg">{previous}{following}</div>' if following or previous else ""


def _discuz_list_date(moment: datetime, now: datetime) -> str:
    """A board row's start date: ``<span class="xi1"><span title="Y-n-j">2&nbsp;分钟前</span></span>``."""
    relative = discuz_relative(moment, now)
    if relative is None:
        return f"<span>{discuz_absolute(moment, date_only=True)}</span>"
    span = f'<span title="{discuz_absolute(moment, date_only=True)}">{relative}</span>'
    today = now.astimezone(FORUM_TZ).date() == moment.astimezone(FORUM_TZ).date()
    return f'<span class="xi1">{span}</span>' if today else span


def _xml(cdata: str) -> Response:
    body = f'<?xml version="1.0" encoding="utf-8"?>\n<root><![CDATA[{cdata}]]></root>'
    return Response(body, 200, "text/xml; charset=utf-8")


def _token(n: int) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(n))


def _seconds(value: int) -> timedelta | None:
    return timedelta(seconds=value) if value > 0 else None
