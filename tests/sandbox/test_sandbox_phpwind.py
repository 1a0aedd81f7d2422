"""The phpwind 8.7 sandbox over real HTTP: login, verify/UA, read, ajax posting, PMs, GBK."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from sandbox_helpers import build_game_thread, client, phpwind_login, post_form, verify_of

from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve


def logged_in(base_url: str, name: str = "神的使者", password: str = "GmPass_2024", charset: str = "utf-8"):
    http = client(base_url)
    answer = phpwind_login(http, name, password, charset)  # a GBK forum names no charset in the header
    assert "您已经顺利登录" in answer.content.decode("gb18030" if charset == "gbk" else "utf-8")
    return http


def reply(http, tid: int, verify: str, text: str, charset: str = "utf-8"):
    return post_form(http, "post.php?", {"verify": verify, "step": "2", "action": "reply", "fid": "3",
                                          "tid": str(tid), "atc_title": "", "atc_content": text,
                                          "atc_usesign": "1", "atc_autourl": "1", "atc_convert": "1",
                                          "_hexie": "whatever", "ajax": "1"}, charset)


def test_login_cookie_and_winduid(phpwind_url: str) -> None:
    http = client(phpwind_url)
    response = phpwind_login(http, "神的使者", "GmPass_2024")
    winduser = [c for c in response.headers.get_list("set-cookie") if re.match(r"\w{5}_winduser=", c)]
    assert winduser and "HttpOnly" in winduser[0] and re.search(r"expires=\w{3}, \d\d-\w{3}-\d{4}", winduser[0])
    page = http.get("index.php").text
    assert "winduid = '2'" in page and re.search(r"verifyhash = '[0-9a-f]{8}'", page)
    wrong = phpwind_login(client(phpwind_url), "小明", "wrong_password")
    assert "用户名或密码错误,您还可以尝试 5 次" in wrong.text


def test_read_pages_floors_times_edit_mark_and_quote(
    phpwind: SandboxForum, clock: ManualClock, phpwind_url: str
) -> None:
    tid = build_game_thread(phpwind, clock)
    http = client(phpwind_url)
    page1 = http.get(f"read.php?tid={tid}&page=1").text
    assert 'id="readfloor_tpc"' in page1 and len(re.findall(r'<div class="read_t" id="readfloor_', page1)) == 10
    floors = re.findall(r'title="复制此楼地址">([^<]+)</a>', page1)
    assert floors[:5] == ["楼主", "沙发", "板凳", "地板", "4楼"]
    assert '<span title="2026-11-20 18:39:46">发表于: 11-20</span>' in page1
    page2 = http.get(f"read.php?tid={tid}&page=2").text
    assert re.search(r'<div id="alert_\d+" style="color:gray;margin-top:30px">\[ 此帖被\S+在2026-11-2\d \d\d:\d\d重新编辑 \]</div>', page2)
    assert re.search(r'<blockquote class="blockquote3"><div class="text" style="padding:15px;"><a href="[^"]*u\.php\?username=\S+" target="_blank">', page2)
    last = http.get(f"read.php?tid={tid}&page=e").text
    assert "<b>3</b>" in last and "<b>3</b>" in http.get(f"read.php?tid={tid}&page=99").text
    assert "发表于: 60分钟前" in last  # ceil(3600 s / 60)
    assert "帖子ID非法" in http.get("read.php?tid=99999").text


def test_reply_ajax_without_pid_flood_in_whole_seconds_and_length(
    phpwind: SandboxForum, clock: ManualClock, phpwind_url: str
) -> None:
    tid = build_game_thread(phpwind, clock)
    http = logged_in(phpwind_url, "小明", "Player_pw1")
    verify = verify_of(http.get(f"read.php?tid={tid}").text)
    ok = reply(http, tid, verify, "投票：阿杰")
    assert ok.headers["content-type"] == "text/xml;charset=utf-8"
    assert ok.text == f'<?xml version="1.0" encoding="utf-8"?><ajax><![CDATA[success\tread.php?tid={tid}&ds=1&page=e#a]]></ajax>'
    assert "灌水预防机制已经打开，在5秒内不能发帖" in reply(http, tid, verify, "再投一次阿杰").text
    clock.advance(seconds=5)
    assert "灌水预防机制已经打开" in reply(http, tid, verify, "再投一次阿杰").text
    clock.advance(seconds=1)
    assert "内容长度错误" in reply(http, tid, verify, "x").text
    assert "success\t" in reply(http, tid, verify, "再投一次阿杰").text


def test_verify_is_bound_to_the_user_agent_and_the_session(
    phpwind: SandboxForum, clock: ManualClock, phpwind_url: str
) -> None:
    tid = build_game_thread(phpwind, clock)
    http = logged_in(phpwind_url)
    verify = verify_of(http.get(f"read.php?tid={tid}").text)
    other_agent = reply(http, tid, verify, "换了浏览器的回复")
    assert "success" in other_agent.text  # same UA: accepted
    clock.advance(seconds=10)
    http.headers["User-Agent"] = "Mozilla/5.0 (Windows NT 10.0) Chrome/120.0"
    assert "非法请求，请返回重试！" in reply(http, tid, verify, "换了浏览器的回复").text
    http.headers["User-Agent"] = client(phpwind_url).headers["User-Agent"]
    phpwind.faults.expire_sessions()
    assert "winduid = ''" in http.get(f"read.php?tid={tid}").text
    assert "非法请求，请返回重试！" in reply(http, tid, verify, "会话过期后的回复测试内容").text
    pm = post_form(http, "message.php?type=ajax&action=post",
                   {"verify": verify, "_usernames[]": "小明", "atc_title": "t", "atc_content": "c", "step": "2"})
    assert '{"bool":null,"message":"你还没有登录"}' in pm.text


def test_pm_send_errors_inbox_mark_read_and_view(phpwind: SandboxForum, phpwind_url: str) -> None:
    player = logged_in(phpwind_url, "月光", "Player_pw9")
    verify = verify_of(player.get("index.php").text)

    def send(to: str, title: str = "夜间行动", text: str = "占卜 夜行者") -> str:
        return post_form(player, "message.php?type=ajax&action=post",
                         {"verify": verify, "step": "2", "_usernames[]": to, "atc_title": title,
                          "atc_content": text}).text

    assert '{"bool":true,"message":"消息已发送"}' in send("神的使者")
    assert '{"bool":true,"message":"消息已发送"}' in send("神的使者", "问题", "弃票算不算？")  # no PM flood limit
    assert "收件人不能为空" in send("")
    assert "用户不存在" in send("nobody")
    assert "你不能给自己发消息" in send("月光")
    gm = logged_in(phpwind_url)
    inbox = gm.get("message.php?type=sms").text
    rows = re.findall(r'<tr class="tr3" id="sms_(\d+)">', inbox)
    assert len(rows) == 2 and inbox.count("(未读)") == 2
    gm_verify = verify_of(inbox)
    marked = post_form(gm, "message.php?type=ajax&action=mark", {"rids[]": rows[0], "verify": gm_verify})
    assert "标记已读操作成功!" in marked.text
    assert gm.get("message.php?type=sms").text.count("(未读)") == 1
    link = re.search(rf'href="(message\.php\?type=sms&action=info[^"]*rid={rows[1]}[^"]*)"', inbox).group(1)  # type: ignore[union-attr]
    view = gm.get(link.replace("&amp;", "&")).text
    assert re.search(r'<a href="u\.php\?uid=11">月光</a>', view) and "<h1>夜间行动</h1>" in view
    assert "(未读)" not in gm.get("message.php?type=sms").text
    parent = re.search(r'name="parentMid" value="(\d+)"', view).group(1)  # type: ignore[union-attr]
    answer = post_form(gm, "message.php?type=ajax&action=postReply",
                       {"parentMid": parent, "rid": rows[1], "atc_content": "收到，今晚的行动已记录。", "verify": gm_verify})
    assert '"bool":true' in answer.text
    assert player.get("message.php?type=sms").text.count("(未读)") == 1


def test_profile_by_name_and_permalink(phpwind: SandboxForum, clock: ManualClock, phpwind_url: str) -> None:
    tid = build_game_thread(phpwind, clock)
    http = client(phpwind_url)
    assert '<strong class="f14 b">小明</strong>' in http.get("u.php?username=%E5%B0%8F%E6%98%8E").text
    assert "您访问的空间不存在!" in http.get("u.php?uid=99999").text
    pid = phpwind.threads[tid].pids[15]
    jump = http.get(f"job.php?action=topost&tid={tid}&pid={pid}", follow_redirects=False)
    assert jump.status_code == 302 and jump.headers["location"] == f"read.php?tid={tid}&ds=1&page=2#{pid}"


@pytest.fixture
def gbk_url(clock: ManualClock) -> Iterator[tuple[SandboxForum, str]]:
    forum = SandboxForum("phpwind", clock=clock, charset="gbk")
    seed_demo(forum)
    with serve(forum) as base_url:
        yield forum, base_url


def test_gbk_pages_declare_and_use_gbk_both_ways(gbk_url: tuple[SandboxForum, str], clock: ManualClock) -> None:
    forum, base_url = gbk_url
    tid = build_game_thread(forum, clock)
    http = logged_in(base_url, charset="gbk")
    page = http.get(f"read.php?tid={tid}")
    assert page.headers["content-type"] == "text/html"  # as the real GBK 8.7: the page says it
    assert b'<meta charset="gbk" />' in page.content
    assert "投票".encode("gbk") in page.content
    answer = reply(http, tid, verify_of(page.content.decode("gbk")), "投票：白色的猫", charset="gbk")
    assert answer.headers["content-type"] == "text/xml;charset=gbk"
    assert forum.last_post(tid).text == "投票：白色的猫"
