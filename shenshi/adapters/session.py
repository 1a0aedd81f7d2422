"""The forum session kept between runs: a cookie jar file beside the daemon's database.

``shenshi run --once`` (from cron, say) is a new process each time; without this file every
run would log in again (three requests, and one more login the forum counts). The file holds
the session cookies, the uid and name they belong to, and a digest of a password the forum
rejected, so that no later run sends that password again (forums lock an account after 3–5
failures). It is written ``0600`` (the cookies are a live session), atomically, and never
logged; a file others can read is ignored and rewritten.

Shape (JSON)::

    {"version": 1, "forum": BASE_URL, "username": NAME, "uid": "2", "name": "神的使者",
     "cookies": [{"name", "value", "domain", "path"}], "rejected": SHA256-HEX | null}
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

log = logging.getLogger("shenshi.adapters")

VERSION = 1


def password_digest(base_url: str, username: str, password: str) -> str:
    """What is kept of a rejected password: a digest, never the password."""
    return hashlib.sha256(f"{base_url}\n{username}\n{password}".encode()).hexdigest()


@dataclass
class SavedSession:
    """What a session file holds for one forum account."""

    uid: str | None = None
    name: str | None = None
    cookies: list[dict[str, str]] = field(default_factory=list)
    rejected: str | None = None


class SessionFile:
    """One account's session file (``path``), for the forum at ``base_url``."""

    def __init__(self, path: Path | str, base_url: str, username: str) -> None:
        self.path = Path(path).expanduser()
        self.base_url = base_url
        self.username = username

    def load(self) -> SavedSession | None:
        """The saved session, if the file exists, is private and belongs to this account."""
        try:
            mode = self.path.stat().st_mode
        except FileNotFoundError:
            return None
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            log.warning("不用会话文件 %s：别的用户也能读它（之后会重写为只有自己可读，0600）", self.path)
            return None
        try:
            data: dict[str, Any] = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            log.warning("不用会话文件 %s：读不出来（%s）", self.path, type(exc).__name__)
            return None
        if data.get("version") != VERSION or (data.get("forum"), data.get("username")) != (self.base_url, self.username):
            return None  # another forum or account (the configuration changed)
        return SavedSession(
            uid=data.get("uid") or None,
            name=data.get("name") or None,
            cookies=[c for c in data.get("cookies") or [] if isinstance(c, dict) and c.get("name")],
            rejected=data.get("rejected") or None,
        )

    def save(self, session: SavedSession) -> None:
        """Write the file 0600, atomically (a reader never sees half of it)."""
        data = {
            "version": VERSION, "forum": self.base_url, "username": self.username,
            "uid": session.uid, "name": session.name, "cookies": session.cookies,
            "rejected": session.rejected,
        }  # fmt: skip
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)


def cookies_of(client: httpx.Client) -> list[dict[str, str]]:
    """The client's cookies as plain data."""
    return [
        {"name": c.name, "value": c.value or "", "domain": c.domain, "path": c.path}
        for c in client.cookies.jar
    ]


def restore_cookies(client: httpx.Client, cookies: list[dict[str, str]]) -> None:
    """Put saved cookies back into the client."""
    for c in cookies:
        client.cookies.set(c["name"], c.get("value", ""), domain=c.get("domain", ""), path=c.get("path", "/"))
