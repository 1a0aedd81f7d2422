"""``shenshi console`` and ``shenshi run --console``: where the console says it is (the token
only on a terminal), the games of a store with several, and the console beside the daemon."""

from __future__ import annotations

import argparse
from dataclasses import replace
from types import SimpleNamespace

import httpx
import pytest

from shenshi.bootstrap import bootstrap
from shenshi.cli import main
from shenshi.commands.console import announce, start_beside_daemon
from shenshi.console.desk import Desk
from shenshi.errors import UserError
from tests.console.conftest import TOKEN
from tests.console.serving import served


def test_the_command_is_listed_with_its_address_options(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["console", "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and "--host" in out and "127.0.0.1" in out and "--port" in out
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "--console" in capsys.readouterr().out


def test_the_token_is_shown_only_on_a_terminal(game, capsys, monkeypatch) -> None:
    with served([game]) as console:
        announce(console)  # pytest's stdout is no terminal: a log would keep it
        out = capsys.readouterr().out
        assert console.key.token not in out and str(console.key_file) in out
        monkeypatch.setattr("sys.stdout.isatty", lambda: True)
        announce(console)
        assert f"{console.url}/?token={console.key.token}" in capsys.readouterr().out


def test_run_console_serves_the_daemons_game_beside_it(game) -> None:
    args = argparse.Namespace(console=True, console_host="127.0.0.1", console_port=0)
    console = start_beside_daemon(args, SimpleNamespace(services=[game]))  # a fleet of one game
    try:
        r = httpx.get(f"{console.address}/g/1/", headers={"Authorization": f"Bearer {console.key.token}"})
        assert r.status_code == 200 and "《test game》" in r.text
    finally:
        console.stop()
    assert start_beside_daemon(argparse.Namespace(console=False), SimpleNamespace(services=[game])) is None


def test_a_store_with_several_games_lists_them_all(clock, client) -> None:
    first = client.app.app.state.desk.services[0]
    second_config = replace(first.config, game=replace(first.config.game, name="second game"))
    second = bootstrap(second_config, store=first.store, clock=clock, forum=False)
    second.start()
    with first.store.transaction() as uow:
        uow.games.create("third game", "game5")  # its configuration is not the console's
    desk = Desk([first, second])
    listed = desk.games()
    assert [(g.name, desk.number(g)) for g in listed] == [("test game", 1), ("second game", 2), ("third game", None)]
    from starlette.testclient import TestClient

    from shenshi.console.app import create_app
    from shenshi.console.auth import COOKIE, ConsoleKey

    key = ConsoleKey(TOKEN)
    with TestClient(create_app(desk, key), follow_redirects=False) as c:
        c.cookies.set(COOKIE, key.cookie)
        html = c.get("/").text
        assert 'href="/g/2/"' in html and "third game" in html and "没有给出它的配置" in html
        assert "《second game》" in c.get("/g/2/").text and "全部游戏" in c.get("/g/2/").text
    with pytest.raises(UserError):
        Desk([first, first])
    with pytest.raises(UserError):
        Desk([])


def test_a_port_in_use_is_one_clear_line(game) -> None:
    from shenshi.commands.console import _prepare

    with served([game]) as console:
        port = int(console.address.rsplit(":", 1)[1])
        with pytest.raises(UserError, match=f"控制台的端口 {port} 已被占用.*用 --port 换一个端口"):
            _prepare([game], "127.0.0.1", port)


def test_a_port_in_use_beside_the_daemon_names_the_run_option() -> None:
    import errno

    from shenshi.commands.console import listen_refused

    taken = OSError(errno.EADDRINUSE, "Address already in use")
    said = listen_refused("127.0.0.1", 8737, taken, "--console-host", "--console-port")
    assert "端口 8737 已被占用" in said and "--console-port 8738" in said
    missing = OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")
    assert "--console-host" in listen_refused("10.9.9.9", 8737, missing, "--console-host", "--console-port")



def test_the_package_ships_every_template_and_static_file() -> None:
    import tomllib
    from pathlib import Path

    root = Path(__file__).parents[2]
    shipped = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = shipped["tool"]["setuptools"]["package-data"]["*"]
    files = [p for d in ("templates", "static") for p in (root / "shenshi" / "console" / d).iterdir()]
    assert files and all(any(p.match(pattern) for pattern in patterns) for p in files)
