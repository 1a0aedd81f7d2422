"""Any exception ends a cycle, never the daemon: logged at WARNING with its traceback, raised
as a GM alert, backed off with jitter, the referee rebuilt from the store; the next cycle runs.
And the lease: a daemon that cannot get its game's lease leaves the game alone."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta

import httpx
import pytest

from shenshi.adapters.sandbox.seed import GM_PASSWORD
from shenshi.bootstrap import bootstrap, session_path
from shenshi.daemon.cycle import Cycle
from shenshi.daemon.scheduler import serve_forever
from shenshi.rulesets.base import Phase
from shenshi.store import Conflict
from shenshi.store.events import EventRepository
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import START, alerts, announcements

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode


def _night(clock, service) -> Cycle:
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    assert service.referee.state.phase is Phase.NIGHT
    return cycle


def test_a_failing_cycle_is_logged_alerted_backed_off_and_the_next_one_runs(
    world, caplog, monkeypatch
) -> None:
    clock, forum, tid, service = world
    cycle = _night(clock, service)
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    clock.advance(minutes=10)
    calls = []

    def broken_tick(at=None):
        calls.append(at)
        raise RuntimeError("a bug in the clock (formhash=abc123)")

    monkeypatch.setattr(service, "tick", broken_tick)
    delays = []
    for _ in range(3):
        result = cycle.run()
        assert result.errors == ["RuntimeError: a bug in the clock (formhash=abc123)"]
        delays.append(cycle.next_delay())
    assert len(calls) == 3 and delays[-1] > delays[0] > service.config.daemon.poll_interval / 2
    logged = [r for r in caplog.records if r.name == "shenshi.daemon.cycle"]
    assert logged and all(r.levelno == logging.WARNING and r.exc_info for r in logged)
    [alert] = [a for a in alerts(service) if a.kind == "cycle_failed"]  # one an hour
    assert "RuntimeError" in alert.message and "abc123" not in alert.message  # redacted
    monkeypatch.undo()
    result = cycle.run()
    assert not result.errors and cycle.next_delay() <= service.config.daemon.poll_interval
    assert [(s.actor, s.action) for s in service.referee.state.submissions] == [("小明", "divine")]


def test_the_referee_is_rebuilt_when_the_store_refused_an_outcome(world, monkeypatch) -> None:
    """The referee applied the PM, the store refused to keep it: its state was ahead of the
    store. The next cycle starts from the store and stores the PM's events once."""
    clock, forum, tid, service = world
    cycle = _night(clock, service)
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    clock.advance(minutes=10)
    original = EventRepository.append

    def refused(self, *args, **kwargs):
        raise Conflict("the database said no")

    monkeypatch.setattr(EventRepository, "append", refused)
    assert cycle.run().errors == ["Conflict: the database said no"]
    assert not service.referee.state.submissions  # rebuilt: nothing was stored
    monkeypatch.setattr(EventRepository, "append", original)
    clock.advance(minutes=10)
    assert not cycle.run().errors
    types = [e.type for e in service.store.stream_events(service.game_id)]
    assert types.count("PowerSubmitted") == 1


def test_a_truncated_page_that_escapes_the_parser_does_not_stop_the_daemon(
    world, monkeypatch
) -> None:
    clock, forum, tid, service = world
    cycle = _night(clock, service)

    def truncated(*args, **kwargs):
        raise ValueError("not a forum time: '2026-12-0' (title None)")

    monkeypatch.setattr(service.adapter, "read_pms", truncated)
    forum.send_pm("月光", "神的使者", "束魂 Tom_2", at=clock())  # the board's notice: 1 new PM
    result = cycle.run()
    assert result.errors and "not a forum time" in result.errors[0]
    monkeypatch.undo()
    clock.advance(minutes=30)
    assert not cycle.run().errors
    assert [s.actor for s in service.referee.state.submissions] == ["月光"]


def test_scheduling_goes_on_after_a_failed_cycle(world, monkeypatch) -> None:
    clock, forum, tid, service = world
    cycle = _night(clock, service)
    runs = []
    original = service.poll

    def flaky_poll():
        runs.append(clock())
        if len(runs) == 1:
            raise KeyError("anything at all")
        return original()

    monkeypatch.setattr(service, "poll", flaky_poll)
    waits = []

    def wait(seconds: float) -> bool:
        waits.append(seconds)
        clock.advance(seconds=seconds)
        return len(waits) == 3

    serve_forever(cycle, wait)
    assert len(runs) == 3 and len(waits) == 3


def test_the_forum_down_is_one_line_an_alert_and_retries(world, caplog) -> None:
    clock, forum, tid, service = world
    cycle = _night(clock, service)
    forum.faults.maintenance(True)
    clock.advance(minutes=10)
    result = cycle.run()
    assert result.forum_down and not result.polled
    assert not any(r.exc_info for r in caplog.records if r.name == "shenshi.daemon.cycle")
    assert [a.kind for a in alerts(service)].count("forum_unreachable") == 1
    forum.faults.maintenance(False)
    clock.advance(seconds=cycle.next_delay())
    assert cycle.run().polled


def test_a_second_daemon_leaves_the_game_alone_and_says_who_holds_it(world, caplog) -> None:
    clock, forum, tid, service = world
    first = _night(clock, service)
    second_service = bootstrap(
        service.config, clock=clock, sleep=lambda s: clock.advance(seconds=s)
    )
    second_service.adapter.login()
    second_service.start()
    second = Cycle(second_service, clock)
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    clock.advance(minutes=10)
    result = second.run()
    assert result.held_by == service.owner and not result.polled
    assert any(service.owner in r.getMessage() for r in caplog.records)
    assert not announcements(second_service)
    assert first.run().polled  # the holder works on
    service.close()  # a clean stop gives the lease up
    clock.advance(minutes=10)
    assert second.run().polled and not second.run().held_by
    second_service.close()


@pytest.mark.parametrize("expired", [False, True])
def test_the_lease_is_taken_over_only_once_it_expired(world, expired: bool) -> None:
    clock, forum, tid, service = world
    _night(clock, service)  # the first daemon holds the lease … and hangs
    other = bootstrap(service.config, clock=clock, sleep=lambda s: clock.advance(seconds=s))
    other.adapter.login()
    other.start()
    clock.advance(minutes=20 if expired else 5)
    result = Cycle(other, clock).run()
    assert (result.held_by is None) is expired
    other.close()


class CountingLogins(httpx.BaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.logins = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and "logging" in str(request.url):
            self.logins += 1
        return self.inner.handle_request(request)


def test_a_rejected_password_is_never_sent_again_until_it_changes(
    world, tmp_path, monkeypatch
) -> None:
    """Forums lock an account after 3–5 failures: one attempt, an alert, then nothing until the
    password source gives another password."""
    clock, forum, tid, service = world
    service.close()
    secret = tmp_path / "password"
    secret.write_text("not the password", encoding="utf-8")
    secret.chmod(0o600)
    monkeypatch.delenv("SHENSHI_TEST_PASSWORD")
    forum_settings = replace(service.config.forum, password_env=None, password_file=secret)
    config = replace(service.config, forum=forum_settings)
    session_path(config).unlink(missing_ok=True)  # no session kept from the fixture's login
    transport = CountingLogins()
    again = bootstrap(config, clock=clock, sleep=lambda s: clock.advance(seconds=s),
                      client=httpx.Client(transport=transport, follow_redirects=False))  # fmt: skip
    again.start()
    cycle = Cycle(again, clock)
    for _ in range(4):
        result = cycle.run()
        assert result.forum_down and not result.polled
        clock.advance(hours=1)
    assert transport.logins == 1
    assert any(
        a.kind == "login_failed" and "不会再用同一个密码" in a.message for a in alerts(again)
    )
    secret.write_text(GM_PASSWORD, encoding="utf-8")  # the GM fixed the file
    assert cycle.run().polled and transport.logins == 2
    again.close()
