"""``shenshi override ballot VOTER TARGET``: the GM sets a ballot intake could not read. It is
an event like every correction: it replaces what the voter cast in the round, counts at the
close like a ballot, and a later post by the voter does not undo it where the first counts."""

from __future__ import annotations

import pytest

from shenshi.rulesets.base import (
    ABSTAIN,
    BallotOverridden,
    CastBallot,
    CloseRound,
    IllegalActionError,
    OverrideBallot,
)
from tests.rulesets.test_corrections import ALL_FOR_K2, day_with_votes, game


def test_the_gm_s_ballot_replaces_the_voter_s_and_is_counted() -> None:
    split = [(n, "K2") for n, _ in ALL_FOR_K2[:5]] + [(n, "C1") for n, _ in ALL_FOR_K2[5:]]
    rules, state = day_with_votes(split)  # 5 for K2, 5 for C1
    voter = split[0][0]
    state, events = rules.apply(state, OverrideBallot(voter, "C1", "投票：C1，理由：… was dropped"))
    assert isinstance(events[0], BallotOverridden) and events[0].reason.startswith("投票")
    assert [(b.target, b.via) for b in state.ballots if b.voter == voter] == [("C1", "gm")]
    state, _ = rules.apply(state, CastBallot(voter, "K2"))  # family A: the first ballot counts
    state, events = rules.apply(state, CloseRound())
    tally = events[0].report.vote_tally
    assert (tally.get("C1", 0), tally.get("K2", 0)) == (6, 4)


def test_the_override_is_replayed_to_the_same_state() -> None:
    rules, state = day_with_votes(ALL_FOR_K2)
    after, events = rules.apply(state, OverrideBallot("C1", "C2"))
    replayed = state
    for event in events:
        replayed = rules.evolve(replayed, event)
    assert replayed == after


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (OverrideBallot("nobody", "C1"), "'nobody' is not a player"),
        (OverrideBallot("C1", "nobody"), "'nobody' is not a player"),
    ],
)
def test_an_override_naming_no_player_is_refused_and_changes_nothing(command, says) -> None:
    rules, state = day_with_votes(ALL_FOR_K2)
    with pytest.raises(IllegalActionError, match=says):
        rules.decide(state, command)


def test_no_override_without_an_open_round() -> None:
    rules, state = game()
    with pytest.raises(IllegalActionError, match="not allowed during the setup"):
        rules.decide(state, OverrideBallot("C1", ABSTAIN))
