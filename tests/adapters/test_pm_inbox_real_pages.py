"""Reading the GM's PMs on pages captured from the real installs (fixtures/REALFORUM.md).

What the real forums showed: phpwind's 回复 inside a conversation adds reply rows (and "RE:"
inbox rows opening the same conversation); a Discuz inbox with no messages has no list at all;
Discuz conversation anchors are ``pmlist_N``; one conversation that cannot be read must not
hold back the others; the first poll reads only the conversations of this game.
"""

from __future__ import annotations

from datetime import datetime

import httpx
import pytest
from adapter_world import ENGINE_DIRS, TZ, World, logged_in

from shenshi.adapters import errors, phpwind_parse
from shenshi.records import PrivateMessage

PW = ENGINE_DIRS["phpwind"]
DZ = ENGINE_DIRS["discuz"]
CAPTURED = datetime(2026, 12, 1, 23, 10, 30, tzinfo=TZ)


def page(folder, name: str, status: int = 200) -> httpx.Response:  # type: ignore[no-untyped-def]
    return httpx.Response(status, headers={"Content-Type": "text/html; charset=utf-8"}, content=(folder / name).read_bytes())


def _phpwind_inbox(world: World, conversations: dict[str, str | httpx.Response]) -> None:
    """Route the real inbox (rows 15, 18, 12, 9, 7, 3) and the conversations by rid."""
    for rid, answer in conversations.items():
        response = answer if isinstance(answer, httpx.Response) else page(PW, answer)
        world.router.get(path="/message.php", params={"action": "info", "rid": rid}).mock(return_value=response)
    world.router.get(path="/message.php", params={"type": "sms"}).mock(return_value=page(PW, "pm_inbox_with_re_rows.html"))


REPLY_ROWS = "pm_conversation_with_reply_rows.html"
OTHERS = {"15": "pm_conversation_entities.html", "18": "pm_conversation_entities.html", "12": "pm_conversation_entities.html"}


def test_phpwind_replies_written_inside_a_conversation_are_read(make_world) -> None:  # type: ignore[no-untyped-def]
    world = make_world("phpwind")
    _phpwind_inbox(world, {**OTHERS, "9": REPLY_ROWS, "7": "pm_conversation_opened_from_re_row.html", "3": REPLY_ROWS})
    adapter = logged_in(world)
    delta = adapter.read_pms()
    xiaoming = [m for m in delta.messages if m.conversation == "3"]
    # Three inbox rows (the original and two "RE:" rows) open the same conversation: once each.
    assert [(m.id, m.sender, m.text) for m in xiaoming] == [
        ("3", "小明", "占卜 夜行者"),
        ("3.1", "神的使者", "占卜结果：夜行者是好人。"),
        ("3.2", "小明", "收到，谢谢法官。第二晚我想占卜 lily99"),
        ("3.3", "小明", "另外：投票：阿杰 (>_<)"),
    ]
    assert len({m.id for m in delta.messages}) == len(delta.messages)
    assert not delta.failures
    # The evidence link opens the conversation through one of the GM's own inbox rows.
    assert "rid=9&" in adapter.pm_url(xiaoming[-1]) and "mid=3&" in adapter.pm_url(xiaoming[-1])


def test_phpwind_gbk_conversation_with_reply_rows() -> None:
    data = (PW / "pm_conversation_with_reply_rows_gbk.html").read_bytes()
    messages = phpwind_parse.parse_conversation(data, tz=TZ, now=CAPTURED)
    assert [(m.sender, m.recipient) for m in messages] == [("小明", "神的使者"), ("神的使者", "小明"), ("小明", "神的使者")]
    assert messages[-1].text == "收到，谢谢法官！明天我会跳预言家，投票：白色的猫。"


def test_a_conversation_that_cannot_be_read_holds_back_only_itself(make_world) -> None:  # type: ignore[no-untyped-def]
    broken = (PW / REPLY_ROWS).read_text(encoding="utf-8").replace('class="textMes"', 'class="gone"')
    world = make_world("phpwind")
    bad = httpx.Response(200, headers={"Content-Type": "text/html; charset=utf-8"}, content=broken.encode())
    _phpwind_inbox(world, {**OTHERS, "9": bad, "7": bad, "3": bad})
    adapter = logged_in(world)
    delta = adapter.read_pms()
    assert {m.sender for m in delta.messages} == {"月光"}  # the other rows were read
    assert len(delta.failures) == 3 and all(isinstance(f, errors.UnexpectedPage) for f in delta.failures)
    assert "PM row 1" in str(delta.failures[0]) and "rid=9" in str(delta.failures[0])
    # The unreadable rows keep no mark: the next poll tries them again.
    assert delta.cursor.get("9") is None and delta.cursor.get("15") is not None


def test_a_reply_row_without_its_sender_names_the_row() -> None:
    text = (PW / REPLY_ROWS).read_text(encoding="utf-8")
    start = text.index('id="sms_1_3"')
    broken = text[:start] + text[start:].replace('<td class="name"', '<td class="who"', 1)
    with pytest.raises(errors.UnexpectedPage, match=r"PM row 3 \(sms_1_3\): no sender link"):
        phpwind_parse.parse_conversation(broken, tz=TZ, now=CAPTURED)


def test_discuz_empty_inbox_is_an_empty_list(make_world) -> None:  # type: ignore[no-untyped-def]
    world = make_world("discuz")
    world.router.get(path="/home.php", params={"do": "pm"}).mock(return_value=page(DZ, "pm_inbox_empty.html"))
    adapter = logged_in(world)
    delta = adapter.read_pms()
    assert delta.messages == () and delta.conversations == () and not delta.failures


def test_discuz_guest_inbox_is_still_not_logged_in() -> None:
    from shenshi.adapters import discuz_parse

    with pytest.raises(errors.NotLoggedIn):
        discuz_parse.parse_inbox((DZ / "need_login_pm_inbox_as_guest.html").read_bytes(), tz=TZ, now=CAPTURED)


def test_discuz_evidence_links_use_the_pmlist_anchor(make_world) -> None:  # type: ignore[no-untyped-def]
    adapter = make_world("discuz").adapter()
    adapter.own_uid = "2"
    pm = PrivateMessage("6", "1", "小明", "3", "神的使者", "2", CAPTURED, "收到")
    url = adapter.pm_url(pm)
    assert url.endswith("home.php?mod=space&do=pm&subop=view&touid=3#pmlist_6")
    assert 'id="pmlist_6"' in (DZ / "pm_conversation_minute_times_touid3.html").read_text(encoding="utf-8")


def test_first_poll_opens_only_the_conversations_of_this_game(make_world) -> None:  # type: ignore[no-untyped-def]
    """Rows older than the game's start are noted, not opened; a later change is read, without
    the messages from before the start."""
    world = make_world("phpwind")
    _phpwind_inbox(world, {**OTHERS, "9": REPLY_ROWS, "7": REPLY_ROWS, "3": REPLY_ROWS})
    adapter = logged_in(world)
    start = datetime(2026, 12, 1, 23, 10, 20, tzinfo=TZ)  # after 小明's first PM (23:09)
    before = adapter.requests
    delta = adapter.read_pms(since=start)
    opened = adapter.requests - before - 1
    assert opened == 5  # rows 15, 18, 12, 9, 7; row 3 (23:09) is older than the game
    assert "3" not in {m.id for m in delta.messages}  # 占卜 夜行者 at 23:09 is before the start
    assert {m.id for m in delta.messages if m.conversation == "3"} == {"3.1", "3.2", "3.3"}
    assert delta.cursor.get("3") is not None  # noted: a quiet poll does not open it either
