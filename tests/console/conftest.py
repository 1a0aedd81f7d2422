"""A game in the store as the console finds it mid-game, and the console serving it.

The game (game6-10, offline on a manual clock): night 1 with a kill and a divination by PM,
a PM from a stranger (an alert), the seer's PM edited after it was read (a revision), the
night resolved so that its result and the seer's answer wait in the outbox. Player text
carries HTML that must come out escaped.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from starlette.testclient import TestClient

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.console.app import create_app
from shenshi.console.auth import COOKIE, ConsoleKey
from shenshi.console.desk import Desk
from tests.daemon.helpers import START, at, config, pm

TOKEN = "test-token-" + "k" * 32
KILL = "杀 Rex\n杀人宣言：\n" + "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6
HOSTILE = '<script>alert("x")</script>[b]粗[/b]'


def feed(svc, item, url: str | None = None) -> int:
    """Store a post or PM as the poll would, and process it; its evidence id."""
    ident = getattr(item, "pid", None) or item.id
    with svc.store.transaction() as uow:
        [result] = uow.evidence.record(svc.game_id, [(item, url or f"http://forum.example/{ident}")])
    svc.process()
    return result.evidence.id


def edit(svc, item, text: str) -> None:
    """The forum shows ``item`` again with a new text (a revision of its evidence)."""
    with svc.store.transaction() as uow:
        uow.evidence.record(svc.game_id, [(replace(item, text=text), f"http://forum.example/{item.id}")])


def midgame(tmp_path, clock: ManualClock, **daemon):
    """The started service of a game at dawn 1 (see the module's docstring)."""
    svc = bootstrap(config(tmp_path, **daemon), clock=clock, forum=False)
    svc.start()
    clock.set(at(0.02))
    svc.tick()
    feed(svc, pm("夜行者", KILL, 0.05))
    seer = pm("小明", "占卜 老王", 0.1)
    feed(svc, seer)
    edit(svc, seer, "占卜 月光 " + HOSTILE)
    feed(svc, pm("路人甲", "杀 小明 " + HOSTILE, 0.3))  # not a player: an alert
    clock.set(at(24.5))
    svc.tick()  # the night resolves: Rex dies; the result and the seer's answer are proposed
    return svc


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def game(tmp_path, clock):
    svc = midgame(tmp_path, clock)
    yield svc
    svc.close()


@pytest.fixture
def key() -> ConsoleKey:
    return ConsoleKey(TOKEN)


@pytest.fixture
def desk(game) -> Desk:
    return Desk([game])


@pytest.fixture
def client(desk, key):
    """A signed-in client (the cookie set by a first visit with the token)."""
    with TestClient(create_app(desk, key), follow_redirects=False) as c:
        c.cookies.set(COOKIE, key.cookie)
        yield c


@pytest.fixture
def stranger(desk, key):
    """A client without the token or the cookie."""
    with TestClient(create_app(desk, key), follow_redirects=False) as c:
        yield c
