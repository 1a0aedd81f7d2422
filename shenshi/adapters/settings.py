"""``[forum]``: one forum account on one engine, the one definition of the adapter settings.

The configuration file's ``[forum]`` table is validated into :class:`ForumSettings` and handed
to the adapter as it is (``make_adapter(config.forum)``): one set of options, one set of
defaults, one place that checks them. Tests and the demo build it in code the same way.

Secrets: the password is never in the file. It comes from an environment variable
(``password_env``) or a file only its owner can read (``password_file``, mode 0600), read when
the adapter logs in (:meth:`ForumSettings.login_password`); code may pass it directly
(``password=``), and it is left out of ``repr``. The browser cookies file holds a live session:
it too must be 0600 (:meth:`ForumSettings.private_cookies_file`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, ValidationInfo, field_validator
from pydantic.dataclasses import dataclass

from shenshi.adapters.text import normalise_charset
from shenshi.errors import ConfigError, os_reason
from shenshi.schema import (
    TABLE,
    ConfigPath,
    Count,
    PositiveCount,
    PositiveSeconds,
    Seconds,
    from_file,
    problem,
    quoted_choices,
)

# A plain desktop browser. Discuz serves its mobile templates to any UA containing fragments
# such as "mot", "lg", "ctl" (phone makers); phpwind binds ``verify`` to the UA: keep it fixed.
DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
)


@dataclass(frozen=True, kw_only=True, config=TABLE)
class ForumSettings:
    """``[forum]``: which forum, how to log in, how to talk to it (config.example.toml)."""

    engine: str  # a registered engine: "discuz" or "phpwind"
    base_url: str  # ends with "/"
    username: str
    password_env: str | None = None
    password_file: ConfigPath | None = None
    cookies_file: ConfigPath | None = None
    charset: str | None = None  # None ("auto" in the file): each page's own declaration decides
    timezone: str = "Asia/Shanghai"
    user_agent: str = DEFAULT_USER_AGENT
    min_interval: Seconds = 2.0  # between two requests
    timeout: PositiveSeconds = 30.0
    deadline: PositiveSeconds = 60.0  # a whole request, answer included (a drip never times out)
    max_answer_bytes: PositiveCount = 8 * 1024 * 1024  # a larger answer is refused as it arrives
    use_mobile_api: Literal["auto", "yes", "no"] = "auto"  # Discuz only
    retries: PositiveCount = 4  # attempts of a request that fails in transit
    backoff: Seconds = 1.0  # first wait between them (doubling, with jitter)
    flood_retries: Count = 3  # flood-control refusals waited out before a send gives up
    # Engine facts this forum's admin changed (None: the engine's, on its adapter class).
    flood_interval: Seconds | None = None
    min_post_bytes: Count | None = None
    max_post_bytes: PositiveCount | None = None
    posts_per_page: PositiveCount | None = None  # HTML thread pages
    api_posts_per_page: PositiveCount | None = None  # Discuz mobile API ``ppp``
    # Given in code only (tests, the demo); a [forum] password in the file is refused.
    password: str | None = Field(default=None, repr=False)

    @field_validator("engine")
    @classmethod
    def _known_engine(cls, value: str) -> str:
        from shenshi.adapters.base import ADAPTERS

        engines = [adapter.engine for adapter in ADAPTERS]
        if value not in engines:
            raise problem(f'应为 {quoted_choices(engines)}，得到 "{value}"')
        return value

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        from urllib.parse import urlsplit

        if not value.startswith(("http://", "https://")):
            raise problem(f'应为 http:// 或 https:// 开头的网址，得到 "{value}"')
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - a port out of range raises
        except ValueError:
            raise problem(f'网址不对（端口？），得到 "{value}"') from None
        if not parts.hostname or any(c.isspace() for c in value):
            raise problem(f'网址里没有论坛的主机名（应如 "https://bbs.example.com/"），得到 "{value}"')
        return value if value.endswith("/") else value + "/"

    @field_validator("username")
    @classmethod
    def _named_account(cls, value: str) -> str:
        if not value.strip():
            raise problem("GM 账号的用户名是空的：写上天神在论坛上的用户名")
        return value.strip()

    @field_validator("charset", mode="before")
    @classmethod
    def _known_charset(cls, value: Any) -> Any:
        if value in (None, "auto"):
            return None
        if not isinstance(value, str) or normalise_charset(value) is None:
            raise problem(f'应为 "auto" 或编码名（如 "utf-8"、"gbk"），得到 "{value}"')
        return value

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise problem(f'不认识的时区 "{value}"（应如 "Asia/Shanghai"）') from None
        return value

    @field_validator("password", mode="before")
    @classmethod
    def _never_from_a_file(cls, value: Any, info: ValidationInfo) -> Any:
        if from_file(info):
            raise problem("密码不要写在配置文件里：用 password_env（环境变量），或只有你能读的 password_file（chmod 600）")
        return value

    @property
    def tz(self) -> ZoneInfo:
        """The forum's time zone (its displayed clock is authoritative)."""
        return ZoneInfo(self.timezone)

    def login_password(self) -> str | None:
        """The password: given in code, else ``$password_env``, else the 0600 ``password_file``."""
        if self.password:
            return self.password
        if self.password_env:
            value = os.environ.get(self.password_env)
            if value:
                return value
        if self.password_file:
            path = private_file(self.password_file, "password_file")
            return path.read_text(encoding="utf-8").strip()
        return None

    def private_cookies_file(self) -> Path | None:
        """The browser cookies file, if given; only its owner may read it (it holds a session)."""
        return private_file(self.cookies_file, "cookies_file") if self.cookies_file else None


def private_file(path: Path, option: str) -> Path:
    """``path`` if only its owner can read it; else a :class:`ConfigError` saying what to do."""
    path = path.expanduser()
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise ConfigError(f"[forum] {option}: 读不了 {path}：{os_reason(exc)}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(f"[forum] {option}: {path} 别人也能读；请运行 chmod 600 {path}")
    return path
