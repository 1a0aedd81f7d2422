"""wolfadv W6, newcomer N-11: a ballot in the vote thread that could not be counted (a name
nobody has, two targets in one post) raised an alert, and its voter, who believed he had
voted, was never told: where ballots are compulsory a missing one costs his seat (RES-A18)."""

from __future__ import annotations

import pytest

from shenshi.store.outbox import PENDING
from tests.daemon.helpers import announcements, post, publish_vote_opening
from tests.daemon.test_status import feed


def day_one(tmp_path):
    from datetime import timedelta

    from tests.daemon.helpers import GAME6_10, START, config
    from tests.daemon.test_proposals_follow_the_state import day_one as opened

    svc, clock = opened(config(tmp_path, mode="review"), [n for n, _ in GAME6_10])
    clock.set(START + timedelta(hours=38))
    svc.tick()
    publish_vote_opening(svc)
    return svc, clock


@pytest.mark.parametrize(
    ("text", "why"),
    [("投票：大侠", "对不上任何玩家"), ("投票：阿杰 Rex", "投给了不同的人"), ("投票：要是他不解释就投阿杰", "带了条件")],
)
def test_a_ballot_that_was_not_counted_is_told_to_its_voter(tmp_path, text, why) -> None:
    svc, clock = day_one(tmp_path)
    feed(svc, post("小明", text, 38.1))
    [notice] = [a for a in announcements(svc, PENDING) if a.destination == "小明"]
    assert notice.kind == "vote_unread" and why in notice.text and "截票前在投票帖重新投票" in notice.text
    feed(svc, post("小明", "投票：阿杰", 38.2))  # he votes again: the PM is moot
    assert not [a for a in announcements(svc, PENDING) if a.destination == "小明"]


def test_a_counted_ballot_and_talk_in_the_discussion_get_no_such_pm(tmp_path) -> None:
    svc, clock = day_one(tmp_path)
    feed(svc, post("小明", "投票：阿杰", 38.1))
    feed(svc, post("月光", "投票：大侠", 38.1, tid="77"))  # not the vote thread
    assert not [a for a in announcements(svc, PENDING) if a.kind == "vote_unread"]
