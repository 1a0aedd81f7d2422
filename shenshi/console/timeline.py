"""The game's timeline for the console: each step, its result, deaths and executions, and the
GM's corrections, read from the stored events (the same events ``shenshi replay`` replays).

Each event carries its part of the step's report (deaths, the execution, tallies, the winner);
phases open with :class:`PhaseOpened`; the GM's corrections are their own events. Nothing is
re-decided here: the timeline only names what the events say.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from shenshi.daemon import gm_text
from shenshi.daemon.service import GameService
from shenshi.rulesets import base
from shenshi.rulesets.base import UNSET
from shenshi.store import codec

# GM corrections, in the GM's words.
_CORRECTIONS = {
    base.SubmissionVoided: lambda e: f"作废 {e.actor} 的「{e.action}」",
    base.SubstitutionScheduled: lambda e: f"{e.new} 将接替 {e.old}（本阶段结算时）",
    base.SeatTakenOver: lambda e: f"{e.new} 接替 {e.old}",
    base.ExecutionForced: lambda e: f"今天处决 {e.name}" if e.name else "今天不处决任何人",
    base.ExitDeclared: lambda e: f"{e.name} 自动退出游戏",
    base.RulingApplied: lambda e: f"裁定 {e.kind}：{e.name}",
    base.BallotOverridden: lambda e: f"{e.ballot.voter} 的选票改记为 {e.ballot.target}",
    base.GmAnswerRecorded: lambda e: f"天神已答复 {e.actor} 的占卜",
}


@dataclass
class Step:
    """One step of the game (a night or a day) and what happened in it."""

    name: str  # 第1夜, 第2天
    opened_at: datetime | None  # when it was recorded as opened (forum clock)
    results: list[str] = field(default_factory=list)  # 出局：Rex（kill）, 处决：老王, 计票 …
    corrections: list[str] = field(default_factory=list)  # the GM's, in his words
    over: str | None = None  # the game ended here: who won


def timeline(service: GameService) -> list[Step]:
    """The game's steps in order, from its stored events."""
    tz = service.config.forum.tz
    info = service.ruleset.info
    steps: list[Step] = [Step("开局前", None)]
    for stored in service.store.stream_events(service.game_id):
        event = codec.decode(stored.payload)
        at = stored.recorded_at.astimezone(tz)
        if isinstance(event, base.PhaseOpened):
            opened = event.params.get("opened_at")
            when = opened.astimezone(tz) if isinstance(opened, datetime) else at
            steps.append(Step(gm_text.step_name(event.phase, event.n), when))
            continue
        step = steps[-1]
        words = _CORRECTIONS.get(type(event))
        if words is not None:
            reason = getattr(event, "reason", "")
            step.corrections.append(words(event) + (f"（理由：{reason}）" if reason else ""))
        step.results += _results(event.report, info.role_name)
        outcome = getattr(event, "outcome", None)
        if outcome is not None:
            winner = "和棋" if outcome.winner == "draw" else info.team_name(outcome.winner)
            step.over = f"游戏结束：{winner}" + ("" if outcome.winner == "draw" else " 获胜")
    return [s for s in steps if s.results or s.corrections or s.over or s.opened_at]


def _results(report: base.Report, words: Callable[[str], str]) -> list[str]:
    """What a report says, in short lines (``words``: a cause in Chinese, when it has a name)."""
    out = [f"出局：{d.name}（{words(d.cause)}）" for d in report.deaths]
    if report.executed is not UNSET:
        out.append(f"处决：{report.executed}" if report.executed else "今天无人被处决")
    for label, tally in (("计票", report.vote_tally), ("第二轮计票", report.runoff_tally),
                         ("最终计票", report.final_tally)):  # fmt: skip
        if tally is not UNSET and tally:
            shown = "，".join(f"{name} {_votes(n)}" for name, n in sorted(tally.items(), key=lambda x: -x[1]))
            out.append(f"{label}：{shown}")
    out += [f"退出：{name}" for name in report.exits]
    out += [f"替补：{name}" for name in report.replaced]
    return out


def _votes(value: object) -> str:
    number = float(value) if isinstance(value, (int, float)) else 0.0
    return str(int(number)) if number.is_integer() else f"{number:g}"
