"""The GM told when the game waits for him (``[notify]``, :mod:`shenshi.daemon.notify`), over
real local channels: a webhook receiver (Apprise ``json://``) and an SMTP server (aiosmtpd,
Apprise ``mailto://``). One message per round, batched; nothing secret in it; a dead channel
logged and changing nothing else."""

from __future__ import annotations

import email
import json
import logging
import socket
import threading
from dataclasses import replace
from email.policy import default as email_policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.config import NotifyConfig, parse_config
from shenshi.daemon.fleet import Fleet
from shenshi.daemon.notify import Notices, news
from shenshi.errors import ConfigError
from shenshi.rulesets.base import Outcome
from tests.console.conftest import KILL, feed
from tests.daemon.helpers import START, announcements, at, config, pm

SECRET_TOKEN = "tok-" + "s3cr3t" * 4
SECRETS = ("杀手", "占卜者", "束魂者", "杀 Rex", "占卜 老王", "夜行者", "小明", SECRET_TOKEN, "hunter2")


class Webhook:
    """A local HTTP endpoint that keeps every JSON body POSTed to it."""

    def __init__(self) -> None:
        self.bodies: list[dict] = []
        received = self.bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length", 0))
                received.append(json.loads(self.rfile.read(length)))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"json://127.0.0.1:{self.port}/hook?token={SECRET_TOKEN}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Mailbox:
    """A local SMTP server (aiosmtpd) that keeps every message delivered to it."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.messages: list[email.message.EmailMessage] = []
        kept = self.messages

        class Handler:
            async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
                kept.append(email.message_from_bytes(envelope.content, policy=email_policy))
                return "250 OK"

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    @property
    def url(self) -> str:
        return f"mailto://127.0.0.1:{self.port}?from=shenshi@localhost&to=gm@example.com&mode=insecure"

    def texts(self) -> list[str]:
        out = []
        for m in self.messages:
            part = m.get_body(("plain",))
            out.append(f"{m['subject']}\n{part.get_content() if part else ''}")
        return out

    def close(self) -> None:
        self.controller.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def webhook():
    hook = Webhook()
    yield hook
    hook.close()


@pytest.fixture
def mailbox():
    box = Mailbox()
    yield box
    box.close()


def game(tmp_path, clock, urls=(), console_url="http://127.0.0.1:8737", **daemon):
    """A game6-10 served by one daemon (offline: the test feeds the posts and PMs), with
    ``[notify]`` naming ``urls``."""
    cfg = config(tmp_path, **{"mode": "review", **daemon})
    if urls:
        cfg = replace(cfg, notify=NotifyConfig(urls=tuple(urls), console_url=console_url))
    svc = bootstrap(cfg, clock=clock, forum=False)
    fleet = Fleet([svc], clock)
    fleet.start()
    fleet.notices = Notices.for_services(fleet.services)
    return fleet, svc


def night_one(fleet, svc, clock) -> None:
    """Night 1 opens; a kill, a divination and a stranger's PM arrive; the night resolves."""
    clock.set(at(0.02))
    fleet.run()
    feed(svc, pm("夜行者", KILL, 0.05))
    feed(svc, pm("小明", "占卜 老王", 0.1))
    feed(svc, pm("路人甲", "杀 小明", 0.3))  # not a player: an alert
    clock.set(at(24.5))
    fleet.run()


def flush(fleet) -> None:
    for notifier, _ in fleet.notices.groups:
        assert notifier.flush(30)


def test_one_batched_message_per_round_on_every_channel(tmp_path, webhook, mailbox) -> None:
    clock = ManualClock(START)
    fleet, svc = game(tmp_path, clock, [webhook.url, mailbox.url])
    night_one(fleet, svc, clock)
    flush(fleet)
    # night 1 opening told nothing new (no proposal yet) or one message; the night's end one
    waiting = [a for a in announcements(svc) if a.state.value == "proposed"]
    assert waiting, "the night's result and receipts wait for review"
    last_hook, last_mail = webhook.bodies[-1], mailbox.texts()[-1]
    assert len(webhook.bodies) == len(mailbox.messages) <= 2  # one message per round at most
    body = last_hook["message"]
    result = next(a for a in waiting if a.kind == "night_result")
    assert f"#{result.id} 第1夜结果 等你审核" in body
    assert "条私信等你审核" in body
    assert "新提醒 10 条（#1-10）：非玩家的指令、未签到×9" in body
    assert "9 个「未签到」帖子等你确认（退出或换人）" in body
    assert "控制台：http://127.0.0.1:8737/g/1/" in body
    assert "test game" in last_hook["title"]
    assert f"#{result.id}" in last_mail and "非玩家的指令" in last_mail
    for text in (json.dumps(webhook.bodies, ensure_ascii=False), *mailbox.texts()):
        for secret in SECRETS:
            assert secret not in text, secret

    before = len(webhook.bodies)
    clock.set(at(24.6))
    fleet.run()  # nothing new: no message
    flush(fleet)
    assert len(webhook.bodies) == before and len(mailbox.messages) == before


def test_a_restart_does_not_tell_again(tmp_path, webhook) -> None:
    clock = ManualClock(START)
    fleet, svc = game(tmp_path, clock, [webhook.url])
    night_one(fleet, svc, clock)
    flush(fleet)
    told = len(webhook.bodies)
    again = Notices.for_services([svc])
    fleet.notices = again
    clock.set(at(24.6))
    fleet.run()
    flush(fleet)
    assert len(webhook.bodies) == told


def test_a_dead_channel_is_logged_and_changes_nothing_else(tmp_path, webhook, caplog) -> None:
    dead = f"json://127.0.0.1:{free_port()}/gone"
    clock_a, clock_b = ManualClock(START), ManualClock(START)
    fleet_a, a = game(tmp_path / "a", clock_a, [dead, webhook.url])
    fleet_b, b = game(tmp_path / "b", clock_b)  # no [notify] at all
    with caplog.at_level(logging.WARNING, logger="shenshi.daemon.notify"):
        night_one(fleet_a, a, clock_a)
        flush(fleet_a)
    night_one(fleet_b, b, clock_b)
    assert webhook.bodies, "the live channel still got its message"
    assert any("通知没有发出去" in r.getMessage() for r in caplog.records)
    assert all(SECRET_TOKEN not in r.getMessage() and "/gone" not in r.getMessage() for r in caplog.records)

    def story(svc):
        events = [e.payload for e in svc.store.stream_events(svc.game_id)]
        with svc.store.snapshot() as uow:
            outbox = [(x.kind, x.state.value, x.text) for x in uow.outbox.announcements(svc.game_id)]
            raised = [(x.kind, x.message) for x in uow.alerts.raised(svc.game_id)]
        return len(events), outbox, raised

    assert story(a) == story(b)


def test_news_tells_the_forum_down_once_then_back_and_the_end(tmp_path) -> None:
    clock = ManualClock(START)
    fleet, svc = game(tmp_path, clock)
    from shenshi.daemon.notify import keep

    first = news(svc, forum_down="论坛暂时无法访问")
    assert any("读不到论坛：论坛暂时无法访问" in line for line in first.lines)
    keep(svc, first)
    assert not news(svc, forum_down="论坛暂时无法访问"), "told once, not every round"
    back = news(svc)
    assert "论坛又能读了" in back.lines
    keep(svc, back)
    svc.referee.state = replace(svc.referee.state, outcome=Outcome("civilians", "killers_extinct"))
    over = news(svc)
    assert any("游戏已结束" in line for line in over.lines)
    assert all("好人" not in line for line in over.lines)  # the winner waits for the result post
    keep(svc, over)
    assert not news(svc)


def test_dry_run_says_post_by_hand_and_live_tells_no_waiting(tmp_path, webhook) -> None:
    clock = ManualClock(START)
    fleet, svc = game(tmp_path / "dry", clock, [webhook.url], mode="dry-run")
    night_one(fleet, svc, clock)
    flush(fleet)
    assert "等你手动发布" in webhook.bodies[-1]["message"]
    assert "等你审核" not in webhook.bodies[-1]["message"]
    told = len(webhook.bodies)
    clock = ManualClock(START)
    fleet, svc = game(tmp_path / "live", clock, [webhook.url], mode="live")
    night_one(fleet, svc, clock)
    flush(fleet)
    assert all("等你审核" not in body["message"] and "等你手动" not in body["message"] for body in webhook.bodies[told:])  # sent by itself
    assert any("新提醒" in body["message"] for body in webhook.bodies[told:])


def test_only_the_events_asked_for(tmp_path) -> None:
    clock = ManualClock(START)
    fleet, svc = game(tmp_path, clock)
    svc.config = replace(svc.config, notify=NotifyConfig(urls=("json://127.0.0.1:1/",), on=("alert",)))
    night_one(fleet, svc, clock)
    found = news(svc)
    assert found.lines[1:] and all("提醒" in line for line in found.lines[1:])


def test_the_urls_file_must_be_private(tmp_path, monkeypatch) -> None:
    secret = tmp_path / "notify-urls.txt"
    secret.write_text(f"# my channels\njson://127.0.0.1:1/?token={SECRET_TOKEN}\n", encoding="utf-8")
    secret.chmod(0o644)
    settings = NotifyConfig(urls_file=secret)
    with pytest.raises(ConfigError, match="chmod 600"):
        settings.channel_urls()
    secret.chmod(0o600)
    monkeypatch.setenv("SHENSHI_NOTIFY", "ntfy://example/topic  bark://key@host")
    urls = NotifyConfig(urls=("json://a/",), urls_file=secret, urls_env="SHENSHI_NOTIFY").channel_urls()
    assert urls == ("json://a/", f"json://127.0.0.1:1/?token={SECRET_TOKEN}", "ntfy://example/topic", "bark://key@host")


@pytest.mark.parametrize(
    ("notify", "said"),
    [
        ({"on": ["alerts"]}, "[notify] on"),
        ({"console_url": "127.0.0.1:8737"}, "[notify] console_url: 应为 http:// 或 https:// 开头的网址"),
        ({"url": ["json://x/"]}, "[notify] url"),
    ],
)
def test_a_wrong_notify_option_is_named(tmp_path, notify, said) -> None:
    raw = {
        "forum": {"engine": "discuz", "base_url": "http://127.0.0.1:1/", "username": "神的使者"},
        "game": {"name": "g", "ruleset": "game6-10", "board": 3, "vote_thread": 2, "start": "2026-12-01T20:00:00",
                 "players": [{"name": f"p{i}", "role": "commoner"} for i in range(10)]},
        "notify": notify,
    }  # fmt: skip
    with pytest.raises(ConfigError) as caught:
        parse_config(raw, tmp_path)
    assert said in str(caught.value)
