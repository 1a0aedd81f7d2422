"""The console shows the mode the daemon runs in now (newcomer N-13): a GM who started the
console in dry-run, then set ``mode = "review"`` and restarted ``shenshi run``, reads 审核 and
the review mode's hints and buttons, not the dry-run's 不会自动发送 while 批准 sends. A console
beside the daemon (``shenshi run --console``) keeps its daemon's mode."""

from __future__ import annotations

import argparse
import json
import os
from types import SimpleNamespace

import httpx
from starlette.testclient import TestClient

from shenshi.commands.console import start_beside_daemon
from shenshi.config import load_config
from shenshi.console.app import create_app
from shenshi.console.auth import COOKIE, CSRF_FIELD
from shenshi.console.desk import Desk
from shenshi.store.outbox import AnnouncementState
from tests.console.conftest import midgame
from tests.daemon.helpers import GAME6_10, START, UIDS, announcements

DRY_RUN = "演练模式：不会自动发送"
HEADER = {"dry-run": "演练（不发送，天神手动发布）", "review": "审核（批准后发送）"}


def write_config(path, mode: str, database: str, log) -> None:
    """The test game's configuration (as :func:`tests.daemon.helpers.config`) as a file."""
    players = "".join(f"[[game.players]]\nname = {json.dumps(n)}\nuid = \"{UIDS[n]}\"\nrole = \"{r}\"\n\n"
                      for n, r in GAME6_10)  # fmt: skip
    path.write_text(f"""[forum]
engine = "discuz"
base_url = "http://127.0.0.1:1/"
username = "神的使者"

[daemon]
mode = "{mode}"
database = {json.dumps(database)}
log = {json.dumps(str(log))}

[game]
name = "test game"
ruleset = "game6-10"
board = 3
vote_thread = 2
start = "{START.replace(tzinfo=None).isoformat()}"

{players}""", encoding="utf-8")


def switch_mode(path, mode: str) -> None:
    """The GM edits ``[daemon] mode`` (the file's time moves on, as a later edit's does)."""
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('mode = "dry-run"', f'mode = "{mode}"'), encoding="utf-8")
    later = os.stat(path).st_mtime_ns + 2_000_000_000
    os.utime(path, ns=(later, later))


def from_file(tmp_path, clock):
    """The mid-game service, its configuration read from a file that says dry-run."""
    game = midgame(tmp_path, clock)
    path = tmp_path / "shenshi.toml"
    write_config(path, "dry-run", game.config.daemon.database, game.config.daemon.log)
    game.config = load_config(path)
    assert game.config.daemon.mode == "dry-run"
    return game, path


def test_the_console_follows_the_mode_of_the_configuration_file(tmp_path, clock, key) -> None:
    game, path = from_file(tmp_path, clock)
    try:
        with TestClient(create_app(Desk([game]), key), follow_redirects=False) as client:
            client.cookies.set(COOKIE, key.cookie)
            assert HEADER["dry-run"] in client.get("/g/1/").text
            assert DRY_RUN in client.get("/g/1/review").text

            switch_mode(path, "review")  # and the daemon is restarted in review mode
            now = client.get("/g/1/").text
            assert HEADER["review"] in now and HEADER["dry-run"] not in now
            assert "你手动发帖" not in now
            review = client.get("/g/1/review").text
            assert DRY_RUN not in review and "我已发布" not in review
            assert "批准" in review

            result = next(a for a in announcements(game) if a.kind == "night_result")
            r = client.post(f"/g/1/announcements/{result.id}/approve", data={CSRF_FIELD: key.csrf, "back": "/g/1/review"})
            said = client.get(r.headers["location"]).text
            assert "守护进程会在下次轮询时按论坛的发帖间隔发送" in said and "不会发送" not in said
            assert next(a for a in announcements(game) if a.id == result.id).state is AnnouncementState.APPROVED

            path.write_text("[daemon\nmode = ", encoding="utf-8")  # being edited: the mode stays
            assert HEADER["review"] in client.get("/g/1/").text
    finally:
        game.close()


def test_the_console_beside_the_daemon_keeps_the_daemons_mode(tmp_path, clock) -> None:
    game, path = from_file(tmp_path, clock)
    switch_mode(path, "review")  # edited, but this daemon runs on in dry-run until restarted
    args = argparse.Namespace(console=True, console_host="127.0.0.1", console_port=0)
    console = start_beside_daemon(args, SimpleNamespace(services=[game]))
    try:
        r = httpx.get(f"{console.address}/g/1/", headers={"Authorization": f"Bearer {console.key.token}"})
        assert r.status_code == 200 and HEADER["dry-run"] in r.text
    finally:
        console.stop()
        game.close()
