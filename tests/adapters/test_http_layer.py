"""The one request function: pacing, retries, flood waits, no secrets in logs, charset of forms."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from urllib.parse import quote_plus

import httpx
import pytest
import respx
from adapter_world import FakeClock

from shenshi.adapters import errors
from shenshi.adapters.base import DEFAULT_USER_AGENT
from shenshi.adapters.http import ForumHttp, redact

BASE = "http://127.0.0.1:8082/"


def make(clock: FakeClock, **kwargs) -> ForumHttp:  # type: ignore[no-untyped-def]
    return ForumHttp(base_url=BASE, user_agent=DEFAULT_USER_AGENT, client=httpx.Client(), clock=clock, sleep=clock.sleep, **kwargs)


@respx.mock
def test_minimum_interval_between_requests_uses_the_injected_sleep() -> None:
    respx.get(BASE + "index.php").mock(return_value=httpx.Response(200, text="ok"))
    clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
    http = make(clock, min_interval=2.0)
    for _ in range(3):
        http.fetch("GET", "index.php", check=lambda r: r.text)
    assert clock.slept == [2.0, 2.0]
    assert http.requests == 3


@respx.mock
def test_one_stable_desktop_user_agent_without_discuz_mobile_markers() -> None:
    route = respx.get(BASE + "index.php").mock(return_value=httpx.Response(200, text="ok"))
    clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
    make(clock, min_interval=0).fetch("GET", "index.php", check=lambda r: r.text)
    agent = route.calls.last.request.headers["User-Agent"]
    assert agent == DEFAULT_USER_AGENT
    assert not any(marker in agent.lower() for marker in ("mot", "lg", "ctl", "mobile", "phone", "android", "nec", "sgh"))


@respx.mock
def test_flood_control_is_waited_out_then_gives_up() -> None:
    respx.post(BASE + "post.php").mock(return_value=httpx.Response(200, text="flood"))
    clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
    http = make(clock, min_interval=0, flood_retries=2)

    def check(response: httpx.Response) -> str:
        raise errors.FloodControl("灌水预防机制已经打开，在5秒内不能发帖", 6.0)

    with pytest.raises(errors.FloodControl):
        http.fetch("POST", "post.php", data={"atc_content": "投 阿杰"}, check=check)
    assert clock.slept.count(6.0) == 2


@respx.mock
def test_forms_and_queries_are_sent_in_the_forums_charset() -> None:
    route = respx.post(BASE + "message.php").mock(return_value=httpx.Response(200, text="ok"))
    clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
    make(clock, min_interval=0, charset="gbk").fetch("POST", "message.php", data={"atc_content": "杀 老王"}, check=lambda r: r.text)
    assert route.calls.last.request.content == b"atc_content=" + quote_plus("杀 老王", encoding="gbk").encode("ascii")


@respx.mock
def test_without_a_configured_charset_the_forums_pages_decide_what_is_sent() -> None:
    """A GBK phpwind with no ``charset`` in the config: the first page says GBK, the form follows."""
    page = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=gbk" /></head></html>'
    respx.get(BASE + "login.php").mock(return_value=httpx.Response(200, content=page.encode("gbk"), headers={"Content-Type": "text/html"}))
    respx.get(BASE + "api.json").mock(return_value=httpx.Response(200, json={"a": 1}))
    route = respx.post(BASE + "login.php").mock(return_value=httpx.Response(200, text="ok"))
    clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
    http = make(clock, min_interval=0)
    http.fetch("POST", "login.php", data={"pwuser": "神的使者"}, check=lambda r: r.text)
    assert route.calls.last.request.content == b"pwuser=" + quote_plus("神的使者").encode("ascii")  # nothing known yet: UTF-8
    http.fetch("GET", "api.json", check=lambda r: r.text)  # JSON says nothing about the forum's charset
    http.fetch("GET", "login.php", check=lambda r: r.text)
    http.fetch("POST", "login.php", data={"pwuser": "神的使者"}, check=lambda r: r.text)
    assert route.calls.last.request.content == b"pwuser=" + quote_plus("神的使者", encoding="gbk").encode("ascii")


def test_redact_hides_tokens_in_urls() -> None:
    assert redact("member.php?mod=logging&action=logout&formhash=24d65264") == "member.php?mod=logging&action=logout&formhash=***"
    assert "b0bd0165" not in redact("login.php?action=quit&verify=b0bd0165")
    url = (
        "http://bbs.example/member.php?mod=logging&loginhash=LhX1&sid=S1d2&verifyhash=V3r1"
        "&password=Pw0rd&tid=12&authorid=3 Cookie: Jx2P_2132_auth=AuTh; b7689_winduser=WiNd"
    )
    shown = redact(url)
    for secret in ("LhX1", "S1d2", "V3r1", "Pw0rd", "AuTh", "WiNd"):
        assert secret not in shown
    assert "tid=12" in shown and "authorid=3" in shown  # ids are not secrets


def test_a_forum_error_never_carries_a_token_in_its_url() -> None:
    error = errors.NotFound("no such thread", url="http://bbs.example/forum.php?mod=viewthread&tid=9&formhash=24d65264")
    assert "24d65264" not in str(error) and "tid=9" in str(error)


@respx.mock
def test_secrets_are_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    respx.post(BASE + "login.php").mock(return_value=httpx.Response(200, text="ok", headers={"Set-Cookie": "b7689_winduser=SECRETCOOKIE; path=/"}))
    clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
    make(clock, min_interval=0).fetch("POST", "login.php", data={"pwuser": "gm", "pwpwd": "TopSecret!"}, check=lambda r: r.text)
    assert "TopSecret!" not in caplog.text and "SECRETCOOKIE" not in caplog.text


@respx.mock
def test_a_gbk_page_served_with_a_utf8_header_decides_gbk_both_ways() -> None:
    """Issue 16: the header said UTF-8, the page GBK; the login form went out in UTF-8 and the
    forum answered 用户"绁炵殑浣胯��"不存在. The page decides (browsers submit forms in the
    page's encoding), once, both ways."""
    page = '<html><head><meta charset="gbk" /></head><body>登录</body></html>'
    respx.get(BASE + "login.php").mock(return_value=httpx.Response(
        200, content=page.encode("gbk"), headers={"Content-Type": "text/html; charset=UTF-8"}))
    route = respx.post(BASE + "login.php").mock(return_value=httpx.Response(200, text="ok"))
    clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
    http = make(clock, min_interval=0)
    text = http.fetch("GET", "login.php", check=lambda r: r.content)
    http.fetch("POST", "login.php", data={"pwuser": "神的使者"}, check=lambda r: r.text)
    assert route.calls.last.request.content == b"pwuser=" + quote_plus("神的使者", encoding="gbk").encode("ascii")
    assert (http.charset, http.charset_source, http.header_charset) == ("gb18030", "page", "utf-8")
    from shenshi.adapters.text import decode_page

    assert "登录" in decode_page(text, http.charset)
