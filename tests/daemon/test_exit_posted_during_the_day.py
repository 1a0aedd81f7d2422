"""newcomer2 F6: a player the GM put out during day 1 (his exit posted) was shown alive, and
among the 「已结算、尚未公布的出局（只有你知道）」, once the day's vote settled and its result waited
to be published: the GM would think the exit post had not gone out. The players know him out
from his post; so does status, and intake reads him as out."""

from __future__ import annotations

from shenshi.daemon import gm_commands
from shenshi.daemon.gm_commands import mark_published
from shenshi.daemon.status import build_status
from tests.daemon.helpers import GAME6_10, announcements, at, post, started, vote_opened
from tests.daemon.test_status import feed


def test_an_exit_posted_during_the_day_is_known_out_while_the_days_result_waits(tmp_path) -> None:
    svc, clock = started(tmp_path)
    vote_opened(svc, clock)
    gm_commands.correct(svc, "exit", ["Tom_2"], reason="本人申请退出")
    mark_published(svc, [a.id for a in announcements(svc) if a.kind == "exit"])
    svc.tick()
    for i, (name, _) in enumerate(GAME6_10):
        if name != "Tom_2":
            feed(svc, post(name, "投票：Rex" if name == "老王" else "投票：老王", 37.2 + i / 100))
    clock.set(at(37.5))
    svc.tick()
    assert svc.referee.state.phase.value == "dusk"  # settled, its result not published
    status = build_status(svc)
    assert "Tom_2" not in status.living and "Tom_2" in status.dead
    assert status.unannounced_deaths == ("老王",)
    ctx = svc.referee.context(clock())
    assert not next(p for p in ctx.players if p.name == "Tom_2").alive
    assert next(p for p in ctx.players if p.name == "老王").alive  # (his execution is not out yet)
