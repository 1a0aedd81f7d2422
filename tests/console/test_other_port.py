"""Cookies ignore ports: everything the GM's browser sends to another web service on this
machine, replayed against the console, neither reads a page nor acts (issue 22).

In Debian's Chromium (Playwright): the GM signs in, then visits another local web service
(on 127.0.0.1 and on localhost, as an attacker's page would be reached); that service records
every header the browser sent it, and replays them against the console, under every name the
console answers. Skipped with the reason where Chromium or Playwright is absent.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from shenshi.bootstrap import bootstrap
from shenshi.console.auth import COOKIE, CSRF_FIELD
from tests.console.browser import chromium, skip_without_browser
from tests.console.serving import served, signed_in_url
from tests.daemon.helpers import announcements

pytestmark = pytest.mark.slow  # (make e2e-ci: CI plays it; make test stays short)


class OtherService:
    """Another local web service the GM's browser visits: it keeps what the browser sent."""

    def __init__(self) -> None:
        self.seen: list[dict[str, str]] = []
        seen = self.seen

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                seen.append({k.lower(): v for k, v in self.headers.items()})
                body = b"<!doctype html><title>other</title><p>another local service</p>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]


@contextmanager
def other_service() -> Iterator[OtherService]:
    other = OtherService()
    thread = threading.Thread(target=other.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield other
    finally:
        other.server.shutdown()
        other.server.server_close()


@pytest.fixture
def console(game, clock):
    skip_without_browser()
    service = bootstrap(game.config, store=game.store, clock=clock, forum=False)
    service.start()
    with served([service]) as console:
        yield console


def states(game) -> list:
    return [(a.id, a.state, a.text, a.published_at) for a in announcements(game)]


def test_what_the_browser_sends_to_another_local_port_opens_nothing(console, game) -> None:
    with other_service() as other, chromium() as context:
        page = context.new_page()
        page.goto(signed_in_url(console))
        assert page.url == f"{console.url}/g/1/" and "《test game》" in page.content()  # signed in
        for host in ("127.0.0.1", "localhost"):
            page.goto(f"http://{host}:{other.port}/anything")
            assert "another local service" in page.content()
        page.goto(f"{console.url}/g/1/review")  # the GM is still signed in at the console
        assert page.locator("h1").inner_text() == "审核"
    sent = other.seen  # the pages and the favicons asked for
    assert {h["host"].split(":")[0] for h in sent} == {"127.0.0.1", "localhost"}
    assert not any(console.key.cookie in h.get("cookie", "") for h in sent)

    before = states(game)
    first = announcements(game)[0]
    port = console.address.rsplit(":", 1)[1]
    names = (console.key.host, "127.0.0.1", "localhost")
    with httpx.Client(base_url=console.address, follow_redirects=False) as attacker:
        for headers in sent:
            replayed = {k: v for k, v in headers.items() if k not in ("host", "content-length")}
            for name in names:
                at = {**replayed, "host": f"{name}:{port}"}
                for path in ("/", "/g/1/", "/g/1/review", "/g/1/players/1/role"):
                    r = attacker.get(path, headers=at)
                    assert r.status_code in (401, 421) and "test game" not in r.text, (name, path)
                r = attacker.post(f"/g/1/announcements/{first.id}/reject", headers=at,
                                  data={CSRF_FIELD: "guessed"})  # fmt: skip
                assert r.status_code in (401, 403, 421), name
    assert states(game) == before


def test_the_cookie_is_the_console_names_own(console) -> None:
    """The cookie the browser keeps is bound to the console's own name (no Domain), never to
    127.0.0.1 or localhost."""
    with chromium() as context:
        page = context.new_page()
        page.goto(signed_in_url(console))
        cookies = [c for c in context.cookies() if c["name"] == COOKIE]
    assert [c["domain"] for c in cookies] == [console.key.host]
    assert cookies[0]["httpOnly"] and cookies[0]["sameSite"] == "Strict"


def test_an_old_bookmark_on_127_0_0_1_with_the_token_signs_in_at_the_console_name(console) -> None:
    with chromium() as context:
        page = context.new_page()
        page.goto(f"{console.address}/g/1/review?token={console.key.token}")
        assert page.url == f"{console.url}/g/1/review" and page.locator("h1").inner_text() == "审核"
