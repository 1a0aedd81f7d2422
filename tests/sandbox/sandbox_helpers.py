"""Helpers shared by the sandbox tests (imported as a plain module: pytest puts this folder on sys.path)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from urllib.parse import urlencode

import httpx

from shenshi.adapters.sandbox import ManualClock, SandboxForum

START = datetime(2026, 11, 20, 10, 39, 46, tzinfo=UTC)  # 2026-11-20 18:39:46 at UTC+8
UA = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"


def build_game_thread(forum: SandboxForum, clock: ManualClock, replies: int = 25) -> int:
    """A game thread like the captured one: posts every 7 h over days, a quote and an edit."""
    thread = forum.create_thread(
        "神的使者", 3, "【杀人游戏】第一局：村庄之夜",
        "[b]【杀人游戏】第一局 开始[/b]\n[color=Red]规则：[/color]\n投票格式：[b]投票：玩家名[/b]",
    )
    names = [u.name for u in forum.users.values() if u.uid >= 3]
    for i in range(replies):
        clock.advance(hours=7)
        forum.post(names[i % len(names)], thread.tid, f"投票：{names[(i + 1) % len(names)]}\n理由 {i}")
    pids = thread.pids
    quoted = forum.posts[pids[12]]
    author = forum.users[quoted.author_uid].name
    if forum.engine == "discuz":
        from shenshi.adapters.sandbox.bbcode import discuz_quote_bbcode

        quote = discuz_quote_bbcode(author, quoted.pid, thread.tid, "2026-11-23 14:39", "投票")
        text = f"{quote}\n\n同意楼上。"
    else:
        from shenshi.adapters.sandbox.bbcode import phpwind_quote_bbcode

        text = phpwind_quote_bbcode(author, quoted.pid, thread.tid, "投票", forum.base_url) + "同意楼上。"
    forum.posts[pids[14]].text = text
    forum.edit_post(pids[15], "改票：阿杰", by=forum.posts[pids[15]].author_uid)
    clock.advance(hours=1)
    return thread.tid



OPEN_CLIENTS: list[httpx.Client] = []  # closed after each test by conftest.py


def client(base_url: str, **kwargs: object) -> httpx.Client:
    http = httpx.Client(base_url=base_url, headers={"User-Agent": UA}, timeout=10, **kwargs)  # type: ignore[arg-type]
    OPEN_CLIENTS.append(http)
    return http


def discuz_login(http: httpx.Client, name: str, password: str, cookietime: str = "2592000") -> httpx.Response:
    page = http.get("member.php?mod=logging&action=login").text
    action = re.search(r'action="(member\.php\?mod=logging[^"]*loginhash=\w+)"', page).group(1)  # type: ignore[union-attr]
    formhash = re.search(r'name="formhash" value="(\w+)"', page).group(1)  # type: ignore[union-attr]
    return http.post(action.replace("&amp;", "&"), data={
        "formhash": formhash, "referer": str(http.base_url) + "forum.php", "loginfield": "username",
        "username": name, "password": password, "questionid": "0", "answer": "", "cookietime": cookietime,
    })


def formhash_of(html: str) -> str:
    return re.search(r'name="formhash" value="(\w+)"', html).group(1)  # type: ignore[union-attr]


def phpwind_login(http: httpx.Client, name: str, password: str, charset: str = "utf-8") -> httpx.Response:
    data = {"forward": "", "jumpurl": str(http.base_url) + "index.php", "step": "2", "lgt": "0",
            "pwuser": name, "pwpwd": password, "hideid": "0", "cktime": "31536000"}
    return post_form(http, "login.php?", data, charset)


def post_form(http: httpx.Client, url: str, data: dict[str, str], charset: str = "utf-8") -> httpx.Response:
    """POST a form encoded in the forum's charset (as the adapters must)."""
    return http.post(url, content=urlencode(data, encoding=charset),
                     headers={"Content-Type": "application/x-www-form-urlencoded"})


def verify_of(html: str) -> str:
    return re.search(r"verifyhash = '(\w+)'", html).group(1)  # type: ignore[union-attr]

