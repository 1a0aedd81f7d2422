"""One contract suite, parametrised over the registry: every engine against its recorded flows."""

from __future__ import annotations

import logging

import httpx
import pytest
from adapter_world import PASSWORD, World, logged_in

from shenshi.adapters import errors
from shenshi.adapters.base import ADAPTERS, ForumAdapter
from shenshi.errors import ConfigError
from shenshi.records import ConversationMark, InboxCursor, ThreadCursor

ENGINES = [adapter.engine for adapter in ADAPTERS]

# What each engine's recorded forum holds, by capability.
SCENES = {
    "discuz": {
        "wrong_password": "login_post_response_wrong_password.html",
        "captcha_login": "login_page_default_with_seccode.html",
        "pages": [f"viewthread_p{n}.html" for n in range(1, 8)],
        "full_thread": ("2", [f"viewthread_p{n}.html" for n in range(1, 8)], 69),
        "guest_page": "viewthread_p1_guest.html",
        "board": "forumdisplay_fid3.html",
        "fid": "3",
        "thread_posts": 69,
        "inbox": "pm_inbox_unread.html",
        "conversations": {
            "1": "pm_conversation_view_touid11_yueguang.html",
            "2": "pm_conversation_view_touid8_lily99_kill_declaration.html",
            "3": "pm_conversation_view_touid9_yexingzhe_unread.html",
        },
        "reply_tid": "3",
        "reply_routes": ["viewthread_analysis_thread_tid3.html"],
        "reply": "reply_post_response_success_noredirect.html",
        "reply_pid": "152",
        "reply_text": "自己顶一下，欢迎大家来讨论第一局！",
        "flood": "reply_post_response_flood_control.html",
        "flood_wait": 15.0,
        "stale": "login_expired_post_reply_stale_formhash.html",
        "lookup": ("space_by_username_redirect.html", "小明", "3"),
        "pm": "pm_send_response_ajax.xml",
        "pm_to": ("神的使者", "2"),
        "pm_id": "1",
        "mark_read": None,
        "maintenance": "maintenance_synthetic.html",
        "not_found": "thread_404_nonexistent_tid.html",
    },
    "phpwind": {
        "wrong_password": "login_post_response_wrong_password.html",
        "captcha_login": "login_page_captcha_synthetic.html",
        "pages": ["read_p1.html", "read_p2.html", "read_p3.html", "read_p4.html", "read_p7.html"],
        "full_thread": ("3", ["read_analysis_thread_tid3.html"], 3),
        "guest_page": "read_p1_guest.html",
        "board": "thread_list_fid3.html",
        "fid": "3",
        "thread_posts": 68,
        "inbox": "pm_inbox_unread.html",
        "conversations": {"38": "pm_conversation_view.html", "22": "pm_conversation_view_2.html"},
        "conversation_ids": {"30", "22"},  # parentMid: every inbox row of a conversation opens it
        "reply_tid": "2",
        "reply_routes": ["read_p1.html", "reply_form.html", "read_page_e_last.html"],
        "reply": "reply_post_response_success_ajax.xml",
        "reply_pid": "58",
        "reply_text": "【第三天结果】夜行者 得票 5 票，被放逐。夜行者 的身份是：杀手！\n所有杀手已出局，好人阵营胜利！",
        "flood": "reply_post_response_flood_control_ajax.xml",
        "flood_wait": 6.0,
        "stale": "reply_post_response_bad_verify_ajax.xml",
        "lookup": ("profile_by_username.html", "小明", "3"),
        "pm": "pm_send_response_ajax.xml",
        "pm_to": ("小明", None),
        "pm_id": None,
        "mark_read": "pm_mark_read_response.xml",
        "maintenance": "maintenance_synthetic.html",
        "not_found": "thread_404_nonexistent_tid.html",
    },
}


@pytest.fixture(params=ENGINES)
def world(request, make_world) -> World:  # type: ignore[no-untyped-def]
    return make_world(request.param)


def scene(world: World) -> dict:
    return SCENES[world.engine]


def test_registry_builds_protocol_adapters(world: World) -> None:
    adapter = world.adapter()
    assert isinstance(adapter, ForumAdapter)
    assert adapter.engine == world.engine
    assert PASSWORD not in repr(adapter.settings)


FACTS = ("flood_interval", "flood_counts_pms", "min_post_bytes", "max_post_bytes", "posts_per_page",
         "default_charset", "time_precision")


@pytest.mark.parametrize("adapter_class", ADAPTERS, ids=ENGINES)
def test_every_engine_declares_its_facts(adapter_class: type) -> None:
    missing = [fact for fact in FACTS if not hasattr(adapter_class, fact)]
    assert not missing, f"{adapter_class.__name__} does not declare {missing}"
    assert 0 < adapter_class.min_post_bytes < adapter_class.max_post_bytes
    assert adapter_class.time_precision.shows_seconds("post")
    assert not adapter_class.time_precision.shows_seconds("pm")  # PM times are shown to the minute


def test_a_forums_own_settings_override_the_engine_facts(world: World) -> None:
    engine_default = type(world.adapter()).flood_interval
    adapter = world.adapter(flood_interval=30.0, min_post_bytes=40, posts_per_page=25)
    assert (adapter.flood_interval, adapter.min_post_bytes, adapter.posts_per_page) == (30.0, 40, 25)
    assert type(adapter).flood_interval == engine_default  # the class keeps the engine's default
    assert adapter.pages_of(26, 26) == [2]


def test_short_posts_are_padded_to_the_forums_minimum_in_bytes(world: World) -> None:
    adapter = world.adapter()
    least = adapter.min_post_bytes
    short = "x" * (least - 1) if least > 1 else ""
    assert len(adapter.fit_min_length(short).encode()) >= least
    assert len(adapter.fit_min_length("平安夜" * least).encode()) >= least
    exact = "x" * least
    assert adapter.fit_min_length(exact) == exact
    if world.engine == "discuz":
        assert adapter.fit_min_length("平安夜") != "平安夜"  # 3 characters, 9 bytes in UTF-8


def test_a_cookies_file_others_can_read_is_refused(world: World, tmp_path) -> None:  # type: ignore[no-untyped-def]
    cookies = tmp_path / "cookies.txt"
    cookies.write_text("# Netscape HTTP Cookie File\n", encoding="utf-8")
    cookies.chmod(0o644)
    with pytest.raises(ConfigError, match=r"\[forum\] cookies_file: .*cookies\.txt 别人也能读；请运行 chmod 600"):
        world.adapter(cookies_file=cookies)
    cookies.chmod(0o600)
    assert world.adapter(cookies_file=cookies).settings.cookies_file == cookies


def test_login_learns_own_uid_and_token(world: World) -> None:
    adapter = logged_in(world)
    assert adapter.own_uid == "2"
    assert adapter.own_name == "神的使者"


def test_login_never_logs_password_or_cookies(world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    adapter = logged_in(world)
    assert adapter.own_uid == "2"
    session = next(c for c in adapter.http.client.cookies.jar if c.name.endswith(("_auth", "_winduser")))
    assert caplog.records, "the login should have logged its requests at DEBUG"
    assert PASSWORD not in caplog.text
    assert session.value not in caplog.text


def test_wrong_password_is_login_failed(world: World) -> None:
    world.route("login_page.html")
    world.route(scene(world)["wrong_password"])
    with pytest.raises(errors.LoginFailed):
        world.adapter().login()


def test_captcha_on_login_says_what_to_do(world: World) -> None:
    world.route(scene(world)["captcha_login"])
    with pytest.raises(errors.CaptchaRequired) as caught:
        world.adapter().login()
    assert "exempt" in str(caught.value) and "cookies" in str(caught.value)


def test_read_whole_thread_then_nothing_new(world: World) -> None:
    tid, pages, total = scene(world)["full_thread"]
    for name in pages:
        world.route(name)
    adapter = logged_in(world)
    delta = adapter.read_thread(tid)
    assert [p.floor for p in delta.posts] == list(range(1, total + 1))
    assert len({p.pid for p in delta.posts}) == total
    assert delta.requests == len(pages)
    assert delta.cursor.floor == total
    restored = ThreadCursor.from_json(delta.cursor.to_json())
    assert restored == delta.cursor
    before = adapter.requests
    again = adapter.read_thread(tid, restored)
    assert again.posts == ()
    assert adapter.requests - before == 1  # only the incomplete last page, nothing complete again
    assert not again.shrunk


@pytest.mark.parametrize("back", [3, 6])
def test_catch_up_costs_at_most_one_page_more_than_the_new_posts_need(world: World, back: int) -> None:
    s = scene(world)
    if back > 3 and world.engine == "phpwind":
        pytest.skip("phpwind pages 5-6 were not captured")
    for name in s["pages"]:
        world.route(name)
    adapter = logged_in(world)
    last = adapter.reread_pages("2", [7])[0]
    known = adapter.reread_pages("2", [6])[0].posts + last.posts if back > 3 else last.posts
    anchor = known[-back - 1]
    cursor = ThreadCursor(tid="2", floor=anchor.floor, pid=anchor.pid, per_page=10, pages=7, tail=(anchor.pid,))
    before = adapter.requests
    delta = adapter.read_thread("2", cursor)
    assert [p.pid for p in delta.posts] == [p.pid for p in known[-back:]]
    assert adapter.requests - before <= -(-back // 10) + 1
    assert delta.cursor.floor == last.posts[-1].floor


def test_deleted_thread_is_reported_not_raised(world: World) -> None:
    s = scene(world)
    world.route(s["pages"][0], body=s["not_found"], status=404 if world.engine == "discuz" else 200)
    adapter = logged_in(world)
    delta = adapter.read_thread("2", ThreadCursor(tid="2", floor=3, pid="x"))
    assert delta.deleted and delta.posts == ()


def test_list_board_gives_reply_counts_and_quiet_poll_skips(world: World) -> None:
    s = scene(world)
    world.route(s["board"])
    adapter = logged_in(world)
    rows = {row.tid: row for row in adapter.list_board(s["fid"])}
    assert rows["2"].replies + 1 == s["thread_posts"]
    cursors = {"2": ThreadCursor(tid="2", floor=s["thread_posts"]), "4": ThreadCursor(tid="4", floor=rows["4"].replies + 1)}
    before = adapter.requests
    assert adapter.poll_board(s["fid"], cursors) == {}
    assert adapter.requests - before == 1


def _seeded_inbox(world: World, adapter) -> InboxCursor:  # type: ignore[no-untyped-def]
    """A cursor that already stored every conversation the captures do not hold."""
    from shenshi.adapters import discuz_parse, phpwind_parse

    parser = discuz_parse if world.engine == "discuz" else phpwind_parse
    from adapter_world import ENGINE_DIRS

    rows = parser.parse_inbox((ENGINE_DIRS[world.engine] / scene(world)["inbox"]).read_bytes(), tz=adapter.tz, now=adapter.now())
    marks = [ConversationMark(id=r.id, seen=("old",), fingerprint=adapter.fingerprint(r)) for r in rows if r.id not in scene(world)["conversations"]]
    return InboxCursor(tuple(marks))


def test_read_pms_both_directions_then_quiet(world: World) -> None:
    s = scene(world)
    for name in s["conversations"].values():  # before the inbox: its URL is a prefix of theirs
        world.route(name)
    # the second poll sees the inbox as the forum showed it after the conversations were opened
    world.route(s["inbox"], then=["pm_inbox_after_reading.html"])
    adapter = logged_in(world)
    cursor = _seeded_inbox(world, adapter)
    before = adapter.requests
    delta = adapter.read_pms(cursor)
    assert adapter.requests - before == 1 + len(s["conversations"])
    assert {m.conversation for m in delta.messages} == s.get("conversation_ids", set(s["conversations"]))
    assert all(m.sender and m.sender_uid and m.text for m in delta.messages)
    if world.engine == "discuz":
        assert {m.sender for m in delta.messages} >= {"神的使者", "月光", "Lily99", "夜行者"}  # both directions
    restored = InboxCursor.from_json(delta.cursor.to_json())
    assert restored == delta.cursor
    # The conversations were opened (so the forum now shows them read): the cursor decides.
    before = adapter.requests
    quiet = adapter.read_pms(restored)
    assert quiet.messages == ()
    assert adapter.requests - before == 1


def test_mark_read(world: World) -> None:
    s = scene(world)
    adapter = logged_in(world)
    before = adapter.requests
    if s["mark_read"] is None:
        adapter.mark_read(["1"])  # Discuz: viewing already marked it read
        assert adapter.requests == before
    else:
        route = world.route(s["mark_read"])
        adapter.mark_read(["22"])
        assert route.call_count == 1
        assert b"rids%5B%5D=22" in route.calls.last.request.content


def _reply_routes(world: World):  # type: ignore[no-untyped-def]
    for name in scene(world)["reply_routes"]:
        world.route(name)


def test_post_reply_returns_new_pid(world: World) -> None:
    s = scene(world)
    _reply_routes(world)
    world.route(s["reply"])
    adapter = logged_in(world)
    assert adapter.post_reply(s["reply_tid"], s["reply_text"]) == s["reply_pid"]


def test_flood_control_waits_the_stated_time_and_retries(world: World) -> None:
    s = scene(world)
    _reply_routes(world)
    world.route(s["reply"], body=s["flood"], status=200, then=[s["reply"]])
    adapter = logged_in(world)
    assert adapter.post_reply(s["reply_tid"], s["reply_text"]) == s["reply_pid"]
    assert s["flood_wait"] in world.clock.slept
    assert adapter.flood_interval == s["flood_wait"]  # the engine fact is what the real forum says


def test_stale_token_logs_in_again_and_retries_once(world: World) -> None:
    s = scene(world)
    _reply_routes(world)
    status = 503 if world.engine == "discuz" else 200
    reply = world.route(s["reply"], body=s["stale"], status=status, then=[s["reply"]])
    adapter = logged_in(world)
    assert adapter.post_reply(s["reply_tid"], s["reply_text"]) == s["reply_pid"]
    assert reply.call_count == 2


def test_session_expired_mid_poll_logs_in_again(world: World) -> None:
    s = scene(world)
    # the page first renders as a guest's (session gone), then as the member's after a new login
    world.route(s["pages"][0], body=s["guest_page"], then=[s["pages"][0]])
    adapter = logged_in(world)
    logins = [r for r in world.router.routes if r.call_count and r.pattern and "POST" in repr(r.pattern)]
    posted_before = sum(r.call_count for r in logins)
    page = adapter.reread_pages("2", [1])[0]
    assert page.posts and page.posts[0].floor == 1
    assert adapter.own_uid == "2"
    assert sum(r.call_count for r in logins) == posted_before + 1  # logged in again once


def test_5xx_then_success_backs_off(world: World) -> None:
    s = scene(world)
    world.route(s["pages"][0], body=s["pages"][0], status=502, then=[s["pages"][0]])
    adapter = logged_in(world)
    page = adapter.reread_pages("2", [1])[0]
    assert page.posts
    assert world.clock.slept and world.clock.slept[-1] > 0


def test_timeouts_exhaust_retries_into_transport_error(world: World) -> None:
    s = scene(world)
    adapter = logged_in(world, retries=3)
    world.route(s["pages"][0], then=[httpx.ReadTimeout("slow"), httpx.ReadTimeout("slow")], body=s["pages"][0])
    page = adapter.reread_pages("2", [1])[0]  # first answer is fine
    assert page.posts
    route = world.route(s["pages"][1] if world.engine == "phpwind" else s["pages"][1])
    route.mock(side_effect=httpx.ConnectTimeout("down"))
    with pytest.raises(errors.TransportError):
        adapter.reread_pages("2", [2])
    assert route.call_count == 3


def test_maintenance_page_is_forum_closed(world: World) -> None:
    s = scene(world)
    world.route(s["pages"][0], body=s["maintenance"], status=200)
    adapter = logged_in(world)
    with pytest.raises(errors.ForumClosed):
        adapter.reread_pages("2", [1])


def test_lookup_uid_and_send_pm(world: World) -> None:
    s = scene(world)
    page, name, uid = s["lookup"]
    world.route(page)
    adapter = logged_in(world)
    assert adapter.lookup_uid(name) == uid
    target, target_uid = s["pm_to"]
    if target_uid and target != name:
        world.route(page)  # the recorded PM flow goes to uid 2
        adapter._uids[target] = target_uid
    world.route(s["pm"])
    assert adapter.send_pm(target, "救 月光") == s["pm_id"]
