"""The new-PM notice a board listing carries (what lets a quiet poll skip the inbox): the Discuz
mobile API's ``notice.newpm``, phpwind's header 消息(N); read from the real installs' pages, and
the sandbox shows the same as they do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shenshi.adapters import discuz_parse as dz
from shenshi.adapters import phpwind_parse as pw
from shenshi.adapters.base import ForumSettings, make_adapter
from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve
from shenshi.adapters.sandbox.seed import BOARD_FID, GM_NAME, GM_PASSWORD

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.parametrize(
    ("name", "unread"),
    [("thread_list_fid3.html", 10), ("thread_list_unread_messages_count.html", 5), ("read_p1_guest.html", None)],
)
def test_phpwind_header_unread_count_on_captured_pages(name: str, unread: int | None) -> None:
    path = FIXTURES / "phpwind" / "8.7" / name
    assert pw.unread_messages(path.read_text(encoding="utf-8")) == unread


def test_discuz_api_board_listing_carries_the_new_pm_notice() -> None:
    found = json.loads((FIXTURES / "discuz" / "x3.5" / "api_forumdisplay_fid3.json").read_text(encoding="utf-8"))
    assert dz.api_unread_pms(found) == 0
    found["Variables"]["notice"]["newpm"] = "2"
    assert dz.api_unread_pms(found) == 2
    del found["Variables"]["notice"]
    assert dz.api_unread_pms(found) is None  # not said: the inbox is read


@pytest.mark.parametrize(("engine", "api"), [("discuz", "yes"), ("phpwind", "no"), ("discuz", "no")])
def test_the_sandbox_board_listing_says_what_the_real_forum_says(engine: str, api: str) -> None:
    from datetime import UTC, datetime

    clock = ManualClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC))
    forum = SandboxForum(engine, clock=clock)
    seed_demo(forum)
    forum.create_thread(GM_NAME, BOARD_FID, "第一局", "名单")
    with serve(forum) as base_url:
        settings = ForumSettings(engine=engine, base_url=base_url, username=GM_NAME, password=GM_PASSWORD,
                                 use_mobile_api=api, min_interval=0)  # fmt: skip
        adapter = make_adapter(settings, clock=clock, sleep=lambda s: clock.advance(seconds=s))
        try:
            adapter.login()
            adapter.list_board(str(BOARD_FID))
            quiet = adapter.pm_notice
            forum.send_pm("小明", GM_NAME, "占卜 老王", at=clock())
            adapter.list_board(str(BOARD_FID))
            told = adapter.pm_notice
            inbox = adapter.read_pms()
            adapter.mark_read(inbox.unread)
            adapter.list_board(str(BOARD_FID))
            after = adapter.pm_notice
        finally:
            adapter.http.client.close()
    if engine == "discuz" and api == "no":
        assert (quiet, told, after) == (None, None, None)  # the HTML listing does not say
    else:
        assert (quiet, told, after) == (0, 1, 0)
