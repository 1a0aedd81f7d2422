"""What the console's pages show, read from the store (the status itself is
:func:`shenshi.daemon.status.build_status`'s model, rendered as it is).

Map::

    review_items(service, every)   the outbox: where each goes, its text, its evidence
    players(service, status)       seats, holders and substitutes, alive/out as published
    activity(service, days)        counted posts per player per forum day, with the thresholds
    role_of(service, seat)         one seat's role (shown only when the GM asks)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from shenshi.daemon.announce import kind_words
from shenshi.daemon.drylog import where_to
from shenshi.daemon.gm_text import STATES
from shenshi.daemon.links import evidence_links
from shenshi.daemon.service import GameService
from shenshi.daemon.status import GameStatus
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import Announcement, DestinationKind, Evidence, EvidenceKind

OPEN_STATES = (AnnouncementState.PROPOSED, AnnouncementState.APPROVED, AnnouncementState.FAILED)
ACTIVITY_DAYS = 14  # forum days shown in the activity chart, the latest last


# -- the review queue ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Version:
    """A text of a post or PM: as first seen (number 0), or a later edit."""

    number: int
    seen_at: datetime
    text: str


@dataclass(frozen=True)
class EvidenceView:
    """A post or PM an announcement came from, as the GM checks it."""

    id: int
    label: str  # 月光 杀 老王 → PM 3
    url: str | None
    kind: str  # 帖子 | 私信
    author: str
    at: datetime  # when it was written (forum clock)
    versions: tuple[Version, ...]  # first seen, then each edit

    @property
    def edited(self) -> bool:
        """Whether the post or PM changed after it was first seen."""
        return len(self.versions) > 1


@dataclass(frozen=True)
class ReviewItem:
    """An announcement of the outbox with everything the GM needs to decide on it."""

    id: int
    kind: str
    what: str  # 第1夜结果
    where: str  # 帖子 2 / 私信给 小明
    to_thread: bool
    state: str
    state_words: str
    text: str
    created_at: datetime
    published_at: datetime | None
    sent_at: datetime | None
    last_error: str | None
    evidence: tuple[EvidenceView, ...]

    @property
    def open(self) -> bool:
        """Whether the GM can still decide on it (approve, edit, reject, publish)."""
        return self.state in {s.value for s in OPEN_STATES}


def review_items(service: GameService, every: bool = False) -> list[ReviewItem]:
    """The announcements waiting for the GM (``every``: whatever their state), oldest first."""
    tz = service.config.forum.tz
    with service.store.snapshot() as uow:
        items = uow.outbox.announcements(service.game_id, None if every else list(OPEN_STATES))
    views = evidence_views(service, {i for a in items for i in a.evidence_ids})
    return [_item(service, a, views, tz) for a in items]


def _item(service: GameService, a: Announcement, views: dict[int, EvidenceView], tz) -> ReviewItem:  # type: ignore[no-untyped-def]
    thread = a.destination_kind is DestinationKind.THREAD
    return ReviewItem(
        id=a.id, kind=a.kind, what=kind_words(service.templates, a.kind, a.key),
        where=where_to(thread, a.destination), to_thread=thread, state=a.state.value,
        state_words=STATES.get(a.state.value, a.state.value), text=a.text,
        created_at=a.created_at.astimezone(tz),
        published_at=a.published_at.astimezone(tz) if a.published_at else None,
        sent_at=a.sent_at.astimezone(tz) if a.sent_at else None, last_error=a.last_error,
        evidence=tuple(views[i] for i in a.evidence_ids if i in views),
    )  # fmt: skip


def evidence_views(service: GameService, ids: set[int]) -> dict[int, EvidenceView]:
    """The posts and PMs with these ids, labelled, with their first-seen text and edits."""
    if not ids:
        return {}
    tz = service.config.forum.tz
    links = {link.id: link for link in evidence_links(service.store, service.game_id, sorted(ids))}
    out: dict[int, EvidenceView] = {}
    with service.store.snapshot() as uow:
        for ident, link in links.items():
            e: Evidence = uow.evidence.get(ident)
            versions = [Version(0, e.first_seen_at.astimezone(tz), e.text)]
            versions += [Version(r.number, r.seen_at.astimezone(tz), r.text)
                         for r in uow.evidence.revisions(ident)]  # fmt: skip
            out[ident] = EvidenceView(
                ident, link.label, link.url, "私信" if e.kind is EvidenceKind.PM else "帖子",
                e.author, e.posted_at.astimezone(tz), tuple(versions),
            )  # fmt: skip
    return out


# -- players --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    """A seat: who holds it now, who held it before (substitutes), alive or out as published."""

    seat: int  # from 1
    name: str
    uid: str | None
    standing: str  # alive | out | out_unpublished
    before: tuple[str, ...]  # earlier holders, first first


def players(service: GameService, status: GameStatus) -> list[SeatView]:
    """Every seat, in seat order; ``standing`` as the players know it (a death counts from its
    publication; ``out_unpublished``: dead, not yet announced, for the GM only)."""
    with service.store.snapshot() as uow:
        everyone = uow.games.players(service.game_id, current_only=False)
    seats: dict[int, list] = {}
    for p in everyone:
        seats.setdefault(p.seat, []).append(p)
    out = []
    for seat, holders in sorted(seats.items()):
        current = next((p for p in holders if p.current), holders[-1])
        if current.name in status.unannounced_deaths:
            standing = "out_unpublished"
        elif current.name in status.dead:
            standing = "out"
        else:
            standing = "alive"
        before = tuple(p.name for p in holders if p is not current)
        out.append(SeatView(seat + 1, current.name, current.uid, standing, before))
    return out


def role_of(service: GameService, seat: int) -> tuple[str, str]:
    """The name and role (in Chinese) of seat ``seat`` (from 1) as the game holds it now."""
    state = service.referee.state
    if not 1 <= seat <= len(state.seats):
        raise LookupError(f"no seat {seat}")
    s = state.seats[seat - 1]
    info = service.ruleset.info
    role = info.roles[s.role].chinese if s.role in info.roles else s.role
    return s.name, role


# -- activity ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActivityRow:
    """One player's counted posts per forum day, and his lurking line (family A)."""

    name: str
    posts: tuple[int, ...]  # one per day of :attr:`Activity.days`
    last_post: datetime | None
    lurk_at: datetime | None  # when the lurking rule would catch him (no post until then)


@dataclass(frozen=True)
class Activity:
    """Counted posts per day for the living, and the ruleset's thresholds on the same axis."""

    days: tuple[datetime, ...]  # the start of each forum day (midnight, forum clock)
    end: datetime  # the end of the axis: tomorrow's end (where the next lurking lines fall)
    now: datetime
    rows: tuple[ActivityRow, ...]
    sign_in_at: datetime | None  # the sign-in deadline (family A)
    lurking: timedelta | None  # the lurking window (family A)

    def x(self, at: datetime) -> float:
        """Where ``at`` falls on the axis, from 0 to 1."""
        start = self.days[0]
        span = (self.end - start).total_seconds() or 1.0
        return min(1.0, max(0.0, (at - start).total_seconds() / span))

    @property
    def span_days(self) -> int:
        """How many days the axis shows (the days counted, and tomorrow)."""
        return max(1, round((self.end - self.days[0]).total_seconds() / 86400))

    @property
    def most(self) -> int:
        """The highest count of a day (the chart's scale)."""
        return max((n for r in self.rows for n in r.posts), default=0)


def activity(service: GameService, status: GameStatus, days: int = ACTIVITY_DAYS) -> Activity:
    """Counted posts (the game board's counted threads, never the uncounted ones) per living
    player per forum day, from the game's start (the last ``days`` days)."""
    game = service.config.game
    tz = service.config.forum.tz
    now = status.now
    first = max(game.start.astimezone(tz).date(), (now - timedelta(days=days - 1)).date())
    starts = []
    day = first
    while day <= now.date():
        starts.append(datetime.combine(day, time(), tzinfo=tz))
        day += timedelta(days=1)
    clock = service.referee.profile.clock
    with service.store.snapshot() as uow:
        names = {p.uid: p.name for p in uow.games.players(service.game_id, current_only=False) if p.uid}
        counts: list[dict[str, int]] = []
        for lo in starts:
            rows = uow.evidence.activity(
                service.game_id, max(lo, game.start), lo + timedelta(days=1),
                sources=list(game.counted_threads) or None, exclude_sources=list(game.uncounted_threads),
            )  # fmt: skip
            counts.append({names.get(a.author_uid, a.author): a.posts for a in rows})
    last = {a.name: a.last_post for a in status.activity}
    lurking = clock.lurking
    rows = tuple(
        ActivityRow(
            name, tuple(c.get(name, 0) for c in counts), last.get(name),
            (max(last.get(name) or game.start, game.start) + lurking) if lurking else None,
        )
        for name in status.living
    )  # fmt: skip
    sign_in_at = (game.start + clock.sign_in).astimezone(tz) if clock.sign_in else None
    end = starts[-1] + timedelta(days=2)
    return Activity(tuple(starts), end, now, rows, sign_in_at, lurking)

