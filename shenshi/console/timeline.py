"""The game's timeline for the console: each step, its result, deaths and executions, and the
GM's corrections, read from the stored events (the same events ``shenshi replay`` replays).

Each event carries its part of the step's report (deaths, the execution, tallies, the winner);
phases open with :class:`PhaseOpened`; the GM's corrections are their own events. Nothing is
re-decided here: the timeline only names what the events say.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from shenshi.daemon import gm_text
from shenshi.daemon.service import GameService
from shenshi.rulesets import base
from shenshi.rulesets.base import UNSET
from shenshi.rulesets.catalog import ACTION_NAMES, RulesetInfo
from shenshi.store import codec

# The GM's rulings (RulingApplied kinds), in his words.
RULINGS = {"extra_divination": "抽中 {name} 做额外占卜", "penalty": "{name} 罚分", "send_off": "{name} 被罚下",
           "sheriff": "警徽交给 {name}"}  # fmt: skip
# GM corrections, in the GM's words.
_CORRECTIONS = {
    base.SubmissionVoided: lambda e: (f"{e.actor} 撤回「{ACTION_NAMES.get(e.action, e.action)}」" if e.by_player
                                      else f"作废 {e.actor} 的「{ACTION_NAMES.get(e.action, e.action)}」"),
    base.SubstitutionScheduled: lambda e: f"{e.new} 接替 {e.old}（立即替这个座位投票和行动）",
    base.SeatTakenOver: lambda e: f"{e.new} 接替 {e.old}",
    base.ExecutionForced: lambda e: f"今天处决 {e.name}" if e.name else "今天不处决任何人",
    # (the GM's exit: 自动退出 only as the notice he confirmed says, newcomer2 F13)
    base.ExitDeclared: lambda e: f"{e.name} 退出游戏（{e.reason}）" if e.reason.strip() else f"{e.name} 退出游戏（天神记录）",
    base.RulingApplied: lambda e: RULINGS.get(e.kind, "裁定 {kind}：{name}").format(kind=e.kind, name=e.name),
    base.BallotOverridden: lambda e: f"{e.ballot.voter} 的选票改记为 {e.ballot.target}",
    base.GmAnswerRecorded: lambda e: f"天神已答复 {e.actor} 的占卜",
}


def _gm_entry(event: object) -> str | None:
    """A player's action the GM entered (``override action``: a submission marked ``gm``), in
    his words; ``None`` for anything else (a player's own PM is no correction)."""
    if isinstance(event, base.PowerSubmitted) and event.submission.extra.get("gm"):
        return f"补录 {event.submission.actor} 的行动：{gm_text.describe_submission(event.submission).removeprefix(event.submission.actor).strip()}"
    return None


@dataclass(frozen=True)
class Entry:
    """One line of a step, in the order it happened: a result, a GM correction, or a rules
    decision for the GM (killers disagreed…)."""

    at: datetime | None
    kind: str  # result | correction | note | over
    text: str


@dataclass
class Step:
    """One step of the game (a night or a day) and what happened in it, in order."""

    name: str  # 第1夜, 第2天
    opened_at: datetime | None  # when it was recorded as opened (forum clock)
    entries: list[Entry] = field(default_factory=list)
    over: str | None = None  # the game ended here: who won

    @property
    def results(self) -> list[str]:
        """The step's results (出局：Rex（被杀）, 处决：老王, 计票 …)."""
        return [e.text for e in self.entries if e.kind == "result"]

    @property
    def corrections(self) -> list[str]:
        """The GM's corrections, in his words."""
        return [e.text for e in self.entries if e.kind == "correction"]


def timeline(service: GameService) -> list[Step]:
    """The game's steps in order, from its stored events; every line with its time."""
    tz = service.config.forum.tz
    info = service.ruleset.info
    steps: list[Step] = [Step("开局前", None)]
    taking_over: dict[str, str] = {}  # a seat a substitute takes over: old → new
    for stored in service.store.stream_events(service.game_id):
        event = codec.decode(stored.payload)
        at = stored.recorded_at.astimezone(tz)
        if isinstance(event, base.SubstitutionScheduled):
            taking_over[event.old] = event.new
        if isinstance(event, base.PhaseOpened):
            opened = event.params.get("opened_at")
            when = opened.astimezone(tz) if isinstance(opened, datetime) else at
            steps.append(Step(gm_text.step_name(event.phase, event.n), when))
            continue
        step = steps[-1]
        words = _CORRECTIONS.get(type(event))
        said = words(event) if words is not None else _gm_entry(event)
        if said is not None and not _scheduled_before(steps, event):  # the correction first, then what it caused (an exit…)
            reason = getattr(event, "reason", "") or _entry_reason(event)
            step.entries.append(Entry(at, "correction", said + (f"（理由：{reason}）" if reason else "")))
        step.entries += [Entry(at, kind, text) for kind, text in _results(event.report, info, taking_over)]
        outcome = getattr(event, "outcome", None)
        if outcome is not None and step.over is None:
            winner = "和棋" if outcome.winner == "draw" else info.team_name(outcome.winner)
            step.over = f"游戏结束：{winner}" + ("" if outcome.winner == "draw" else " 获胜")
            step.entries.append(Entry(at, "over", step.over))
    return [s for s in steps if s.entries or s.opened_at]


def _scheduled_before(steps: list[Step], event: object) -> bool:
    """Whether ``event`` is a substitution taking effect that the timeline already shows where
    the GM made it (its :class:`~shenshi.rulesets.base.SubstitutionScheduled` line): the seat
    changing hands at the step's end is no second correction, and the GM's line stays at the
    time he made it, before what it changed."""
    if not isinstance(event, base.SeatTakenOver):
        return False
    scheduled = _CORRECTIONS[base.SubstitutionScheduled](event)
    return any(e.text == scheduled for step in steps for e in step.entries)


def _entry_reason(event: object) -> str:
    """The reason the GM gave for an action he entered (kept in the submission)."""
    if isinstance(event, base.PowerSubmitted):
        return str(event.submission.extra.get("reason") or "")
    return ""


def step_starts(service: GameService) -> list[tuple[datetime, str]]:
    """When each step opened (forum clock) and its name, in order (grouping by step)."""
    return [(s.opened_at, s.name) for s in timeline(service) if s.opened_at is not None]


def _results(report: base.Report, info: RulesetInfo, taking_over: Mapping[str, str]) -> list[tuple[str, str]]:
    """What a report says, in short lines: (``result`` or ``note``, words), in the order it
    came about: the tallies, the execution they decided, the rules' decisions, then who left
    the game (the deaths, exits and substitutions they caused); ``taking_over``: the seats a
    substitute takes over (their missed ballot removes nobody, RES-A18)."""
    out = []
    for label, tally in (("计票", report.vote_tally), ("第二轮计票", report.runoff_tally),
                         ("最终计票", report.final_tally)):  # fmt: skip
        if tally is not UNSET and tally:
            shown = "，".join(f"{name} {_votes(n)}" for name, n in sorted(tally.items(), key=lambda x: -x[1]))
            out.append(("result", f"{label}：{shown}"))
    if report.executed is not UNSET:
        out.append(("result", f"处决：{report.executed}" if report.executed else "今天无人被处决"))
    for note in report.daemon:
        if note.log_only:
            continue
        verdict = gm_text.verdict_name(note.verdict)
        if note.verdict == "exit" and note.who in taking_over:
            verdict = gm_text.NOTES["substitute_keeps_seat"].format(new=taking_over[note.who])
        out.append(("note", f"{gm_text.rule_name(note.rule)}（{gm_text.who_name(note.who)}）：{verdict}"))
    out += [("result", f"出局：{d.name}（{gm_text.death_cause(d.cause, info)}）") for d in report.deaths]
    facts = {f.kind for f in report.public_facts}
    if "no_death" in facts and not report.deaths:
        out.append(("result", "无人死亡"))
    if report.bound is not UNSET and report.bound:
        bound = report.bound if isinstance(report.bound, str) else "、".join(report.bound)
        out.append(("result", f"被束魂：{bound}"))
    out += [("result", f"退出：{name}") for name in report.exits]
    out += [("result", f"替补：{name}") for name in report.replaced]
    return out


def _votes(value: object) -> str:
    number = float(value) if isinstance(value, (int, float)) else 0.0
    return str(int(number)) if number.is_integer() else f"{number:g}"
