"""The Discuz! X3.5 sandbox over real HTTP (httpx on loopback): login, read, post, PM, API."""

from __future__ import annotations

import re

from sandbox_helpers import build_game_thread, client, discuz_login, formhash_of

from shenshi.adapters.sandbox import ManualClock, SandboxForum

REPLY = "forum.php?mod=post&action=reply&fid=3&tid={tid}&extra=&replysubmit=yes"
FASTPOST = REPLY + "&infloat=yes&handlekey=fastpost&inajax=1"


def logged_in(base_url: str, name: str = "神的使者", password: str = "GmPass_2024"):
    http = client(base_url)
    response = discuz_login(http, name, password)
    assert "欢迎您回来，新手上路 " + name in response.text
    return http


def test_login_sets_the_engine_cookies_and_the_uid_in_every_page(discuz_url: str) -> None:
    http = client(discuz_url)
    response = discuz_login(http, "神的使者", "GmPass_2024")
    assert response.status_code == 200
    assert 'id="messagetext" class="alert_right"' in response.text
    set_cookies = response.headers.get_list("set-cookie")
    auth = [c for c in set_cookies if re.match(r"\w{4}_2132_auth=", c)]
    assert auth and "HttpOnly" in auth[0] and "Max-Age=2592000" in auth[0]
    assert {n.split("_2132_")[1] for n in http.cookies} >= {"saltkey", "auth", "sid", "lastact"}
    page = http.get("forum.php?mod=forumdisplay&fid=3").text
    assert "discuz_uid = '2'" in page


def test_wrong_password_is_refused_with_the_real_text(discuz_url: str) -> None:
    response = discuz_login(client(discuz_url), "小明", "wrong_password")
    assert "登录失败，您还可以尝试 3 次" in response.text
    assert not any("_auth=" in c for c in response.headers.get_list("set-cookie"))


def test_thread_pages_hold_ten_posts_and_clamp_a_too_large_page(
    discuz: SandboxForum, clock: ManualClock, discuz_url: str
) -> None:
    tid = build_game_thread(discuz, clock)
    http = logged_in(discuz_url)
    page1 = http.get(f"forum.php?mod=viewthread&tid={tid}&extra=page%3D1&page=1").text
    assert len(re.findall(r'<div id="post_\d+" ><table id="pid\d+" class="plhin"', page1)) == 10
    assert '<span title="共 3 页"> / 3 页</span>' in page1
    assert re.search(r'id="postnum\d+"[^>]*>\n楼主</a>', page1)
    clamped = http.get(f"forum.php?mod=viewthread&tid={tid}&page=99").text
    assert "<strong>3</strong>" in clamped and len(re.findall(r'id="postmessage_\d+"', clamped)) == 6
    last = http.get(f"forum.php?mod=redirect&tid={tid}&goto=lastpost", follow_redirects=False)
    assert last.status_code == 302 and last.headers["location"].endswith(f"tid={tid}&page=3#lastpost")


def test_relative_and_absolute_times_follow_dgmdate(
    discuz: SandboxForum, clock: ManualClock, discuz_url: str
) -> None:
    tid = build_game_thread(discuz, clock)
    page = client(discuz_url).get(f"forum.php?mod=viewthread&tid={tid}&page=3").text
    times = re.findall(r'<em id="authorposton\d+">发表于 (.*?)</em>', page)
    assert times[-1] == '<span title="2026-11-28 01:39:46">半小时前</span>'  # exactly 3600 s
    assert times[-2] == '<span title="2026-11-27 18:39:46">昨天&nbsp;18:39</span>'
    clock.advance(hours=8)
    page = client(discuz_url).get(f"forum.php?mod=viewthread&tid={tid}&page=3").text
    assert re.findall(r'<em id="authorposton\d+">发表于 (.*?)</em>', page)[-1] == (
        '<span title="2026-11-28 01:39:46">9&nbsp;小时前</span>')
    page1 = client(discuz_url).get(f"forum.php?mod=viewthread&tid={tid}&page=1").text
    times = re.findall(r'<em id="authorposton\d+">发表于 (.*?)</em>', page1)
    assert times[0] == "2026-11-20 18:39:46"  # 7 days or more: the bare absolute time
    assert times[1] == '<span title="2026-11-21 01:39:46">7&nbsp;天前</span>'


def test_quote_and_edit_mark_render_as_the_engine_does(
    discuz: SandboxForum, clock: ManualClock, discuz_url: str
) -> None:
    tid = build_game_thread(discuz, clock)
    page = client(discuz_url).get(f"forum.php?mod=viewthread&tid={tid}&page=2").text
    assert re.search(r'<div class="quote"><blockquote><font size="2"><a href="http://127\.0\.0\.1:\d+/forum\.php\?'
                     r'mod=redirect&amp;goto=findpost&amp;pid=\d+&amp;ptid=\d+" target="_blank">'
                     r'<font color="#999999">\S+ 发表于 2026-11-23 14:39</font></a></font><br />', page)
    assert re.search(r'<i class="pstatus"> 本帖最后由 \S+ 于 2026-11-2\d \d\d:\d\d 编辑 </i><br />\n<br />\n改票：阿杰',
                     page)


def test_reply_answers_301_with_the_new_pid_and_appears_on_the_last_page(
    discuz: SandboxForum, clock: ManualClock, discuz_url: str
) -> None:
    tid = build_game_thread(discuz, clock)
    http = logged_in(discuz_url, "小明", "Player_pw1")
    clock.advance(minutes=1)
    formhash = formhash_of(http.get(f"forum.php?mod=viewthread&tid={tid}").text)
    response = http.post(REPLY.format(tid=tid), data={"formhash": formhash, "message": "投 阿杰",
                         "posttime": "0", "wysiwyg": "0", "usesig": "1", "subject": ""})
    assert response.status_code == 301
    pid = discuz.last_post(tid).pid
    assert response.headers["location"] == f"forum.php?mod=viewthread&tid={tid}&pid={pid}&page=3&extra=#pid{pid}"
    assert discuz.last_post(tid).text == "投 阿杰"


def test_fastpost_xml_flood_control_and_minimum_bytes(
    discuz: SandboxForum, clock: ManualClock, discuz_url: str
) -> None:
    tid = build_game_thread(discuz, clock)
    http = logged_in(discuz_url, "小明", "Player_pw1")
    clock.advance(minutes=1)
    formhash = formhash_of(http.get(f"forum.php?mod=viewthread&tid={tid}").text)

    def fastpost(message: str) -> str:
        return http.post(FASTPOST.format(tid=tid), data={"formhash": formhash, "message": message}).text

    assert "抱歉，您的帖子小于 10 个字符的限制" in fastpost("投票")  # 6 bytes
    ok = fastpost("投 阿杰")  # exactly 10 bytes passes
    assert "succeedhandle_fastpost('forum.php?mod=viewthread&tid=" in ok and "{'fid':'3'" in ok
    flood = fastpost("投票：阿杰，第二次")
    assert "errorhandle_fastpost('抱歉，您两次发表间隔少于 15 秒，请稍候再发表', {'floodctrl':'15'})" in flood
    clock.advance(seconds=14)
    assert "errorhandle_fastpost" in fastpost("投票：阿杰，第三次")
    clock.advance(seconds=1)
    assert "succeedhandle_fastpost" in fastpost("投票：阿杰，第四次")


def test_pm_flood_is_shared_with_posts(discuz: SandboxForum, clock: ManualClock, discuz_url: str) -> None:
    tid = build_game_thread(discuz, clock)
    http = logged_in(discuz_url, "小明", "Player_pw1")
    formhash = formhash_of(http.get(f"forum.php?mod=viewthread&tid={tid}").text)
    http.post(REPLY.format(tid=tid), data={"formhash": formhash, "message": "投票：阿杰 理由充分"})
    pm = http.post("home.php?mod=spacecp&ac=pm&op=send&touid=2&inajax=1",
                   data={"formhash": formhash, "pmsubmit": "true", "touid": "2",
                         "handlekey": "showmsg_2", "message": "占卜 夜行者"})
    assert "errorhandle_showmsg_2('两次发送短消息太快，请稍候再发送', {})" in pm.text


def test_stale_formhash_after_session_expiry_gets_the_503_system_error(
    discuz: SandboxForum, clock: ManualClock, discuz_url: str
) -> None:
    tid = build_game_thread(discuz, clock)
    http = logged_in(discuz_url)
    formhash = formhash_of(http.get(f"forum.php?mod=viewthread&tid={tid}").text)
    assert discuz.faults.expire_sessions() == 1
    page = http.get(f"forum.php?mod=viewthread&tid={tid}").text
    assert "discuz_uid = '0'" in page and 'id="lsform"' in page  # renders as guest
    response = http.post(REPLY.format(tid=tid), data={"formhash": formhash, "message": "会话过期后的回复测试内容"})
    assert response.status_code == 503
    assert "您当前的访问请求当中含有非法字符，已经被系统拒绝" in response.text


def test_missing_formhash_and_guest_reply_texts(discuz: SandboxForum, clock: ManualClock, discuz_url: str) -> None:
    tid = build_game_thread(discuz, clock)
    http = logged_in(discuz_url)
    missing = http.post(REPLY.format(tid=tid), data={"message": "没有 formhash 的回复内容"})
    assert "抱歉，您的请求来路不正确或表单验证串不符，无法提交" in missing.text
    tainted = http.post(REPLY.format(tid=tid), data={"message": "带 <b> 的回复"})
    assert tainted.status_code == 503
    guest = client(discuz_url).get(f"forum.php?mod=post&action=reply&fid=3&tid={tid}")
    assert "抱歉，您尚未登录，没有权限在该版块回帖" in guest.text


def test_session_expires_on_the_injected_clock(discuz: SandboxForum, clock: ManualClock, discuz_url: str) -> None:
    http = client(discuz_url)
    discuz_login(http, "神的使者", "GmPass_2024", cookietime="3600")
    assert "discuz_uid = '2'" in http.get("forum.php").text
    clock.advance(minutes=61)
    assert "discuz_uid = '0'" in http.get("forum.php").text


def test_pm_by_uid_and_by_name_inbox_unread_and_view_marks_read(discuz: SandboxForum, discuz_url: str) -> None:
    player = logged_in(discuz_url, "月光", "Player_pw9")
    formhash = formhash_of(player.get("forum.php").text)
    by_uid = player.post("home.php?mod=spacecp&ac=pm&op=send&touid=2&inajax=1",
                         data={"formhash": formhash, "pmsubmit": "true", "touid": "2",
                               "handlekey": "showmsg_2", "message": "占卜 夜行者"})
    assert re.search(r"succeedhandle_showmsg_2\('home\.php\?mod=space&do=pm&subop=view&touid=2', '操作成功 ', "
                     r"\{'pmid':'\d+'\}\)", by_uid.text)
    discuz.clock.advance(seconds=20)  # type: ignore[attr-defined]
    other = logged_in(discuz_url, "Rex", "Player_pw10")
    by_name = other.post("home.php?mod=spacecp&ac=pm&op=send&touid=0&pmid=0",
                         data={"formhash": formhash_of(other.get("forum.php").text), "pmsubmit": "true",
                               "username": "神的使者", "message": "救 月光"}, follow_redirects=False)
    assert by_name.status_code == 301 and by_name.headers["location"] == "home.php?mod=space&do=pm"

    gm = logged_in(discuz_url)
    inbox = gm.get("home.php?mod=space&do=pm").text
    assert '点击这里查看 <strong class="xi1">2</strong> 条未读消息' in inbox
    assert len(re.findall(r'<dl id="pmlist_\d+" class="bbda cur1 cl newpm">', inbox)) == 2
    view = gm.get("home.php?mod=space&do=pm&subop=view&touid=11").text
    assert re.search(r'<a href="home\.php\?mod=space&amp;uid=11" target="_blank" class="xw1">月光</a>\n &nbsp; \n'
                     r"<br />\n占卜 夜行者<br />", view)
    after = gm.get("home.php?mod=space&do=pm&filter=newpm").text
    assert len(re.findall(r'<dl id="pmlist_\d+"', after)) == 1


def test_profile_by_name_and_unknown_user(discuz_url: str) -> None:
    http = client(discuz_url)
    page = http.get("home.php?mod=space&username=%E5%B0%8F%E6%98%8E").text
    assert '<span class="xw0">(UID: 3)</span>' in page
    assert "抱歉，您指定的用户空间不存在" in http.get("home.php?mod=space&uid=99999&do=profile").text


def test_mobile_api_modules_keep_the_captured_shapes(
    discuz: SandboxForum, clock: ManualClock, discuz_url: str
) -> None:
    tid = build_game_thread(discuz, clock)
    discuz.send_pm("月光", "神的使者", "占卜 夜行者")
    http = logged_in(discuz_url)
    api = "api/mobile/index.php?version=4&module="
    view = http.get(f"{api}viewthread&tid={tid}&page=1").json()
    first = view["Variables"]["postlist"][0]
    assert first["first"] == "1" and first["number"] == "1" and first["dbdateline"].isdigit()
    assert view["Variables"]["ppp"] == "10" and view["Variables"]["thread"]["replies"] == "25"
    assert len(http.get(f"{api}viewthread&tid={tid}&page=2&ppp=20").json()["Variables"]["postlist"]) == 6
    missing = http.get(f"{api}viewthread&tid=99999")
    assert missing.status_code == 404 and missing.json()["Message"]["messageval"] == "thread_nonexistence"
    board = http.get(f"{api}forumdisplay&fid=3").json()["Variables"]
    assert board["forum_threadlist"][0]["replies"] == "25"
    pms = http.get(f"{api}mypm").json()["Variables"]
    assert pms["list"][0]["isnew"] == "1" and pms["list"][0]["msgfrom"] == "月光"
    conversation = http.get(f"{api}mypm&subop=view&touid=11").json()["Variables"]
    assert [m["message"] for m in conversation["list"]] == ["占卜 夜行者"]
    assert http.get(f"{api}profile&uid=3").json()["Variables"]["space"]["username"] == "小明"
    formhash = http.get(f"{api}mypm").json()["Variables"]["formhash"]
    sent = http.post(f"{api}sendreply&tid={tid}&replysubmit=yes", data={"formhash": formhash, "message": "GM 通过手机接口回复。"})
    assert sent.json()["Message"]["messageval"] == "post_reply_succeed"
    assert sent.json()["Variables"]["pid"] == str(discuz.last_post(tid).pid)
    flood = http.post(f"{api}sendreply&tid={tid}&replysubmit=yes", data={"formhash": formhash, "message": "第二条回复，应该触发灌水限制。"})
    assert flood.json()["Message"]["messageval"] == "post_flood_ctrl" and flood.json()["Variables"]["pid"] == "0"
    clock.advance(seconds=16)  # UCenter: more than 15 s since the last PM in his conversations (月光's)
    pm = http.post(f"{api}sendpm&touid=11&pmsubmit=yes", data={"formhash": formhash, "message": "收到：占卜结果【好人】"})
    assert pm.json()["Message"]["messageval"] == "do_success" and pm.json()["Variables"]["pmid"].isdigit()


def test_board_listing_has_reply_counts_and_last_post(
    discuz: SandboxForum, clock: ManualClock, discuz_url: str
) -> None:
    tid = build_game_thread(discuz, clock)
    page = client(discuz_url).get("forum.php?mod=forumdisplay&fid=3").text
    row = re.search(rf'<tbody id="normalthread_{tid}">.*?</tbody>', page, re.S).group(0)  # type: ignore[union-attr]
    assert re.search(r'<td class="num"><a href="[^"]*" class="xi2">25</a><em>\d+</em></td>', row)
    last = discuz.users[discuz.last_post(tid).author_uid].name
    assert f'c="1">{last}</a></cite>' in row and '<span title="2026-11-28 01:39">半小时前</span>' in row
