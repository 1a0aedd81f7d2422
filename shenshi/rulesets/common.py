"""Small helpers every ruleset family uses: latest submissions, joint units, counting."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from shenshi.rulesets.base import Ballot, DaemonNote, GameState, Outcome, Report, Seat, Submission


@dataclass(frozen=True)
class RoundOutcome:
    """The close of one voting round: the report, the new seats and memory, the outcome.

    ``next_round`` > 0 keeps the day open for that round (runoff, round 2, summoning).
    """

    report: Report
    seats: tuple[Seat, ...]
    memory: Any
    outcome: Outcome | None
    next_round: int


def ceil_div(a: int, b: int) -> int:
    """``ceil(a / b)`` in integers (b > 0)."""
    return -(-a // b)


def text_length(text: str) -> int:
    """Characters without whitespace (RES-A29): CJK, letters, digits, punctuation count 1."""
    return sum(1 for ch in text if not ch.isspace())


def latest(items: Iterable[Submission]) -> Submission | None:
    """The latest submission: by time when given, else by arrival order."""
    items = list(items)
    return max(items, key=Submission.sort_key) if items else None


def latest_per_actor(subs: Iterable[Submission], action: str) -> dict[str, Submission]:
    """``{actor: latest submission}`` for one action."""
    found: dict[str, list[Submission]] = {}
    for s in subs:
        if s.action == action:
            found.setdefault(s.actor, []).append(s)
    return {actor: latest(items) for actor, items in found.items()}  # type: ignore[misc]


@dataclass(frozen=True)
class UnitChoice:
    """What a joint unit (two members acting as one) decided this night."""

    submission: Submission | None  # the unit's action, or None
    disagreement: bool = False


def joint_choice(members: Sequence[Seat], subs: dict[str, Submission]) -> UnitChoice:
    """A-J1..A-J4 / RES-A5 / RES-C3: the members' latest submissions must name one target.

    One submitter decides for the unit; different targets forfeit the action. Members are
    given in seat order; ``subs`` holds only valid latest submissions.
    """
    chosen = [subs[m.name] for m in members if m.name in subs]
    if not chosen:
        return UnitChoice(None)
    targets = {s.target for s in chosen}
    if len(targets) > 1:
        return UnitChoice(None, disagreement=True)
    return UnitChoice(max(chosen, key=Submission.sort_key))


def note(
    who: str,
    rule: str,
    verdict: str,
    detail: str = "",
    log_only: bool = False,
    seq: int | None = None,
) -> DaemonNote:
    """A daemon decision (``log_only`` notes are for the GM's log, not scenario output).

    ``seq`` names the submission or ballot the decision is about, when it is about one.
    """
    return DaemonNote(who, rule, verdict, detail, log_only, seq)


def about(problem: DaemonNote, item: Submission | Ballot) -> DaemonNote:
    """``problem`` as the verdict on one submission or ballot (its ``seq``)."""
    return replace(problem, seq=item.seq)


def tally(ballots: Iterable[Ballot], weight: Callable[[Ballot], float] | None = None) -> dict[str, float]:
    """Votes per target (``weight`` per ballot, 1 by default)."""
    out: dict[str, float] = {}
    for b in ballots:
        out[b.target] = out.get(b.target, 0) + (weight(b) if weight else 1)
    return out


def top(counts: dict[str, float]) -> tuple[float, list[str]]:
    """The maximum and the names that reach it (sorted); ``(0, [])`` when empty."""
    if not counts:
        return 0, []
    best = max(counts.values())
    return best, sorted(n for n, v in counts.items() if v == best)


def nonzero(counts: dict[str, float]) -> dict[str, float]:
    """The tally without zero entries (as FORMAT.md compares it)."""
    return {k: (int(v) if float(v).is_integer() else v) for k, v in counts.items() if v}


def living_names(state: GameState) -> set[str]:
    """Names of the living players."""
    return {s.name for s in state.seats if s.alive}


def missed_sign_in(
    players: Sequence[str], start: datetime, signed: Mapping[str, datetime], window: timedelta
) -> list[str]:
    """Players who did not sign in (签到) within ``window`` of the player list at ``start``
    (``signed``: each player's first sign-in)."""
    return [p for p in players if p not in signed or signed[p] > start + window]


def silent_players(
    players: Sequence[str],
    start: datetime,
    now: datetime,
    last_post: Mapping[str, datetime],
    window: timedelta,
) -> list[str]:
    """Players with no post for ``window`` by ``now`` (潜水), counting from ``start`` at the
    earliest (``last_post``: each player's latest post up to ``now``)."""
    return [p for p in players if now - max(last_post.get(p, start), start) >= window]


__all__ = [
    "RoundOutcome",
    "UnitChoice",
    "about",
    "ceil_div",
    "joint_choice",
    "latest",
    "latest_per_actor",
    "living_names",
    "missed_sign_in",
    "nonzero",
    "note",
    "silent_players",
    "tally",
    "text_length",
    "top",
]
