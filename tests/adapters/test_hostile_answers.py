"""The one request function against a hostile forum (issue 22): an answer dripped a few bytes at
a time never trips a read timeout, so every request has a total deadline; an answer larger than
the cap is refused as it arrives (never held whole); nothing at all goes to another site than
``base_url``'s; the load guard is waited out and never decides the charset."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest
import respx
from adapter_world import FakeClock

from shenshi.adapters import errors
from shenshi.adapters.base import DEFAULT_USER_AGENT
from shenshi.adapters.http import ForumHttp

MIB = 1024 * 1024


class DrippingForum:
    """A loopback HTTP server that sends its headers at once, then 256 bytes every ``every``
    seconds (as the attacker's forum did every 1.5 s): each read gets bytes well within any
    read timeout, the answer never ends soon."""

    def __init__(self, every: float = 0.2, chunks: int = 200) -> None:
        self.every, self.chunks = every, chunks
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stop = threading.Event()
        self.sent = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)
                body = b"<html>" + b"x" * (256 * self.chunks - 6)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                             + f"Content-Length: {len(body)}\r\n\r\n".encode())  # fmt: skip
                try:
                    for start in range(0, len(body), 256):
                        if self.stop.is_set():
                            return
                        conn.sendall(body[start : start + 256])
                        self.sent += 256
                        time.sleep(self.every)
                except OSError:
                    continue  # the client gave up

    def close(self) -> None:
        self.stop.set()
        self.listener.close()


@pytest.fixture
def dripping() -> Iterator[DrippingForum]:
    forum = DrippingForum()
    yield forum
    forum.close()


def http_for(base: str, **kwargs) -> ForumHttp:  # type: ignore[no-untyped-def]
    clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
    return ForumHttp(base_url=base, user_agent=DEFAULT_USER_AGENT, min_interval=0, clock=clock, sleep=lambda s: None, **kwargs)


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_dripped_answer_is_given_up_at_the_deadline(dripping, method) -> None:
    http = http_for(f"http://127.0.0.1:{dripping.port}/", timeout=5.0, deadline=1.0, retries=2)
    started = time.monotonic()
    with pytest.raises(errors.AnswerTooSlow) as caught:
        http.fetch(method, "forum.php", check=lambda r: r.content, data={"message": "x"} if method == "POST" else None)
    assert time.monotonic() - started < 30  # (the whole answer would take 40 s)
    assert dripping.sent < 256 * dripping.chunks
    assert "deadline of 1 s" in caught.value.message
    if method == "POST":
        assert "not repeated" in caught.value.message  # an unclear answer: it may be on the forum
    assert isinstance(caught.value, errors.TransportError)


def _endless(chunks: list[int], size: int = 64 * MIB) -> Iterator[bytes]:
    """A huge answer, produced as it is read (``chunks`` counts what was asked for)."""
    for _ in range(size // MIB):
        chunks.append(1)
        yield b"x" * MIB


def test_an_answer_past_the_cap_is_refused_as_it_arrives() -> None:
    produced: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "text/html"}, content=_endless(produced))

    http = http_for("http://forum.test/", client=httpx.Client(transport=httpx.MockTransport(handler)), max_answer_bytes=4 * MIB)
    with pytest.raises(errors.AnswerTooLarge) as caught:
        http.fetch("GET", "read.php", check=lambda r: r.content)
    assert len(produced) <= 5, "the answer was read on past the cap"
    assert isinstance(caught.value, errors.UnexpectedPage)  # a page the poller cannot read: an alert
    assert "max_answer_bytes" in caught.value.message


@respx.mock
def test_an_answer_that_says_it_is_too_large_is_not_read_at_all() -> None:
    respx.get("http://forum.test/read.php").mock(
        return_value=httpx.Response(200, headers={"Content-Length": str(300 * MIB)}, content=b"<html>")
    )
    http = http_for("http://forum.test/", max_answer_bytes=4 * MIB)
    with pytest.raises(errors.AnswerTooLarge, match="it says"):
        http.fetch("GET", "read.php", check=lambda r: r.content)


@respx.mock
def test_an_answer_within_the_cap_and_the_deadline_is_read_as_before() -> None:
    respx.get("http://forum.test/read.php").mock(return_value=httpx.Response(200, content=b"<html>ok</html>"))
    http = http_for("http://forum.test/", max_answer_bytes=4 * MIB, deadline=5)
    assert http.fetch("GET", "read.php", check=lambda r: r.content) == b"<html>ok</html>"


@pytest.mark.parametrize(
    "target",
    ["http://evil.test/member.php", "https://forum.test/member.php", "http://forum.test:8080/x.php",
     "//evil.test/login.php", "javascript:alert(1)"],
)  # fmt: skip
@respx.mock
def test_nothing_goes_to_another_site(target: str) -> None:
    route = respx.route().mock(return_value=httpx.Response(200, text="ok"))
    http = http_for("http://forum.test/")
    with pytest.raises(errors.OtherSite):
        http.fetch("POST", target, data={"password": "secret"}, check=lambda r: r.text)
    assert not route.called


@respx.mock
def test_the_forums_own_absolute_urls_still_go_out() -> None:
    respx.get("http://forum.test/bbs/forum.php").mock(return_value=httpx.Response(200, text="ok"))
    http = http_for("http://forum.test/bbs/")
    assert http.fetch("GET", "http://FORUM.test:80/bbs/forum.php", check=lambda r: r.text) == "ok"


@respx.mock
def test_the_load_guard_is_waited_out_and_never_decides_the_charset() -> None:
    """phpwind's load guard answers a bare line with the server's default header charset; the
    forum's pages declare GBK. The charset is learnt from the first page accepted."""
    guard = httpx.Response(200, headers={"Content-Type": "text/html; charset=UTF-8"}, text="Forbidden, Please Refresh")
    page = httpx.Response(200, headers={"Content-Type": "text/html"},
                          content='<html><head><meta charset="gbk" /></head><body>登录</body></html>'.encode("gbk"))  # fmt: skip
    respx.get("http://forum.test/login.php").mock(side_effect=[guard, guard, page])
    waits: list[float] = []
    clock = FakeClock(datetime(2026, 11, 29, tzinfo=UTC))
    http = ForumHttp(base_url="http://forum.test/", user_agent=DEFAULT_USER_AGENT, min_interval=0, clock=clock,
                     sleep=waits.append, retries=4, busy_wait=10)  # fmt: skip

    def check(response: httpx.Response) -> str:
        if response.content.strip().startswith(b"Forbidden, Please"):
            raise errors.ForumBusy("the load guard")
        return response.text

    http.fetch("GET", "login.php", check=check)
    assert waits == [10, 20]
    assert (http.charset, http.charset_source) == ("gb18030", "page")


@respx.mock
def test_a_guard_that_stays_is_raised_after_the_retries() -> None:
    respx.get("http://forum.test/index.php").mock(return_value=httpx.Response(200, text="Forbidden, Please Refresh"))
    http = http_for("http://forum.test/", retries=3)

    def check(response: httpx.Response) -> str:
        raise errors.ForumBusy("the load guard")

    with pytest.raises(errors.ForumBusy):
        http.fetch("GET", "index.php", check=check)
    assert not http.charset_known
