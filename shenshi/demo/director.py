"""The director: one loop that lets the players act, runs the daemon, and moves the clock.

The sandbox, the players and the daemon share one injected clock, and the clock jumps from one
moment something is due to the next: a player's move, or the daemon's next cycle (its poll
interval, faster near a deadline, a minute after an approval). In a cycle the daemon polls,
runs the phase clock and publishes; then the GM approves what it proposed (review mode:
``store.approve``, as ``shenshi approve`` would) and the players read what was published. A
whole game of several forum days takes seconds. Hooks inject faults after (or before) cycles.

The daemon is behind :class:`Daemon`: :class:`InProcessDaemon` (the demo and most tests) or
:class:`~shenshi.demo.runner.DaemonProcess` (a subprocess that can be killed with SIGKILL).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from shenshi.daemon.cycle import Cycle
from shenshi.daemon.service import GameService
from shenshi.demo.players import ScriptedPlayers
from shenshi.store.outbox import AnnouncementState

APPROVAL_DELAY = 60.0  # seconds: the GM approves a proposal within a minute
MIN_STEP = 1.0  # the clock moves at least this far between turns
WIND_DOWN = 12  # cycles at most, after the end, to send what is left


@dataclass(frozen=True)
class Turn:
    """What one daemon cycle reported to the director."""

    polled: bool
    next_delay: float  # seconds until the daemon wants to run again
    approved: int = 0
    errors: tuple[str, ...] = ()
    unsent: int = -1  # approved announcements not sent yet (-1: unknown, the daemon died)

    @property
    def settled(self) -> bool:
        """Nothing left to send, nothing newly approved."""
        return self.polled and not self.approved and self.unsent == 0


class Daemon(Protocol):
    """A daemon the director can drive one cycle at a time."""

    def cycle(self) -> Turn: ...

    def close(self) -> None: ...


class InProcessDaemon:
    """The game service in this process; ``auto_approve`` plays the GM in review mode."""

    def __init__(
        self, service: GameService, clock: Callable[[], datetime], *, auto_approve: bool = True
    ) -> None:
        self.service = service
        self.cycler = Cycle(service, clock)
        self.auto_approve = auto_approve

    def cycle(self) -> Turn:
        result = self.cycler.run()
        approved = approve_all(self.service) if self.auto_approve else 0
        errors = tuple(result.errors)
        return Turn(result.polled, self.cycler.next_delay(), approved, errors, unsent(self.service))

    def close(self) -> None:
        """Nothing to stop: the service belongs to the caller, who closes it."""


def unsent(service: GameService) -> int:
    """Announcements approved (or being sent, or failed) but not sent yet."""
    states = [AnnouncementState.APPROVED, AnnouncementState.SENDING, AnnouncementState.FAILED]
    with service.store.snapshot() as uow:
        return len(uow.outbox.announcements(service.game_id, states))


def approve_all(service: GameService) -> int:
    """Approve every proposed announcement (what a GM running ``shenshi approve`` does)."""
    with service.store.transaction() as uow:
        proposed = uow.outbox.announcements(service.game_id, [AnnouncementState.PROPOSED])
        for a in proposed:
            uow.outbox.approve(a.id)
    return len(proposed)


@dataclass
class Direction:
    """What a game run did."""

    turns: int = 0
    polls: int = 0
    errors: list[str] = field(default_factory=list)
    started: datetime | None = None
    ended: datetime | None = None
    finished: bool = False


class Director:
    """Drives players and daemon on one clock until the game is over (or ``limit`` passes)."""

    def __init__(
        self,
        players: ScriptedPlayers,
        daemon: Daemon,
        clock: Callable[[], datetime],
        advance: Callable[[float], object],
        *,
        limit: timedelta = timedelta(days=30),
        hooks: list[Callable[[Director], None]] | None = None,
        before: list[Callable[[Director], None]] | None = None,
    ) -> None:
        self.players = players
        self.daemon = daemon
        self.clock = clock
        self.advance = advance
        self.limit = limit
        self.hooks = list(hooks or ())  # after each daemon cycle (faults, kills)
        self.before = list(before or ())  # just before each daemon cycle
        self.last_poll: datetime | None = None
        self.last_turn: Turn | None = None
        self.direction = Direction()

    def turn(self, *, faults: bool = True) -> Turn:
        """One daemon cycle; then the players read what was published (``faults``: run the
        hooks)."""
        for hook in self.before if faults else ():
            hook(self)
        before = self.clock()
        turn = self.daemon.cycle()
        self.last_turn = turn
        self.direction.turns += 1
        if turn.polled:
            self.last_poll = before
            self.direction.polls += 1
        self.direction.errors += turn.errors
        self.players.observe()
        for hook in self.hooks if faults else ():
            hook(self)
        return turn

    def run(self, stop: Callable[[], bool] | None = None) -> Direction:
        """Play until the players see the game end, ``stop()`` holds, or ``limit`` passes.

        Players act at their own times; the daemon runs when it asked to (its poll interval,
        faster near a deadline, soon after an approval), as it would beside a real forum.
        """
        start = self.clock()
        self.direction.started = start
        end = start + self.limit
        daemon_due = start
        while not self.players.finished and self.clock() < end and not (stop and stop()):
            now = self.clock()
            self.players.act(now, self.last_poll)
            if daemon_due <= now:
                turn = self.turn()
                daemon_due = self.clock() + timedelta(seconds=self.next_delay(turn))
            due = self.players.next_due()
            nxt = min(daemon_due, due) if due is not None else daemon_due
            self.advance(max((nxt - self.clock()).total_seconds(), MIN_STEP))
        # The game is over: let the daemon send what is left (the last PMs), faults over.
        for _ in range(WIND_DOWN):
            if self.turn(faults=False).settled:
                break
            self.advance(APPROVAL_DELAY)
        self.direction.ended = self.clock()
        self.direction.finished = self.players.finished
        return self.direction

    def next_delay(self, turn: Turn) -> float:
        """Seconds until the daemon's next cycle (sooner after the GM approved something)."""
        wait = turn.next_delay
        if turn.approved:
            wait = min(wait, APPROVAL_DELAY)
        return max(wait, MIN_STEP)
