"""The request layer's log lines are the GM's (issue 23): the daemon's log is read by the GM, so
each fault the adapter meets and works around (the load guard, a page cut short, flood
control, an expired login, a 5xx, a dropped connection, an answer too large or too slow) is
said in Chinese, and none of them carries a password, a cookie or an anti-CSRF token, however
the request held them (the URL's query, the form, the client's cookies)."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime

import httpx
import pytest
import respx
from adapter_world import FakeClock

from shenshi.adapters import errors
from shenshi.adapters.base import DEFAULT_USER_AGENT
from shenshi.adapters.http import ForumHttp
from shenshi.logs import RedactingFormatter

BASE = "http://127.0.0.1:8082/"
SECRETS = ("H4shF0rm", "S1dS1d", "PassW0rd!", "C00kieAuth")
QUERY = {"mod": "post", "formhash": SECRETS[0], "sid": SECRETS[1]}
FORM = {"username": "神的使者", "password": SECRETS[2]}
# Three Latin words in a row, once the request named in the line is set aside: English.
SENTENCE = re.compile(r"[A-Za-z]{2,}(?:[\s,;:'()]+[A-Za-z]{2,}){2,}")
REQUEST = re.compile(r"(?:GET|POST)|https?://\S+?(?=[）)，\s]|$)|HTTP \d+|\b[A-Z]\w+(?:Error|Timeout)\b")


def once_then(fault: Exception):  # type: ignore[no-untyped-def]
    """A check that raises ``fault`` the first time, then reads the page."""
    raised = []

    def check(response: httpx.Response) -> str:
        if not raised:
            raised.append(fault)
            raise fault
        return response.text

    return check


def forum(clock: FakeClock, **kwargs) -> ForumHttp:  # type: ignore[no-untyped-def]
    client = httpx.Client()
    client.cookies.set("Jx2P_2132_auth", SECRETS[3])
    http = ForumHttp(base_url=BASE, user_agent=DEFAULT_USER_AGENT, client=client, clock=clock, sleep=clock.sleep,
                     min_interval=0, **kwargs)  # fmt: skip
    http.relogin = lambda: None
    return http


def faults(clock: FakeClock) -> None:
    """Every fault the request layer works around or gives up on, once each."""
    respx.get(url__startswith=BASE + "forum.php").mock(return_value=httpx.Response(200, text="ok"))
    respx.post(url__startswith=BASE + "post.php").mock(return_value=httpx.Response(200, text="ok"))
    http = forum(clock)
    http.fetch("GET", "forum.php", params=QUERY, check=once_then(errors.ForumBusy("the load guard")))
    http.fetch("GET", "forum.php", params=QUERY, check=once_then(errors.IncompletePage("cut")))
    http.fetch("POST", "post.php", params=QUERY, data=FORM, check=once_then(errors.FloodControl("灌水预防", 5.0)))
    http.fetch("POST", "post.php", params=QUERY, data=FORM, check=once_then(errors.SessionExpired("请先登录")))
    respx.get(url__startswith=BASE + "home.php").mock(
        side_effect=[httpx.Response(502, text="bad gateway"), httpx.ConnectError("refused"), httpx.Response(200, text="ok")]
    )
    http.fetch("GET", "home.php", params=QUERY, check=lambda r: r.text)
    respx.get(url__startswith=BASE + "big.php").mock(return_value=httpx.Response(200, text="x" * 2000))
    with pytest.raises(errors.AnswerTooLarge):
        forum(clock, max_answer_bytes=100).fetch("GET", "big.php", params=QUERY, check=lambda r: r.text)
    ticks = iter(range(0, 1000, 50))
    respx.get(url__startswith=BASE + "slow.php").mock(return_value=httpx.Response(200, text="x" * 10))
    with pytest.raises(errors.AnswerTooSlow):
        forum(clock, deadline=30, monotonic=lambda: float(next(ticks))).fetch("GET", "slow.php", params=QUERY, check=lambda r: r.text)


@respx.mock
def test_each_fault_is_logged_in_chinese_without_a_secret(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="shenshi")
    faults(FakeClock(datetime(2026, 11, 29, tzinfo=UTC)))
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith("shenshi")]
    said = {r.getMessage() for r in warnings}
    for words in ("负载保护", "没传完整", "灌水限制", "登录已失效", "HTTP 502", "连不上论坛", "超过 100 字节", "30 秒内没有"):
        assert any(words in line for line in said), (words, said)
    formatter = RedactingFormatter("%(message)s")
    for record in caplog.records:
        if not record.name.startswith("shenshi"):
            continue
        line = record.getMessage()
        assert not any(secret in line for secret in SECRETS), line  # redacted before the formatter
        assert not any(secret in formatter.format(record) for secret in SECRETS), line
        assert re.search(r"[\u4e00-\u9fff]", line), line
        assert not SENTENCE.findall(REQUEST.sub("", line)), line
