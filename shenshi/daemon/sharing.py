"""Reads that the games on one forum account share in a round: one board listing per board,
one inbox read, each PM routed to its game.

A daemon serving G games of one GM on one board reads the board once per round, whichever
game asks first, and gives the same rows to the others (``poll_board(listing=…)``). The inbox
is read once for all of them too, and only when something may have arrived: the board listing
tells (the Discuz mobile API's new-PM notice, phpwind's 消息(N)), so a quiet round costs one
request per forum, for any number of games. The inbox is read all the same

* when the listing does not say (Discuz HTML pages): every round, as before;
* when the unread count is above the one last found to hold nothing new (a GM who leaves a
  system notice unread does not make every round read the inbox);
* at least every :data:`INBOX_SPACING` (the GM may open a PM in the browser before shenshi sees
  it: the notice then drops to 0), and once after each deadline of any of the games (before its
  phase clock passes it), so that the clock never passes a PM written before it;
* after a read that failed, or left a game's share unstored.

Routing (:func:`route`, then :func:`settle_owner`): a PM belongs to the game whose seats its
partner (the sender, or the recipient of a PM the GM sent) holds or held, among the games
started by its time; of several, the one still running when only one is. A player seated in
several running games is routed by what is certain: the game his PM names (``【第1局】占卜 老王``,
or the phpwind title), else the one game where it counts (each game reads it as intake would:
a target only that game has, the role he holds there, the step open there; a GM's PM, the one
game whose outbox holds it (by its forum id among PMs once recorded, by its text while the
proposal waits: :func:`settle_own`; one no outbox holds is no game's and raises no alert); a refusal for the step counts as certain only while that game's
clock has passed no deadline since the PM). Anything else (counts in several games or in
none; a stranger while several games run) is no game's for certain: each candidate game gets a
GM alert naming the others, whose fix is "count this PM in this game", the player is told once
how to name the game, and nothing is guessed. The inbox cursor is shared the same way: the
read starts from what every served game has stored (the common part of their cursors), and
each game stores its share of the PMs with the new cursor in one transaction (evidence first).
Conversations are marked read only once every game that got a share stored it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from shenshi.adapters.errors import UnexpectedPage
from shenshi.records import (
    BoardThread,
    ConversationMark,
    InboxCursor,
    PrivateMessage,
)

log = logging.getLogger(__name__)

INBOX_SPACING = timedelta(minutes=10)  # the inbox is read at least this often, notice or not


@dataclass(frozen=True)
class Seats:
    """What routing knows of one game: who holds or held its seats, since when it runs."""

    game_id: int
    name: str
    start: datetime
    members: frozenset[str]  # names and uids of every seat holder, substitutes included
    finished: bool = False


# How a PM reads in one game (:meth:`GameService.judge_pm`): it would count there; it would be
# refused there for a reason of that game (a target it does not have, a role without that
# power, a step that does not take it); or either may hold (not a command, or a refusal that
# depends on a phase the game's clock has not reached).
COUNTS, REFUSED, UNSURE = "counts", "refused", "unsure"


@dataclass(frozen=True)
class Unrouted:
    """A PM that may belong to this game or to others: the games' names (this one's too), and
    whether this game is the one that tells the player how to name it (one game does)."""

    pm: PrivateMessage
    games: tuple[str, ...]
    tell: bool = False
    seated: bool = False  # its partner holds a seat of this game: it may be counted here


@dataclass(frozen=True)
class InboxShare:
    """One game's part of an inbox read: its PMs, the new cursor, the conversations that could
    not be read, and the PMs it may own but cannot be sure of (:class:`Unrouted`)."""

    messages: tuple[PrivateMessage, ...]
    cursor: InboxCursor
    failures: tuple[Exception, ...] = ()
    ambiguous: tuple[Unrouted, ...] = ()


@dataclass
class _Member:
    """A game served by this daemon, as the shared reads see it."""

    seats: Callable[[], Seats]
    cursor: Callable[[], InboxCursor | None]
    deadline: Callable[[], datetime | None]
    served: Callable[[], bool]
    judge: Callable[[PrivateMessage], str] | None = None  # COUNTS, REFUSED or UNSURE


@dataclass
class _Round:
    boards: dict[str, list[BoardThread] | UnexpectedPage] = field(default_factory=dict)
    shares: dict[int, InboxShare] | None = None
    inbox_read: bool = False
    unread: tuple[str, ...] = ()
    waiting: set[int] = field(default_factory=set)  # games with a share not stored yet


def route(
    pm: PrivateMessage, gm: Collection[str], games: Sequence[Seats], slack: timedelta
) -> list[Seats]:
    """The games ``pm`` may belong to: one when it is certain, several when it is not.

    ``gm``: the GM account's uid and name (its own PMs are routed by their recipient);
    ``slack``: how finely the forum shows PM times (a PM shown at the start's minute counts)."""
    mine = pm.sender_uid in gm or pm.sender in gm
    partner = {pm.recipient_uid, pm.recipient} if mine else {pm.sender_uid, pm.sender}
    started = [g for g in games if pm.sent_at >= g.start - slack]
    if len(games) == 1:
        return list(games)  # one game: everything is its own, as it always was
    seated = [g for g in started if partner & g.members]
    if len(seated) > 1:
        running = [g for g in seated if not g.finished]
        return running if len(running) == 1 else seated
    if seated:
        return seated
    running = [g for g in started if not g.finished] or started
    return running


def named_games(pm: PrivateMessage, games: Sequence[Seats]) -> list[Seats]:
    """The games ``pm`` names: ``【NAME】`` in its text, or NAME as (part of) its title."""
    subject = pm.subject or ""
    return [g for g in games if f"【{g.name}】" in pm.text or (g.name and g.name in subject)]


def settle_owner(
    pm: PrivateMessage, owners: Sequence[Seats], judge: Callable[[Seats, PrivateMessage], str | None]
) -> list[Seats]:
    """Of the games ``pm`` may belong to, the one that is certain, else all of them: the one
    game it names, else the one game where it counts (``judge``: how it reads in a game;
    ``None``: that game cannot say, another daemon serves it)."""
    if len(owners) < 2:
        return list(owners)
    named = named_games(pm, owners)
    if len(named) == 1:
        return named
    verdicts = {g.game_id: judge(g, pm) for g in owners}
    if None in verdicts.values():
        return list(owners)  # a game this daemon cannot ask: nothing is certain
    counting = [g for g in owners if verdicts[g.game_id] == COUNTS]
    if len(counting) == 1 and all(verdicts[g.game_id] == REFUSED for g in owners if g is not counting[0]):
        return counting
    return list(owners)


def settle_own(
    pm: PrivateMessage, owners: Sequence[Seats], judge: Callable[[Seats, PrivateMessage], str | None]
) -> list[Seats] | None:
    """Of the games a PM the GM account sent may belong to, the one whose outbox holds it
    (``judge`` says COUNTS there: the announcement it records, by forum id among PMs, or the
    proposal it publishes, by text); none (``[]``) when no game's outbox holds it (the GM's own
    words are no command of any game: nobody's, no alert); ``None`` when a game this daemon
    cannot ask may hold it (another daemon's)."""
    if len(owners) < 2:
        return list(owners)
    verdicts = {g.game_id: judge(g, pm) for g in owners}
    holding = [g for g in owners if verdicts[g.game_id] == COUNTS]
    if len(holding) == 1:
        return holding
    if holding:
        return holding  # (the same text waits in several games' outboxes: the GM decides)
    return None if None in verdicts.values() else []


class SharedReads:
    """The board listings and the inbox of one forum account, read once per round for every
    game this daemon serves on it."""

    def __init__(self, adapter: Any, clock: Callable[[], datetime]) -> None:
        self.adapter = adapter
        self.clock = clock
        self.members: dict[int, _Member] = {}
        self._round = _Round()
        self._last_inbox: datetime | None = None
        self._background: int = 0  # an unread count found to hold nothing new
        self._force = True  # the first round reads the inbox

    def join(
        self,
        game_id: int,
        *,
        seats: Callable[[], Seats],
        cursor: Callable[[], InboxCursor | None],
        deadline: Callable[[], datetime | None],
        served: Callable[[], bool],
        judge: Callable[[PrivateMessage], str] | None = None,
    ) -> None:
        """Serve one more game from these reads (``judge``: how a PM reads in it, to route the
        PMs of a player seated in several games)."""
        self.members[game_id] = _Member(seats, cursor, deadline, served, judge)

    def begin(self) -> None:
        """A new round: the listings are read again; a share a game did not store is read again."""
        if self._round.waiting:
            self._force = True
        self._round = _Round()

    # -- boards ------------------------------------------------------------------------------

    def board(self, fid: str, *, fresh: bool = False) -> list[BoardThread] | None:
        """Board ``fid``'s listing, one request per round (``fresh``: read it again, e.g. to
        look for a post just sent; None: this adapter lists no boards: ``poll_board`` reads it
        itself). A page that cannot be parsed raises, every time it is asked for in the round."""
        list_board = getattr(self.adapter, "list_board", None)
        if list_board is None:
            return None
        known = self._round.boards.get(str(fid))
        if known is None or fresh:
            try:
                known = list(list_board(str(fid)))
            except UnexpectedPage as exc:
                known = exc
            self._round.boards[str(fid)] = known
        if isinstance(known, UnexpectedPage):
            raise known
        return known

    # -- the inbox ---------------------------------------------------------------------------

    def inbox(
        self, game_id: int, read: Callable[[InboxCursor | None, datetime], Any], *, fresh: bool = False
    ) -> InboxShare | None:
        """Game ``game_id``'s share of this round's inbox read (read on the first call of the
        round with ``read(cursor, since)``, the adapter's ``read_pms``); None when nothing may
        have arrived (nothing to store). ``fresh``: read it again now, for this game alone (to
        look for a PM just sent); what it finds is marked read by the next shared read."""
        now = self.clock()
        if fresh:
            member = self.members[game_id]
            shares, _, _ = self._shares(read, {game_id: member})
            return shares.get(game_id)
        if not self._round.inbox_read:
            self._round.inbox_read = True
            if not self._inbox_due(now):
                return None
            try:
                self._read(read, now)
            except BaseException:
                self._force = True  # the next round reads it, whatever the notice says
                raise
        shares = self._round.shares
        if shares is None:
            return None
        return shares.get(game_id)

    def stored(self, game_id: int) -> None:
        """Game ``game_id`` stored its share: once every share is stored, the conversations
        read are marked read on the forum."""
        waiting = self._round.waiting
        if game_id not in waiting:
            return
        waiting.discard(game_id)
        if not waiting and self._round.unread:
            unread, self._round.unread = self._round.unread, ()
            self.adapter.mark_read(unread)

    def _inbox_due(self, now: datetime) -> bool:
        notice = getattr(self.adapter, "pm_notice", None) if self._round.boards else None
        reasons = []
        if self._force:
            reasons.append("first read")
        if notice is None:
            reasons.append("no notice on the board page")
        elif notice > 0 and notice != self._background:
            reasons.append(f"{notice} unread")
        if self._last_inbox is None or now - self._last_inbox >= INBOX_SPACING:
            reasons.append("spacing")
        last = self._last_inbox
        if any((d := m.deadline()) is not None and d <= now and (last is None or last < d) for m in self._served()):
            reasons.append("a deadline passed since the last read")
        if reasons:
            log.debug("reading the inbox: %s", ", ".join(reasons))
        return bool(reasons)

    def _served(self) -> list[_Member]:
        return [m for m in self.members.values() if m.served()]

    def _read(self, read: Callable[[InboxCursor | None, datetime], Any], now: datetime) -> None:
        served = {gid: m for gid, m in self.members.items() if m.served()}
        if not served:
            return
        shares, unread, found = self._shares(read, served)
        self._round.shares = shares
        self._round.waiting = set(served)
        self._round.unread = unread
        self._last_inbox = now
        self._force = any(share.failures for share in shares.values())
        notice = getattr(self.adapter, "pm_notice", None) if self._round.boards else None
        if notice is not None:
            # Nothing new behind this count: it is background (a notice the GM left unread).
            self._background = notice if not found else 0

    def _shares(
        self, read: Callable[[InboxCursor | None, datetime], Any], served: dict[int, _Member]
    ) -> tuple[dict[int, InboxShare], tuple[str, ...], int]:
        """One inbox read for the ``served`` games, routed: each game's share, the
        conversations to mark read once all are stored (none while a PM waits for a game this
        daemon does not serve), and how many PMs were found."""
        seats = [m.seats() for m in self.members.values()]
        since = min(s.start for s in seats if s.game_id in served)
        delta = read(common_cursor(m.cursor() for m in served.values()), since)
        gm = {getattr(self.adapter, "own_uid", None), getattr(self.adapter, "own_name", None)}
        gm.discard(None)
        slack = self.adapter.time_precision.pm
        mine: dict[int, list[PrivateMessage]] = {gid: [] for gid in served}
        doubts: dict[int, list[Unrouted]] = {gid: [] for gid in served}
        elsewhere = False
        for pm in delta.messages:
            candidates = route(pm, gm, seats, slack)
            if pm.sender_uid in gm or pm.sender in gm:  # the GM's own: the outbox that holds it
                held = settle_own(pm, candidates, self._judge)  # type: ignore[arg-type]
                if held is None:
                    elsewhere = True  # maybe another daemon's game's: leave it unread for that one
                    continue
                owners = held
            else:
                owners = settle_owner(pm, candidates, self._judge)  # type: ignore[arg-type]
            if len(owners) == 1:
                if owners[0].game_id in mine:
                    mine[owners[0].game_id].append(pm)
                else:
                    elsewhere = True  # another daemon's game: leave it unread for that one
                continue
            names = tuple(o.name for o in owners)
            partner = {pm.recipient_uid, pm.recipient} if pm.sender_uid in gm or pm.sender in gm else {pm.sender_uid, pm.sender}
            teller = next((o.game_id for o in owners if o.game_id in doubts and partner & o.members), None)
            for owner in owners:
                if owner.game_id in doubts:
                    seated = bool(partner & owner.members)
                    doubts[owner.game_id].append(Unrouted(pm, names, owner.game_id == teller, seated))
        shares = {
            gid: InboxShare(tuple(mine[gid]), delta.cursor, tuple(delta.failures), tuple(doubts[gid]))
            for gid in served
        }
        return shares, () if elsewhere else tuple(delta.unread), len(delta.messages)

    def _judge(self, game: Seats, pm: PrivateMessage) -> str | None:
        """How ``pm`` reads in ``game`` (None: not a game these reads can ask)."""
        member = self.members.get(game.game_id)
        if member is None or member.judge is None:
            return None
        return member.judge(pm)


def common_cursor(cursors: Iterable[InboxCursor | None]) -> InboxCursor | None:
    """What every game has stored of the inbox: the conversations all cursors know, with the
    messages all of them saw (a row any of them saw otherwise is opened again). Messages
    found again are stored once (the store knows them)."""
    given = list(cursors)
    if all(c is None for c in given):
        return None
    count = len(given)
    marks: dict[str, list[ConversationMark]] = {}
    for cursor in given:
        for mark in (cursor or InboxCursor()).marks:
            marks.setdefault(mark.id, []).append(mark)
    common = []
    for ident, found in marks.items():
        if len(found) < count:
            continue
        seen = set(found[0].seen).intersection(*(m.seen for m in found[1:]))
        prints = {m.fingerprint for m in found}
        fingerprint = found[0].fingerprint if len(prints) == 1 else ""
        common.append(
            ConversationMark(id=ident, seen=tuple(s for s in found[0].seen if s in seen), fingerprint=fingerprint)
        )
    return InboxCursor(tuple(sorted(common, key=lambda m: m.id)))
