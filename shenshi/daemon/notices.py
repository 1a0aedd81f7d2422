"""What the phase clock tells players besides the results: when the vote opens, a night's phase
deadlines, who may leave last words and until when, who has been maddened; and the parts a
result post gains from them (the voting record, last words published the next day).

Pure functions from the rules core's state and reports to texts of :mod:`shenshi.wording`
templates; the referee decides when each is proposed and under which key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, tzinfo

from shenshi.rulesets.base import Ballot, GameState, Report
from shenshi.rulesets.catalog import RulesetInfo
from shenshi.wording import Templates


def clock_time(at: datetime, tz: tzinfo) -> str:
    """A time as players read it on the forum's clock: ``2026-12-10 00:05``."""
    return at.astimezone(tz).strftime("%Y-%m-%d %H:%M")


def vote_opened(t: Templates, n: int, opens: datetime, closes: datetime, tz: tzinfo) -> str:
    """The short post that the vote thread takes ballots from ``opens`` (game6: the 13th hour;
    a post published late still says since when ballots count) until ``closes``."""
    return t.render("vote_opened", n=n, opens=clock_time(opens, tz), closes=clock_time(closes, tz)) + t.render("signature")


def night_deadlines(
    t: Templates,
    n: int,
    deadlines: Mapping[str, datetime],
    dawn: datetime,
    night_phases: Mapping[str, int],
    info: RulesetInfo,
    tz: tzinfo,
) -> str:
    """A night's post with each phase's skills and deadline (werewolf 夜晚1/夜晚2, [WW:L183])."""
    lines = []
    for key, at in sorted(deadlines.items()):
        skills = [info.action_name(a) for a, phase in night_phases.items() if str(phase) == key]
        lines.append(
            t.render(
                "night_phase_deadline",
                phase=key,
                skills=t.render("receipt_name_separator").join(skills),
                deadline=clock_time(at, tz),
            )
        )
    phases = t.render("night_phase_separator").join(lines)
    text = t.render("night_deadlines", n=n, phases=phases, dawn=clock_time(dawn, tz))
    return text + t.render("signature")


def last_words_notice(t: Templates, deadline: datetime, maximum: int | None, tz: tzinfo) -> str:
    """The PM to a character who may leave last words (werewolf §5.4: notified, with the
    deadline: the opening of the next day)."""
    return t.render(
        "last_words_notice", deadline=clock_time(deadline, tz), maximum=maximum or "不限"
    )


def newly_maddened(report: Report, before: Iterable[str]) -> list[str]:
    """Characters maddened by this step who were not maddened before it (werewolf P5)."""
    now = report.madness if isinstance(report.madness, (list, tuple, frozenset, set)) else ()
    known = set(before)
    return sorted(n for n in now if n not in known)


def counted_ballots(state: GameState, report: Report) -> list[Ballot]:
    """The ballots that counted in the round ``state`` closed with ``report``: each voter's
    latest ballot of the round that the count did not reject (a note names every ballot it
    rejected; a delegated ballot's note says it counted: newcomer N16), in the order they were
    cast."""
    judged = {n.seq for n in report.daemon if n.seq is not None and n.verdict != "delegated"}
    latest: dict[str, Ballot] = {}
    for b in sorted(state.ballots, key=Ballot.sort_key):
        if b.round == state.round and b.seq not in judged:
            latest[b.voter] = b
    return sorted(latest.values(), key=Ballot.sort_key)


def vote_record(t: Templates, ballots: Sequence[Ballot], abstain_word: str) -> str:
    """The full voting record published after a count (werewolf §5.6 [WW:L95])."""
    lines = [
        t.render(
            "vote_record_line",
            voter=b.voter,
            target=abstain_word if b.target == "ABSTAIN" else b.target,
        )
        for b in ballots
    ]
    return t.render("vote_record", lines="\n".join(lines))


def last_words_granted(t: Templates, names: Sequence[str]) -> str:
    """The line of a result post naming the victims who may post their last words (chess32)."""
    return t.render("last_words_granted", names=t.render("receipt_name_separator").join(names))


def last_words_published(t: Templates, words: Sequence[tuple[str, str]]) -> list[str]:
    """Last words written in private, published the next day (werewolf §5.4)."""
    return [t.render("last_words_published", name=name, text=text.strip()) for name, text in words]
