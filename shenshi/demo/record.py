"""What a played game left behind, read two ways: as the forum shows it, and as the daemon stored it.

:func:`forum_outcome` reads the GM's posts in the vote thread (what players see): each step's
deaths, the execution, a runoff, the winner. :func:`stored_outcome` reads the same from the
daemon's event log. :func:`expected_outcome` is the script's own (hand-worked) outcome. The
end-to-end tests require all three to agree; the demo prints them with :func:`summary`.

:func:`event_signature` lists the game's events without times or evidence ids, so that two
runs of one script (one of them under faults, or killed and restarted) can be compared: no
event lost or duplicated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from shenshi.demo.script import GameScript
from shenshi.rulesets.catalog import TEAM_NAMES
from shenshi.rulesets.registry import find_ruleset
from shenshi.store import codec
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import DestinationKind
from shenshi.store.unit_of_work import Store
from shenshi.wording import Templates

_WINNERS = {text: team for team, text in TEAM_NAMES.items()}
# The templates that announce another round of the day's vote (a runoff or chess round 2).
NEXT_ROUND = ("runoff", "round2")


@dataclass
class StepRecord:
    """One step as published: who died (name → cause, or "death" where only the camp is
    published), who was executed, whether a runoff was held."""

    label: str
    deaths: dict[str, str] = field(default_factory=dict)
    executed: str | None = None
    runoff: bool = False
    published_at: datetime | None = None


@dataclass
class GameRecord:
    """A whole game: its steps in order and the winner (``None``: not over)."""

    steps: list[StepRecord] = field(default_factory=list)
    winner: str | None = None

    def step(self, label: str) -> StepRecord | None:
        return next((s for s in self.steps if s.label == label), None)

    def comparable(self, causes: bool = True) -> list[tuple[Any, ...]]:
        """The record as plain tuples (deaths with or without causes), for assertions."""
        out = []
        for s in self.steps:
            deaths = sorted(s.deaths.items()) if causes else sorted(s.deaths)
            out.append((s.label, tuple(deaths), s.executed, s.runoff))
        return out + [("winner", self.winner)]


def expected_outcome(script: GameScript, *, published: bool = False) -> GameRecord:
    """The outcome the script's intended actions must give (written by hand in the script);
    ``published``: only the steps that end with a public post (werewolf night 0 has none)."""
    record = GameRecord()
    profile = find_ruleset(script.ruleset).profile(script.rules)
    for step in script.steps:
        if published and not profile.clock.announced(step.phase, step.n):
            continue
        e = script.expected[step.label]
        record.steps.append(StepRecord(step.label, dict(e.deaths), e.executed, e.runoff))
        if e.winner:
            record.winner = e.winner
    return record


def forum_outcome(
    texts: Iterable[tuple[str, datetime]], names: Iterable[str], templates: Templates | None = None
) -> GameRecord:
    """The outcome as the GM's posts publish it (``texts``: the posts, oldest first), read
    through the announcement ``templates`` the daemon wrote them with."""
    t = templates or Templates()
    known = sorted(set(names))
    record = GameRecord()
    for text, at in texts:
        label = step_title(t, text)
        if label is None:
            continue
        step = record.step(label)
        if step is None:
            step = StepRecord(label, published_at=at)
            record.steps.append(step)
        if any(t.search(name, text) is not None for name in NEXT_ROUND):
            step.runoff = True
        for line in text.splitlines():
            _read_line(t, line.strip(), known, step)
        won = t.search("winner", text)
        if won is not None:
            record.winner = _WINNERS.get(won["camp"], won["camp"])
        elif t.search("draw", text) is not None:
            record.winner = "draw"
    return record


def step_title(t: Templates, text: str) -> str | None:
    """``night3`` / ``day2`` for a post titled as a step's result, else ``None``."""
    for phase in ("night", "day"):
        found = t.search(f"{phase}_title", text)
        if found is not None and found["n"].isdigit():
            return f"{phase}{found['n']}"
    return None


def _read_line(t: Templates, line: str, names: Iterable[str], step: StepRecord) -> None:
    for name in sorted((n for n in names if n in line), key=len, reverse=True):
        if any(t.fullmatch(w, line, name=name) is not None for w in ("executed", "executed_camp")):
            step.executed = name
            step.deaths[name] = "execution"
            return
        if t.fullmatch("death_camp", line, name=name) is not None:
            step.deaths[name] = "death"
            return
        if t.fullmatch("out", line, name=name) is not None:
            step.deaths[name] = "death"
            if step.label.startswith("day") and step.executed is None:
                step.executed = name  # werewolf: the day's first character out was voted out
            return
        for template, spec in t.specs.items():
            cause = template.removeprefix("cause_")
            if spec.group != "cause" or cause == "execution":
                continue
            if t.fullmatch("death", line, name=name, cause=t.render(template)) is not None:
                step.deaths[name] = cause
                return


def stored_outcome(store: Store, game_id: int) -> GameRecord:
    """The outcome the daemon recorded: the reports of its stored resolutions."""
    record = GameRecord()
    step: StepRecord | None = None
    for stored in store.stream_events(game_id):
        event = codec.decode(stored.payload)
        kind = type(event).__name__
        if kind == "PhaseOpened":
            step = StepRecord(f"{event.phase.value}{event.n}")
            record.steps.append(step)
            continue
        if step is None or kind not in ("Resolved", "ExecutionForced", "ExitDeclared"):
            continue
        report = event.report
        for death in report.deaths:
            step.deaths[death.name] = death.cause
        if report.executed:
            step.executed = report.executed
        if getattr(event, "next_round", 0):
            step.runoff = True
        if event.outcome is not None:
            record.winner = event.outcome.winner
    return record


def event_signature(store: Store, game_id: int) -> list[tuple[Any, ...]]:
    """The game's events without times or evidence ids (activity counts left out: they depend
    on when a close happens), in the order stored."""
    out: list[tuple[Any, ...]] = []
    for stored in store.stream_events(game_id):
        event = codec.decode(stored.payload)
        kind = type(event).__name__
        match kind:
            case "PhaseOpened":
                out.append((kind, event.phase.value, event.n))
            case "PowerSubmitted":
                s = event.submission
                extra = {
                    k: v
                    for k, v in s.extra.items()
                    if k in ("platform", "target2", "declaration_chars")
                }
                out.append((kind, s.actor, s.action, s.target, tuple(sorted(extra.items()))))
            case "BallotCast":
                b = event.ballot
                out.append((kind, b.voter, b.target, b.round, b.via))
            case "LastWordsRecorded":
                out.append((kind, event.author, tuple(event.accused)))
            case "Resolved":
                r = event.report
                deaths = tuple(sorted((d.name, d.cause) for d in r.deaths))
                out.append((kind, deaths, r.executed or None, event.next_round,
                            event.outcome.winner if event.outcome else None))  # fmt: skip
            case "ActivityRecorded":
                continue
            case _:
                out.append((kind,))
    return out


@dataclass(frozen=True)
class Tally:
    """Counts for the summary."""

    public_posts: int
    pms: int
    left: int  # proposed, approved or failed but never sent
    retries: int  # sends tried again (flood control, a forum error, a crash)
    alerts: int
    alert_kinds: Mapping[str, int]


def tally(store: Store, game_id: int) -> Tally:
    """How many announcements went out (public posts, PMs), what is left, how many alerts."""
    with store.snapshot() as uow:
        sent = uow.outbox.announcements(game_id, [AnnouncementState.SENT])
        left = uow.outbox.announcements(
            game_id,
            [AnnouncementState.PROPOSED, AnnouncementState.APPROVED, AnnouncementState.SENDING,
             AnnouncementState.FAILED],
        )  # fmt: skip
        alerts = uow.alerts.raised(game_id)
    public = sum(1 for a in sent if a.destination_kind is DestinationKind.THREAD)
    retries = sum(max(a.attempts - 1, 0) for a in sent)
    kinds = Counter(a.kind for a in alerts)
    return Tally(public, len(sent) - public, len(left), retries, len(alerts), kinds)


def summary(
    record: GameRecord,
    counts: Tally,
    *,
    log: Path,
    database: str,
    seconds: float,
    mistakes: Iterable[tuple[str, str, str]] = (),
) -> str:
    """The demo's closing report, for people."""
    lines = []
    for s in record.steps:
        title = f"第{s.label[3:]}天" if s.label.startswith("day") else f"第{s.label[5:]}夜"
        deaths = [n for n in s.deaths if n != s.executed]
        parts = []
        if s.label.startswith("night") or deaths:
            parts.append("deaths: " + (", ".join(f"{n} ({s.deaths[n]})" for n in deaths) or "none"))
        if s.label.startswith("day"):
            parts.append(
                f"executed: {s.executed or 'nobody'}" + (" after a runoff" if s.runoff else "")
            )
        lines.append(f"  {s.label:<7} {title:<5} " + "; ".join(parts))
    winner = TEAM_NAMES.get(record.winner, record.winner) if record.winner else "not decided"
    lines.append(f"  winner: {record.winner or '—'} ({winner})")
    lines.append(
        f"  announcements sent: {counts.public_posts} public posts, {counts.pms} PMs"
        + (f"; {counts.left} not sent" if counts.left else "")
        + (f"; {counts.retries} sends tried again" if counts.retries else "")
    )
    from shenshi.daemon.gm_text import alert_name

    kinds = ", ".join(f"{alert_name(k)} {n}" for k, n in sorted(counts.alert_kinds.items()))
    lines.append(f"  GM alerts: {counts.alerts}" + (f" ({kinds})" if kinds else ""))
    made = list(mistakes)
    if made:
        lines.append("  players' mistakes:")
        lines += [f"    {label:<7} {kind:<9} {what}" for kind, label, what in made]
    lines.append(f"  dry-run log: {log}")
    lines.append(f"  database:    {database}")
    lines.append(f"  played in {seconds:.1f} s")
    return "\n".join(lines)
