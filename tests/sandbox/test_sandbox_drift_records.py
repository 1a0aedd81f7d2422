"""Anti-drift, record by record: the adapters' real parsers read sandbox pages beside the captures.

Each captured page of ``fixtures/`` is replayed into a sandbox forum (:mod:`replay`: same users,
uids, ids, times, texts, quotes, edit marks, unread flags), the sandbox serves the same page over
loopback HTTP, and the real pure parsers of :mod:`shenshi.adapters` read both with the same
``now``. The records must be equal field by field; relative times ("7 天前", "昨天 19:31", "59 秒前")
are resolved against that one ``now``. :mod:`test_sandbox_drift` checks the selectors themselves.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from replay import (
    PARSERS,
    TZ,
    Replay,
    api_bodies,
    captured,
    captured_now,
    cast,
    html_bodies,
    rendered_at,
    visible_times_only,
)
from sandbox_helpers import (
    START,
    client,
    discuz_login,
    formhash_of,
    phpwind_login,
    post_form,
    verify_of,
)

from shenshi.adapters import discuz_parse as dz
from shenshi.adapters import errors
from shenshi.adapters import phpwind_parse as pw
from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve
from shenshi.adapters.sandbox.seed import GM_NAME, GM_PASSWORD
from shenshi.adapters.text import decode_page, html_tree, url_param
from shenshi.records import ConversationSummary, PrivateMessage, ThreadPage

PER_PAGE = 10

DISCUZ_GAME_PAGES = [f"viewthread_p{n}.html" for n in range(1, 8)]
DISCUZ_THREAD_PAGES = DISCUZ_GAME_PAGES + [
    "viewthread_analysis_thread_tid3.html",
    "viewthread_p1_guest.html",
    "viewthread_entities.html",  # the real install of 2026-12-01 (fixtures/REALFORUM.md)
]
PHPWIND_THREAD_PAGES = [f"read_p{n}.html" for n in (1, 2, 3, 4, 7)] + [
    "read_analysis_thread_tid3.html",
    "read_p1_guest.html",
    "read_entities.html",  # the real installs of 2026-12-01 (fixtures/REALFORUM.md)
    "read_p1_gbk.html",
]


def charsets(cases: list[tuple[Any, ...]]) -> list[Any]:
    """Each case with the charset it runs in: phpwind in UTF-8 and in GBK, Discuz in UTF-8."""
    return [
        pytest.param(charset, *case, id=f"{case[0]}{'-gbk' if charset == 'gbk' else ''}/{case[1]}")
        for case in cases
        for charset in (("utf-8", "gbk") if case[0] == "phpwind" else ("utf-8",))
    ]


def _total(page: ThreadPage, per_page: int = PER_PAGE) -> int:
    """How many posts the replayed thread needs to show this page with the same page count."""
    return page.posts[-1].floor if page.page == page.pages else page.pages * per_page


def _thread_url(engine: str, tid: str, page: int) -> str:
    if engine == "discuz":
        return f"forum.php?mod=viewthread&tid={tid}&extra=page%3D1&page={page}"
    return f"read.php?tid={tid}&page={page}"


def _captured_page(engine: str, name: str) -> ThreadPage:
    return PARSERS[engine].parse_thread_page(captured(engine, name), tz=TZ, now=captured_now(engine, name))


def _replay_thread(engine: str, name: str, charset: str = "utf-8") -> list[tuple[ThreadPage, ThreadPage]]:
    """(capture, sandbox) parses of one thread page: as served, then from the visible times only."""
    data = captured(engine, name)
    now = rendered_at(engine, name)
    parse = PARSERS[engine].parse_thread_page
    want = parse(data, tz=TZ, now=now)
    replay = Replay.at(engine, now, charset)
    assert want.subject
    replay.thread(want.tid, want.subject, want.posts, html_bodies(engine, data), _total(want))
    (served,) = replay.fetch(_thread_url(engine, want.tid, want.page), guest="guest" in name)
    return [
        (want, parse(served, tz=TZ, now=now)),
        (parse(visible_times_only(data), tz=TZ, now=now), parse(visible_times_only(served), tz=TZ, now=now)),
    ]


def _assert_same_page(want: ThreadPage, got: ThreadPage) -> None:
    assert (got.tid, got.page, got.pages, got.subject, got.fid) == (want.tid, want.page, want.pages, want.subject, want.fid)
    assert len(got.posts) == len(want.posts)
    for wanted, found in zip(want.posts, got.posts, strict=True):
        assert found == wanted, f"post {wanted.pid}: sandbox {found} != capture {wanted}"


@pytest.mark.parametrize("name", DISCUZ_THREAD_PAGES)
def test_discuz_thread_page_parses_like_the_capture(name: str) -> None:
    for want, got in _replay_thread("discuz", name):
        _assert_same_page(want, got)


@pytest.mark.parametrize("charset", ["utf-8", "gbk"])
@pytest.mark.parametrize("name", PHPWIND_THREAD_PAGES)
def test_phpwind_thread_page_parses_like_the_capture(name: str, charset: str) -> None:
    for want, got in _replay_thread("phpwind", name, charset):
        _assert_same_page(want, got)


@pytest.mark.parametrize(("engine", "quoted", "relative"), [
    ("discuz", "viewthread_p3.html", "viewthread_p7.html"),
    ("phpwind", "read_p3.html", "read_p7.html"),
])
def test_the_replayed_pages_hold_what_the_checks_need(engine: str, quoted: str, relative: str) -> None:
    """The pages above carry quotes, an edit mark and relative times: the comparison covers them."""
    (want, _), _ = _replay_thread(engine, quoted)
    assert any(p.quotes for p in want.posts) and any(p.edited for p in want.posts)
    (exact, _), (visible, _) = _replay_thread(engine, relative)
    assert [p.posted_at for p in exact.posts] != [p.posted_at for p in visible.posts]  # relative texts


# --------------------------------------------------------------------------- Discuz mobile API

API_THREAD_PAGES = ["api_viewthread_p1.json", "api_viewthread_ppp20_p2.json", "api_viewthread_p7.json"]


@pytest.mark.parametrize("name", API_THREAD_PAGES)
def test_discuz_api_thread_parses_like_the_capture(name: str) -> None:
    data = captured("discuz", name)
    now = captured_now("discuz", name)
    found = json.loads(data)
    want = dz.parse_api_thread(found, tz=TZ, now=now)
    ppp = int(found["Variables"]["ppp"])
    replay = Replay.at("discuz", now)
    assert want.subject
    edits = {p.pid: p.edited for page in DISCUZ_GAME_PAGES for p in _captured_page("discuz", page).posts if p.edited}
    assert edits, "the captured game thread has an edited post"
    replay.thread(want.tid, want.subject, want.posts, api_bodies(found), _total(want, ppp), edits)
    url = f"api/mobile/index.php?version=4&module=viewthread&tid={want.tid}&page={want.page}&ppp={ppp}"
    (served,) = replay.fetch(url)
    _assert_same_page(want, dz.parse_api_thread(served, tz=TZ, now=now))
    # Without the Unix ``dbdateline`` the parser reads ``dateline`` ("5&nbsp;天前", "2026-11-20 18:39:46").
    _assert_same_page(dz.parse_api_thread(_without_dbdateline(found), tz=TZ, now=now),
                      dz.parse_api_thread(_without_dbdateline(json.loads(served)), tz=TZ, now=now))


def _without_dbdateline(found: dict[str, Any]) -> dict[str, Any]:
    rows = [{k: v for k, v in row.items() if k != "dbdateline"} for row in found["Variables"]["postlist"]]
    return {**found, "Variables": {**found["Variables"], "postlist": rows}}


# --------------------------------------------------------------------------- board listings

BOARDS = [
    ("discuz", "forumdisplay_fid3.html", "forum.php?mod=forumdisplay&fid=3", dz.parse_board),
    ("discuz", "api_forumdisplay_fid3.json", "api/mobile/index.php?version=4&module=forumdisplay&fid=3", dz.parse_api_board),
    ("phpwind", "thread_list_fid3.html", "thread.php?fid=3", pw.parse_board),
    ("discuz", "api_forumdisplay_fresh_board.json", "api/mobile/index.php?version=4&module=forumdisplay&fid=3", dz.parse_api_board),
    ("phpwind", "thread_list_unread_messages_count.html", "thread.php?fid=3", pw.parse_board),
    ("phpwind", "thread_list_gbk.html", "thread.php?fid=3", pw.parse_board),
]


@pytest.mark.parametrize(("charset", "engine", "name", "url", "parse"), charsets(BOARDS))
def test_board_listing_parses_like_the_capture(charset: str, engine: str, name: str, url: str, parse: Callable[..., Any]) -> None:
    now = captured_now(engine, name)
    want = parse(captured(engine, name), tz=TZ, now=now)
    replay = Replay.at(engine, now, charset)
    replay.board(want, cast(engine))
    (served,) = replay.fetch(url)
    assert parse(served, tz=TZ, now=now) == want


# --------------------------------------------------------------------------- PM inbox and conversations

INBOXES = [
    ("discuz", "pm_inbox_unread.html", "home.php?mod=space&do=pm", dz.parse_inbox),
    ("discuz", "pm_inbox_after_reading.html", "home.php?mod=space&do=pm", dz.parse_inbox),
    ("discuz", "pm_inbox_filter_newpm.html", "home.php?mod=space&do=pm&filter=newpm", dz.parse_inbox),
    ("discuz", "api_mypm_list.json", "api/mobile/index.php?version=4&module=mypm", dz.parse_api_inbox),
    ("phpwind", "pm_inbox_unread.html", "message.php?type=sms", pw.parse_inbox),
    ("phpwind", "pm_inbox_after_reading.html", "message.php?type=sms", pw.parse_inbox),
    ("phpwind", "pm_inbox_filter_unread.html", "message.php?type=sms&action=unread", pw.parse_inbox),
    ("discuz", "pm_inbox_minute_times.html", "home.php?mod=space&do=pm", dz.parse_inbox),
    ("discuz", "api_mypm_empty.json", "api/mobile/index.php?version=4&module=mypm", dz.parse_api_inbox),
    ("phpwind", "pm_inbox_gbk.html", "message.php?type=sms", pw.parse_inbox),
]


def _replay_inbox(replay: Replay, rows: list[ConversationSummary], names: dict[str, str]) -> None:
    """Conversations that show as ``rows`` in the GM's inbox (ids, partners, times, counts, flags)."""
    for rank, row in enumerate(rows):
        assert row.last_at is not None
        last = row.last_at + timedelta(microseconds=999_999 - rank)
        count = row.count or 1
        messages = [
            PrivateMessage(id=str(url_param(row.ref, "mid") or "") if n == 0 else "", conversation=row.id,
                           sender=row.partner, sender_uid=row.partner_uid, recipient=GM_NAME, recipient_uid="2",
                           sent_at=last - timedelta(minutes=count - 1 - n), text=f"第 {n + 1} 条")
            for n in range(count)
        ]
        assert names[row.partner] == row.partner_uid
        if replay.engine == "discuz":
            replay.conversation(row.partner, row.partner_uid, messages, cid=int(row.id), unread=row.unread)
        else:
            rids = {2: int(row.id), int(row.partner_uid): 1000 + int(row.id)}
            replay.conversation(row.partner, row.partner_uid, messages, rids=rids, unread=row.unread,
                                subject=f"标题 {row.id}")


@pytest.mark.parametrize(("charset", "engine", "name", "url", "parse"), charsets(INBOXES))
def test_pm_inbox_parses_like_the_capture(charset: str, engine: str, name: str, url: str, parse: Callable[..., Any]) -> None:
    now = captured_now(engine, name)
    want = parse(captured(engine, name), tz=TZ, now=now)
    replay = Replay.at(engine, now, charset)
    _replay_inbox(replay, want, cast(engine))
    (served,) = replay.fetch(url)
    assert parse(served, tz=TZ, now=now) == want


CONVERSATIONS = [
    ("discuz", "pm_conversation_view_touid11_yueguang.html"),
    ("discuz", "pm_conversation_view_touid8_lily99_kill_declaration.html"),
    ("discuz", "pm_conversation_view_touid9_yexingzhe_unread.html"),
    ("phpwind", "pm_conversation_view.html"),
    ("phpwind", "pm_conversation_view_2.html"),
    ("discuz", "pm_conversation_entities_touid11.html"),
    ("phpwind", "pm_conversation_entities.html"),
]


@pytest.mark.parametrize(("charset", "engine", "name"), charsets(CONVERSATIONS))
def test_pm_conversation_parses_like_the_capture(charset: str, engine: str, name: str) -> None:
    data = captured(engine, name)
    now = captured_now(engine, name)
    parse = PARSERS[engine].parse_conversation
    want = parse(data, tz=TZ, now=now)
    partner = next(m for m in want if m.sender_uid != "2")
    replay = Replay.at(engine, now, charset)
    if engine == "discuz":
        replay.conversation(partner.sender, partner.sender_uid, want)
        url = f"home.php?mod=space&do=pm&subop=view&touid={partner.sender_uid}"
    else:
        rid = int(want[0].conversation)
        replay.conversation(partner.sender, partner.sender_uid, want, rids={2: rid, int(partner.sender_uid): rid + 1000})
        url = f"message.php?type=sms&action=info&boxname=inbox&page=1&rid={rid}&itype=inbox&smstype=&mid={want[0].id}&redirect=1"
    (served,) = replay.fetch(url)
    assert parse(served, tz=TZ, now=now) == want


def test_discuz_api_conversation_parses_like_the_capture() -> None:
    name = "api_mypm_view_touid11.json"
    now = captured_now("discuz", name)
    want = dz.parse_api_conversation(captured("discuz", name), tz=TZ, now=now)
    partner = next(m for m in want if m.sender_uid != "2")
    replay = Replay.at("discuz", now)
    replay.conversation(partner.sender, partner.sender_uid, want, cid=int(want[0].conversation))
    (served,) = replay.fetch(f"api/mobile/index.php?version=4&module=mypm&subop=view&touid={partner.sender_uid}")
    assert dz.parse_api_conversation(served, tz=TZ, now=now) == want


# --------------------------------------------------------------------------- message and error pages
# Each capture of a forum saying "no" (or "done") beside the sandbox provoked into the same
# situation over HTTP; the engine's own check functions must give the same typed outcome. Pages
# written by hand (``*_synthetic*``) only fix the error type, not the wording.


def outcome(engine: str, data: bytes) -> tuple[object, ...]:
    """What the adapters make of a message page or ajax answer: the typed error, or success."""
    text = decode_page(data)
    module = PARSERS[engine]
    try:
        if engine == "discuz" and "api/mobile" not in text[:200] and text.lstrip().startswith("{"):
            return ("ok", dz.api_check(json.loads(text)))
        if text.lstrip().startswith("<?xml"):
            result = module.check_ajax(text)
            keys = tuple(sorted(getattr(result, "values", {}))) or None
            return ("ok", keys)
        return ("ok", "page" if module.check_page(text) is None else "message")
    except errors.ForumError as exc:
        return (type(exc).__name__, exc.message, getattr(exc, "wait_seconds", None))


class Visitor:
    """One browser on a sandbox forum (its own cookies), doing what the captured flows did."""

    def __init__(self, forum: SandboxForum, base_url: str) -> None:
        self.forum, self.http = forum, client(base_url)

    def login(self, name: str = GM_NAME, password: str = GM_PASSWORD) -> bytes:
        if self.forum.engine == "discuz":
            return discuz_login(self.http, name, password).content
        return phpwind_login(self.http, name, password, self.forum.charset).content

    def get(self, url: str) -> bytes:
        return self.http.get(url).content

    def token(self, tid: int) -> str:
        if self.forum.engine == "discuz":
            return formhash_of(self.http.get(f"forum.php?mod=viewthread&tid={tid}").text)
        return verify_of(self.http.get(f"read.php?tid={tid}").text)

    def reply(self, tid: int, message: str, *, ajax: bool = False, token: str | None = None) -> bytes:
        token = self.token(tid) if token is None else token
        if self.forum.engine == "discuz":
            url = f"forum.php?mod=post&action=reply&fid=3&tid={tid}&extra=&replysubmit=yes"
            url += "&infloat=yes&handlekey=fastpost&inajax=1" if ajax else ""
            data = {"formhash": token, "message": message} if token else {"message": message}
            return self.http.post(url, data=data).content
        data = {"verify": token, "step": "2", "action": "reply", "fid": "3", "tid": str(tid),
                "atc_content": message, **({"ajax": "1"} if ajax else {})}
        return post_form(self.http, "post.php?fid=3", data, self.forum.charset).content

    def pm(self, to: str, message: str, *, title: str = "夜间行动") -> bytes:
        if self.forum.engine == "discuz":
            uid = self.forum.user(to).uid
            page = self.http.get("home.php?mod=spacecp&ac=pm").text
            data = {"formhash": formhash_of(page), "pmsubmit": "true", "touid": str(uid),
                    "handlekey": f"showmsg_{uid}", "message": message}
            return self.http.post(f"home.php?mod=spacecp&ac=pm&op=send&touid={uid}&inajax=1", data=data).content
        verify = verify_of(self.http.get("index.php").text)
        data = {"verify": verify, "step": "2", "_usernames[]": to, "atc_title": title, "atc_content": message}
        return post_form(self.http, "message.php?type=ajax&action=post", data, self.forum.charset).content


Scenario = Callable[[Visitor, int], bytes]


def _flood(ajax: bool) -> Scenario:
    def provoke(v: Visitor, tid: int) -> bytes:
        v.login()
        v.reply(tid, "第一条回复，内容足够长")
        return v.reply(tid, "第二条回复，内容足够长", ajax=ajax)

    return provoke


def _stale(ajax: bool) -> Scenario:
    def provoke(v: Visitor, tid: int) -> bytes:
        v.login()
        token = v.token(tid)
        v.forum.expire_sessions()
        return v.reply(tid, "会话过期以后的回复", ajax=ajax, token=token)

    return provoke


def _expired(then: Callable[[Visitor, int], bytes]) -> Scenario:
    """Logged in, then the forum forgot the session (the capture dropped the session cookie)."""

    def provoke(v: Visitor, tid: int) -> bytes:
        v.login()
        v.forum.expire_sessions()
        return then(v, tid)

    return provoke


def _as_gm(then: Callable[[Visitor, int], bytes]) -> Scenario:
    def provoke(v: Visitor, tid: int) -> bytes:
        v.login()
        return then(v, tid)

    return provoke


def _newbie(v: Visitor, tid: int) -> bytes:
    v.forum.add_user("见习生", "Newbie_pw1", group="newbie")
    v.login("见习生", "Newbie_pw1")
    return v.reply(tid, "见习期的回复，内容足够长")


def _closed(v: Visitor, tid: int) -> bytes:
    v.forum.faults.maintenance(True)
    return v.get("forum.php" if v.forum.engine == "discuz" else "index.php")


def _deleted(url: str) -> Scenario:
    def provoke(v: Visitor, tid: int) -> bytes:
        v.forum.delete_thread(tid)
        return v.get(url.format(tid=tid))

    return provoke


def _captcha_on_post(v: Visitor, tid: int) -> bytes:
    v.login()
    v.forum.faults.captcha(True, login=False, post=True)
    return v.reply(tid, "需要验证码的回复，内容足够长")


def _edit_others(v: Visitor, tid: int) -> bytes:
    v.login()
    pid = v.forum.threads[tid].pids[0]
    if v.forum.engine == "discuz":
        return v.get(f"forum.php?mod=post&action=edit&fid=3&tid={tid}&pid={pid}&page=1")
    return v.get(f"post.php?action=modify&fid=3&tid={tid}&pid=tpc&article=0")


def _mark_read(v: Visitor, tid: int) -> bytes:
    v.forum.send_pm("月光", GM_NAME, "占卜 夜行者", subject="夜间行动")
    v.login()
    conversation = v.forum.conversations_of(GM_NAME)[0]
    data = {"rids[]": str(conversation.rids[2]), "verify": verify_of(v.http.get("index.php").text)}
    return post_form(v.http, "message.php?type=ajax&action=mark", data, v.forum.charset).content


def _pm_reply(v: Visitor, tid: int) -> bytes:
    sent = v.forum.send_pm("月光", GM_NAME, "占卜 夜行者", subject="夜间行动")
    v.login()
    conversation = v.forum.conversations[sent.cid]
    data = {"parentMid": str(sent.mid), "rid": str(conversation.rids[2]), "atc_content": "收到",
            "verify": verify_of(v.http.get("index.php").text)}
    return post_form(v.http, "message.php?type=ajax&action=postReply", data, v.forum.charset).content


def _guest_pm(v: Visitor, tid: int) -> bytes:
    data = {"verify": "", "step": "2", "_usernames[]": "月光", "atc_title": "夜间行动", "atc_content": "收到"}
    return post_form(v.http, "message.php?type=ajax&action=post", data, v.forum.charset).content


def _api(url: str, data: dict[str, str] | None = None, *, twice: bool = False) -> Scenario:
    def provoke(v: Visitor, tid: int) -> bytes:
        v.login()
        full = "api/mobile/index.php?version=4&" + url.format(tid=tid)
        if data is None:
            return v.get(full)
        form = {"formhash": v.token(tid), **data}
        if twice:
            v.http.post(full, data=form)
        return v.http.post(full, data=form).content

    return provoke


MESSAGE_PAGES: list[tuple[str, str, Scenario]] = [
    ("discuz", "reply_post_response_flood_control.html", _flood(ajax=False)),
    ("discuz", "reply_post_response_fastpost_ajax_flood.xml", _flood(ajax=True)),
    ("discuz", "reply_post_response_fastpost_ajax_success.xml", _as_gm(lambda v, t: v.reply(t, "投票：阿杰 理由见上", ajax=True))),
    ("discuz", "reply_post_response_too_short.html", _as_gm(lambda v, t: v.reply(t, "投票"))),
    ("discuz", "reply_post_response_newbiespan.html", _newbie),
    ("discuz", "reply_post_response_missing_formhash.html", _as_gm(lambda v, t: v.reply(t, "没有表单验证串的回复", token=""))),
    ("discuz", "reply_post_response_bad_formhash.html", _as_gm(lambda v, t: v.reply(t, "错误的表单验证串", token="deadbeef"))),
    ("discuz", "login_expired_post_reply_stale_formhash.html", _stale(ajax=False)),
    ("discuz", "login_expired_fastpost_ajax.xml", _stale(ajax=True)),
    ("discuz", "reply_post_response_seccode_synthetic.html", _captcha_on_post),
    ("discuz", "need_login_reply_as_guest.html", lambda v, t: v.get(f"forum.php?mod=post&action=reply&fid=3&tid={t}")),
    ("discuz", "need_login_pm_inbox_as_guest.html", lambda v, t: v.get("home.php?mod=space&do=pm")),
    ("discuz", "need_login_newthread_as_guest.html", lambda v, t: v.get("forum.php?mod=post&action=newthread&fid=3")),
    ("discuz", "login_post_response.html", lambda v, t: v.login()),
    ("discuz", "login_post_response_wrong_password.html", lambda v, t: v.login(password="wrong")),
    ("discuz", "thread_404_nonexistent_tid.html", lambda v, t: v.get("forum.php?mod=viewthread&tid=99999")),
    ("discuz", "thread_deleted_in_recyclebin_tid1.html", _deleted("forum.php?mod=viewthread&tid={tid}")),
    ("discuz", "forum_404_nonexistent_fid.html", lambda v, t: v.get("forum.php?mod=forumdisplay&fid=999")),
    ("discuz", "profile_404_nonexistent_uid.html", _as_gm(lambda v, t: v.get("home.php?mod=space&uid=99999&do=profile"))),
    ("discuz", "no_permission_edit_others_post.html", _edit_others),
    ("discuz", "maintenance_synthetic.html", _closed),
    ("discuz", "pm_send_response_ajax.xml", _as_gm(lambda v, t: v.pm("月光", "收到：占卜 夜行者 的结果是【好人】。"))),
    ("discuz", "pm_send_response_flood_control.xml", _as_gm(lambda v, t: (v.pm("月光", "第一条"), v.pm("阿杰", "第二条"))[1])),
    ("discuz", "api_viewthread_404.json", _api("module=viewthread&tid=99999")),
    ("discuz", "api_sendreply_response.json", _api("module=sendreply&tid={tid}&replysubmit=yes", {"message": "投票：阿杰 理由见上"})),
    ("discuz", "api_sendreply_flood.json", _api("module=sendreply&tid={tid}&replysubmit=yes", {"message": "投票：阿杰 理由见上"}, twice=True)),
    ("discuz", "api_sendpm_response.json", _api("module=sendpm&touid=11&pmsubmit=yes", {"message": "收到"})),
    ("phpwind", "reply_post_response_flood_control.html", _flood(ajax=False)),
    ("phpwind", "reply_post_response_flood_control_ajax.xml", _flood(ajax=True)),
    ("phpwind", "reply_post_response_too_short.html", _as_gm(lambda v, t: v.reply(t, "1"))),
    ("phpwind", "reply_post_response_too_short_ajax.xml", _as_gm(lambda v, t: v.reply(t, "1", ajax=True))),
    ("phpwind", "reply_post_response_bad_verify.html", _as_gm(lambda v, t: v.reply(t, "错误的 verify", token="deadbeef"))),
    ("phpwind", "reply_post_response_bad_verify_ajax.xml", _as_gm(lambda v, t: v.reply(t, "错误的 verify", ajax=True, token="deadbeef"))),
    ("phpwind", "login_expired_post_reply_stale_verify_ajax.xml", _stale(ajax=True)),
    ("phpwind", "reply_post_response_success_ajax.xml", _as_gm(lambda v, t: v.reply(t, "投票：阿杰", ajax=True))),
    ("phpwind", "reply_post_response_success.html", _as_gm(lambda v, t: v.reply(t, "投票：阿杰"))),
    ("phpwind", "need_login_reply_as_guest.html", lambda v, t: v.get(f"post.php?action=reply&fid=3&tid={t}")),
    ("phpwind", "need_login_pm_as_guest.html", lambda v, t: v.get("message.php?type=sms")),
    ("phpwind", "need_login_newthread_as_guest.html", lambda v, t: v.get("post.php?fid=3")),
    ("phpwind", "login_post_response.html", lambda v, t: v.login()),
    ("phpwind", "login_post_response_wrong_password.html", lambda v, t: v.login(password="wrong")),
    ("phpwind", "thread_404_nonexistent_tid.html", lambda v, t: v.get("read.php?tid=99999")),
    ("phpwind", "thread_deleted_tid1.html", _deleted("read.php?tid={tid}")),
    ("phpwind", "forum_404_nonexistent_fid.html", lambda v, t: v.get("thread.php?fid=999")),
    ("phpwind", "profile_404_nonexistent_uid.html", lambda v, t: v.get("u.php?uid=99999")),
    ("phpwind", "no_permission_edit_others_post.html", _edit_others),
    ("phpwind", "maintenance_synthetic.html", _closed),
    ("phpwind", "pm_send_response_ajax.xml", _as_gm(lambda v, t: v.pm("小明", "救 月光"))),
    ("phpwind", "pm_send_response_unknown_user.xml", _as_gm(lambda v, t: v.pm("没有这个人", "救 月光"))),
    ("phpwind", "pm_send_response_to_self.xml", _as_gm(lambda v, t: v.pm(GM_NAME, "救 月光"))),
    ("phpwind", "pm_send_response_no_recipient.xml", _as_gm(lambda v, t: v.pm("", "救 月光"))),
    ("phpwind", "pm_mark_read_response.xml", _mark_read),
    ("phpwind", "pm_reply_in_conversation_response.xml", _pm_reply),
    ("phpwind", "login_expired_pm_send_ajax.xml", _guest_pm),
    # the real installs of 2026-12-01 (fixtures/REALFORUM.md): the session cookie dropped
    ("phpwind", "not_logged_in_pm_inbox_expired_session.html", _expired(lambda v, t: v.get("message.php?type=sms"))),
    ("phpwind", "expired_session_send_pm_ajax.xml", _expired(lambda v, t: _guest_pm(v, t))),
]


@pytest.mark.parametrize(("charset", "engine", "name", "provoke"), charsets(MESSAGE_PAGES))
def test_message_page_means_what_the_capture_means(charset: str, engine: str, name: str, provoke: Scenario) -> None:
    forum = SandboxForum(engine, clock=ManualClock(START), charset=charset)
    seed_demo(forum)
    thread = forum.create_thread("小明", 3, "讨论帖", "大家好，这里是讨论帖。")
    with serve(forum) as base_url:
        visitor = Visitor(forum, base_url)
        with visitor.http:
            served = provoke(visitor, thread.tid)
    want, got = outcome(engine, captured(engine, name)), outcome(engine, served)
    if "synthetic" in name:
        assert got[0] == want[0], f"sandbox {got} vs hand-written capture {want}"
    else:
        assert got == want
    assert want[0] != "ok" or "success" in name or "response" in name


@pytest.mark.parametrize(("engine", "name", "url"), [
    ("discuz", "login_page_default_with_seccode.html", "member.php?mod=logging&action=login"),
    ("phpwind", "login_page_captcha_synthetic.html", "login.php"),
])
def test_login_captcha_is_seen_as_in_the_capture(engine: str, name: str, url: str) -> None:
    forum = SandboxForum(engine, clock=ManualClock(START))
    seed_demo(forum)
    with serve(forum) as base_url, client(base_url) as http:
        plain = http.get(url).text
        forum.faults.captcha(True, login=True, post=False)
        guarded = http.get(url).text
    module = PARSERS[engine]
    assert module.login_has_captcha(decode_page(captured(engine, name)))
    assert module.login_has_captcha(guarded) and not module.login_has_captcha(plain)


# --------------------------------------------------------------------------- forms the adapters fill in

FORMS = [
    ("discuz", "login_page.html", "member.php?mod=logging&action=login", "//form[@name='login']", False),
    ("discuz", "reply_form.html", "forum.php?mod=post&action=reply&fid=3&tid={tid}", "//form[@id='postform']", True),
    ("discuz", "reply_form_with_quote.html", "forum.php?mod=post&action=reply&fid=3&tid={tid}&repquote={pid}", "//form[@id='postform']", True),
    ("phpwind", "reply_form.html", "post.php?action=reply&fid=3&tid={tid}", "//form[@name='FORM']", True),
    ("phpwind", "reply_form_with_quote.html", "post.php?action=quote&fid=3&tid={tid}&pid={pid}&article=1", "//form[@name='FORM']", True),
    # the real installs of 2026-12-01 (fixtures/REALFORUM.md)
    ("discuz", "reply_form_full_page.html", "forum.php?mod=post&action=reply&fid=3&tid={tid}", "//form[@id='postform']", True),
    ("phpwind", "pm_compose_form_real_install.html", "message.php?type=post&username=小明", "//form[@name='FORM']", True),
]
# Values that depend on the thread, the member or the moment; every other value must be the capture's.
VARYING = {"formhash", "verify", "_hexie", "posttime", "atc_title", "tid", "pid", "article", "reppid", "reppost", "noticeauthor",
           "noticetrimstr", "noticeauthormsg", "referer", "atc_content"}


def _form(data: bytes, xpath: str) -> tuple[str, dict[str, str]]:
    tree = html_tree(decode_page(data))
    (form,) = tree.xpath(xpath)
    fields = {}
    for el in form.xpath(".//input[@name] | .//textarea[@name] | .//select[@name]"):
        kind = (el.get("type") or "").lower()
        if kind in ("submit", "button", "image") or (kind in ("checkbox", "radio") and el.get("checked") is None):
            continue  # what a browser (and the adapters) send
        fields[el.get("name")] = (el.text or "") if el.tag == "textarea" else (el.get("value") or "")
    action = re.sub(r"loginhash=\w+|tid=\d+|fid=\d+", lambda m: m.group(0).split("=")[0] + "=N", form.get("action") or "")
    return action, fields


@pytest.mark.parametrize(("charset", "engine", "name", "url", "xpath", "member"), charsets(FORMS))
def test_forms_carry_the_captured_fields(charset: str, engine: str, name: str, url: str, xpath: str, member: bool) -> None:
    forum = SandboxForum(engine, clock=ManualClock(START), charset=charset)
    seed_demo(forum)
    thread = forum.create_thread("小明", 3, "讨论帖", "大家好，这里是讨论帖。")
    quoted = forum.post("白色的猫", thread.tid, "喵～ 白色的猫来了。")
    with serve(forum) as base_url:
        visitor = Visitor(forum, base_url)
        with visitor.http:
            if member:
                visitor.login()
            served = visitor.get(url.format(tid=thread.tid, pid=quoted.pid))
    (want_action, want), (got_action, got) = _form(captured(engine, name), xpath), _form(served, xpath)
    assert got_action == want_action
    assert sorted(got) == sorted(want)
    assert {k: v for k, v in got.items() if k not in VARYING} == {k: v for k, v in want.items() if k not in VARYING}
    if "quote" in name:  # the quote the form pre-fills, with its author, text and back-link
        shape = _quote_shape(engine)
        assert re.fullmatch(shape, want["atc_content" if engine == "phpwind" else "noticetrimstr"])
        assert re.fullmatch(shape, got["atc_content" if engine == "phpwind" else "noticetrimstr"])


def _quote_shape(engine: str) -> str:
    if engine == "discuz":
        return (r"(?s)\[quote\]\[size=2\]\[url=forum\.php\?mod=redirect&goto=findpost&pid=\d+&ptid=\d+\]"
                r"\[color=#999999\]\S+ 发表于 \d{4}-\d{1,2}-\d{1,2} \d\d:\d\d\[/color\]\[/url\]\[/size\]\n.+\[/quote\]")
    return (r"(?s)\[quote\]\[url=http://127\.0\.0\.1:\d+/u\.php\?username=(\S+)\]\1\[/url\]\[color=gray\]:\[/color\]\n"
            r".+ \[url=http://127\.0\.0\.1:\d+/job\.php\?action=topost&tid=\d+&pid=\w+\]\[img\]images/back\.gif\[/img\]\[/url\]\n\[/quote\]\n")
