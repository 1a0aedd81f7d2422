"""A remark in the discussion thread that names a suspect ("Rex 很可疑，今天投他。") is talk
(issue 24 round 1; D-I: a ballot is posted in the vote thread): the daemon counts no ballot,
raises no alert and sends no receipt (issue 20 saw five garbled 在投票帖以外投票 alerts)."""

from __future__ import annotations

import pytest

from shenshi.daemon.gm_commands import mark_published
from tests.daemon.helpers import alerts, announcement, announcements, at, post, started
from tests.daemon.test_status import feed

DISCUSSION = "9"  # a thread of the board that is not the vote thread


@pytest.mark.parametrize("remark", ["Rex 很可疑，今天投他。", "我觉得老王有问题，今天投他吧", "今天投谁呢？Rex 还是老王"])
def test_a_remark_in_the_discussion_thread_is_talk(tmp_path, remark) -> None:
    svc, clock = started(tmp_path)
    clock.set(at(24.5))
    svc.tick()
    mark_published(svc, [announcement(svc, svc.referee.gate_key()).id])
    clock.set(at(37.5))
    svc.tick()  # day 1, the vote open
    before = (len(alerts(svc)), len(announcements(svc)))
    feed(svc, post("月光", remark, 37.6, tid=DISCUSSION))
    assert (len(alerts(svc)), len(announcements(svc))) == before
    assert not svc.referee.state.ballots
