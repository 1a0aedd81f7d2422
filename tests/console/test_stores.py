"""The console on either store ``shenshi run`` uses: SQLite, and PostgreSQL (a throw-away
server, :mod:`tests.postgresql`; skipped with the reason where it is absent). The daemon and
the console are two services on one database, as in ``shenshi run --console``."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from shenshi.bootstrap import bootstrap
from shenshi.console.app import create_app
from shenshi.console.auth import COOKIE, CSRF_FIELD, ConsoleKey
from shenshi.console.desk import Desk
from shenshi.store.outbox import AnnouncementState
from tests.console.conftest import TOKEN, feed, midgame
from tests.daemon.helpers import announcements, at, post


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'game.sqlite3'}"
    return request.getfixturevalue("new_postgresql_db")()


def test_the_console_follows_the_daemon_on_its_store(tmp_path, clock, database) -> None:
    daemon = midgame(tmp_path, clock, database=database)
    console = bootstrap(daemon.config, clock=clock, forum=False)  # its own engine
    key = ConsoleKey(TOKEN)
    try:
        with TestClient(create_app(Desk([console]), key), follow_redirects=False) as c:
            c.cookies.set(COOKIE, key.cookie)
            result = next(a for a in announcements(daemon) if a.kind == "night_result")
            r = c.post(f"/g/1/announcements/{result.id}/approve", data={CSRF_FIELD: key.csrf})
            assert r.status_code == 303
            assert next(a for a in announcements(daemon) if a.id == result.id).state is AnnouncementState.APPROVED
            # the daemon reads on: the console shows the new day and its ballot
            feed(daemon, post("神的使者", result.text, 24.6))
            clock.set(at(37))
            daemon.tick()
            feed(daemon, post("小明", "投票：老王", 37.1))
            html = c.get("/g/1/").text
            assert "第1天 投票" in html and "小明（" in html
    finally:
        console.close()
        daemon.close()
