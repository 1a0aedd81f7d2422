"""The publisher against a hostile forum, as a property (hypothesis): random interleavings of
posts and PMs whose ids collide (the forum numbers posts per thread and PMs on their own, from
the same numbers), sends stored then answered unclearly, sends lost, refusals, polls that fail,
and the daemon killed before or after the forum stored what it sent (then restarted). Once the
faults stop, every announcement is on the forum exactly once: nothing sent twice, nothing lost
(issue 22)."""

from __future__ import annotations

import itertools
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shenshi.adapters.base import MINUTE, SECOND, TimePrecision
from shenshi.adapters.errors import Rejected, TransportError
from shenshi.daemon.drylog import DryRunLog
from shenshi.daemon.publisher import Publisher
from shenshi.records import Post, PrivateMessage
from shenshi.store import open_store
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import DestinationKind
from shenshi.wording.templates import Templates
from tests.daemon.helpers import START, config

GM, GM_UID = "神的使者", "2"
THREADS = ("7", "8")
PLAYERS = ("小明", "阿杰", "老王")
TEXTS = ("已收到：今晚占卜 老王", "【第1夜结果】昨夜无人死亡。", "老王 未签到", "已收到：今晚杀 小明")
SEND_FAULTS = ("ok", "stored_unclear", "lost_unclear", "refused", "stored_killed", "killed_before")


class Killed(BaseException):
    """The daemon process dies here (nothing catches it, as nothing survives a SIGKILL)."""


@dataclass
class Message:
    """One message on the forum: where it is, its id there, its text, when it was stored."""

    kind: DestinationKind
    destination: str
    id: str
    text: str
    at: datetime


@dataclass
class HostileForum:
    """A forum whose posts (per thread, phpwind's ``tpc`` style, or one numbering like Discuz)
    and PMs are numbered from the same numbers, that does what ``faults`` says to each send,
    and whose inbox lists the GM's own PMs or not (phpwind: only its outbox does)."""

    clock: list[datetime]
    faults: list[str]
    per_thread_ids: bool
    inbox_lists_sent: bool
    returns_pm_id: bool
    messages: list[Message] = field(default_factory=list)
    counters: dict[str, itertools.count] = field(default_factory=dict)

    # the adapter's engine facts, as the publisher asks them
    flood_interval = 0.0
    time_precision = TimePrecision(post=SECOND, edit=MINUTE, board=MINUTE, pm=MINUTE)
    own_uid = GM_UID

    def _id(self, numbering: str) -> str:
        return str(next(self.counters.setdefault(numbering, itertools.count(1))))

    def _fault(self) -> str:
        return self.faults.pop(0) if self.faults else "ok"

    def _send(self, kind: DestinationKind, destination: str, text: str) -> str:
        fault = self._fault()
        if fault == "killed_before":
            raise Killed
        if fault == "refused":
            raise Rejected("对方短消息已满")
        if fault == "lost_unclear":
            raise TransportError("POST: timed out; not repeated (it may have reached the forum)")
        numbering = f"post:{destination}" if kind is DestinationKind.THREAD and self.per_thread_ids else kind.value
        message = Message(kind, destination, self._id(numbering), text, self.clock[0])
        self.messages.append(message)
        if fault == "stored_killed":
            raise Killed
        if fault == "stored_unclear":
            raise TransportError("POST: HTTP 502; not repeated (it may have reached the forum)")
        return message.id

    def fit_min_length(self, text: str, padding: str = "") -> str:
        return text

    def post_reply(self, tid: str, text: str) -> str:
        return self._send(DestinationKind.THREAD, tid, text)

    def send_pm(self, username: str, text: str) -> str | None:
        found = self._send(DestinationKind.USER, username, text)
        return found if self.returns_pm_id else None

    def find_sent_pms(self, username: str, text: str, since: datetime) -> list[str]:
        return [
            m.id for m in self.messages
            if m.kind is DestinationKind.USER and m.destination == username and m.text == text
            and m.at >= since - timedelta(minutes=1)
        ]  # fmt: skip

    def on_forum(self, kind: DestinationKind, destination: str, text: str) -> list[Message]:
        return [m for m in self.messages if (m.kind, m.destination, m.text) == (kind, destination, text)]


class Daemon:
    """One daemon process: a publisher with its own memory, the poll that stores what the forum
    shows of our messages (a poll may fail: the read is then incomplete)."""

    owners = itertools.count(1)

    def __init__(self, world: World) -> None:
        self.world = world
        self.last_poll: datetime | None = None
        self.publisher = Publisher(
            world.config, world.store, world.forum, world.game_id, world.now, lambda alerts: None,
            drylog=world.drylog, templates=Templates(), sleep=world.sleep, owner=f"d{next(self.owners)}",
            hold=lambda: None, refresh=self.poll, polled_at=lambda: self.last_poll, sent=lambda key: None,
        )  # fmt: skip

    def poll(self) -> None:
        started = self.world.now()
        if self.world.poll_faults and self.world.poll_faults.pop(0):
            return  # a page could not be read: the read is incomplete
        forum, rows = self.world.forum, []
        for m in forum.messages:
            if m.kind is DestinationKind.THREAD:
                rows.append((Post(m.destination, m.id, 0, GM, GM_UID, m.at, m.text), None))
            elif forum.inbox_lists_sent:
                rows.append((PrivateMessage(m.id, f"c:{m.destination}", GM, GM_UID, m.destination, None, m.at, m.text), None))
        with self.world.store.transaction() as uow:
            uow.evidence.record(self.world.game_id, rows)
        self.last_poll = started


class World:
    """One game (a new one in the module's store), its forum and the clock (a list: the forum
    shares it)."""

    games = itertools.count(1)

    def __init__(self, place: Place, forum: HostileForum, poll_faults: list[bool]) -> None:
        self.config = place.config
        self.store = place.store
        self.drylog = place.drylog
        self.forum = forum
        self.poll_faults = poll_faults
        place.now = self.now
        with self.store.transaction() as uow:
            self.game_id = uow.games.create(f"hostile forum {next(self.games)}", "game6-10").id

    def now(self) -> datetime:
        return self.forum.clock[0]

    def sleep(self, seconds: float) -> None:
        self.forum.clock[0] += timedelta(seconds=seconds)

    def propose(self, items: list[tuple[DestinationKind, str, str]]) -> None:
        with self.store.transaction() as uow:
            for i, (kind, destination, text) in enumerate(items):
                uow.outbox.propose(self.game_id, f"g1:item{i}", "receipt", kind, destination, text)

    def announcements(self):  # type: ignore[no-untyped-def]
        with self.store.snapshot() as uow:
            return uow.outbox.announcements(self.game_id)


@dataclass
class Place:
    """The store and configuration the examples share (a game each): migrating a database per
    example would take most of the time."""

    config: object
    store: object
    drylog: DryRunLog
    now: object = None


@pytest.fixture(scope="module")
def place():  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as folder:
        cfg = config(Path(folder), mode="live")
        shared = Place(cfg, None, DryRunLog(Path(folder) / "dry.log"))
        shared.store = open_store(cfg.daemon.database, clock=lambda: shared.now())
        yield shared
        shared.store.close()


destinations = st.one_of(
    st.tuples(st.just(DestinationKind.THREAD), st.sampled_from(THREADS)),
    st.tuples(st.just(DestinationKind.USER), st.sampled_from(PLAYERS)),
)
items = st.lists(
    st.builds(lambda d, t: (d[0], d[1], t), destinations, st.sampled_from(TEXTS)), min_size=1, max_size=8
)


STRATEGIES = {
    "items": items,
    "faults": st.lists(st.sampled_from(SEND_FAULTS), max_size=14),
    "poll_faults": st.lists(st.booleans(), max_size=8),
    "per_thread_ids": st.booleans(),
    "inbox_lists_sent": st.booleans(),
    "returns_pm_id": st.booleans(),
    "newly_proposed": st.integers(min_value=0, max_value=3),
}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STRATEGIES)
def test_nothing_sent_twice_nothing_lost(place, **example) -> None:  # type: ignore[no-untyped-def]
    play(place, **example)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STRATEGIES)
def test_nothing_sent_twice_nothing_lost_at_length(place, **example) -> None:  # type: ignore[no-untyped-def]
    play(place, **example)


def play(
    place: Place,
    items: list[tuple[DestinationKind, str, str]],
    faults: list[str],
    poll_faults: list[bool],
    per_thread_ids: bool,
    inbox_lists_sent: bool,
    returns_pm_id: bool,
    newly_proposed: int,
) -> None:
    """Propose ``items`` (some of them later), run the daemon round after round through the
    faults (a killed daemon is started again), until everything is sent; then check."""
    forum = HostileForum([START], list(faults), per_thread_ids, inbox_lists_sent, returns_pm_id)
    world = World(place, forum, list(poll_faults))
    late = items[len(items) - min(newly_proposed, len(items) - 1):] if newly_proposed else []
    world.propose(items[: len(items) - len(late)])
    daemon = Daemon(world)
    for round_ in range(40):
        if round_ == 2 and late:  # more proposed while earlier ones are being retried
            world.propose(items)
        daemon.poll()
        try:
            daemon.publisher.publish()
        except Killed:
            daemon = Daemon(world)  # a new process: nothing of the old one's memory
        waiting = [a for a in world.announcements() if a.state is not AnnouncementState.SENT]
        if not waiting and round_ >= 2:
            break
        due = [a.retry_at for a in waiting if a.retry_at is not None]
        forum.clock[0] = max([forum.clock[0] + timedelta(minutes=1), *(d + timedelta(seconds=1) for d in due)])
    _check(world, items)


def _check(world: World, items: list[tuple[DestinationKind, str, str]]) -> None:
    sent = world.announcements()
    forum = world.forum
    assert [a.state for a in sent] == [AnnouncementState.SENT] * len(items), [(a.id, a.state, a.last_error) for a in sent]
    for kind, destination, text in set(items):
        wanted = sum(1 for i in items if i == (kind, destination, text))
        on_forum = forum.on_forum(kind, destination, text)
        assert len(on_forum) == wanted, (kind, destination, text, on_forum)  # never twice, none lost
        recorded = sorted(
            a.forum_id for a in sent if (a.destination_kind, a.destination, a.text) == (kind, destination, text)
        )
        assert recorded == sorted(m.id for m in on_forum)  # each recorded as the message it is
