"""What the GM reads of the vote's opening before day 1's vote opens (newcomer N-8): the daemon
proposes the opening post, but the vote's open and close are the rules' hours whenever he posts
it, so the 到时 line does not say the next step runs from his post, as it does for a result
(``shenshi status`` and the console's 现在 page: one status model)."""

from __future__ import annotations

import pytest

from shenshi.commands.status import render
from shenshi.daemon import gm_commands as ops
from shenshi.daemon import gm_text
from shenshi.daemon.status import build_status
from tests.console.conftest import midgame
from tests.daemon.helpers import announcements, at

FROM_THE_POST = "下一步从"


def day_one(svc, clock):
    """``svc`` on day 1 before the vote opens: the night's result, answer and receipts posted
    by hand, the missed sign-ins dropped (nothing waits for the GM)."""
    unconfirmed = [a.id for a in announcements(svc) if a.state.value == "unconfirmed"]
    ops.outbox_action(svc, "reject", unconfirmed, by="test")
    proposed = [a.id for a in announcements(svc) if a.state.value == "proposed"]
    ops.mark_published(svc, proposed, by="test")  # (now: at(24.5))
    clock.set(at(25))
    svc.tick()
    assert not build_status(svc).waiting
    return svc


@pytest.mark.parametrize("mode", ["dry-run", "review"])
def test_the_vote_opening_keeps_its_hours_whenever_the_post_goes_out(tmp_path, clock, key, mode) -> None:
    from starlette.testclient import TestClient

    from shenshi.console.app import create_app
    from shenshi.console.auth import COOKIE
    from shenshi.console.desk import Desk

    svc = day_one(midgame(tmp_path, clock, mode=mode), clock)
    try:
        status = build_status(svc)
        assert status.deadlines[0].what == "vote_opens", status.deadlines
        assert "提出开放投票的帖子" in status.next
        assert FROM_THE_POST not in status.next and "按规则固定" in status.next
        shown = "".join(render(status, 400))  # shenshi status
        assert "到时：守护进程开放投票" in shown and FROM_THE_POST not in shown
        with TestClient(create_app(Desk([svc]), key), follow_redirects=False) as client:
            client.cookies.set(COOKIE, key.cookie)
            now = client.get("/g/1/").text
        assert "提出开放投票的帖子" in now and FROM_THE_POST not in now and "按规则固定" in now
    finally:
        svc.close()


@pytest.mark.parametrize("console", [False, True])
@pytest.mark.parametrize("mode", ["dry-run", "review"])
def test_a_result_still_starts_the_next_step_from_its_publication(mode, console) -> None:
    for what in ("night_end", "vote_closes", "day_end"):
        assert FROM_THE_POST in gm_text.next_step(what, mode, True, console=console), what
    opening = gm_text.next_step("vote_opens", mode, True, console=console)
    assert FROM_THE_POST not in opening and "按规则固定" in opening
    assert "按规则固定" not in gm_text.next_step("vote_opens", "live", True, console=console)


@pytest.mark.parametrize("mode", ["dry-run", "review"])
def test_the_opening_post_waiting_or_published_starts_nothing(tmp_path, clock, mode) -> None:
    svc = day_one(midgame(tmp_path, clock, mode=mode), clock)
    try:
        clock.set(at(38))  # past the 13th hour of the day (opened at 24.5)
        svc.tick()
        [opening] = [a for a in announcements(svc) if a.kind == "vote_opened"]
        status = build_status(svc)
        assert f"#{opening.id}" in status.next and FROM_THE_POST not in status.next
        said = ops.mark_published(svc, [opening.id], by="test")
        assert said.ids == (opening.id,) and not [line for line in said.lines if "从发布时间算起" in line]
    finally:
        svc.close()
