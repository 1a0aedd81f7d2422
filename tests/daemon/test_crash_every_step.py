"""The daemon killed at every step of the cycle that sends a night's posts (issue 22's own
adversary: "crashes at every step of a send"), with the forum's post and PM numbers colliding:
each write transaction ending and each HTTP request going out or coming back is a step; after
the restart, nothing is on the forum twice and nothing is missing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from shenshi.adapters.sandbox.seed import GM_PASSWORD, player_name
from shenshi.daemon.cycle import Cycle
from shenshi.store.outbox import AnnouncementState
from tests.daemon.helpers import START, announcements
from tests.daemon.test_forum_ids import Killed, next_ids_collide
from tests.daemon.test_found_on_forum import restarted
from tests.daemon.test_service_sandbox import sandbox_game

pytestmark = pytest.mark.slow  # one sandbox game per step (`make e2e`)

# Out, or not meant to go out by itself (a sign-in exit waits for the GM to confirm it).
DONE = (AnnouncementState.SENT, AnnouncementState.PUBLISHED, AnnouncementState.UNCONFIRMED, AnnouncementState.SUPERSEDED)


def count_steps(service: Any, at: Callable[[int], None]) -> None:
    """Call ``at(n)`` at the daemon's n-th step from now (a write transaction ending, an HTTP
    request about to go out, or its answer just in)."""
    done = [0]

    def step() -> None:
        done[0] += 1
        at(done[0])

    service.store.after_write = step
    http = service.adapter.http
    once = http._once

    def counted(*args: Any, **kwargs: Any) -> Any:
        step()
        answer = once(*args, **kwargs)
        step()
        return answer

    http._once = counted


def night_with_a_receipt(clock, forum, service) -> None:  # type: ignore[no-untyped-def]
    """Night 1: a receipt went out as PM 1001; the night is over, its posts not sent yet."""
    cycle = Cycle(service, clock)
    clock.set(START + timedelta(minutes=5))
    cycle.run()
    forum.send_pm(player_name("小明", forum.engine), "神的使者", "占卜 老王", at=clock())
    next_ids_collide(forum)
    clock.advance(minutes=10)
    cycle.run()
    clock.set(START + timedelta(hours=24, minutes=1))


def steps_of_the_dawn_cycle(tmp_path, monkeypatch, engine: str) -> int:  # type: ignore[no-untyped-def]
    with sandbox_game(tmp_path / "count", monkeypatch, engine=engine) as (clock, forum, tid, service):
        night_with_a_receipt(clock, forum, service)
        seen = [0]
        count_steps(service, lambda n: seen.__setitem__(0, n))
        Cycle(service, clock).run()
        return seen[0]


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_a_kill_at_any_step_of_a_send_loses_nothing_and_doubles_nothing(tmp_path, monkeypatch, engine) -> None:
    (tmp_path / "count").mkdir()
    total = steps_of_the_dawn_cycle(tmp_path, monkeypatch, engine)
    assert total > 20
    wrong = []
    for n in range(1, total + 1):
        folder = tmp_path / f"step{n}"
        folder.mkdir()
        with sandbox_game(folder, monkeypatch, engine=engine) as (clock, forum, tid, service):
            night_with_a_receipt(clock, forum, service)

            def die(k: int, n: int = n) -> None:
                if k == n:
                    raise Killed

            count_steps(service, die)
            with pytest.raises(Killed):
                Cycle(service, clock).run()
            monkeypatch.setenv("SHENSHI_TEST_PASSWORD", GM_PASSWORD)
            service = restarted(service, clock)
            for _ in range(3):
                clock.advance(minutes=10)
                Cycle(service, clock).run()
            gm = forum.user("神的使者").uid
            posts = [p.text for p in forum.visible_posts(tid) if p.author_uid == gm]
            pms = [m.text for m in forum.messages.values() if m.sender_uid == gm]
            waiting = [a for a in announcements(service) if a.state not in DONE]
            if len(posts) != len(set(posts)) or len(pms) != len(set(pms)) or waiting:
                wrong.append((n, len(posts) - len(set(posts)), len(pms) - len(set(pms)), [a.key for a in waiting]))
            service.close()
    assert not wrong, (total, wrong)
