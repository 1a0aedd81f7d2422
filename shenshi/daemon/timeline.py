"""When posts and PMs were written, as far as is certain, and the one order they are read in.

A forum shows a post's time to the second and a PM's to the minute (the adapter's
``time_precision``): a PM stamped 03:19 was written at some moment of that minute, an interval
(a :class:`Moment`), not an instant. What is certain narrows it: the daemon had it in hand at
``first_seen``, so it was written before. Posts are ordered among themselves by their times
(to the second); PMs among themselves by their times and the order they were read in (a
conversation's order).

Everything stored and not yet processed, whenever it was read (before a restart or in this
poll), goes through intake as one stream (:func:`in_order`): by the earliest moment each could
have been written, except that a PM whose minute holds a post of the GM's comes after that
post. A publication opens what players answer, so where the order cannot be known the player
gets the benefit.

:func:`counted_at` chooses the time a PM counts at inside its interval: the earliest that is
not before the open step's (or voting round's) opening. When the opening or a deadline of the
step falls inside the interval (:func:`uncertain`), the order cannot be known: the action
counts as in time and the GM is told, with the window and the PM's time
(:func:`uncertain_message`, :func:`window_text`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

from shenshi.records import Post, PrivateMessage
from shenshi.rulesets.base import GameState, Phase, PhaseTimes

# The opening of a round not announced yet (a runoff opens when round 1's result is published):
# a sentinel for comparisons, never cited to anyone.
NOT_YET = datetime.max.replace(tzinfo=UTC) - timedelta(days=400)

SECOND = timedelta(seconds=1)
# How far the forum's clock may run ahead of the daemon's: a time shown further ahead than when
# the daemon first had it in hand is a jump of the forum's clock (:func:`moment_of`).
FORUM_CLOCK_SKEW = timedelta(minutes=5)

# Alerts (intake kinds, and the rules core's as ``rule:…``) that say an input came outside its
# window: their message is completed with the window and the input's time.
WINDOW_ALERTS = frozenset({
    "pm_window", "after_deadline", "phase_deadline", "extra_divination_deadline",
    "last_words_late", "no_vote_open", "vote_closed", "not_in_phase",
})  # fmt: skip

UNNUMBERED = 1 << 62  # an item without a forum number: after the numbered ones at its moment


@dataclass(frozen=True)
class Moment:
    """When something was written: at or after ``earliest``, before ``latest``.

    ``shown`` is what the forum displayed, ``precision`` how finely it shows that kind of page.
    """

    shown: datetime
    earliest: datetime
    latest: datetime
    precision: timedelta

    @property
    def exact(self) -> bool:
        """Known to the second (a post; a PM whose minute the daemon saw begin and end)."""
        return self.latest - self.earliest <= SECOND

    def holds(self, t: datetime) -> bool:
        """Whether ``t`` falls strictly inside the interval (the order with ``t`` is unknown)."""
        return self.earliest < t < self.latest


def moment_of(shown: datetime, precision: timedelta, first_seen: datetime | None = None) -> Moment:
    """The interval of a time shown to ``precision`` (a forum truncates: 03:19 is the minute
    from 03:19:00), closed by when the daemon first had it in hand.

    A time shown more than :data:`FORUM_CLOCK_SKEW` later than that is the forum's clock
    jumping ahead: the daemon had it in hand at ``first_seen``, so that is the latest it can
    have been written, and the phase clock is never run past it (a post dated three days ahead
    must not close the vote, end the night and the game). The shown time is kept for the GM.
    Within the skew, the forum's clock is the authority, as everywhere."""
    latest = shown + max(precision, SECOND)
    if first_seen is not None and shown - first_seen > FORUM_CLOCK_SKEW:  # the forum's clock jumped
        return Moment(shown, first_seen, first_seen + SECOND, precision)
    if first_seen is not None and first_seen >= shown:  # (else the two clocks disagree a little)
        latest = min(latest, first_seen + SECOND)
    return Moment(shown, shown, latest, precision)


@dataclass(frozen=True)
class Item:
    """A stored post or PM waiting to be processed."""

    evidence_id: int
    record: Post | PrivateMessage
    moment: Moment
    by_gm: bool = False

    @property
    def is_post(self) -> bool:
        """A thread post (else a PM)."""
        return isinstance(self.record, Post)

    @property
    def forum_order(self) -> int:
        """The forum's own number for it (post id, message id: the forum counts them up as they
        are written), which orders two items shown at the same time; items without one go last."""
        ident = self.record.pid if isinstance(self.record, Post) else self.record.id
        return int(ident) if ident.isdigit() else UNNUMBERED


def in_order(items: Iterable[Item]) -> list[tuple[datetime, Item]]:
    """Everything waiting, in the one order it is read in, each with the moment the phase
    clock is caught up to before it is read (see the module docstring).

    Each item is placed at the earliest moment it could have been written; a PM whose interval
    holds posts of the GM's is placed just after the last of them (the player's side). At one
    moment posts come before PMs, then the forum's own numbering (a conversation may list its
    newest message first), then the order they were stored in.
    """
    waiting = list(items)
    gm_posts = [i.moment.earliest for i in waiting if i.is_post and i.by_gm]

    def place(item: Item) -> datetime:
        at = item.moment.earliest
        if not item.is_post and not item.moment.exact:
            at = max([at, *(t for t in gm_posts if item.moment.earliest <= t < item.moment.latest)])
        return at

    placed = [(place(i), i) for i in waiting]
    return sorted(
        placed, key=lambda p: (p[0], 0 if p[1].is_post else 1, p[1].forum_order, p[1].evidence_id)
    )


# -- the open step's window -------------------------------------------------------------------


@dataclass(frozen=True)
class Window:
    """The open step's (or voting round's) opening and the deadlines that follow it."""

    opens: datetime
    closes: datetime
    deadlines: tuple[datetime, ...] = ()

    def boundaries(self) -> tuple[datetime, ...]:
        """Every moment at which the step's answer to an input changes."""
        return (self.opens, self.closes, *self.deadlines)


def window_of(state: GameState, times: PhaseTimes | None) -> Window | None:
    """The window of the open night or voting round (``None`` between steps, and for a round
    whose announcement has not opened it yet: never a window at :data:`NOT_YET`)."""
    if times is None:
        return None
    if state.phase is Phase.DAY and state.round in times.rounds:
        opens, closes = times.rounds[state.round]
        return Window(opens, closes) if opens < NOT_YET else None
    deadlines = tuple(
        d for d in (times.input_deadline, *times.phase_deadlines.values()) if d is not None
    )
    return Window(times.opens, times.closes, tuple(sorted(deadlines)))


def counted_at(moment: Moment, window: Window | None) -> datetime:
    """The time an input counts at: its own if exact; else the earliest moment of its interval
    that is not before the window's opening (the player's side), or its earliest if the whole
    interval lies before the opening."""
    if moment.exact or window is None or window.opens >= moment.latest:
        return moment.earliest if not moment.exact else moment.shown
    return max(moment.earliest, window.opens)


def uncertain(moment: Moment, window: Window | None) -> bool:
    """Whether a boundary of the window falls inside the input's interval (its order with that
    boundary cannot be known)."""
    if moment.exact or window is None:
        return False
    if moment.holds(window.opens):
        return True
    return any(moment.earliest <= b < moment.latest for b in (window.closes, *window.deadlines))


def _local(t: datetime, tz: tzinfo) -> str:
    return t.astimezone(tz).strftime("%m-%d %H:%M:%S")


def shown_text(moment: Moment, tz: tzinfo) -> str:
    """The input's time as the forum showed it (to the minute where it shows minutes)."""
    local = moment.shown.astimezone(tz)
    if moment.precision >= timedelta(minutes=1):
        return local.strftime("%m-%d %H:%M") + "（只显示到分钟）"
    return local.strftime("%m-%d %H:%M:%S")


# What a cited window is, when it is not the open step's (``window_text``'s ``name``);
# ``between_rounds``: a round closed, the next opens when its result is published.
WINDOW_NAMES = {"": "窗口", "last_night": "上一夜的提交时间", "last_words": "遗言截止",
                "between_rounds": "上一轮投票已经结束，下一轮在它的结果公布后才开始"}  # fmt: skip


def window_text(window: Window | None, name: str = "", *, moment: Moment, tz: tzinfo) -> str:
    """``（窗口 …–…；时间 …）`` for an alert about a window (``name``: ``last_night``, the night
    settled last; ``last_words``, a deadline: its close only)."""
    shown = shown_text(moment, tz)
    if window is None and name:
        return f"（{WINDOW_NAMES.get(name, name)}；时间 {shown}）"
    if window is None:
        return f"（现在没有开放的阶段；时间 {shown}）"
    if name == "last_words":
        return f"（{WINDOW_NAMES[name]} {_local(window.closes, tz)}；时间 {shown}）"
    several = len(window.deadlines) > 1  # werewolf: 夜晚1, 夜晚2 (adversary6 C14: two bare 截止)
    deadlines = "".join(f"，{f'夜晚{i}' if several else ''}截止 {_local(d, tz)}"
                        for i, d in enumerate(window.deadlines, 1))  # fmt: skip
    opened = f"{WINDOW_NAMES.get(name, name)} {_local(window.opens, tz)} – {_local(window.closes, tz)}"
    return f"（{opened}{deadlines}；时间 {shown}）"


def uncertain_message(who: str, moment: Moment, window: Window, tz: tzinfo) -> str:
    """The GM's alert: an action counted as in time though its order was uncertain."""
    return (
        f"{who} 的私信时间只显示到分钟，无法确定它在阶段边界之前还是之后；"
        f"已按对玩家有利的方式计入{window_text(window, moment=moment, tz=tz)}"
    )
