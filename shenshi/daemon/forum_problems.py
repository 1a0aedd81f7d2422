"""A forum error as the GM reads it: one line that names the option to fix and the cause.

``[forum] base_url: connection refused (http://127.0.0.1:9/) — is the forum running, is the
address right?``, ``[forum] engine: this looks like a Discuz forum, not phpwind``,
``[forum] password: the forum rejected the user name or password (…)``. ``shenshi
check-config`` and ``shenshi run`` both say it this way, without a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from shenshi.adapters import errors
from shenshi.adapters.sniff import NAMES, engine_at, guess_engine
from shenshi.config import Config

_ERRNO = re.compile(r"\[Errno -?\d+\]\s*")
_CAUSES = (
    ("connection refused", "connection refused"),
    ("name or service not known", "host not found"),
    ("nodename nor servname", "host not found"),
    ("temporary failure in name resolution", "host not found"),
    ("no route to host", "no route to host"),
    ("timed out", "timed out"),
    ("certificate", "TLS certificate problem"),
)


def network_cause(exc: BaseException) -> str:
    """The network's own reason behind a :class:`TransportError` (``connection refused``)."""
    seen: BaseException | None = exc
    texts = []
    while seen is not None:
        texts.append(str(seen))
        seen = seen.__cause__ or seen.__context__
    for text in reversed(texts):
        lower = text.lower()
        for needle, cause in _CAUSES:
            if needle in lower:
                return cause
    http = re.search(r"HTTP (\d{3})", " ".join(texts))
    if http:
        return f"the forum answers HTTP {http.group(1)}"
    return _ERRNO.sub("", texts[-1]).strip() or type(exc).__name__


def explain(
    config: Config,
    exc: errors.ForumError,
    sniff: Callable[[str], str | None] | None = None,
) -> str:
    """One line for a forum error met while logging in or reading the configured threads.

    ``sniff(base_url)`` finds the engine a page comes from (default: fetch the front page)."""
    f = config.forum
    if isinstance(exc, errors.TransportError):
        return f"[forum] base_url: {network_cause(exc)} ({f.base_url}) — is the forum up and the address right?"
    if isinstance(exc, errors.CaptchaRequired):
        return f"[forum] cookies_file: {exc}"
    if isinstance(exc, errors.LoginPageChanged):
        other = wrong_engine(config, exc, sniff)
        if other:
            return other
        return (f"[forum] base_url: the login page changed ({exc.message}); nothing was sent. "
                f"It will not fix itself: is {f.base_url} the forum's front page?")  # fmt: skip
    if isinstance(exc, errors.ForumBusy):
        return (f"[forum] base_url: the forum's load guard answered instead of its pages ({exc.message}); "
                "try again later, or raise its threshold (phpwind: db_loadavg)")  # fmt: skip
    if isinstance(exc, errors.PasswordRejected):
        source = f"${f.password_env}" if f.password_env else "password_file"
        return (f"[forum] password: the forum rejected the user name or password for "
                f"{f.username!r} ({exc.message}); check username and {source}. shenshi does not "
                f"try the same password again (forums lock an account after 3–5 failures)")  # fmt: skip
    if isinstance(exc, errors.LoginFailed):
        return (f"[forum] username: the forum does not let {f.username!r} log in for now ({exc.message}); "
                "the password was not judged wrong: try again later")  # fmt: skip
    if isinstance(exc, errors.UnexpectedPage):
        other = wrong_engine(config, exc, sniff)
        if other:
            return other
    if isinstance(exc, errors.ForumClosed):
        return f"[forum] base_url: the forum is closed or under maintenance ({exc.message})"
    return f"[forum] {exc}"


def wrong_engine(
    config: Config,
    exc: errors.UnexpectedPage | errors.LoginPageChanged,
    sniff: Callable[[str], str | None] | None = None,
) -> str | None:
    """``[forum] engine: this looks like a Discuz! forum…`` when the page (or the front page)
    is the other engine's."""
    engine = config.forum.engine
    found = guess_engine(exc.snippet or "") or (sniff or engine_at)(config.forum.base_url)
    if found is None or found == engine:
        return None
    return (f'[forum] engine: this looks like a {NAMES[found]} forum, not {NAMES.get(engine, engine)}: '
            f'set engine = "{found}"')  # fmt: skip
