"""Faults on demand, over real HTTP on both engines: 5xx bursts, slowness, maintenance, captcha."""

from __future__ import annotations

import httpx
import pytest
from sandbox_helpers import client, discuz_login, phpwind_login

from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve

ENGINES = ["discuz", "phpwind"]
HOME = {"discuz": "forum.php", "phpwind": "index.php"}


@pytest.fixture(params=ENGINES)
def served(request: pytest.FixtureRequest, clock: ManualClock):
    forum = SandboxForum(request.param, clock=clock)
    seed_demo(forum)
    with serve(forum) as base_url:
        yield forum, base_url


def login(forum: SandboxForum, http: httpx.Client, password: str = "GmPass_2024") -> httpx.Response:
    if forum.engine == "discuz":
        return discuz_login(http, "神的使者", password)
    return phpwind_login(http, "神的使者", password)


def test_a_burst_of_5xx_then_normal_service(served: tuple[SandboxForum, str]) -> None:
    forum, base_url = served
    forum.faults.fail_next(3, status=502)
    http = client(base_url)
    statuses = [http.get(HOME[forum.engine]).status_code for _ in range(4)]
    assert statuses == [502, 502, 502, 200]
    forum.faults.fail_next(1, status=503)
    assert http.get(HOME[forum.engine]).status_code == 503
    with pytest.raises(ValueError):
        forum.faults.fail_next(1, status=404)


def test_slow_responses_trip_a_client_timeout(served: tuple[SandboxForum, str]) -> None:
    forum, base_url = served
    forum.faults.slow(1.0)
    with pytest.raises(httpx.ReadTimeout):
        httpx.get(base_url + HOME[forum.engine], timeout=0.2)
    forum.faults.slow(0)
    assert httpx.get(base_url + HOME[forum.engine], timeout=5).status_code == 200


def test_maintenance_shows_the_engines_closed_site_text(served: tuple[SandboxForum, str]) -> None:
    forum, base_url = served
    forum.faults.maintenance(True)
    page = client(base_url).get(HOME[forum.engine])
    expected = "抱歉，本站点暂时关闭" if forum.engine == "discuz" else "网站升级中，请稍后访问"
    assert page.status_code == 200 and expected in page.text
    forum.faults.maintenance(False)
    assert expected not in client(base_url).get(HOME[forum.engine]).text


def test_captcha_on_login(served: tuple[SandboxForum, str]) -> None:
    forum, base_url = served
    forum.faults.captcha(True, login=True, post=False)
    form = client(base_url).get("member.php?mod=logging&action=login" if forum.engine == "discuz" else "login.php").text
    assert ("updateseccode(" in form) if forum.engine == "discuz" else ('name="gdcode"' in form)
    refused = login(forum, client(base_url))
    expected = "抱歉，验证码填写错误" if forum.engine == "discuz" else "认证码不正确或已过期"
    assert expected in refused.text
    forum.faults.captcha(False)
    assert expected not in login(forum, client(base_url)).text


def test_captcha_on_posting(served: tuple[SandboxForum, str], clock: ManualClock) -> None:
    forum, base_url = served
    thread = forum.create_thread("小明", 3, "讨论帖", "大家好，这里是讨论帖。")
    forum.faults.captcha(True, login=False, post=True)
    http = client(base_url)
    login(forum, http)
    page = http.get(f"forum.php?mod=viewthread&tid={thread.tid}" if forum.engine == "discuz" else f"read.php?tid={thread.tid}").text
    import re

    if forum.engine == "discuz":
        formhash = re.search(r'name="formhash" value="(\w+)"', page).group(1)  # type: ignore[union-attr]
        url = f"forum.php?mod=post&action=reply&fid=3&tid={thread.tid}&extra=&replysubmit=yes"
        data = {"formhash": formhash, "message": "投票：阿杰 理由见上"}
        refused = http.post(url, data=data)
        assert "抱歉，验证码填写错误" in refused.text
        ok = http.post(url, data={**data, "seccodeverify": forum.faults.captcha_answer})
        assert ok.status_code == 301
    else:
        verify = re.search(r"verifyhash = '(\w+)'", page).group(1)  # type: ignore[union-attr]
        data = {"verify": verify, "step": "2", "action": "reply", "fid": "3", "tid": str(thread.tid),
                "atc_content": "投票：阿杰 理由见上", "ajax": "1"}
        assert "认证码不正确或已过期" in http.post("post.php?", data=data).text
        assert "success" in http.post("post.php?", data={**data, "gdcode": forum.faults.captcha_answer}).text


def test_expired_sessions_render_pages_as_guest(served: tuple[SandboxForum, str]) -> None:
    forum, base_url = served
    http = client(base_url)
    login(forum, http)
    marker = ("discuz_uid = '2'", "discuz_uid = '0'") if forum.engine == "discuz" else ("winduid = '2'", "winduid = ''")
    assert marker[0] in http.get(HOME[forum.engine]).text
    assert forum.faults.expire_sessions() == 1
    assert marker[1] in http.get(HOME[forum.engine]).text
