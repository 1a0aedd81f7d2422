"""The loopback HTTP server: requests in, one engine's pages out, faults on demand.

``serve(forum)`` starts a :class:`http.server.ThreadingHTTPServer` on 127.0.0.1 (an ephemeral
port by default) in a background thread and yields its base URL::

    with serve(forum) as base_url:
        httpx.get(base_url + "forum.php?mod=viewthread&tid=1")

Every request first passes the fault switches (:mod:`.faults`): a pending 5xx burst, a delay,
the closed-site page. The engine site (:class:`.discuz.DiscuzSite`, :class:`.phpwind.PhpwindSite`)
then answers it from the forum's state.
"""

from __future__ import annotations

import email.parser
import email.policy
import logging
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape

from shenshi.adapters.sandbox.state import SandboxForum

log = logging.getLogger(__name__)

TEMPLATES = Path(__file__).with_name("templates")

BAD_GATEWAY = """<html>
<head><title>{status} {reason}</title></head>
<body>
<center><h1>{status} {reason}</h1></center>
<hr><center>nginx</center>
</body>
</html>
"""


def template_environment() -> Environment:
    """The Jinja environment over the package's derived templates (autoescaped)."""
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html", "xml"]),
        keep_trailing_newline=True,
    )


@dataclass
class Request:
    """One decoded request; query and form values decoded in the forum's charset."""

    method: str
    path: str
    query: dict[str, list[str]]
    form: dict[str, list[str]]
    cookies: dict[str, str]
    headers: dict[str, str]
    raw_query: str = ""

    def arg(self, name: str, default: str = "") -> str:
        """A value from the query string, else the form (Discuz merges them into ``$_GET``)."""
        for source in (self.query, self.form):
            if name in source:
                return source[name][0]
        return default

    def int_arg(self, name: str, default: int = 0) -> int:
        """An integer argument; ``default`` when missing or malformed."""
        try:
            return int(self.arg(name, str(default)).strip() or default)
        except ValueError:
            return default

    def has(self, name: str) -> bool:
        """Whether the argument was sent at all."""
        return name in self.query or name in self.form

    @property
    def user_agent(self) -> str:
        return self.headers.get("user-agent", "")


@dataclass
class Response:
    """What a site answers; ``body`` text is encoded in the site's charset."""

    body: str | bytes = ""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: list[tuple[str, str]] = field(default_factory=list)
    cookies: list[str] = field(default_factory=list)

    def redirect(self, location: str, status: int = 301) -> Response:
        self.status = status
        self.headers.append(("Location", location))
        return self


class Site(Protocol):
    """One engine's wire format over a forum."""

    forum: SandboxForum
    charset: str

    def handle(self, request: Request) -> Response: ...

    def closed_page(self, request: Request) -> Response: ...


def set_cookie(name: str, value: str, now: datetime, max_age: int | None, *, http_only: bool = False,
               phpwind: bool = False) -> str:
    """A ``Set-Cookie`` value in the engine's own format (``Max-Age`` always given)."""
    parts = [f"{name}={value}"]
    if max_age is not None:
        expires = now + timedelta(seconds=max_age) if max_age > 0 else datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC)
        stamp = format_datetime(expires.astimezone(UTC), usegmt=True)
        if phpwind:  # PHP 7.4 writes "Mon, 29-Nov-2027 10:49:59 GMT"
            day, rest = stamp.split(", ", 1)
            d, mon, year, clock, gmt = rest.split(" ")
            stamp = f"{day}, {d}-{mon}-{year} {clock} {gmt}"
        parts += [f"expires={stamp}", f"Max-Age={max(max_age, 0)}"]
    parts.append("path=/")
    if http_only:
        parts.append("HttpOnly")
    return "; ".join(parts)


def _parse_cookies(header: str) -> dict[str, str]:
    jar: dict[str, str] = {}
    for part in header.split(";"):
        if "=" in part:
            name, value = part.split("=", 1)
            jar[name.strip()] = value.strip()
    return jar


def _parse_body(body: bytes, content_type: str, charset: str) -> dict[str, list[str]]:
    if content_type.startswith("multipart/form-data"):
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + body
        )
        form: dict[str, list[str]] = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if name:
                payload = part.get_payload(decode=True) or b""
                form.setdefault(str(name), []).append(payload.decode(charset, errors="replace"))
        return form
    return parse_qs(body.decode("latin-1"), keep_blank_values=True, encoding=charset, errors="replace")


def _handler_class(site: Site) -> type[BaseHTTPRequestHandler]:
    forum = site.forum

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out as two writes: no 40 ms ACK stall
        server_version = "nginx"
        sys_version = ""

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            self._serve("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._serve("POST")

        def do_HEAD(self) -> None:  # noqa: N802
            self._serve("HEAD")

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            log.debug("sandbox %s: " + format, forum.engine, *args)

        def _serve(self, method: str) -> None:
            split = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            request = Request(
                method=method,
                path=split.path,
                query=parse_qs(split.query, keep_blank_values=True, encoding=site.charset,
                               errors="replace"),
                form=_parse_body(raw, headers.get("content-type", ""), site.charset) if raw else {},
                cookies=_parse_cookies(headers.get("cookie", "")),
                headers=headers,
                raw_query=split.query,
            )
            forum.record_request(method, self.path)
            forum.faults.before_request(method)
            delay = forum.faults.take_delay()
            if delay:
                time.sleep(delay)
            failure = forum.faults.take_failure()
            guard = forum.faults.take_guard() if failure is None else None
            if guard is not None:
                response = Response("Forbidden, Please Refresh", 200, guard)
            elif failure is not None:
                reason = self.responses.get(failure, ("Error",))[0]
                response = Response(BAD_GATEWAY.format(status=failure, reason=reason), failure,
                                    "text/html")
            elif forum.faults.closed:
                response = site.closed_page(request)
            else:
                try:
                    response = site.handle(request)
                except Exception:  # a bug in the sandbox: answer 500 and keep serving
                    log.exception("sandbox %s failed on %s %s", forum.engine, method, self.path)
                    response = Response(BAD_GATEWAY.format(status=500, reason="Internal Server Error"),
                                        500, "text/html")
            self._write(method, response)

        def _write(self, method: str, response: Response) -> None:
            body = response.body
            if isinstance(body, str):
                body = body.encode(site.charset, errors="xmlcharrefreplace")
            self.send_response(response.status)
            content_type = response.content_type
            if forum.faults.header_charset and content_type.startswith("text/html"):
                content_type = f"text/html; charset={forum.faults.header_charset}"
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in response.headers:
                self.send_header(name, value)
            for cookie in response.cookies:
                self.send_header("Set-Cookie", cookie)
            self.end_headers()
            if method == "HEAD":
                return
            size, every = forum.faults.drip_bytes, forum.faults.drip_every
            if not size:
                self.wfile.write(body)
                return
            for start in range(0, len(body), size):  # a forum (or proxy) that trickles
                self.wfile.write(body[start : start + size])
                self.wfile.flush()
                time.sleep(every)

    return Handler


class _Httpd(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that gave up (its time-out while a ``slow`` fault held the answer) is normal."""
        failure = sys.exc_info()[1]
        if isinstance(failure, ConnectionError):
            log.debug("sandbox client %s went away: %s", client_address, type(failure).__name__)
            return
        log.error("sandbox request from %s failed", client_address, exc_info=True)


class SandboxServer:
    """A running loopback server for one forum; ``start()``/``stop()`` or ``with``."""

    def __init__(self, forum: SandboxForum, host: str = "127.0.0.1", port: int = 0) -> None:
        self.forum = forum
        self.site = make_site(forum)
        self.httpd = _Httpd((host, port), _handler_class(self.site))
        host_, port_ = self.httpd.server_address[:2]
        self.base_url = f"http://{host_}:{port_}/"
        forum.base_url = self.base_url
        self._thread: threading.Thread | None = None

    def start(self) -> str:
        """Serve in a background thread; returns the base URL."""
        # A short poll interval: stop() (shutdown) waits up to one interval.
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="sandbox-forum", daemon=True)
        self._thread.start()
        return self.base_url

    def serve_forever(self) -> None:
        """Serve in the calling thread until interrupted."""
        self.httpd.serve_forever()

    def stop(self) -> None:
        """Stop serving and release the port."""
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread:
            self._thread.join(timeout=5)


def make_site(forum: SandboxForum) -> Site:
    """The engine site for ``forum.engine``."""
    if forum.engine == "discuz":
        from shenshi.adapters.sandbox.discuz import DiscuzSite

        return DiscuzSite(forum)
    from shenshi.adapters.sandbox.phpwind import PhpwindSite

    return PhpwindSite(forum)


@contextmanager
def serve(forum: SandboxForum, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``forum`` on loopback for the duration of the block; yields the base URL."""
    server = SandboxServer(forum, host, port)
    try:
        yield server.start()
    finally:
        server.stop()
