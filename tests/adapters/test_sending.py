"""Sending paced ahead of the forum's flood control, to the players' uids from the players file.

On the real Discuz every send after the first hit the 15 s limit and was retried: 13 sends took
about 3 minutes and twice the POSTs. The adapter now waits its engine's interval itself (the
publisher may ask ``send_wait``), and PMs go to the uid the players file gives.
"""

from __future__ import annotations

import httpx
import pytest
from adapter_world import World, flow_response, logged_in

POSTS = {"discuz": ("pm_send_response_ajax.xml", "pm_send_response_flood_control.xml")}


def _posts(world: World) -> list[httpx.Request]:
    return [call.request for call in world.router.calls if call.request.method == "POST"]


def test_discuz_sends_wait_the_flood_interval_before_the_forum_would_refuse(make_world) -> None:  # type: ignore[no-untyped-def]
    world = make_world("discuz")
    adapter = logged_in(world)
    adapter.remember_uids({"小明": "3", "月光": "11"})
    ok, _ = POSTS["discuz"]
    answer = flow_response("discuz", world.flows[ok])
    world.router.post(path="/home.php", params={"ac": "pm", "op": "send"}).mock(side_effect=[answer] * 3)
    before = len(_posts(world))
    adapter.send_pm("小明", "占卜结果：夜行者 是 好人")
    # UCenter wants more than its 15 s since the last PM; posts share the 15 s (floodctrl)
    assert adapter.send_wait("pm") == pytest.approx(16.0)
    assert adapter.send_wait("post") == pytest.approx(15.0)
    adapter.send_pm("月光", "收到")
    adapter.send_pm("小明", "收到")
    assert world.clock.slept.count(16.0) == 2  # waited ahead, before each later send
    assert len(_posts(world)) - before == 3  # no refused POST
    assert not [r for r in world.router.calls if "username=" in str(r.request.url)]  # no look-up by name


def test_discuz_pm_to_a_player_without_a_known_uid_looks_the_name_up(make_world) -> None:  # type: ignore[no-untyped-def]
    world = make_world("discuz")
    adapter = logged_in(world)
    lookup = world.route("space_by_username_redirect.html")
    answer = flow_response("discuz", world.flows["pm_send_response_ajax.xml"])
    world.router.post(path="/home.php", params={"ac": "pm", "op": "send"}).mock(return_value=answer)
    adapter.send_pm("小明", "收到")
    assert lookup.call_count == 1


def test_phpwind_pms_are_not_paced_but_posts_are(make_world) -> None:  # type: ignore[no-untyped-def]
    world = make_world("phpwind")
    adapter = logged_in(world)
    world.route("pm_send_response_ajax.xml", then=["pm_send_response_ajax.xml"])
    adapter.send_pm("小明", "收到")
    adapter.send_pm("阿杰", "收到")
    assert adapter.send_wait("pm") == 0.0 and 6.0 not in world.clock.slept
    adapter._last_sends["post"] = world.clock()
    assert adapter.send_wait("post") == pytest.approx(6.0)


def test_a_send_with_an_unclear_answer_counts_for_the_spacing(make_world) -> None:  # type: ignore[no-untyped-def]
    """The forum may have stored a PM whose answer never came (a timeout): the next send waits
    the interval from it as from any send (issue 22's adversary saw the next PM go out the same
    second)."""
    from shenshi.adapters import errors

    world = make_world("discuz")
    adapter = logged_in(world)
    adapter.remember_uids({"小明": "3", "月光": "11"})
    ok, _ = POSTS["discuz"]
    answer = flow_response("discuz", world.flows[ok])
    timeout = httpx.ReadTimeout("the answer never came")
    world.router.post(path="/home.php", params={"ac": "pm", "op": "send"}).mock(side_effect=[timeout] * 5 + [answer])
    with pytest.raises(errors.ForumError):
        adapter.send_pm("小明", "占卜结果：夜行者 是 好人")
    assert adapter.send_wait("pm") == pytest.approx(16.0)
