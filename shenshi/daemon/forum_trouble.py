"""The forum's trouble as the GM reads it in an alert: which kind, and what it means, in Chinese.

The adapters' errors speak English (for the log and ``shenshi check-config``); an alert says in
the GM's words what happened, whether it fixes itself, and what to do otherwise. Only option
names (``password_file``, ``base_url``…) stay as they are written in the configuration::

    PasswordRejected     login_failed        never sent again; fix the password source
    LoginPageChanged     login_page_changed  will not fix itself; nothing was sent
    LoginFailed, captcha login_failed        the forum refuses the login for now
    ForumBusy            forum_busy          the load guard; waited out, how to turn it off
    AnswerTooSlow        forum_unreachable   an answer dripped past the deadline
    anything else        forum_unreachable   retried automatically
"""

from __future__ import annotations

import re

from shenshi.adapters import errors
from shenshi.adapters.settings import ForumSettings

# What the network said, in the GM's words (the first that matches, searched in the cause chain).
_CAUSES = (
    ("connection refused", "连接被拒绝"),
    ("name or service not known", "找不到论坛的主机名"),
    ("temporary failure in name resolution", "找不到论坛的主机名"),
    ("no route to host", "网络不通"),
    ("timed out", "等待超时"),
    ("timeout", "等待超时"),
    ("certificate", "TLS 证书有问题"),
)
_HTTP = re.compile(r"HTTP (\d{3})")
_CHINESE = re.compile(r"[\u4e00-\u9fff]")


def network_words(exc: BaseException) -> str:
    """The network's reason behind a transport failure, in Chinese."""
    texts = []
    seen: BaseException | None = exc
    while seen is not None:
        texts.append(str(seen).lower())
        seen = seen.__cause__ or seen.__context__
    for text in texts:
        for needle, words in _CAUSES:
            if needle in text:
                return words
    http = _HTTP.search(" ".join(texts).upper())
    return f"论坛回答 HTTP {http.group(1)}" if http else "连接中断"


def forum_words(exc: errors.ForumError) -> str:
    """What the forum itself said, where it said it in Chinese (``（论坛原话：…）``), else ''."""
    found = _CHINESE.search(exc.message)
    if not found:
        return ""
    return f"（论坛原话：{exc.message[found.start():].strip()[:80]}）"


# What the GM reads for each kind of trouble, the first class that matches (``{account}``: the
# GM's account, ``{said}``: the forum's own words, ``{network}``: the network's reason,
# ``{deadline}``, ``{max_answer_bytes}``: the [forum] settings).
_TROUBLES: tuple[tuple[type[errors.ForumError], str, str], ...] = (
    (errors.PasswordRejected, "login_failed",
     "论坛拒绝了{account}的登录：用户名或密码不对{said}。shenshi 不会再用同一个密码登录（论坛连续失败会锁定"
     "账号）；改好 password_file（或改 password_env 后重启）后会自动重新登录"),
    (errors.LoginPageChanged, "login_page_changed",
     "论坛的登录页面变了：{where}。shenshi 没有发送密码。这不会自己好，重试也没有用：请确认 base_url 是论坛"
     "的首页地址；地址没错的话，论坛的模板改了，请把 shenshi run -v 的输出交给维护者"),
    (errors.CaptchaRequired, "login_failed",
     "论坛要求{account}登录时输入验证码，shenshi 无法输入。请在论坛后台给天神账号所在的用户组免除验证码，"
     "或者用浏览器登录后导出 cookie，写进 cookies_file"),
    (errors.LoginFailed, "login_failed",
     "论坛暂时不让{account}登录{said_or_guest}。密码没有被判为错误，shenshi 会稍后自动再试；如果反复出现，"
     "请用浏览器登录看看账号是否被锁定"),
    (errors.ForumBusy, "forum_busy",
     "论坛的负载保护拦下了请求（它回答“Forbidden, Please Refresh”，什么也没有做）。shenshi 会等一会儿自动"
     "重试，不会把它当成论坛的页面或登录结果。如果一直如此，请在论坛后台调高负载保护的阈值"
     "（phpwind：db_loadavg），或者减轻服务器的负载"),
    (errors.AnswerTooSlow, "forum_unreachable",
     "论坛的回答太慢：一个请求在 {deadline} 秒内没有传完（论坛一点一点地发送）。shenshi 放弃了这一轮，会"
     "自动重试；阶段时钟不会越过没读到的内容"),
    (errors.AnswerTooLarge, "forum_unreachable",
     "论坛的回答太大：超过 {max_answer_bytes} 字节，shenshi 拒绝读完它（max_answer_bytes）。会自动重试；"
     "反复出现时请打开论坛看看"),
    (errors.ForumClosed, "forum_unreachable", "论坛关闭或正在维护{said}；shenshi 会自动重试"),
    (errors.TransportError, "forum_unreachable", "论坛暂时无法访问（{network}）；shenshi 会自动重试"),
    (errors.ForumError, "forum_unreachable", "论坛暂时无法访问{said_or_page}；shenshi 会自动重试"),
)  # fmt: skip


def trouble(exc: errors.ForumError, forum: ForumSettings) -> tuple[str, str]:
    """``(alert kind, message)`` for a cycle the forum stopped."""
    said = forum_words(exc)
    words = {
        "account": f"天神账号 {forum.username}", "said": said,
        "said_or_guest": said or "（登录后的页面仍是游客页面）", "said_or_page": said or "（页面不是预期的样子）",
        "where": "它的登录表单要把密码发到另一个网站" if "another site" in exc.message
        else "页面上找不到 shenshi 认识的登录表单",
        "network": network_words(exc), "deadline": f"{forum.deadline:g}", "max_answer_bytes": forum.max_answer_bytes,
    }  # fmt: skip
    kind, text = next((k, t) for cls, k, t in _TROUBLES if isinstance(exc, cls))
    return kind, text.format(**words)


def send_trouble(exc: errors.ForumError) -> str:
    """Why a post or PM was not delivered, in the GM's words (kept as the announcement's
    ``last_error``, shown by ``status`` and ``review``, and in its ``send_failed`` alert)."""
    said = forum_words(exc)
    if isinstance(exc, errors.FloodControl):
        wait = f"：等 {exc.wait_seconds:g} 秒" if exc.wait_seconds is not None else ""
        return f"论坛的灌水预防{wait}"
    if isinstance(exc, errors.OwnBoxFull):
        return f"天神账号自己的短消息箱满了（{exc.total}/{exc.box} 条，发出的私信也算在里面）"
    if isinstance(exc, errors.RecipientBoxFull):
        return f"对方的短消息箱满了{said}，只有玩家自己清理后才能送到"
    if isinstance(exc, errors.ForumBusy):
        return "论坛的负载保护拦下了请求（什么也没有做）"
    if isinstance(exc, errors.CaptchaRequired):
        return "论坛要求输入验证码"
    if isinstance(exc, errors.NotLoggedIn):
        return "论坛的登录失效了（会重新登录）"
    if isinstance(exc, errors.OtherSite):
        return "请求指向了另一个网站，没有发送"
    if isinstance(exc, errors.NotFound | errors.NoPermission | errors.Rejected):
        chinese = _CHINESE.search(exc.message)
        return exc.message[chinese.start():].strip() if chinese else "论坛拒绝了"
    why = network_words(exc) if isinstance(exc, errors.TransportError) else "回答看不懂"
    if isinstance(exc, errors.AnswerTooSlow):
        why = "回答太慢"
    return f"论坛没有给出明确答复（{why}），可能已经发出：重发之前会先在论坛上查找"
