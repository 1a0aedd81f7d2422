"""Whole scripted games on the real forums, the daemon in review mode sending everything itself.

Each game must end as its script says (as the forum publishes it and as the daemon stored it),
the players' mistakes must raise their alerts and change nothing, and the forum itself (its
database) must hold every announcement and PM exactly once. What it cost is printed per game.
"""

from __future__ import annotations

import pytest

from tests.e2e.checks import (
    assert_as_scripted,
    assert_mistakes_read_right,
    assert_nothing_lost_or_doubled,
)
from tests.real.conftest import SUMMARY
from tests.real.forums import RealForumSpec
from tests.real.game import play_real

GAMES = {  # the games each forum plays (issue 13: both engines; issue 16: chess32, GBK game6-8)
    "discuz": ("game6-10", "werewolf"),
    "phpwind": ("game6-10", "werewolf", "chess32"),
    "phpwind-gbk": ("game6-8",),
}


def test_a_whole_game_on_the_real_forum(real_game: tuple[RealForumSpec, str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    spec, ruleset = real_game
    run = play_real(spec, ruleset, tmp_path)
    if isinstance(run, str):
        pytest.skip(run)
    SUMMARY.append(run.summary())
    SUMMARY.append(run.quiet_line())
    game = run.game
    assert_as_scripted(game)
    assert not run.read_back.lost, run.read_back.lost
    assert not run.read_back.doubled, run.read_back.doubled
    assert_nothing_lost_or_doubled(game)
    assert_mistakes_read_right(game)
    # Paced ahead of the flood limit; PMs to the uids of the players file; the session kept.
    assert run.floods == 0
    assert run.name_lookups == 0
    assert run.once_logins == 0
    # The first poll, on a board full of older games: only this game's threads.
    assert run.old_threads_read == []
    if spec.engine == "discuz":
        assert run.evidence_links and all("#pmlist_" in link for link in run.evidence_links)
        assert run.anchored_links == run.evidence_links  # each opens its message
