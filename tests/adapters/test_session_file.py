"""The session kept across ``shenshi run --once``: a 0600 cookie jar beside the database.

A quiet ``run --once`` must not log in each time (it did: three requests and one more login
counted by the forum); a saved session that expired logs in once; a rejected password is
remembered across runs, so that cron never locks the account.
"""

from __future__ import annotations

import json
import logging
import os
import stat

import pytest
from adapter_world import PASSWORD, World

from shenshi.adapters import errors

PAGE = {"discuz": ("viewthread_p1.html", "viewthread_p1_guest.html"), "phpwind": ("read_p1.html", "read_p1_guest.html")}


@pytest.fixture(params=["discuz", "phpwind"])
def world(request, make_world) -> World:  # type: ignore[no-untyped-def]
    return make_world(request.param)


def _routes(world: World):  # type: ignore[no-untyped-def]
    return [world.route(n) for n in ("login_page.html", "login_post_response.html", "forum_index.html")]


def test_a_second_run_uses_the_saved_session_without_logging_in(world: World, tmp_path, caplog) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)
    jar = tmp_path / "state" / "shenshi-forum-session.json"
    login_page, login_post, index = _routes(world)
    first = world.adapter(session_file=jar)
    first.login()
    first.close()
    assert stat.S_IMODE(os.stat(jar).st_mode) == 0o600
    saved = jar.read_text(encoding="utf-8")
    assert PASSWORD not in saved and json.loads(saved)["uid"] == "2"
    cookie = next(c["value"] for c in json.loads(saved)["cookies"] if c["name"].endswith(("_auth", "winduser")))
    world.route(PAGE[world.engine][0])
    second = world.adapter(session_file=jar)  # the next `run --once`
    second.login()
    page = second.reread_pages("2", [1])[0]
    assert page.posts and second.own_uid == "2"
    assert (login_page.call_count, login_post.call_count, index.call_count) == (1, 1, 1)  # the first run's only
    assert cookie not in caplog.text and PASSWORD not in caplog.text


def test_a_saved_session_that_expired_logs_in_once(world: World, tmp_path) -> None:  # type: ignore[no-untyped-def]
    jar = tmp_path / "shenshi-forum-session.json"
    login_page, login_post, _ = _routes(world)
    first = world.adapter(session_file=jar)
    first.login()
    first.close()
    good, guest = PAGE[world.engine]
    world.route(good, body=guest, then=[good])  # the forum forgot the session meanwhile
    second = world.adapter(session_file=jar)
    second.login()
    assert second.reread_pages("2", [1])[0].posts
    assert login_post.call_count == 2


def test_a_rejected_password_is_remembered_by_the_next_run(world: World, tmp_path) -> None:  # type: ignore[no-untyped-def]
    jar = tmp_path / "shenshi-forum-session.json"
    world.route("login_page.html")
    post = world.route("login_post_response.html", body="login_post_response_wrong_password.html")
    with pytest.raises(errors.PasswordRejected):
        world.adapter(session_file=jar, password="wrong").login()
    assert "wrong" not in jar.read_text(encoding="utf-8")
    with pytest.raises(errors.PasswordRejected):
        world.adapter(session_file=jar, password="wrong").login()  # a new process, same password
    assert post.call_count == 1


def test_a_session_file_others_can_read_is_ignored_and_rewritten_private(world: World, tmp_path, caplog) -> None:  # type: ignore[no-untyped-def]
    jar = tmp_path / "shenshi-forum-session.json"
    _, login_post, _ = _routes(world)
    first = world.adapter(session_file=jar)
    first.login()
    os.chmod(jar, 0o644)
    second = world.adapter(session_file=jar)
    second.login()
    assert login_post.call_count == 2
    assert "别的用户也能读它" in caplog.text
    assert stat.S_IMODE(os.stat(jar).st_mode) == 0o600
