"""The daemon beside a forum that misbehaves on purpose (issue 22), over real HTTP on the sandbox:
an answer that drips past the deadline, an answer past the size cap, a login form that sends the
password to another site, a login page that changed, phpwind's load guard on a GBK forum; each
is an alert in the GM's words, and none of them loses a correct password."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

import httpx
import pytest

from shenshi.adapters.sandbox.seed import GM_PASSWORD
from shenshi.bootstrap import bootstrap, session_path
from shenshi.daemon.cycle import Cycle
from shenshi.rulesets.base import Phase
from shenshi.store.outbox import AnnouncementState
from tests.daemon.helpers import START, alerts, announcements
from tests.daemon.test_service_sandbox import sandbox_game


def rebuilt(service, clock, transport=None, *, fresh_login: bool = False, **forum):  # type: ignore[no-untyped-def]
    """The game's daemon started again with these ``[forum]`` settings (through ``transport``),
    not logged in yet (its first cycle logs in; ``fresh_login``: with the password, no session
    kept from before)."""
    service.close()
    config = replace(service.config, forum=replace(service.config.forum, **forum))
    if fresh_login:
        session_path(config).unlink(missing_ok=True)
    client = httpx.Client(transport=transport, follow_redirects=False) if transport else None
    again = bootstrap(config, clock=clock, sleep=lambda s: clock.advance(seconds=s), client=client)
    again.start()
    return again


def kinds(service) -> list[str]:  # type: ignore[no-untyped-def]
    return [a.kind for a in alerts(service)]


def only_chinese(message: str, *allowed: str) -> str:
    """What is left of ``message`` once the option names and names it may quote are taken out:
    it must hold no Latin letters (no English sentence reaches the GM)."""
    for word in (*allowed, "password_file", "password_env", "base_url", "cookies_file", "shenshi run -v",
                 "max_answer_bytes", "db_loadavg", "phpwind", "Forbidden, Please Refresh", "HTTP", "TLS",
                 "shenshi"):  # fmt: skip
        message = message.replace(word, "")
    return message


def test_an_answer_that_drips_past_the_deadline_ends_the_cycle_with_an_alert(tmp_path, monkeypatch) -> None:
    with sandbox_game(tmp_path, monkeypatch) as (clock, forum, tid, service):
        service = rebuilt(service, clock, deadline=1.0, timeout=5.0, retries=1)
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        assert cycle.run().polled
        forum.faults.drip(64, 0.2)  # a 3 KiB answer would take 10 s
        clock.advance(minutes=5)
        result = cycle.run()
        assert result.forum_down and not result.polled
        [alert] = [a for a in alerts(service) if a.kind == "forum_unreachable"]
        assert "太慢" in alert.message and "1 秒" in alert.message
        assert not re.search(r"[A-Za-z]", only_chinese(alert.message))
        forum.faults.drip(0, 0)
        clock.advance(seconds=cycle.next_delay())
        assert cycle.run().polled
        service.close()


def test_an_answer_past_the_size_cap_is_refused_and_the_rest_is_read(tmp_path, monkeypatch) -> None:
    """A thread page grown to 3 MiB (one huge post) is refused as it arrives: an alert names
    the thread, the poll is incomplete (the night does not close), the PMs are still read."""
    with sandbox_game(tmp_path, monkeypatch) as (clock, forum, tid, service):
        service = rebuilt(service, clock, max_answer_bytes=1024 * 1024, use_mobile_api="no")
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        assert cycle.run().polled
        forum.post("Tom_2", tid, "好长的帖子" * 200_000, at=clock())
        forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
        clock.set(START + timedelta(hours=24, minutes=1))  # the night's deadline
        cycle.run()
        [alert] = [a for a in alerts(service) if a.kind == "unparsable_page"]
        assert f"帖子 {tid}" in alert.message and "太大" in alert.message
        assert service.referee.state.phase is Phase.NIGHT  # the clock waits for a complete read
        assert [a for a in announcements(service) if a.kind == "receipt"]  # the inbox was read
        service.close()


class LoginElsewhere(httpx.BaseTransport):
    """The forum, but its login page's form posts to another site (or has no form at all)."""

    def __init__(self, how: str) -> None:
        self.inner = httpx.HTTPTransport()
        self.how = how
        self.elsewhere = 0
        self.password_posts = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host != "127.0.0.1":
            self.elsewhere += 1
            return httpx.Response(200, text="thanks", request=request)
        if request.method == "POST" and GM_PASSWORD.encode() in request.content:
            self.password_posts += 1
        response = self.inner.handle_request(request)
        path = request.url.raw_path
        if not (request.method == "GET" and (b"action=login" in path or path.startswith(b"/login.php"))):
            return response
        body = response.read()
        if self.how == "elsewhere":
            body = re.sub(rb'action="(member\.php[^"]*|login\.php[^"]*)"', rb'action="http://evil.test/\1"', body)
        else:
            body = re.sub(rb"<form[^>]*name=\"login\".*?</form>", b"<p>\xe8\xaf\xb7\xe7\x94\xa8\xe6\x96\xb0\xe7\x89\x88\xe7\x99\xbb\xe5\xbd\x95</p>", body, flags=re.S)
        headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() != "content-length"]
        return httpx.Response(response.status_code, headers=headers, content=body, request=request)


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
@pytest.mark.parametrize("how", ["elsewhere", "no form"])
def test_a_changed_login_page_gets_no_password_and_says_it_will_not_fix_itself(tmp_path, monkeypatch, engine, how) -> None:
    with sandbox_game(tmp_path, monkeypatch, engine=engine) as (clock, forum, tid, service):
        transport = LoginElsewhere(how)
        service = rebuilt(service, clock, transport, fresh_login=True)
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        result = cycle.run()
        assert result.forum_down
        assert transport.elsewhere == 0 and transport.password_posts == 0
        [alert] = [a for a in alerts(service) if a.kind == "login_page_changed"]
        assert "登录页面变了" in alert.message and "不会自己好" in alert.message
        assert "会自动重试" not in alert.message
        if how == "elsewhere":
            assert "另一个网站" in alert.message
        assert not re.search(r"[A-Za-z]", only_chinese(alert.message))
        transport.how = "nothing"  # (the page as the forum sends it)
        transport.handle_request = transport.inner.handle_request  # type: ignore[method-assign]
        clock.advance(seconds=cycle.next_delay())
        assert cycle.run().polled  # the same password: never taken for a rejected one
        service.close()


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_the_login_failed_alert_is_in_chinese(tmp_path, monkeypatch, engine) -> None:
    with sandbox_game(tmp_path, monkeypatch, engine=engine) as (clock, forum, tid, service):
        service = rebuilt(service, clock, fresh_login=True, password_env=None, password="not the password")
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        assert cycle.run().forum_down
        [alert] = [a for a in alerts(service) if a.kind == "login_failed"]
        assert "用户名或密码不对" in alert.message and "不会再用同一个密码" in alert.message
        assert not re.search(r"[A-Za-z]", only_chinese(alert.message, "神的使者")), alert.message
        service.close()


def test_phpwind_load_guard_on_a_gbk_forum_never_blacklists_the_right_password(tmp_path, monkeypatch) -> None:
    """A GBK phpwind (charset auto) behind its load guard: the guard's bare line, sent with PHP's
    UTF-8 header, is neither the login page, nor the charset, nor an answer to the password.
    The guard stays for a whole cycle: an alert, no password sent; once it lifts, the same
    password logs in (in GBK) and the game goes on."""
    from shenshi.adapters.sandbox import SandboxForum, serve
    from shenshi.adapters.sandbox.clock import ManualClock
    from shenshi.adapters.sandbox.seed import seed_demo
    from shenshi.config import parse_config
    from tests.databases import database_url

    clock = ManualClock(START - timedelta(hours=1))
    forum = SandboxForum("phpwind", clock, charset="gbk")
    accounts = {name: uid for name, _, uid in seed_demo(forum)}
    thread = forum.create_thread("神的使者", 3, "【游戏六】游戏者名单与投票帖", "游戏者名单", at=START)
    monkeypatch.setenv("SHENSHI_TEST_PASSWORD", GM_PASSWORD)
    players = {"小明": "seer", "阿杰": "killer", "白色的猫": "commoner", "老王": "killer", "夜行者": "curser",
               "月光": "binder", "kk_大侠": "commoner", "tom_2": "commoner", "lily99": "blesser", "rex": "commoner"}  # fmt: skip
    with serve(forum) as base_url:
        raw = {
            "forum": {"engine": "phpwind", "base_url": base_url, "username": "神的使者", "charset": "auto",
                      "password_env": "SHENSHI_TEST_PASSWORD", "min_interval": 0, "retries": 3},
            "game": {"name": "gbk game", "ruleset": "game6-10", "board": 3, "vote_thread": thread.tid,
                     "start": START.replace(tzinfo=None).isoformat(),
                     "players": [{"name": n, "uid": accounts[n], "role": r} for n, r in players.items()]},
            "daemon": {"mode": "live", "database": database_url(tmp_path), "log": str(tmp_path / "dry.log")},
        }  # fmt: skip
        service = bootstrap(parse_config(raw, tmp_path), clock=clock, sleep=lambda s: clock.advance(seconds=s))
        service.start()
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        forum.faults.load_guard_next(10)  # longer than the retries of one request
        result = cycle.run()
        assert result.forum_down
        assert "forum_busy" in kinds(service) and "login_failed" not in kinds(service)
        [busy] = [a for a in alerts(service) if a.kind == "forum_busy"]
        assert "负载保护" in busy.message and "db_loadavg" in busy.message
        logins = [t for m, t in forum.requests if m == "POST" and "login.php" in t]
        assert not logins, "a password was sent behind the guard"
        forum.faults.clear()
        forum.faults.load_guard_next(2)  # a passing guard within one request's retries
        clock.advance(seconds=cycle.next_delay())
        assert cycle.run().polled, "the right password was taken for a wrong one"
        assert service.adapter.http.charset == "gb18030"
        forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
        clock.advance(minutes=10)
        cycle.run()
        [receipt] = [a for a in announcements(service) if a.kind == "receipt"]
        assert receipt.state is AnnouncementState.SENT and "老王" in receipt.text
        service.close()


def test_check_config_and_run_once_blame_the_slowness_not_the_address(tmp_path) -> None:
    """A forum that drips its answer past ``deadline`` is slow, not away: the one-line error of
    ``check-config`` and ``run --once`` names ``deadline``, not ``base_url`` (issue 22's
    adversary read "论坛开着吗？地址对吗？")."""
    from shenshi.adapters import errors
    from shenshi.config import parse_config
    from shenshi.daemon.forum_problems import explain
    from tests.test_config import raw_config

    line = explain(parse_config(raw_config(), tmp_path), errors.AnswerTooSlow("no answer within 60 s"))
    assert line.startswith("[forum] deadline: ") and "地址对吗" not in line and "一点一点" in line, line
