"""A correction the GM makes while ``shenshi run`` holds the game (``shenshi override`` or the
console, each with its own service on the same store) reaches the running daemon at its next
cycle, without a restart."""

from __future__ import annotations

from datetime import timedelta

from shenshi.bootstrap import bootstrap
from shenshi.daemon import gm_commands
from shenshi.daemon.cycle import Cycle
from tests.daemon.helpers import START
from tests.daemon.test_service_sandbox import world  # noqa: F401 - the fixture


def test_a_correction_beside_the_running_daemon_is_read_at_its_next_cycle(world) -> None:  # noqa: F811
    clock, forum, tid, daemon = world
    clock.set(START + timedelta(minutes=5))
    Cycle(daemon, clock).run()
    victim = daemon.referee.state.seats[0].name
    assert daemon.referee.state.is_alive(victim)

    beside = bootstrap(daemon.config, store=daemon.store, clock=clock, forum=False)
    beside.start()
    said = gm_commands.correct(beside, "exit", [victim], reason="本人要求退出")
    assert any("下一轮轮询开始时读到" in line for line in said.lines)  # the daemon holds the lease
    assert daemon.referee.state.is_alive(victim), "not yet: the daemon has not cycled"

    clock.advance(minutes=1)
    Cycle(daemon, clock).run()
    assert not daemon.referee.state.is_alive(victim)
    assert not daemon.read_corrections(), "read once: its own events are no correction"


def test_the_daemons_own_events_never_make_it_rebuild(world) -> None:  # noqa: F811
    clock, forum, tid, daemon = world
    rebuilt = []
    original = daemon.rebuild
    daemon.rebuild = lambda: rebuilt.append(1) or original()  # type: ignore[method-assign]
    for minutes in (5, 30, 90, 600):
        clock.set(START + timedelta(minutes=minutes))
        Cycle(daemon, clock).run()
    assert rebuilt == []
