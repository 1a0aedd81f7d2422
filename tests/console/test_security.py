"""Who may use the console: the token, the cookie, CSRF on every action, the Origin and Host
of requests, the token file, and secrets (the token, roles, the forum password) kept out of
pages and logs."""

from __future__ import annotations

import logging
import os
import stat

import httpx
import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from shenshi.console.app import create_app
from shenshi.console.auth import COOKIE, CSRF_FIELD, ConsoleKey, load_or_create_key
from shenshi.store.outbox import AnnouncementState
from tests.console.conftest import TOKEN
from tests.console.serving import served
from tests.daemon.helpers import announcements

GETS = ["/", "/g/1/", "/g/1/review", "/g/1/alerts", "/g/1/players", "/g/1/timeline",
        "/g/1/corrections", "/g/1/players/1/role"]  # fmt: skip


def post_routes(client) -> list[str]:
    """Every POST route of the application, with its parameters filled in."""
    app = client.app.app  # behind the Gate
    paths = [r.path for r in app.routes if isinstance(r, Route) and "POST" in (r.methods or ())]
    assert len(paths) == 7  # approve (several), one announcement, ack, unack, hint, substitute, override
    return [p.replace("{game:int}", "1").replace("{ident:int}", "1").replace("{what}", w)
            for p in paths for w in (("approve", "reject", "restore", "edit", "published") if "{what}" in p else ("",))]  # fmt: skip


def states(game) -> list:
    return [(a.id, a.state, a.text, a.published_at) for a in announcements(game)]


@pytest.mark.parametrize("path", GETS)
def test_without_the_token_or_the_cookie_nothing_is_shown(stranger, path) -> None:
    r = stranger.get(path)
    assert r.status_code == 401 and "shenshi console" in r.text and "test game" not in r.text


def test_a_wrong_cookie_or_token_is_refused(stranger, key) -> None:
    stranger.cookies.set(COOKIE, key.csrf)  # another derived value is not the cookie
    assert stranger.get("/g/1/").status_code == 401
    assert stranger.get("/g/1/?token=" + "x" * 40).status_code == 401
    assert stranger.get("/g/1/", headers={"Authorization": "Bearer " + "x" * 40}).status_code == 401


def test_the_first_visit_sets_the_cookie_and_drops_the_token_from_the_address(stranger, key) -> None:
    r = stranger.get(f"/g/1/review?all=1&token={TOKEN}")
    assert r.status_code == 303 and r.headers["location"] == "/g/1/review?all=1"
    cookie = r.headers["set-cookie"]
    assert f"{COOKIE}={key.cookie}" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Max-Age=2592000" in cookie  # (it outlives the browser: newcomer4 C2)
    assert TOKEN not in cookie
    assert stranger.get("/g/1/review").status_code == 200  # the cookie signs in from now on


def test_a_script_may_use_the_token_as_a_bearer(stranger) -> None:
    assert stranger.get("/g/1/", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_every_action_needs_the_csrf_token(client, key, game) -> None:
    before = states(game)
    for path in post_routes(client):
        for data in ({}, {CSRF_FIELD: "wrong"}, {CSRF_FIELD: key.cookie}):
            r = client.post(path, data={**data, "all": "1", "text": "x", "what": "exit", "arg0": "Rex"})
            assert r.status_code == 403, path
    assert states(game) == before
    a = next(a for a in announcements(game) if a.state is AnnouncementState.PROPOSED)
    r = client.post(f"/g/1/announcements/{a.id}/approve", headers={"X-CSRF-Token": key.csrf})
    assert r.status_code == 303  # the header works too (scripts)


def test_an_action_from_another_site_is_refused(client, key, game) -> None:
    a = next(a for a in announcements(game) if a.state is AnnouncementState.PROPOSED)
    r = client.post(f"/g/1/announcements/{a.id}/approve", data={CSRF_FIELD: key.csrf},
                    headers={"Origin": "http://evil.example"})  # fmt: skip
    assert r.status_code == 403
    assert next(x for x in announcements(game) if x.id == a.id).state is AnnouncementState.PROPOSED


def test_other_methods_are_refused_and_pages_carry_the_security_headers(client) -> None:
    assert client.put("/g/1/").status_code == 405
    headers = client.get("/g/1/").headers
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "same-origin"


def test_a_loopback_console_answers_only_its_own_host_names(desk, key) -> None:
    app = create_app(desk, key, key.host)
    with TestClient(app, base_url=f"http://{key.host}:8737", follow_redirects=False) as c:
        c.cookies.set(COOKIE, key.cookie)
        assert c.get("/g/1/").status_code == 200
        assert c.get("/g/1/", headers={"Host": "rebound.example:8737"}).status_code == 421
        assert c.get("/g/1/", headers={"Host": "shenshi-0123456789abcdef0123.localhost:8737"}).status_code == 421


@pytest.mark.parametrize("door", ["127.0.0.1:8737", "localhost:8737", "[::1]:8737"])
def test_on_the_loopback_names_the_cookie_signs_nobody_in(desk, key, game, door) -> None:
    """Cookies ignore ports: what a browser sends to 127.0.0.1 or localhost goes to every web
    service there. On those names the console takes no cookie, and only the token's holder is
    told its own name."""
    app = create_app(desk, key, key.host)
    with TestClient(app, base_url=f"http://{door}", follow_redirects=False) as c:
        c.cookies.set(COOKIE, key.cookie)
        for path in GETS:
            r = c.get(path)
            assert r.status_code == 401 and key.host not in r.text and "test game" not in r.text
        before = states(game)
        for path in post_routes(c):
            assert c.post(path, data={CSRF_FIELD: key.csrf, "all": "1"}).status_code == 401
        assert states(game) == before
        assert c.get("/g/1/?token=" + "x" * 40).status_code == 401
        r = c.get(f"/g/1/review?all=1&token={TOKEN}")  # the token: sent on to the console's name
        assert r.status_code == 303 and "set-cookie" not in r.headers
        assert r.headers["location"] == f"http://{key.host}:8737/g/1/review?all=1&token={TOKEN}"
        r = c.get("/g/1/", headers={"Authorization": f"Bearer {TOKEN}"})  # a script
        assert r.status_code == 200 and "《test game》" in r.text


def test_the_console_name_is_its_own_and_unguessable(key) -> None:
    other = ConsoleKey("another-token-" + "z" * 32)
    assert key.host.endswith(".localhost") and key.host != other.host
    assert key.host == ConsoleKey(TOKEN).host  # kept with the token: a bookmark keeps working
    label = key.host.split(".")[0]
    assert len(label) <= 63 and len(label.removeprefix("shenshi-")) == 20  # 80 bits
    assert key.cookie not in key.host and TOKEN not in key.host


def test_a_cookie_for_a_parent_domain_does_not_hide_the_console_cookie(desk, key) -> None:
    app = create_app(desk, key, key.host)
    with TestClient(app, base_url=f"http://{key.host}:8737", follow_redirects=False) as c:
        both = f"{COOKIE}=junk-from-localhost; {COOKIE}={key.cookie}"
        assert c.get("/g/1/", headers={"Cookie": both}).status_code == 200
        assert c.get("/g/1/", headers={"Cookie": f"{COOKIE}=junk"}).status_code == 401


def test_the_token_file_is_private_and_kept(tmp_path) -> None:
    path = tmp_path / "state" / "shenshi-console-token"
    key, new = load_or_create_key(path)
    assert new and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    os.chmod(path, 0o644)
    again, new = load_or_create_key(path)
    assert not new and again.token == key.token and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert key.token not in repr(key)
    with pytest.raises(ValueError):
        ConsoleKey("short")


def test_served_for_real_the_token_and_roles_never_reach_a_log(game, caplog, capfd, monkeypatch) -> None:
    monkeypatch.setenv("SHENSHI_TEST_FORUM_PASSWORD", "Secret_pw_123")
    caplog.set_level(logging.DEBUG)
    with served([game]) as console:
        assert console.address.startswith("http://127.0.0.1:")
        assert console.url == console.address.replace("127.0.0.1", console.key.host)
        # httpx cannot resolve the console's name (browsers do): its socket, with the name as Host
        host = {"Host": console.url.removeprefix("http://")}
        with httpx.Client(base_url=console.address, headers=host, follow_redirects=False) as c:
            first = c.get(f"/g/1/?token={console.key.token}")
            assert first.status_code == 303 and first.headers["location"] == "/g/1/"
            assert c.get("/g/1/").status_code == 200
            pages = [c.get(p).text for p in GETS[1:-1]]
            assert c.get("/g/1/players/2/role").json()["role"] == "杀手"
            assert c.get("/g/1/", headers={"Host": "evil.example"}).status_code == 421
    out, err = capfd.readouterr()
    # the server's side: every logger but the test's own HTTP client's
    server = [r.getMessage() for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    logged = "\n".join(server) + out + err
    assert console.key.token not in logged and console.key.cookie not in logged
    for role in ("杀手", "占卜者", "束魂者"):
        assert role not in logged
    shown = "".join(pages)
    assert "Secret_pw_123" not in shown and console.key.token not in shown
    dry = game.config.daemon.log
    for path in (dry, dry.with_suffix(".jsonl")):
        if path.exists():
            assert console.key.token not in path.read_text(encoding="utf-8")
    assert stat.S_IMODE(os.stat(console.key_file).st_mode) == 0o600
    assert console.key_file.parent == game.config.daemon.log.parent  # beside the database
