"""Who may use the console: a random token, a host name of its own, a session cookie, and a
CSRF token on every action.

- The **token** is 32 random bytes (URL-safe), kept in ``shenshi-console-token`` beside the
  database (mode 0600, like the forum session), made on the first start and reused after, so a
  bookmark keeps working. It is never logged: ``shenshi console`` shows it only on an
  interactive terminal.
- A console on this machine has a **host name of its own** (:attr:`ConsoleKey.host`,
  ``shenshi-<20 hex digits>.localhost``, derived from the token): browsers send a cookie to
  every port of the host that set it, so a cookie set by ``127.0.0.1`` would also go to any
  other web service on ``127.0.0.1`` the GM's browser visits, which could replay it. Set by
  the console's own name, the cookie goes nowhere else: only a browser told the name (by the
  token's holder) ever visits it. Browsers resolve every name under ``.localhost`` to this
  machine themselves (RFC 6761). ``127.0.0.1``, ``localhost`` and ``[::1]`` are only doors: a
  visit with the token is sent on to the console's name, a script's ``Authorization: Bearer``
  is served, and nothing else is (the cookie is never accepted there, the name never shown).
- The first visit carries the token once (``/?token=…``); the console answers with a
  **cookie** (HttpOnly, SameSite=Strict, no Domain: its own host only) holding a value derived
  from the token, and sends the browser on to the same address without the token, so it stays
  out of the history and of Referer headers. ``Authorization: Bearer TOKEN`` works too
  (scripts).
- Every action is a POST carrying a **CSRF token** (a second value derived from the token) in a
  form field or the ``X-CSRF-Token`` header; its Origin, when the browser sends one, must be the
  console's own address.

What stays trusted (README, "The console"): whoever can read the token file or the GM's browser
profile (the GM's own account, root), and the browser itself; a console listening on another
address than this machine's loopback (``--host``) has no name of its own, and its cookie goes
to every port of that address.

Changing the token (delete the file, restart) signs every browser out and changes the name.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

TOKEN_FILE = "shenshi-console-token"
COOKIE = "shenshi_console"
# The cookie outlives the browser (newcomer4 C2: a GM who closed it had to fetch the token from
# the terminal again): for this many days, while the token stays the same (a new token, or
# another install's name, makes it worthless).
COOKIE_DAYS = 30
CSRF_FIELD = "csrf"
CSRF_HEADER = "x-csrf-token"
HOME_SUFFIX = ".localhost"  # RFC 6761: browsers resolve every name under it to this machine


class ConsoleKey:
    """The console's secret and the values derived from it (cookie, CSRF token)."""

    def __init__(self, token: str) -> None:
        if len(token) < 16:
            raise ValueError("the console token is too short (at least 16 characters)")
        self._token = token

    def __repr__(self) -> str:  # never the secret itself
        return "ConsoleKey(…)"

    @property
    def token(self) -> str:
        """The token the GM opens the console with (``/?token=…``)."""
        return self._token

    def _derive(self, purpose: str) -> str:
        return hmac.new(self._token.encode(), purpose.encode(), hashlib.sha256).hexdigest()

    @property
    def host(self) -> str:
        """The console's own host name on this machine (``shenshi-….localhost``): its cookie
        is set by this name and sent to no other web service (80 bits: never guessed)."""
        return f"shenshi-{self._derive('host')[:20]}{HOME_SUFFIX}"

    @property
    def cookie(self) -> str:
        """The session cookie's value."""
        return self._derive("cookie")

    @property
    def csrf(self) -> str:
        """The CSRF token every action carries."""
        return self._derive("csrf")

    def is_token(self, value: str | None) -> bool:
        """Whether ``value`` is the token (compared in constant time)."""
        return bool(value) and hmac.compare_digest(str(value), self._token)

    def is_cookie(self, value: str | None) -> bool:
        """Whether ``value`` is the session cookie."""
        return bool(value) and hmac.compare_digest(str(value), self.cookie)

    def is_csrf(self, value: str | None) -> bool:
        """Whether ``value`` is the CSRF token."""
        return bool(value) and hmac.compare_digest(str(value), self.csrf)


def token_file(folder: Path) -> Path:
    """Where the console's token is kept in ``folder`` (beside the database)."""
    return folder / TOKEN_FILE


def load_or_create_key(path: Path) -> tuple[ConsoleKey, bool]:
    """The key kept in ``path`` (tightened to 0600), or a new one written there 0600; with
    whether it is new."""
    if path.exists():
        os.chmod(path, 0o600)
        token = path.read_text(encoding="ascii").strip()
        if len(token) >= 16:
            return ConsoleKey(token), False
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (token + "\n").encode("ascii"))
    finally:
        os.close(fd)
    return ConsoleKey(token), True


# -- the gate: every request but the static files passes it ----------------------------------------

SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
     b"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),  # no-referrer would send "Origin: null"
    (b"cache-control", b"no-store"),
]  # fmt: skip
SIGN_IN = """<!doctype html><html lang="zh"><meta charset="utf-8"><title>神使控制台</title>
<link rel="stylesheet" href="/static/console.css"><main class="signin"><h1>神使控制台</h1>
<p>请用 <code>shenshi console</code> 在终端显示的地址打开（带 <code>?token=…</code>）。
令牌保存在数据库旁的 <code>shenshi-console-token</code> 文件里（只有你能读）。</p></main></html>"""


class Gate:
    """ASGI middleware: the host name, the token (once, then the cookie), the methods, the
    Origin of actions, and the security headers. The CSRF token of each action is checked by
    the action itself (:func:`shenshi.console.app.action`), which reads the form.

    ``home``: the console's own host name (a console on this machine: :attr:`ConsoleKey.host`);
    it answers that name, and on the loopback names (:data:`LOOPBACK_HOSTS`) only sends a
    visit with the token on to it or serves a bearer; any other name is refused (DNS
    rebinding). ``None``: any name, the cookie accepted on each (a console off loopback)."""

    def __init__(self, app, key: ConsoleKey, home: str | None = None) -> None:  # type: ignore[no-untyped-def]
        self.app = app
        self.key = key
        self.home = home

    async def __call__(self, scope, receive, send) -> None:  # type: ignore[no-untyped-def]
        from starlette.requests import Request
        from starlette.responses import HTMLResponse, PlainTextResponse

        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        request = Request(scope)
        name = _host_name(request.headers.get("host", ""))
        door = self.home is not None and name != self.home
        if door and name not in LOOPBACK_HOSTS:
            # another name pointing at this machine (DNS rebinding): not the GM's browser
            await PlainTextResponse("refused: unknown host", status_code=421)(scope, receive, send)
            return
        if scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)
            return
        token = request.query_params.get("token")
        if token is not None:
            if not self.key.is_token(token):
                await HTMLResponse(SIGN_IN, status_code=401)(scope, receive, send)
                return
            await self._sign_in(request, door)(scope, receive, send)
            return
        bearer = request.headers.get("authorization", "")
        signed_in = (bearer.startswith("Bearer ") and self.key.is_token(bearer[7:].strip())) or (
            not door and any(self.key.is_cookie(v) for v in _cookie_values(request, COOKIE))
        )
        if not signed_in:
            await HTMLResponse(SIGN_IN, status_code=401)(scope, receive, send)
            return
        method = scope["method"]
        if method not in ("GET", "HEAD", "POST"):
            await PlainTextResponse("method not allowed", status_code=405)(scope, receive, send)
            return
        if method == "POST" and not _same_origin(request):
            await PlainTextResponse("refused: another site's request", status_code=403)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _sign_in(self, request, door: bool):  # type: ignore[no-untyped-def]
        """A first visit with the token: on a door, sent on to the console's own name (the
        token with it); at home, the cookie set and the token dropped from the address."""
        from urllib.parse import urlencode

        from starlette.responses import RedirectResponse

        if door:
            port = request.url.port
            where = f"http://{self.home}{f':{port}' if port else ''}{request.url.path}"
            query = request.url.query
            return RedirectResponse(f"{where}?{query}", status_code=303)
        rest = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "token"])
        response = RedirectResponse(request.url.path + (f"?{rest}" if rest else ""), status_code=303)
        response.set_cookie(COOKIE, self.key.cookie, max_age=COOKIE_DAYS * 86400, httponly=True,
                            samesite="strict", path="/")  # fmt: skip
        return response


def _cookie_values(request, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Every value the request's Cookie header gives ``name``: a cookie another site set for a
    parent domain (``Domain=localhost``) may come beside ours, and must not hide it."""
    values = []
    for part in request.headers.get("cookie", "").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            values.append(value.strip('"'))
    return values


def _host_name(host: str) -> str:
    """The name of a Host header without its port (``[::1]:8737`` → ``[::1]``)."""
    if host.startswith("["):
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})


def _same_origin(request) -> bool:  # type: ignore[no-untyped-def]
    """An action's Origin (when the browser sends one) is the console's own address."""
    from urllib.parse import urlsplit

    origin = request.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc == request.headers.get("host", "")


def _with_headers(send):  # type: ignore[no-untyped-def]
    async def sending(message) -> None:  # type: ignore[no-untyped-def]
        if message["type"] == "http.response.start":
            message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
        await send(message)

    return sending
