"""Typed errors of the forum boundary: every way a forum page can say "no".

Adapters never let an ``AttributeError``/``IndexError`` from a missing element escape: a page
that does not have the expected structure becomes :class:`UnexpectedPage` with the URL and a
snippet of what was seen. Messages say what was expected and what was seen.

Hierarchy::

    ForumError
    ├── FloodControl(wait_seconds)      灌水预防: the forum asks us to wait before posting again
    ├── NotLoggedIn                     the page rendered as a guest / "您尚未登录"
    │   └── SessionExpired              we were logged in and the forum forgot us (retry after login)
    ├── LoginFailed                     the login did not work (account locked, a guest page after it)
    │   ├── PasswordRejected            the forum says the name or password is wrong: never retried
    │   │                               with the same password (forums lock accounts after 3–5)
    │   └── LoginPageChanged            the login page is not the form shenshi knows (or its form
    │                                   sends the password to another site): it will not fix itself
    ├── CaptchaRequired                 a captcha (验证码) stands between us and login or posting
    ├── NoPermission                    "您没有权限…", "您无权限…"
    ├── NotFound                        thread / board / user / post does not exist or was deleted
    ├── ForumClosed                     the site is closed or under maintenance (站点关闭/维护)
    ├── ForumBusy                       the forum's load guard answered instead of the page
    │                                   (phpwind "Forbidden, Please Refresh"): nothing was done
    ├── OtherSite                       a request to another site than base_url's was refused
    ├── Rejected                        the forum refused what we sent (too short, unknown user…)
    │   ├── OwnBoxFull                  the GM's own PM box is full (phpwind counts sent PMs in it)
    │   └── RecipientBoxFull            the player's PM box is full: only the player can free it
    ├── UnexpectedPage(url, snippet)    markup we do not understand
    │   ├── IncompletePage              a page cut short (its closing structure missing): fetched again
    │   └── AnswerTooLarge              an answer larger than the cap: refused, never read whole
    └── TransportError                  network failure / 5xx after the retries were exhausted
        └── AnswerTooSlow               an answer not complete within the request's total deadline
"""

from __future__ import annotations

from shenshi.logs import redact


class ForumError(Exception):
    """Base class of every error raised by :mod:`shenshi.adapters`.

    ``url`` is kept with its tokens redacted: errors are logged, stored in alerts and shown.
    """

    def __init__(self, message: str, *, url: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.url = url

    @property
    def url(self) -> str | None:
        """The page that said no (tokens redacted)."""
        return self._url

    @url.setter
    def url(self, value: str | None) -> None:
        self._url = redact(value) if value else value

    def __str__(self) -> str:
        return f"{self.message} ({self.url})" if self.url else self.message


class FloodControl(ForumError):
    """The forum's flood control refused a post or PM; ``wait_seconds`` says for how long.

    ``None`` when the message gives no time: the request layer fills in the engine's flood
    interval before anyone else sees the error.
    """

    def __init__(self, message: str, wait_seconds: float | None, *, url: str | None = None) -> None:
        super().__init__(message, url=url)
        self.wait_seconds = None if wait_seconds is None else float(wait_seconds)


class NotLoggedIn(ForumError):
    """The page needs a logged-in member and was served to a guest."""


class SessionExpired(NotLoggedIn):
    """We had a session and the forum no longer knows it (log in again and retry once)."""


class LoginFailed(ForumError):
    """The login did not work (the account is locked, the next page is still a guest's…)."""


class LoginPageChanged(LoginFailed):
    """The login page is not the form shenshi knows, or its form would send the password to
    another site than the configured ``base_url``: nothing was sent, and retrying will not help
    (the forum's templates changed, or ``base_url`` points at the wrong place)."""

    def __init__(self, message: str, *, url: str | None = None, snippet: str = "") -> None:
        super().__init__(message, url=url)
        self.snippet = snippet


class PasswordRejected(LoginFailed):
    """The forum says the user name or password is wrong.

    The adapter does not send the same password again (forums lock an account after 3–5
    failures): it logs in again once the password source (``password_env``/``password_file``)
    gives another one.
    """


CAPTCHA_ADVICE = (
    "the forum asks for a captcha (验证码). shenshi cannot solve captchas: either exempt the GM "
    "account's user group from the captcha in the forum's admin panel (Discuz: 全局 → 防灌水 → 验证码; "
    "phpwind: 安全 → 验证码), or log in with a browser and export its cookies to the file named by "
    "`cookies_file` in the [forum] configuration"
)


class CaptchaRequired(ForumError):
    """A captcha is required; the message says what the operator can do about it."""

    def __init__(self, where: str = "login", *, url: str | None = None) -> None:
        super().__init__(f"{where}: {CAPTCHA_ADVICE}", url=url)
        self.where = where


class NoPermission(ForumError):
    """The member may not do or see this."""


class NotFound(ForumError):
    """The thread, board, post or user does not exist (or was deleted)."""


class ForumClosed(ForumError):
    """The site is closed or under maintenance."""


class ForumBusy(ForumError):
    """The forum's load guard answered instead of the page (phpwind ``db_loadavg``: "Forbidden,
    Please Refresh" / "Forbidden, Please turn off CC" while the server's load is high). The
    request was refused before the forum did anything: it is waited out, never taken for a
    page, a charset, or an answer to a password."""


class OtherSite(ForumError):
    """A request to another site than the configured ``base_url``'s (scheme, host and port) was
    refused before it went out: the forum account's cookies and password go nowhere else."""


class Rejected(ForumError):
    """The forum refused the content or the recipient (too short, unknown user, mailbox full…)."""


class OwnBoxFull(Rejected):
    """The GM's own PM box is full: phpwind counts the PMs the GM sent in it, so every PM is
    refused until the GM deletes some (his sent ones first). ``total``/``box``: its figures."""

    def __init__(self, message: str, *, total: int, box: int, url: str | None = None) -> None:
        super().__init__(message, url=url)
        self.total, self.box = total, box


class RecipientBoxFull(Rejected):
    """The player's PM box is full: the PM is refused until the player deletes some."""


class UnexpectedPage(ForumError):
    """A page whose structure the parser does not recognise."""

    def __init__(self, message: str, *, url: str | None = None, snippet: str = "") -> None:
        super().__init__(message, url=url)
        self.snippet = snippet

    def __str__(self) -> str:
        base = super().__str__()
        return f"{base}; page starts: {self.snippet!r}" if self.snippet else base


class IncompletePage(UnexpectedPage):
    """A page that stopped before the structure its engine always prints after its list (a
    connection cut mid-page): what it shows may lack posts or end inside one, so it is fetched
    again and never stored."""


class AnswerTooLarge(UnexpectedPage):
    """An answer larger than ``max_answer_bytes``: refused as soon as it passed the cap (or
    said it would), never held whole in memory."""


class TransportError(ForumError):
    """The forum could not be reached (connection, timeout, 5xx) after every retry."""


class AnswerTooSlow(TransportError):
    """An answer that was not complete within the request's total ``deadline`` (a forum that
    sends a little at a time never trips a read timeout). For a POST it is an unclear answer."""


def snippet_of(data: bytes | str, limit: int = 160) -> str:
    """A short, single-line excerpt of a page for error messages."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return " ".join(text.split())[:limit]
