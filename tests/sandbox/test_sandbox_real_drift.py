"""Anti-drift against the real installs of 2026-12-01 (fixtures/REALFORUM.md): what the sandbox
learnt from them.

Discuz's empty inbox (no list at all), PM times to the minute, the mobile API escaping posts twice
and plain fields once, the real new-thread and PM send forms; phpwind's reply rows inside a
conversation and the "RE:" inbox rows they create, the header's 消息(N); no edit mark within 60 s.
Each check puts the same content into a sandbox (:mod:`replay`) and compares what the adapters'
parsers (or the selectors) read from both pages.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from lxml import html as lxml_html
from replay import GM_UID, TZ, Replay, captured, captured_now
from sandbox_helpers import client, phpwind_login

from shenshi.adapters import discuz_parse as dz
from shenshi.adapters import phpwind_parse as pw
from shenshi.adapters.sandbox import serve
from shenshi.adapters.sandbox.seed import GM_NAME, GM_PASSWORD

DZ_MINUTE = r"\d{4}-\d{1,2}-\d{1,2} \d{1,2}:\d{2}"
PW_MINUTE = r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}"


def xpath(page: bytes | str, path: str) -> list[str]:
    tree = lxml_html.fromstring(page)
    return [v if isinstance(v, str) else v.text_content() for v in tree.xpath(path)]


def same_shape(captured_page: bytes, served: bytes, path: str, pattern: str = r"(?s).+") -> None:
    for label, page in (("capture", captured_page), ("sandbox", served)):
        found = xpath(page, path)
        assert found, f"{path!r} found nothing in the {label}"
        assert all(re.fullmatch(pattern, v.strip()) for v in found), f"{label}: {found[:3]} vs {pattern!r}"


# --------------------------------------------------------------------------- Discuz


@pytest.mark.parametrize(("name", "url"), [
    ("pm_inbox_empty.html", "home.php?mod=space&do=pm"),
    ("pm_inbox_empty_filter_newpm.html", "home.php?mod=space&do=pm&filter=newpm"),
])
def test_discuz_empty_inbox_is_the_real_empty_page(name: str, url: str) -> None:
    now = captured_now("discuz", name)
    (served,) = Replay.at("discuz", now).fetch(url)
    real = captured("discuz", name)
    for page in (real, served):
        assert not xpath(page, "//dl[starts-with(@id, 'pmlist_')]/@id")
        assert not xpath(page, "//form[@id='deletepmform']/@id")
        assert dz.parse_inbox(page, tz=TZ, now=now) == []
    same_shape(real, served, "//div[@id='ct']//div[contains(@class,'mn')]//div[@class='emp']", r"当前没有相应的短消息")


def test_discuz_conversation_times_to_the_minute() -> None:
    name = "pm_conversation_minute_times_touid3.html"
    now = captured_now("discuz", name)
    want = dz.parse_conversation(captured("discuz", name), tz=TZ, now=now)
    replay = Replay.at("discuz", now)
    replay.conversation("小明", "3", want)
    (served,) = replay.fetch("home.php?mod=space&do=pm&subop=view&touid=3")
    assert dz.parse_conversation(served, tz=TZ, now=now) == want
    same_shape(captured("discuz", name), served, "//div[@id='pm_ul']//dd[@class='ptm']/span[@class='xg1']/span/@title", DZ_MINUTE)
    same_shape(captured("discuz", name), served, "//div[@id='pm_ul']/dl/@id", r"pmlist_\d+")


def test_discuz_mobile_api_escapes_posts_twice_and_subjects_once() -> None:
    name = "api_viewthread_entities_double_escaped.json"
    now = captured_now("discuz", name)
    real = json.loads(captured("discuz", name))
    html = dz.parse_thread_page(captured("discuz", "viewthread_entities.html"), tz=TZ, now=now)
    replay = Replay.at("discuz", now)
    typed = {  # what the players typed (the page shows it escaped once)
        "3": "投票：小明 (>_<) 我觉得他在 <装> 好人 & 划水",
        "4": "[b]投票：阿杰[/b] 理由见上 &quot; 引号 &amp; 实体 &lt;tag&gt;",
    }
    bodies = {p.pid: typed.get(p.pid, p.text) for p in html.posts}
    replay.thread("1", "第一局 <杀人游戏> & 测试局", html.posts, bodies, len(html.posts))
    (served,) = replay.fetch("api/mobile/index.php?version=4&module=viewthread&tid=1&page=1")
    got = json.loads(served)["Variables"]
    messages = {p["pid"]: p["message"] for p in got["postlist"]}
    for row in real["Variables"]["postlist"]:
        if row["pid"] in typed:
            assert messages[row["pid"]] == row["message"]  # byte for byte, e.g. (&amp;gt;_&amp;lt;)
    assert got["thread"]["subject"] == "第一局 &lt;杀人游戏&gt; &amp; 测试局"
    api = dz.parse_api_thread(served, tz=TZ, now=now)
    assert [p.text for p in api.posts if p.pid in typed] == [p.text for p in html.posts if p.pid in typed]
    assert api.subject == "第一局 <杀人游戏> & 测试局"


def _form_fields(page: bytes, form_id: str) -> tuple[str, list[str]]:
    inajax = re.search(rb"<!\[CDATA\[(.*)\]\]>", page, re.S)  # the inajax popup: HTML inside the XML
    form = lxml_html.fromstring(inajax.group(1) if inajax else page).xpath(f"//form[@id='{form_id}']")[0]
    names = []
    for el in form.iter("input", "textarea", "select", "button"):
        kind = (el.get("type") or "").lower()
        if el.get("name") and (kind not in ("checkbox", "radio") or el.get("checked") is not None):
            names.append(el.get("name"))
    return re.sub(r"fid=\d+", "fid=F", form.get("action")), sorted(names)


@pytest.mark.parametrize(("name", "url", "form_id"), [
    ("newthread_form_full_page.html", "forum.php?mod=post&action=newthread&fid=3", "postform"),
    ("pm_send_form_full_page.html", "home.php?mod=spacecp&ac=pm", "pmform_0"),
    ("pm_send_form_popup_touid3.xml", "home.php?mod=spacecp&ac=pm&op=showmsg&touid=3&inajax=1", "pmform_3"),
])
def test_discuz_new_thread_and_pm_forms_submit_what_the_real_ones_do(name: str, url: str, form_id: str) -> None:
    replay = Replay.at("discuz", captured_now("discuz", "pm_inbox_empty.html"))
    replay.user("小明", 3)
    (served,) = replay.fetch(url)
    assert _form_fields(served, form_id) == _form_fields(captured("discuz", name), form_id)


# --------------------------------------------------------------------------- phpwind


def _replay_reply_rows(name: str, charset: str) -> tuple[Replay, list]:  # type: ignore[type-arg]
    now = captured_now("phpwind", name)
    want = pw.parse_conversation(captured("phpwind", name), tz=TZ, now=now)
    replay = Replay.at("phpwind", now, charset)
    # the first message by 小明 (parentMid = its mid), then replies written with 回复
    replay.conversation("小明", "3", want, rids={2: 3, 3: 4}, unread=True)
    return replay, want


@pytest.mark.parametrize(("name", "charset"), [
    ("pm_conversation_with_reply_rows.html", "utf-8"),
    ("pm_conversation_with_reply_rows_gbk.html", "gbk"),
])
def test_phpwind_reply_rows_render_like_the_real_conversation(name: str, charset: str) -> None:
    replay, want = _replay_reply_rows(name, charset)
    (served,) = replay.fetch(f"message.php?type=sms&action=info&boxname=inbox&page=1&rid=3&itype=inbox&smstype=&mid={want[0].id}&redirect=1")
    assert pw.parse_conversation(served, tz=TZ, now=replay.clock()) == want
    real = captured("phpwind", name)
    same_shape(real, served, "//tr[starts-with(@id,'sms_0_')]/td[2]/a/@href", r"u\.php\?uid=\d+")  # outside td.name
    same_shape(real, served, "//tr[starts-with(@id,'sms_1_')]/td[@class='name']/span/@title", PW_MINUTE)
    same_shape(real, served, "//tr[starts-with(@id,'sms_1_')]//div[@class='textMes']")
    assert len(xpath(served, "//tr[starts-with(@id,'sms_1_')]/@id")) == len(want) - 1


def test_phpwind_replies_add_re_rows_to_the_inbox_and_the_header_counts_unread_rows() -> None:
    replay, want = _replay_reply_rows("pm_conversation_with_reply_rows.html", "utf-8")
    replay.user("阿杰", 4)
    replay.forum.send_pm("阿杰", GM_NAME, "杀 老王", subject="杀 老王", at=replay.clock())
    inbox, board = replay.fetch("message.php?type=sms", "thread.php?fid=3")
    real_inbox = captured("phpwind", "pm_inbox_with_re_rows.html")
    re_rows = "//tr[starts-with(@id,'sms_')]/td[@class='value']/h4/a[starts-with(normalize-space(.),'RE:')]"
    from_partner = [m for m in want[1:] if m.sender == "小明"]
    assert len(xpath(inbox, re_rows)) == len(from_partner) == len(xpath(real_inbox, re_rows))
    same_shape(real_inbox, inbox, re_rows, r"RE:占卜 夜行者")
    rows = pw.parse_inbox(inbox, tz=TZ, now=replay.clock())
    assert sum(r.unread for r in rows) == 4  # the first message, two RE rows, 阿杰's
    header = "//a[@href='message.php' and @class='mr5']"
    same_shape(captured("phpwind", "thread_list_unread_messages_count.html"), board, header, r"消息\(\d+\)")
    assert xpath(board, header) == ["消息(4)"]


def test_phpwind_a_re_row_opens_the_whole_conversation_like_the_real_one() -> None:
    """Opening a "RE:" inbox row (a reply written with 回复) shows the whole conversation."""
    replay, _ = _replay_reply_rows("pm_conversation_with_reply_rows.html", "utf-8")
    (inbox,) = replay.fetch("message.php?type=sms")
    re_rows = [r for r in pw.parse_inbox(inbox, tz=TZ, now=replay.clock()) if r.ref and r.id != "3"]
    assert re_rows, "the sandbox inbox shows no RE row"
    name = "pm_conversation_opened_from_re_row.html"
    want = pw.parse_conversation(captured("phpwind", name), tz=TZ, now=captured_now("phpwind", name))
    for row in re_rows:
        (served,) = replay.fetch(str(row.ref))
        assert pw.parse_conversation(served, tz=TZ, now=replay.clock()) == want


# --------------------------------------------------------------------------- both engines


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_no_edit_mark_within_a_minute_of_the_post(engine: str) -> None:
    """Discuz marks an edit only more than 60 s after the post (model_forum_post.php), phpwind
    after db_postedittime (1 minute): a quick correction shows no mark."""
    replay = Replay.at(engine, captured_now(engine, "pm_inbox_empty.html" if engine == "discuz" else "pm_inbox_gbk.html"))
    forum, clock = replay.forum, replay.clock
    forum.add_user("小明", "pw_3", uid=3)
    thread = forum.create_thread(GM_NAME, 3, "第一局", "开始", at=clock())
    quick = forum.post("小明", thread.tid, "投票：阿杰", at=clock())
    late = forum.post("小明", thread.tid, "投票：老王", at=clock())
    forum.edit_post(quick.pid, "投票：月光", at=clock() + timedelta(seconds=59))
    forum.edit_post(late.pid, "投票：月光", at=clock() + timedelta(seconds=61))
    clock.advance(minutes=2)
    url = f"forum.php?mod=viewthread&tid={thread.tid}" if engine == "discuz" else f"read.php?tid={thread.tid}"
    (served,) = replay.fetch(url)
    parse = dz.parse_thread_page if engine == "discuz" else pw.parse_thread_page
    posts = {p.pid: p for p in parse(served, tz=TZ, now=clock()).posts}
    assert posts[str(quick.pid)].edited is None and posts[str(quick.pid)].text == "投票：月光"
    assert posts[str(late.pid)].edited is not None



def test_discuz_login_page_of_a_member_welcomes_him_back() -> None:
    """A member opening the login page gets "欢迎您回来" and no login form (check-config logs in
    twice; the adapter must see that the session is alive)."""
    name = "login_page_member_welcomed_back.html"
    (served,) = Replay.at("discuz", captured_now("discuz", "pm_inbox_empty.html")).fetch("member.php?mod=logging&action=login")
    real = captured("discuz", name)
    for page in (real, served):
        assert not xpath(page, "//form[@name='login']/@id")
        assert dz.page_state(page.decode("utf-8")).uid == str(GM_UID)
    same_shape(real, served, "//div[@id='messagetext' and @class='alert_right']/p[1]/text()", rf"欢迎您回来，\S+ {GM_NAME}，现在将转入登录前页面")
    same_shape(real, served, "//div[@id='messagetext']/p[1]/script", r"""(setTimeout\("window\.location\.href ='[^']+';", 2000\);){2}""")


def test_phpwind_login_page_of_a_member_sends_him_to_the_index() -> None:
    """Real phpwind 8.7 (GET login.php with a live session, 2026-12-01): 302 to index.php."""
    replay = Replay.at("phpwind", captured_now("phpwind", "pm_inbox_gbk.html"))
    with serve(replay.forum) as base_url, client(base_url) as http:
        phpwind_login(http, GM_NAME, GM_PASSWORD, replay.forum.charset)
        answer = http.get("login.php")
    assert answer.status_code == 302 and answer.headers["location"].endswith("/index.php")
