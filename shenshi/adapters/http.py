"""The one request function of the forum boundary (retries, pacing, flood waits, re-login).

One :class:`ForumHttp` per forum account wraps one ``httpx.Client`` (TLS verification on, one
stable User-Agent: phpwind's ``verify`` token is bound to it). Every request goes through
:meth:`ForumHttp.fetch`, which

* waits so that two requests are at least ``min_interval`` seconds apart (injected clock/sleep);
* retries connection errors, timeouts and 5xx of a GET with exponential back-off and jitter
  (tenacity), then raises :class:`~shenshi.adapters.errors.TransportError`. A POST is never
  repeated after such an unclear answer: the forum may have saved the reply and answered late
  (or with a 502), and a second POST would post it twice. It raises ``TransportError`` at once
  and the caller finds out from the forum itself (the daemon's publisher looks for what it
  sent before sending again). A refusal the forum states (flood control, an expired session)
  is clear: nothing was created, and that POST is sent again;
* reads every answer against a total ``deadline`` (connecting, waiting and reading together: a
  forum that drips its answer a few bytes at a time never trips a read timeout) and a size cap
  (``max_answer_bytes``, checked as the bytes arrive: an answer is never held whole past it),
  raising :class:`AnswerTooSlow` (a :class:`TransportError`: for a POST, an unclear answer) and
  :class:`AnswerTooLarge` (an :class:`UnexpectedPage`);
* sends nothing to another site than ``base_url``'s (scheme, host and port): an absolute URL
  elsewhere raises :class:`OtherSite` before any byte goes out;
* hands the response to the caller's ``check`` function, which turns forum message pages into
  typed errors; a :class:`FloodControl` is waited out (the stated time, else ``flood_wait``, the
  engine's flood interval) and the request retried;
  a :class:`SessionExpired` triggers the registered re-login and one retry; a page cut short
  (:class:`IncompletePage`) is fetched again, like a 5xx; the forum's load guard
  (:class:`ForumBusy`: it did nothing) is waited out with back-off, then raised;
* learns the forum's charset (``charset = "auto"``) only from an answer ``check`` accepted as
  the forum's own page, never from a load guard's or a proxy's;
* logs method, path and status at DEBUG, never form values, cookies or tokens.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode, urljoin, urlsplit

import httpx
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter

from shenshi.adapters import errors
from shenshi.adapters.text import declared_charset, normalise_charset
from shenshi.clock import system_clock
from shenshi.logs import redact

log = logging.getLogger("shenshi.adapters.http")

T = TypeVar("T")
Form = Mapping[str, Any] | list[tuple[str, Any]]
FormSource = Form | Callable[[], Form]

DEADLINE = 60.0  # seconds for a whole request: connecting, waiting, reading
MAX_ANSWER_BYTES = 8 * 1024 * 1024  # a forum page is ~100 KiB; a PM box page less
BUSY_WAIT = 10.0  # the first wait after the forum's load guard (doubling)


def origin(url: str) -> tuple[str, str, int | None]:
    """``(scheme, host, port)`` of an absolute URL, the port filled in for http(s)."""
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme.lower(), (parts.hostname or "").lower(), port


class _Transient(Exception):
    """A failure worth retrying (connection, timeout, 5xx)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason



# A character the forum's charset cannot hold (an emoji on a GBK phpwind) is sent as an HTML
# character reference, which the forum shows as the character, instead of failing the post.
UNENCODABLE = "xmlcharrefreplace"


def outgoing(charset: str) -> str:
    """The codec for what is sent: a GBK page is read as GB18030 (its superset), but the
    forum's database holds only GBK, so a character outside GBK must go as a reference."""
    return "gbk" if charset == "gb18030" else charset


class ForumHttp:
    """One forum account's HTTP session: the single place requests are made."""

    def __init__(
        self,
        *,
        base_url: str,
        user_agent: str,
        charset: str | None = None,
        default_charset: str = "utf-8",
        timeout: float = 20.0,
        min_interval: float = 2.0,
        retries: int = 4,
        backoff: float = 1.0,
        flood_retries: int = 3,
        flood_wait: float = 60.0,
        client: httpx.Client | None = None,
        clock: Callable[[], datetime] | None = None,
        sleep: Callable[[float], None] | None = None,
        meaningful_5xx: Callable[[httpx.Response], bool] | None = None,
        deadline: float = DEADLINE,
        max_answer_bytes: int = MAX_ANSWER_BYTES,
        busy_wait: float = BUSY_WAIT,
        monotonic: Callable[[], float] | None = None,
    ) -> None:
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.origin = origin(self.base_url)
        self.client = client or httpx.Client(timeout=timeout, verify=True, follow_redirects=False)
        self.timeout = timeout
        self.deadline = deadline
        self.max_answer_bytes = max_answer_bytes
        self.busy_wait = busy_wait
        self.monotonic = monotonic or time.monotonic  # the deadline's clock: real seconds
        self._owns_client = client is None
        self.client.headers["User-Agent"] = user_agent
        self.charset = normalise_charset(charset) or normalise_charset(default_charset) or "utf-8"
        # Not configured: the forum's pages say it (many phpwind 8.x sites are GBK); learnt once,
        # from the first page that declares one, so later forms and queries are sent in it.
        self.charset_known = normalise_charset(charset) is not None
        self.charset_source = "configured" if self.charset_known else "default"
        self.header_charset: str | None = None  # what the HTTP header said, where it disagreed
        self.min_interval = min_interval
        self.retries = max(1, retries)
        self.backoff = backoff
        self.flood_retries = flood_retries
        self.flood_wait = flood_wait  # when a flood message gives no time: the engine's interval
        self.clock = clock or system_clock
        self.sleep = sleep or time.sleep
        self.meaningful_5xx = meaningful_5xx or (lambda response: False)
        self.relogin: Callable[[], None] | None = None
        self.requests = 0  # every request sent, retries included (the request budget)
        self._last: datetime | None = None

    # ------------------------------------------------------------------ public

    def close(self) -> None:
        """Close the connection pool (only the client this object created itself)."""
        if self._owns_client:
            self.client.close()

    def url(self, path: str, params: Mapping[str, Any] | None = None) -> str:
        """Absolute URL for a forum path; query values encoded in the forum's charset. A URL of
        another site (a form's ``action``, a redirect) raises :class:`OtherSite`."""
        if path.startswith(("http://", "https://", "//")) or ":" in path.split("/", 1)[0]:
            url = urljoin(self.base_url, path)
            if origin(url) != self.origin:
                scheme, host, port = origin(url)
                raise errors.OtherSite(
                    f"refused to send a request to {scheme}://{host}:{port}: the forum is "
                    f"{self.origin[0]}://{self.origin[1]}:{self.origin[2]} (base_url)"
                )
        else:
            url = self.base_url + path.lstrip("/")
        if params:
            url += ("&" if "?" in url else "?") + urlencode(params, encoding=outgoing(self.charset), errors=UNENCODABLE)
        return url

    def fetch(
        self,
        method: str,
        path: str,
        *,
        check: Callable[[httpx.Response], T],
        params: Mapping[str, Any] | None = None,
        data: FormSource | None = None,
        relogin: bool = True,
    ) -> T:
        """Send one logical request and return ``check(response)``.

        ``data`` may be a callable, called again on every attempt, so that a retry after a
        re-login sends the fresh anti-CSRF token.
        """
        url = self.url(path, params)
        floods = cuts = busy = 0
        relogged = False
        while True:
            response = self._send(method, url, data)
            try:
                found = check(response)
            except errors.ForumBusy:
                busy += 1
                if busy >= self.retries:
                    raise
                wait = self.busy_wait * 2 ** (busy - 1)
                log.warning("论坛的负载保护拦下了请求（%s）：等 %.0f 秒再试", redact(url), wait)
                self.sleep(wait)
            except errors.IncompletePage:
                cuts += 1
                if method.upper() != "GET" or cuts >= self.retries:
                    raise
                log.warning("论坛的页面没传完整（%s）：重新读取", redact(url))
                self.sleep(self.backoff * cuts)
            except errors.FloodControl as exc:
                if exc.wait_seconds is None:
                    exc.wait_seconds = self.flood_wait
                floods += 1
                if floods > self.flood_retries:
                    raise
                log.warning("论坛的灌水限制（%s）：等 %.0f 秒再发", redact(url), exc.wait_seconds)
                self.sleep(exc.wait_seconds)
            except errors.SessionExpired:
                if not relogin or relogged or self.relogin is None:
                    raise
                relogged = True
                log.warning("论坛的登录已失效（%s）：重新登录", redact(url))
                self.relogin()
            else:
                if not self.charset_known:
                    self._learn_charset(response)  # from a page the forum's parser accepted
                return found

    # ------------------------------------------------------------------ internals

    def _send(self, method: str, url: str, data: FormSource | None) -> httpx.Response:
        attempts = self.retries if method.upper() == "GET" else 1  # never re-POST blindly
        retrying = Retrying(
            stop=stop_after_attempt(attempts),
            wait=wait_exponential_jitter(initial=self.backoff, max=60.0, jitter=self.backoff),
            retry=retry_if_exception_type(_Transient),
            sleep=self.sleep,
            reraise=True,
        )
        try:
            for attempt in retrying:
                with attempt:
                    return self._once(method, url, data)
        except _Transient as exc:
            if method.upper() != "GET":
                raise errors.TransportError(
                    f"{method}: {exc.reason}; not repeated (it may have reached the forum)", url=redact(url)
                ) from exc
            raise errors.TransportError(
                f"{method} failed after {attempts} attempts: {exc.reason}", url=redact(url)
            ) from exc
        raise AssertionError("unreachable")  # pragma: no cover

    def _once(self, method: str, url: str, data: FormSource | None) -> httpx.Response:
        self._pace()
        form = data() if callable(data) else data
        content = None
        headers = {}
        if form is not None:
            items = list(form.items()) if isinstance(form, Mapping) else form
            content = urlencode(items, encoding=outgoing(self.charset), errors=UNENCODABLE)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.requests += 1
        try:
            response = self._answer(method, url, content, headers)
        except httpx.TransportError as exc:
            log.warning("连不上论坛（%s %s）：%s", method, redact(url), type(exc).__name__)
            raise _Transient(type(exc).__name__) from exc
        finally:
            self._last = self.clock()
        log.debug("%s %s：论坛答复 HTTP %s", method, redact(url), response.status_code)
        if response.status_code >= 500 and not self.meaningful_5xx(response):
            log.warning("论坛出错（%s %s）：HTTP %s，稍后重试", method, redact(url), response.status_code)
            raise _Transient(f"HTTP {response.status_code}")
        return response

    def _answer(self, method: str, url: str, content: str | None, headers: dict[str, str]) -> httpx.Response:
        """One request, its answer read whole within the deadline and the size cap (streamed:
        a drip is caught between two chunks, a huge answer as it passes the cap)."""
        started = self.monotonic()
        timeout = httpx.Timeout(max(0.001, min(self.timeout, self.deadline)))
        with self.client.stream(method, url, content=content, headers=headers, timeout=timeout) as streamed:
            declared = streamed.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > self.max_answer_bytes:
                self._too_large(method, url, f"it says {int(declared)} bytes")
            body = bytearray()
            for chunk in streamed.iter_bytes():
                body += chunk
                if len(body) > self.max_answer_bytes:
                    self._too_large(method, url, f"more than {len(body)} bytes so far")
                if self.monotonic() - started > self.deadline:
                    self._too_slow(method, url, len(body))
            if self.monotonic() - started > self.deadline:
                self._too_slow(method, url, len(body))
        # The body as read (decoded: a compressed answer is capped as it unpacks).
        kept = [(k, v) for k, v in streamed.headers.multi_items() if k.lower() not in ("content-encoding", "content-length")]
        return httpx.Response(streamed.status_code, headers=kept, content=bytes(body), request=streamed.request)

    def _too_large(self, method: str, url: str, seen: str) -> None:
        log.warning("论坛的答复超过 %d 字节（%s %s）：拒收，没有读完", self.max_answer_bytes, method, redact(url))
        raise errors.AnswerTooLarge(
            f"the forum's answer is larger than max_answer_bytes = {self.max_answer_bytes} ({seen}): "
            "refused without reading it whole", url=url,
        )  # fmt: skip

    def _too_slow(self, method: str, url: str, size: int) -> None:
        log.warning("论坛在 %g 秒内没有给出完整的答复（%s %s，收到 %d 字节）：放弃这次请求", self.deadline, method, redact(url), size)
        raise errors.AnswerTooSlow(
            f"{method}: the forum's answer was not complete within the deadline of {self.deadline:g} s "
            f"(only {size} bytes came){'' if method.upper() == 'GET' else '; not repeated (it may have reached the forum)'}",
            url=url,
        )

    def _learn_charset(self, response: httpx.Response) -> None:
        """Decide the forum's charset once, as a browser does: the page's own declaration (a
        browser submits forms in the page's encoding), else the HTTP header."""
        kind = response.headers.get("content-type", "").lower()
        if "html" not in kind and "xml" not in kind:
            return  # JSON and scripts say nothing about the forum's charset
        page, header = declared_charset(response.content), normalise_charset(response.charset_encoding)
        found = page or header
        if found:
            self.charset, self.charset_known = found, True
            self.charset_source = "page" if page else "header"
            self.header_charset = header if header and header != found else None
            log.debug("论坛页面的编码是 %s（依据：%s）", found, self.charset_source)

    def _pace(self) -> None:
        if self._last is None or self.min_interval <= 0:
            return
        waited = (self.clock() - self._last).total_seconds()
        if waited < self.min_interval:
            self.sleep(self.min_interval - waited)


def load_cookies(client: httpx.Client, path: str | Path, domain: str | None = None) -> int:
    """Import a browser's cookies (Netscape ``cookies.txt`` or a JSON list) into ``client``.

    Returns how many cookies were loaded. Values are never logged.
    """
    import json
    from http.cookiejar import MozillaCookieJar

    with open(path, encoding="utf-8") as handle:
        head = handle.read(1)
    count = 0
    if head in ("[", "{"):
        with open(path, encoding="utf-8") as handle:
            found = json.load(handle)
        items = found if isinstance(found, list) else found.get("cookies", [])
        for item in items:
            client.cookies.set(item["name"], item["value"], domain=item.get("domain") or domain or "", path=item.get("path", "/"))
            count += 1
        return count
    jar = MozillaCookieJar(path)
    jar.load(ignore_discard=True, ignore_expires=True)
    for cookie in jar:
        client.cookies.set(cookie.name, cookie.value or "", domain=cookie.domain, path=cookie.path)
        count += 1
    return count
