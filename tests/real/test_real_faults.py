"""What went wrong on the real forums, provoked on them again (issue 13), and check-config there.

The adapter is the one the daemon uses, on the forum's own clock; the players act through the
client that played them (tests/forumctl.py). Transient failures are injected below HTTP (a
transport that refuses to connect), the expired session by dropping the session cookie as the
forum forgets it.
"""

from __future__ import annotations

import httpx
import pytest

from shenshi.adapters import errors
from shenshi.adapters.base import ForumSettings, make_adapter
from shenshi.cli import main
from shenshi.demo import tomlfile
from tests.real import truth
from tests.real.forums import OffsetClock, RealForumSpec
from tests.real.world import RealForum

PASSWORD_ENV = "SHENSHI_REAL_FAULTS_GM_PASSWORD"
SESSION_COOKIES = ("_auth", "winduser")


class Flaky(httpx.HTTPTransport):
    """The forum down (no connection) for every request while ``down`` is set, or only for the
    login pages while ``logins_down`` is; counts the login forms posted."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.logins_down = False
        self.login_posts = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.raw_path.decode()
        login = "mod=logging" in path or path.startswith("/login.php")
        if self.down or (self.logins_down and login):
            raise httpx.ConnectError("the forum is down", request=request)
        if request.method == "POST" and login:
            self.login_posts += 1
        return super().handle_request(request)


def gm_adapter(spec: RealForumSpec, clock: OffsetClock, transport: Flaky, **settings):  # type: ignore[no-untyped-def]
    forum = ForumSettings(
        engine=spec.engine, base_url=spec.base_url, username=spec.gm, min_interval=0, timeout=60,
        retries=2, **({"password": spec.gm_password} | settings),
    )  # fmt: skip
    return make_adapter(forum, client=httpx.Client(transport=transport, timeout=60), clock=clock, sleep=clock.sleep)


def a_thread(spec: RealForumSpec, clock: OffsetClock) -> int:
    """A thread of the stranger's on the game board, made now: a fault test never counts on the
    threads a game left (a freshly set-up forum has none)."""
    forum = RealForum(spec, clock)
    return forum.create_thread(spec.stranger, f"故障测试（{clock():%m%d %H%M%S}）", "这一帖只用来读版块列表，不是游戏。")


def forget_session(adapter) -> None:  # type: ignore[no-untyped-def]
    """The forum forgot us: the session cookie is gone (the others stay, as in the capture)."""
    for cookie in list(adapter.http.client.cookies.jar):
        if cookie.name.endswith(SESSION_COOKIES):
            adapter.http.client.cookies.delete(cookie.name, domain=cookie.domain, path=cookie.path)


@pytest.mark.engines("phpwind")
def test_a_reply_written_inside_a_conversation_is_read_once(real_forum: RealForumSpec) -> None:
    clock = OffsetClock(real_forum.clock_file)
    forum = RealForum(real_forum, clock)
    adapter = gm_adapter(real_forum, clock, Flaky())
    adapter.login()
    since = clock()
    player = real_forum.players[0]
    forum.empty_pm_box(player)  # a 新手上路 box holds 10 messages
    forum.send_pm(player, real_forum.gm, f"占卜 {real_forum.players[1]}（{since:%H%M%S}）")
    first = adapter.read_pms(since=since)
    clock.advance(61)
    forum.reply_in_conversation(player, real_forum.gm, "补充：投票：阿杰 (>_<)")
    delta = adapter.read_pms(first.cursor, since=since)
    assert not delta.failures
    replies = [m for m in delta.messages if m.text == "补充：投票：阿杰 (>_<)"]
    assert len(replies) == 1 and replies[0].sender.casefold() == player.casefold()
    assert replies[0].conversation == next(m.conversation for m in first.messages if m.sender.casefold() == player.casefold())
    assert adapter.read_pms(delta.cursor, since=since).messages == ()


@pytest.mark.parametrize("outages", [1, 3])
def test_the_expired_session_is_recovered_after_any_number_of_failed_logins(real_forum: RealForumSpec, outages: int) -> None:
    """The page says "您没有登录" (a guest's page): log in again; that login fails (the forum is
    down), once or many times; the next page that says so logs in again, and it works."""
    clock = OffsetClock(real_forum.clock_file)
    a_thread(real_forum, clock)  # the listing a guest would see differs from a member's
    transport = Flaky()
    adapter = gm_adapter(real_forum, clock, transport)
    adapter.login()
    forget_session(adapter)
    transport.logins_down = True
    for _ in range(outages):
        with pytest.raises(errors.TransportError):
            adapter.list_board(str(real_forum.board))
    transport.logins_down = False
    rows = adapter.list_board(str(real_forum.board))
    gm_uid = truth.members(real_forum.db, real_forum.engine, [real_forum.gm])[real_forum.gm]
    assert rows and adapter.own_uid == str(gm_uid)
    assert transport.login_posts == 2  # the first login, and the one after the forum came back


def test_a_rejected_password_is_sent_once_and_the_new_one_logs_in(real_forum: RealForumSpec, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    clock = OffsetClock(real_forum.clock_file)
    clock.advance(minutes=16)  # older failed logins of this account no longer count (15 min)
    a_thread(real_forum, clock)
    transport = Flaky()
    monkeypatch.setenv(PASSWORD_ENV, real_forum.gm_password)
    adapter = gm_adapter(real_forum, clock, transport, password=None, password_env=PASSWORD_ENV)
    adapter.login()
    forget_session(adapter)
    monkeypatch.setenv(PASSWORD_ENV, real_forum.gm_password + "-wrong")
    for _ in range(4):  # the daemon's next cycles
        with pytest.raises(errors.PasswordRejected):
            adapter.list_board(str(real_forum.board))
    assert transport.login_posts == 2  # the first login and the one rejected, never again
    monkeypatch.setenv(PASSWORD_ENV, real_forum.gm_password)
    assert adapter.list_board(str(real_forum.board))
    assert transport.login_posts == 3


def _config(spec: RealForumSpec, tmp_path, players: list[dict], vote_thread: int) -> str:  # type: ignore[no-untyped-def,type-arg]
    raw = {
        "forum": {"engine": spec.engine, "base_url": spec.base_url, "username": spec.gm,
                  "password_env": PASSWORD_ENV, "min_interval": 0, "timeout": 60},
        "game": {"name": "check", "ruleset": "game6-8", "board": spec.board, "vote_thread": vote_thread,
                 "start": "2026-12-01T20:00", "players": players},
        "daemon": {"database": f"sqlite:///{tmp_path / 'game.sqlite3'}", "log": str(tmp_path / "dry.log")},
    }  # fmt: skip
    path = tmp_path / "shenshi.toml"
    path.write_text(tomlfile.dumps(raw), encoding="utf-8")
    return str(path)


def test_check_config_on_the_real_forum(real_forum: RealForumSpec, tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(PASSWORD_ENV, real_forum.gm_password)
    tid = a_thread(real_forum, OffsetClock(real_forum.clock_file))
    names = list(real_forum.players[:8])
    uids = truth.members(real_forum.db, real_forum.engine, names)
    players = [{"name": n, "uid": uids[n]} for n in names]
    assert main(["check-config", "--config", _config(real_forum, tmp_path, players, tid)]) == 0
    out = capsys.readouterr().out
    charset = "gbk" if real_forum.id == "phpwind-gbk" else "utf-8"
    assert f"正常 字符集：{charset}（依据论坛页面自己的声明）" in out, out
    assert "正常 收件箱：" in out and "全部正常" in out
    players[0]["uid"], players[1]["uid"] = players[1]["uid"], players[0]["uid"]  # two uids swapped
    assert main(["check-config", "--config", _config(real_forum, tmp_path, players, tid)]) == 1
    out = capsys.readouterr().out
    assert f"有误 玩家 {names[0]}：论坛上 uid {uids[names[1]]} 是 {names[1]}，不是 {names[0]}" in out, out
    assert f"有误 玩家 {names[1]}：" in out and "2 处有误" in out


@pytest.mark.engines("phpwind")
def test_a_full_pm_box_refuses_the_gms_pm_with_the_forums_reason(real_forum: RealForumSpec) -> None:
    """Issue 16: a player's full PM box (phpwind's 新手上路 box holds 10) refused a receipt; the
    adapter raises the refusal with the forum's own words (the publisher alerts the GM with it)."""
    clock = OffsetClock(real_forum.clock_file)
    forum = RealForum(real_forum, clock)
    adapter = gm_adapter(real_forum, clock, Flaky())
    adapter.login()
    stranger = real_forum.stranger
    forum.empty_pm_box(stranger)
    try:
        with pytest.raises(errors.Rejected) as refused:
            for n in range(30):
                adapter.send_pm(stranger, f"第 {n + 1} 条测试私信（{clock():%H%M%S}）")
        assert "消息数已满" in str(refused.value), refused.value
        assert n >= 1  # some went through before the box was full
    finally:
        forum.empty_pm_box(stranger)
