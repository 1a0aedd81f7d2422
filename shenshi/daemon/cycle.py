"""One cycle of the daemon's work: hold the game's lease, read the forum, run the phase clock,
send what may be sent.

:class:`Cycle` wires the service's parts (poller, referee, publisher) and guards them: *any*
exception ends the cycle, not the daemon (errbot ``serve_forever`` style). A failed cycle is
logged at WARNING (with its traceback unless the forum itself said no), raised as a GM alert
(one an hour per kind), backed off with jitter, and the referee is rebuilt from the store (its
in-memory state may be ahead of what was committed); the next cycle runs as usual.

The phase clock runs to the start of the last complete poll: a deadline is passed only once
everything written before it could be read.
"""

from __future__ import annotations

import hashlib
import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from shenshi.adapters.errors import ForumError, PasswordRejected
from shenshi.daemon.forum_trouble import trouble
from shenshi.daemon.gm_text import cycle_line, step_name
from shenshi.daemon.referee import GmAlert
from shenshi.daemon.scheduler import Backoff, next_delay
from shenshi.daemon.service import GameService
from shenshi.daemon.status import record_poll
from shenshi.logs import redact
from shenshi.store.errors import LeaseHeld

log = logging.getLogger(__name__)

ROUNDS = 3  # poll, tick and publish again at most this often in a cycle (a deadline passed)


@dataclass
class CycleResult:
    """What one cycle did."""

    polled: bool = False
    events: int = 0
    sent: int = 0
    posts: int = 0  # new posts and PMs the poll stored
    pms: int = 0
    proposed: tuple[int, ...] = ()  # the announcements, alerts and sends that are new
    alerts: tuple[int, ...] = ()
    sent_ids: tuple[int, ...] = ()
    step: str = ""  # the game's step after the cycle, in the GM's words, when it changed
    errors: list[str] = field(default_factory=list)
    held_by: str | None = None  # another daemon holds the game's lease: nothing was done
    forum_error: ForumError | None = None  # the forum could not be read at all (down, login refused)

    @property
    def forum_down(self) -> bool:
        """Whether the forum could not be read at all."""
        return self.forum_error is not None


class Cycle:
    """One round of the daemon's work, guarded as a whole."""

    def __init__(
        self, service: GameService, clock: Callable[[], datetime], *, forum_warnings: bool = True
    ) -> None:
        self.service = service
        self.clock = clock
        # ``run --once`` says a forum failure in its own one line: the log keeps it at DEBUG then
        self.forum_warnings = forum_warnings
        self.backoff = Backoff(service.config.daemon.poll_interval)
        self._held_by: str | None = None
        self._rejected: str | None = None  # the hash of a password the forum rejected

    def run(self) -> CycleResult:
        """Poll, tick, publish. Whatever fails is logged, alerted and backed off; the daemon
        goes on with the next cycle."""
        result = CycleResult()
        before = self._marks()
        try:
            self._work(result)
        except ForumError as exc:
            self._forum_failed(result, exc)
        except Exception as exc:  # noqa: BLE001 - a failed cycle must never stop the daemon
            self._failed(result, exc)
        else:
            if not result.errors:
                self.backoff.failures = 0
        if not result.held_by and result.forum_error is None:  # (a forum failure says itself)
            self._summarise(result, before)
        return result

    def _marks(self) -> tuple[int, int, frozenset[int], str]:
        """What the store holds before a cycle: the last announcement and alert, the sent ones,
        and the step (to say after the cycle what it changed)."""
        service = self.service
        try:
            with service.store.snapshot() as uow:
                outbox = uow.outbox.announcements(service.game_id)
                alerts = uow.alerts.raised(service.game_id)
        except Exception:  # noqa: BLE001 - the cycle meets the store's trouble and says it
            return (0, 0, frozenset(), "")
        sent = frozenset(a.id for a in outbox if a.sent_at is not None)
        return (max((a.id for a in outbox), default=0), max((a.id for a in alerts), default=0), sent, self._step())

    def _step(self) -> str:
        referee = self.service.referee
        if referee is None:
            return ""
        state = referee.state
        return step_name(state.phase, state.number, state.round)

    def _summarise(self, result: CycleResult, before: tuple[int, int, frozenset[int], str]) -> None:
        """One line in the daemon's log, on the forum's clock and in the GM's words, for a cycle
        that changed something (read, proposed, sent, alerted, moved the step); nothing for a
        quiet one."""
        last_id, last_alert, sent, step = before
        service = self.service
        try:
            with service.store.snapshot() as uow:
                outbox = uow.outbox.announcements(service.game_id)
                alerts = uow.alerts.raised(service.game_id)
        except Exception:  # noqa: BLE001 - said by the cycle's own warning
            return
        result.proposed = tuple(a.id for a in outbox if a.id > last_id)
        result.alerts = tuple(a.id for a in alerts if a.id > last_alert)
        result.sent_ids = tuple(a.id for a in outbox if a.sent_at is not None and a.id not in sent)
        now_step = self._step()
        result.step = now_step if now_step != step else ""
        line = cycle_line(result, self.clock().astimezone(service.config.forum.tz))
        if line:
            log.info("%s", line)

    def _work(self, result: CycleResult) -> None:
        service = self.service
        try:
            if service.lease is not None:
                service.lease.hold()
            self._work_held(result)
        except LeaseHeld as exc:  # another daemon runs this game: leave it alone
            result.held_by = exc.lease.owner
            if self._held_by != exc.lease.owner:
                log.warning("另一个守护进程在运行这局（%s）：本进程不动它", exc.lease.owner)
            self._held_by = exc.lease.owner
            return
        self._held_by = None

    def _work_held(self, result: CycleResult) -> None:
        service = self.service
        service.read_corrections()  # the GM's corrections made beside the running daemon
        for again in range(ROUNDS):
            at = self.clock()
            if again:
                service.read_corrections()  # (one written while sends were paced stopped them)
            if service.adapter is not None:
                if getattr(service.adapter, "own_uid", None) is None:
                    self._login()
                elif service.referee is not None and service.referee.gm_uid is None:
                    service.referee.gm_uid = service.adapter.own_uid  # another game's cycle logged in
                # (again: read afresh, not the listings and the inbox other games' cycles of
                # this round read before the deadline passed)
                report = service.poll(fresh=True) if again else service.poll()
                result.polled = True
                result.posts += report.posts
                result.pms += report.pms
                record_poll(service.store, service.game_id, self.clock())
                at = report.started if report.complete else service.last_poll
            if at is not None:  # (None: no complete read of the forum yet)
                result.events += len(service.tick(at).events)
            result.sent += service.publish()
            if not service.deadline_passed_while_sending:
                return
            # A deadline passed while sends were paced: read and run the clock again now,
            # so that what it brings (the dawn post) goes out before the PMs still waiting.

    def _login(self) -> None:
        """Log in, unless the forum rejected this very password before: forums lock an
        account after 3–5 failures, so the same password is never sent twice. Once the
        password source gives another one (``password_file`` edited; ``password_env`` and a
        restart), the daemon logs in again."""
        settings = self.service.config.forum
        try:
            password = settings.login_password()
        except Exception:  # noqa: BLE001 - a missing source: the adapter's login says so
            password = None
        seen = hashlib.sha256((password or "").encode()).hexdigest()
        if self._rejected is not None and seen == self._rejected:
            raise PasswordRejected(
                "the forum rejected this password: waiting for a new one (password_file / password_env)"
            )
        try:
            self.service.adapter.login()
        except PasswordRejected:  # the forum said so: not a guard page, a changed page, a lock
            self._rejected = seen  # (only its hash, in memory)
            raise
        self._rejected = None
        if self.service.referee is not None:  # the GM's own posts are known by uid from now on
            self.service.referee.gm_uid = self.service.adapter.own_uid

    def _forum_failed(self, result: CycleResult, exc: ForumError) -> None:
        """The forum could not be read (down, unreachable, the login refused): one line, an
        alert, and the back-off; the referee is rebuilt in case a part of the stream was read."""
        self.backoff.failures += 1
        result.forum_error = exc
        kind, message = trouble(exc, self.service.config.forum)
        result.errors.append(f"forum: {exc}")
        level = logging.WARNING if self.forum_warnings else logging.DEBUG
        log.log(level, "读不到论坛（%s）；退避后重试", exc)
        self._alert(kind, message)
        self._rebuild()

    def _failed(self, result: CycleResult, exc: Exception) -> None:
        """Anything else: the traceback at WARNING (redacted), an alert, the back-off, and the
        referee rebuilt from the store."""
        self.backoff.failures += 1
        result.errors.append(f"{type(exc).__name__}: {exc}")
        log.warning("这一轮工作失败，退避后重试", exc_info=exc)
        where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        place = f"（{where.filename.rsplit('/', 1)[-1]}:{where.lineno}）" if where else ""
        self._alert(
            "cycle_failed",
            redact(f"一轮工作失败：{type(exc).__name__}: {exc}{place}；已记录，稍后重试"),
        )
        self._rebuild()

    def _alert(self, kind: str, message: str) -> None:
        service = self.service
        if service.referee is None:
            return
        stamp = self.clock().strftime("%Y%m%d%H")
        try:
            service.raise_alerts(
                [GmAlert(service.referee.keys.daemon_trouble(kind, stamp), kind, message)]
            )
        except Exception as exc:  # noqa: BLE001 - the store may be what failed
            log.warning("没能保存给天神的提醒（%s）：%s", kind, exc)

    def _rebuild(self) -> None:
        try:
            self.service.rebuild()
        except Exception as exc:  # noqa: BLE001 - the store may be what failed: next cycle
            log.warning("没能从数据库重建游戏（下一轮再试）：%s", exc)

    def next_delay(self) -> float:
        """Seconds until the next cycle: back-off after failures, faster near a deadline."""
        if self.backoff.failures:
            return self.backoff.delay()
        now = self.clock()
        delay = next_delay(self.service, now)
        retry = self.service.next_retry()
        if retry is not None:
            delay = min(delay, max(1.0, (retry - now).total_seconds()))
        return delay
