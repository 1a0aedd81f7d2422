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
    ("connection refused", "连接被拒绝"),
    ("name or service not known", "找不到主机"),
    ("nodename nor servname", "找不到主机"),
    ("temporary failure in name resolution", "找不到主机"),
    ("no route to host", "网络不通（no route to host）"),
    ("timed out", "超时"),
    ("certificate", "TLS 证书有问题"),
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
        return f"论坛回答 HTTP {http.group(1)}"
    return _ERRNO.sub("", texts[-1]).strip() or type(exc).__name__


def explain(
    config: Config,
    exc: errors.ForumError,
    sniff: Callable[[str], str | None] | None = None,
) -> str:
    """One line for a forum error met while logging in or reading the configured threads.

    ``sniff(base_url)`` finds the engine a page comes from (default: fetch the front page)."""
    f = config.forum
    if isinstance(exc, errors.AnswerTooSlow):  # the forum answered, too slowly: not the address
        return (f"[forum] deadline: 论坛的回答在 {f.deadline:g} 秒内没有传完（论坛一点一点地发送；{f.base_url}）："
                "论坛太忙，稍后再试，或调大 deadline")  # fmt: skip
    if isinstance(exc, errors.TransportError):
        return f"[forum] base_url: {network_cause(exc)}（{f.base_url}）——论坛开着吗？地址对吗？"
    if isinstance(exc, errors.CaptchaRequired):
        return f"[forum] cookies_file: {exc}"
    if isinstance(exc, errors.LoginPageChanged):
        other = wrong_engine(config, exc, sniff)
        if other:
            return other
        return (f"[forum] base_url: 论坛的登录页面变了（{exc.message}）；没有发送密码。"
                f"这不会自己好：{f.base_url} 是论坛的首页地址吗？")  # fmt: skip
    if isinstance(exc, errors.ForumBusy):
        return (f"[forum] base_url: 论坛的负载保护代替页面作了回答（{exc.message}）；"
                "请稍后再试，或调高它的阈值（phpwind：db_loadavg）")  # fmt: skip
    if isinstance(exc, errors.PasswordRejected):
        source = f"${f.password_env}" if f.password_env else "password_file"
        return (f"[forum] password: 论坛拒绝了 {f.username!r} 的用户名或密码（{exc.message}）；"
                f"请检查 username 和 {source}。shenshi 不会再用同一个密码登录（论坛连续失败 3–5 次会锁定账号）")  # fmt: skip
    if isinstance(exc, errors.LoginFailed):
        return (f"[forum] username: 论坛暂时不让 {f.username!r} 登录（{exc.message}）；"
                "密码没有被判为错误：请稍后再试")  # fmt: skip
    if isinstance(exc, errors.UnexpectedPage):
        other = wrong_engine(config, exc, sniff)
        if other:
            return other
    if isinstance(exc, errors.ForumClosed):
        return f"[forum] base_url: 论坛已关闭或在维护中（{exc.message}）"
    return f"[forum]: {exc}"


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
    return (f'[forum] engine: 这看起来是 {NAMES[found]} 论坛，不是 {NAMES.get(engine, engine)}：'
            f'请设 engine = "{found}"')  # fmt: skip
