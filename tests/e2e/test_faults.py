"""Whole games under faults, one ruleset per engine: a 5xx burst, the session expiring, flood
control on the GM's posts, and the daemon killed with SIGKILL (mid-night, mid-vote, and at
the worst moments: right after the forum accepted a post, right after a poll stored what it
read). Nothing may be lost or done twice: the same events and messages as a clean run of the
same seed, and the script's outcome. Random kills at arbitrary moments: test_kills.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from shenshi.demo.director import Director
from shenshi.demo.game import play
from tests.e2e.checks import (
    assert_as_scripted,
    assert_nothing_lost_or_doubled,
    daemon_errors,
)
from tests.e2e.conftest import SEED

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # (make e2e-ci: CI plays it; make test stays short)
GAMES = {"discuz": "game6-10", "phpwind": "game5"}  # game5: a runoff and last words under faults


@dataclass
class Once:
    """A fault that strikes once, in step ``label`` (and day round ``round``), after a poll has
    seen some of the players' moves there: mid-night, mid-vote."""

    label: str
    action: Callable[[Director], object]
    round: int = 1
    fired: list[object] = field(default_factory=list)

    def __call__(self, director: Director) -> None:
        p = director.players
        if (
            self.fired
            or p.step is None
            or p.step.label != self.label
            or p.progress.round != self.round
        ):
            return
        started = p.progress.started
        if director.last_poll is None or started is None or director.last_poll <= started:
            return
        if not any(m.done and m.at > started for m in p.moves):
            return
        self.fired.append(self.action(director) or True)


def forum(director: Director):
    return director.players.world.forum


@pytest.mark.parametrize("engine", sorted(GAMES))
def test_a_5xx_burst(clean_run, tmp_path, engine: str) -> None:
    faults = [
        Once(label, lambda d: forum(d).faults.fail_next(12, status=502))
        for label in ("night1", "day1")
    ]
    run = play(GAMES[engine], engine, seed=SEED, workdir=tmp_path, hooks=faults)
    assert all(f.fired for f in faults)
    assert any("502" in e for e in run.direction.errors)  # the daemon felt it, and carried on
    assert_as_scripted(run)
    assert_nothing_lost_or_doubled(run, clean_run(GAMES[engine], engine))


@pytest.mark.parametrize("engine", sorted(GAMES))
def test_the_session_expiring_mid_game(clean_run, tmp_path, engine: str) -> None:
    faults = [
        Once(label, lambda d: forum(d).faults.expire_sessions()) for label in ("night1", "day1")
    ]
    run = play(GAMES[engine], engine, seed=SEED, workdir=tmp_path, hooks=faults)
    assert [f.fired for f in faults] == [[1], [1]]  # the daemon's one session ended, twice
    assert_as_scripted(run)
    assert_nothing_lost_or_doubled(run, clean_run(GAMES[engine], engine))


@pytest.mark.parametrize("engine", sorted(GAMES))
def test_flood_control_on_the_gms_posts(clean_run, tmp_path, engine: str) -> None:
    notes: list[str] = []

    def gm_posts_by_hand(director: Director) -> None:
        """Whenever something was approved, the GM posts by hand just before the daemon sends it."""
        if director.last_turn is not None and director.last_turn.approved:
            world = director.players.world
            world.forum.post(
                world.gm, world.chat, "（天神）结果马上公布，请稍候。", at=director.clock()
            )
            notes.append("posted")

    # The daemon cannot wait between sends either: the forum refuses what comes too soon.
    run = play(
        GAMES[engine], engine, seed=SEED, workdir=tmp_path, pacing=False, before=[gm_posts_by_hand]
    )
    assert notes and run.tally.retries > 0
    assert_as_scripted(run)
    assert_nothing_lost_or_doubled(run, clean_run(GAMES[engine], engine))


@pytest.mark.parametrize("engine", sorted(GAMES))
def test_the_daemon_killed_and_restarted(clean_run, tmp_path, engine: str) -> None:
    ruleset = GAMES[engine]
    # phpwind lists no sent PMs: a PM killed mid-send cannot be checked (see the slow test).
    after_send = "after_send" if engine == "discuz" else "after_post"
    faults = [
        Once("night1", lambda d: d.daemon.kill()),  # SIGKILL mid-night, between two cycles
        Once("night1", lambda d: d.daemon.crash_at("before_intake")),  # … with PMs stored, not read
        Once("day1", lambda d: d.daemon.kill()),  # SIGKILL mid-vote
        Once("day1", lambda d: d.daemon.crash_at(after_send)),  # … the forum has it, the outbox not
    ]
    if ruleset == "game5":
        faults.append(Once("day1", lambda d: d.daemon.kill(), round=2))  # SIGKILL mid-runoff
    run = play(ruleset, engine, seed=SEED, workdir=tmp_path, subprocess=True, hooks=faults)
    assert all(f.fired for f in faults)
    assert run.kills == len(faults)  # every crash point was reached
    assert not daemon_errors(run)
    assert_as_scripted(run)
    assert_nothing_lost_or_doubled(run, clean_run(ruleset, engine))


@pytest.mark.slow
def test_a_pm_killed_mid_send_on_phpwind(clean_run, tmp_path) -> None:
    """phpwind lists a PM the GM sent only in the outbox: recovery looks there."""
    faults = [Once("night1", lambda d: d.daemon.crash_at("after_pm"))]
    run = play("game5", "phpwind", seed=SEED, workdir=tmp_path, subprocess=True, hooks=faults)
    assert run.kills == 1
    assert_nothing_lost_or_doubled(run, clean_run("game5", "phpwind"))
