"""Logging in again after the session expired, whatever failed in between, and never resending a
password the forum rejected (forums lock an account after 3–5 failures).

The real phpwind showed it: ``login()`` forgot the uid before sending the password, a re-login
that timed out left it forgotten, and every later "您没有登录" page was taken for a page that
needs no login: the daemon never logged in again.
"""

from __future__ import annotations

import httpx
import pytest
from adapter_world import ENGINE_DIRS, World, logged_in

from shenshi.adapters import errors

GUEST = {"discuz": ("viewthread_p1.html", "viewthread_p1_guest.html"), "phpwind": ("read_p1.html", "not_logged_in_pm_inbox_expired_session.html")}
WRONG = {"discuz": "login_post_response_wrong_password.html", "phpwind": "login_post_response_wrong_password.html"}
DOWN = httpx.ConnectError("the forum is down")


@pytest.fixture(params=["discuz", "phpwind"])
def world(request, make_world) -> World:  # type: ignore[no-untyped-def]
    return make_world(request.param)


def _login_posts(world: World) -> int:
    return sum(r.call_count for r in world.router.routes if r.pattern is not None and "POST" in repr(r.pattern))


@pytest.mark.parametrize("failed_relogins", [1, 3])
def test_expired_session_logs_in_again_after_any_number_of_failed_logins(world: World, failed_relogins: int) -> None:
    good, expired = GUEST[world.engine]
    world.route(good, body=expired, then=[expired] * failed_relogins + [good])
    # the login page: fine once, then down (two attempts each: retries=2), then fine again
    world.route("login_page.html", then=[DOWN, DOWN] * failed_relogins + ["login_page.html"])
    world.route("login_post_response.html")
    world.route("forum_index.html")
    adapter = world.adapter(retries=2)
    adapter.login()
    for _ in range(failed_relogins):
        with pytest.raises(errors.TransportError):
            adapter.reread_pages("2", [1])
        assert adapter.session_expected
    page = adapter.reread_pages("2", [1])[0]
    assert page.posts and adapter.own_uid == "2"
    assert _login_posts(world) == 2  # the first login and the one that worked


def test_phpwind_not_logged_in_page_is_an_expired_session(make_world) -> None:  # type: ignore[no-untyped-def]
    world = make_world("phpwind")
    adapter = logged_in(world)
    world.route("read_p1.html", body="not_logged_in_pm_inbox_expired_session.html", then=["not_logged_in_pm_inbox_expired_session.html"])
    with pytest.raises(errors.SessionExpired, match="您没有登录"):
        adapter.reread_pages("2", [1])  # logged in again once, and the page still said so


def test_a_rejected_password_is_never_sent_again_until_it_changes(world: World, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SHENSHI_TEST_GM_PASSWORD", "wrong-one")
    world.route("login_page.html", then=["login_page.html"] * 3)
    post = world.route("login_post_response.html", body=WRONG[world.engine], then=["login_post_response.html"])
    world.route("forum_index.html")
    adapter = world.adapter(password=None, password_env="SHENSHI_TEST_GM_PASSWORD")
    with pytest.raises(errors.PasswordRejected):
        adapter.login()
    assert post.call_count == 1
    for _ in range(3):  # the daemon's later cycles, a re-login after an expired page…
        with pytest.raises(errors.PasswordRejected, match="will not send it again"):
            adapter.login()
    assert post.call_count == 1
    monkeypatch.setenv("SHENSHI_TEST_GM_PASSWORD", "the-right-one")
    adapter.login()
    assert post.call_count == 2 and adapter.own_uid == "2"


def test_a_locked_account_is_a_login_failure_not_a_rejected_password() -> None:
    from shenshi.adapters import discuz_parse, phpwind_parse

    with pytest.raises(errors.LoginFailed) as dz:
        discuz_parse.check_page('<div id="messagetext" class="alert_error">\n<p>密码错误次数过多，请 15 分钟后重新登录</p>')
    assert not isinstance(dz.value, errors.PasswordRejected)
    locked = (ENGINE_DIRS["phpwind"] / "login_post_response_wrong_password.html").read_text(encoding="utf-8").replace(
        "用户名或密码错误,您还可以尝试 5 次", "已经连续 6 次密码输入错误,您将在 10 分钟内无法正常登录,还剩余 600 秒"
    )
    with pytest.raises(errors.LoginFailed) as pw:
        phpwind_parse.check_page(locked)
    assert not isinstance(pw.value, errors.PasswordRejected)


def test_discuz_login_page_that_welcomes_us_back_sends_no_password(make_world) -> None:  # type: ignore[no-untyped-def]
    """Real Discuz answers a member's login page with "欢迎您回来" and no form (check-config logs
    in twice): the session is alive, so no password is sent and the login succeeds."""
    world = make_world("discuz")
    world.route("login_page.html", body="login_page_member_welcomed_back.html")
    post = world.route("login_post_response.html")
    world.route("forum_index.html")
    adapter = world.adapter()
    adapter.login()
    assert post.call_count == 0 and adapter.own_uid == "2"


def _login_answer(engine: str, message: str) -> httpx.Response:
    """The forum's answer to the login form, saying ``message`` where it says the password is wrong."""
    text = (ENGINE_DIRS[engine] / WRONG[engine]).read_text(encoding="utf-8")
    wrong = {"discuz": "登录失败", "phpwind": "用户名或密码错误,您还可以尝试 5 次"}[engine]
    assert wrong in text
    return httpx.Response(200, text=text.replace(wrong, message, 1), headers={"content-type": "text/html; charset=utf-8"})


@pytest.mark.parametrize(
    ("message", "rejected"),
    [("抱歉，您访问的页面不存在", False), ("用户不存在", True)],
    ids=["a page not found", "no such user"],
)
def test_only_an_answer_about_the_account_blacklists_the_password(world: World, message: str, rejected: bool) -> None:
    """A "does not exist" answer to the login form is a verdict on the password only when it is
    about the account (用户不存在); a page not found says nothing about it, and the password is
    sent again at the next login (the adversary of issue 22 had a correct one blacklisted)."""
    world.route("login_page.html", then=["login_page.html"])
    post = world.route("login_post_response.html", then=[_login_answer(world.engine, message), "login_post_response.html"])
    post.side_effect = list(post.side_effect)[1:]  # the answer above first, then the usual one
    world.route("forum_index.html")
    adapter = world.adapter()
    with pytest.raises(errors.LoginFailed) as first:
        adapter.login()
    assert isinstance(first.value, errors.PasswordRejected) is rejected
    if rejected:
        with pytest.raises(errors.PasswordRejected):
            adapter.login()
        assert post.call_count == 1
    else:
        adapter.login()
        assert post.call_count == 2 and adapter.own_uid == "2"


def test_a_login_page_answered_by_a_redirect_elsewhere_is_a_changed_login_page(world: World) -> None:
    """The login page answers with a redirect to another site (not followed: an empty body):
    the login page changed, nothing was sent (it was an internal ValueError, issue 22's F-2)."""
    world.route("login_page.html", body=None)
    world.router.routes[-1].mock(return_value=httpx.Response(302, headers={"location": "http://elsewhere.test/login"}))
    post = world.route("login_post_response.html")
    world.route("forum_index.html")
    with pytest.raises(errors.LoginPageChanged):
        world.adapter().login()
    assert post.call_count == 0
