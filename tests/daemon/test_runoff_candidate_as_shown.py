"""recheck2 A11: the runoff's post names a candidate seat as the players read it,
「路人甲（接替 Rex）」; a ballot copying that name from the post is a ballot for the seat."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.daemon import gm_commands
from tests.daemon.helpers import START, alerts, post, publish_vote_opening
from tests.daemon.test_proposals_follow_the_state import NEWCOMER, NEWCOMER_UID, feed, game, pending  # noqa: F401 (the fixture)


@pytest.mark.parametrize("written", [f"{NEWCOMER}（接替 Rex）", f"{NEWCOMER}(接替Rex)", "Rex", NEWCOMER])
def test_a_runoff_ballot_naming_the_candidate_as_the_post_shows_it_counts(game, written) -> None:
    svc, clock = game
    clock.set(START + timedelta(hours=38))
    svc.tick()
    publish_vote_opening(svc)
    votes = {"夜行者": "Rex", "老王": "Rex", "小明": "Rex", "月光": "Rex", "白色的猫": "Rex",
             "阿杰": "老王", "Lily99": "老王", "Tom_2": "老王", "Rex": "老王", "kk_大侠": "老王"}  # fmt: skip
    for i, (name, target) in enumerate(votes.items()):
        feed(svc, post(name, f"投票：{target}", 38.1 + i / 100))
    clock.set(START + timedelta(hours=38 + 12 + 1))
    svc.tick()
    [result] = [a for a in pending(svc) if a.destination_kind.value == "thread" and "生死投票" in a.text]
    with svc.store.transaction() as uow:
        uow.outbox.mark_published(result.id, clock())
    clock.advance(minutes=5)
    svc.tick()
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    feed(svc, post("Lily99", f"投票：{written}", 51.2))
    assert not [(a.kind, a.message) for a in alerts(svc) if a.subject == "Lily99"]
    assert [b.target for b in svc.referee.state.ballots if b.voter == "Lily99" and b.round == 2] == ["Rex"]
