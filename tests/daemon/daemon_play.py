"""A scenario document played the daemon's way: every action and ballot written as a PM, a vote
thread post or a 功能树洞 reply, read by intake and the referee (no HTTP, no store).

``play_through_referee(document) -> {label: result}`` has the shape of
:func:`shenshi.rulesets.scenario.run_scenario` (the rules core's own reports), so the two can be
compared on the same random games (``tests/rulesets/random_games.py``: pass it as ``play``).

How a step is played. The step's clock is the document's: a ruleset whose ``phase_times`` is
the step's window, deadlines and closes (the referee reads its clock from there), so intake
judges times as the core does. Steps open and close as the scenario runner opens and closes
them, through :meth:`Referee.apply` (the GM's corrections go the same way); what players write
goes through :meth:`Referee.read_pm` / :meth:`Referee.read_post`, in FORMAT's time order, each
at its ``extra.t``. An entry without a time is written at the step's opening, before every
timed one (the core reads untimed entries first). The result of a step is the merge of its
events' reports, as the scenario runner merges them.

What a scenario says that no player writes is left out, because the core ignores it too: a
ballot whose post was malformed (``format_ok: false``), a penalty divination sent at night.
A kill with no declaration information is sent with a declaration long enough to count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from itertools import count
from typing import Any

from shenshi.config import GameConfig, PlayerEntry
from shenshi.daemon.announce import Templates
from shenshi.daemon.keys import step_label as key_label
from shenshi.daemon.referee import Referee
from shenshi.intake.lexicon import COMMAND_WORDS
from shenshi.records import Post, PrivateMessage
from shenshi.rulesets.base import (
    UNSET,
    CloseNight,
    CloseRound,
    Command,
    Event,
    GmAnswered,
    GmRuling,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    PhaseTimes,
    PlayerSpec,
    RecordActivity,
    Report,
    Ruleset,
    Substitute,
    frozen_map,
)
from shenshi.rulesets.profile import SkillChannel
from shenshi.rulesets.registry import find_ruleset
from shenshi.rulesets.scenario import parse_time, step_label
from tests.daemon.helpers import TZ

VOTE_THREAD = "2"
FAR = timedelta(days=30)
FILLER = "夜"  # a character that is no name and no command word: declarations of any length
ANSWERED = "gm_answered"  # the GM's answer to the seer, among the PMs at its time
DRAWN = "gm_draws"  # the GM's draw of the penalty divination, before the drawn civilian's PM


def play_through_referee(document: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every step of ``document`` through intake and the referee; results as run_scenario's."""
    return _Play(document).run()


class _Scripted:
    """A ruleset's subclass whose clock is the open step's times from the document."""

    @staticmethod
    def make(ruleset: Ruleset) -> Ruleset:
        base = type(ruleset)

        class Scripted(base):  # type: ignore[valid-type, misc]
            script: PhaseTimes | None = None

            def phase_times(self, state, phase, n, opened_at, substitutions=0):  # noqa: ANN001
                assert self.script is not None
                return self.script

        Scripted.__name__ = f"Scripted{base.__name__}"
        return Scripted()


class _Play:
    def __init__(self, document: Mapping[str, Any]) -> None:
        self.doc = document
        self.rules = _Scripted.make(find_ruleset(str(document["ruleset"])))
        specs = [
            PlayerSpec(
                p["name"],
                p["role"],
                p["team"],
                bool(p.get("alive", True)),
                tuple(p.get("addons", ())),
            )
            for p in document["players"]
        ]
        state = self.rules.new_game(specs, document.get("config") or {})
        roles = sorted({s.role for s in state.seats})
        self.threads = {role: str(100 + i) for i, role in enumerate(roles)}
        game = GameConfig(
            ruleset=self.rules.name, board="3", vote_thread=VOTE_THREAD,
            start=datetime(2024, 1, 1, tzinfo=TZ),
            players=tuple(PlayerEntry(s.name, None, s.role, s.team) for s in state.seats),
            role_threads=self.threads, rules=dict(document.get("config") or {}),
        )  # fmt: skip
        self.ref = Referee(
            self.rules, game, state, game_key="g1", templates=Templates(), tz=TZ, early_close=False
        )
        self.ids = count(1)
        self.channel = self.ref.profile.skills.channel

    # -- plumbing ----------------------------------------------------------------------------

    def run(self) -> dict[str, dict[str, Any]]:
        results: dict[str, dict[str, Any]] = {}
        for step in self.doc["steps"]:
            report = self.night(step) if step["phase"] == "night" else self.day(step)
            report = replace(report, winner=self.ref.state.winner)
            results[step_label(step)] = report.to_json()
        return results

    def apply(self, command: Command) -> Report:
        before = self.ref.state
        events = self.ref.apply(command)
        self.ref.drafts_for(events, before)  # the announcements are derived as the daemon does
        return merged(events)

    def read(self, events: Iterable[Event]) -> Report:
        return merged(events)

    # -- steps ---------------------------------------------------------------------------------

    def night(self, step: Mapping[str, Any]) -> Report:
        window = step.get("window") or {}
        deadlines = {str(k): when(v) for k, v in (step.get("phase_deadlines") or {}).items()}
        actions = [
            a for a in step.get("actions", ()) if not (a.get("extra") or {}).get("extra_divination")
        ]
        answered = step.get("gm_answered") or {}
        opens = self.opening(
            [
                when(window.get("open")),
                when(answered.get("t")),
                *deadlines.values(),
                *times_of(actions),
            ]
        )
        if window.get("open"):
            opens = when(window["open"])
        close = when(window.get("close"))
        deadline = when(step.get("deadline"))
        self.rules.script = PhaseTimes(
            opens, opens + FAR, deadline, phase_deadlines=frozen_map(deadlines)
        )
        params = {
            "opened_at": opens, "window_open": when(window.get("open")), "window_close": close,
            "deadline": deadline, "phase_deadlines": frozen_map(deadlines),
        }  # fmt: skip
        report = self.apply(OpenNight(step["n"], frozen_map(params)))
        if answered:  # the GM answers the seer when he does, among the PMs (A-S2)
            actions = [
                *actions,
                {"actor": answered["actor"], "action": ANSWERED, "extra": {"t": answered.get("t")}},
            ]
        report = report.merge(self.gm(step))
        report = report.merge(self.actions(actions, opens, self.phase_openings(deadlines, opens)))
        report = report.merge(self.substitutions(step))
        return report.merge(self.apply(CloseNight(close)))

    def phase_openings(
        self, deadlines: Mapping[str, datetime], opens: datetime
    ) -> dict[str, datetime]:
        """Skill → when its night phase opens, for phases after the first (werewolf 夜晚2 opens
        as 夜晚1 closes, with the 【通灵】 list): an untimed reply of such a skill is written
        then (without deadlines: after the others), as a witch replies once she has her list."""
        keys = sorted(deadlines)
        opening = {
            later: deadlines[earlier] for earlier, later in zip(keys, keys[1:], strict=False)
        }
        skills = self.ref.profile.skills
        return {
            skill: opening.get(str(skills.night_phases[skill]), opens)
            for skill in skills.second_phase()
        }

    def day(self, step: Mapping[str, Any]) -> Report:
        closes = {
            k: when(step.get(k))
            for k in ("round1_close", "round2_close", "extra_divination_deadline")
        }
        summon = step.get("summon") or {}
        entries = [*step.get("actions", ()), *step.get("votes", ())]
        opens = self.opening([*times_of(entries), closes["round1_close"]])
        r1 = closes["round1_close"] or opens + FAR
        r2 = closes["round2_close"] or r1 + FAR
        rounds = {1: (opens, r1), 2: (opens, r2), 3: (opens, r2 + FAR)}
        self.rules.script = PhaseTimes(opens, r2 + FAR, rounds=frozen_map(rounds))
        params = {"opened_at": opens, **{k: v for k, v in closes.items()}}
        report = self.apply(OpenDay(step["n"], frozen_map(params)))
        report = report.merge(self.gm(step))
        counts = step.get("post_counts")
        if counts:
            report = report.merge(self.apply(RecordActivity(frozen_map(dict(counts)))))
        for lw in step.get("last_words_accusations", ()):
            text = "遗言：我是好人。" + (
                "\n指控：" + "、".join(lw["accused"]) if lw.get("accused") else ""
            )
            report = report.merge(self.read(self.post(lw["from"], text, opens)))
        report = report.merge(self.actions(drawn(step.get("actions", ())), opens))
        report = report.merge(self.ballots(step.get("votes", ()), opens))
        report = report.merge(self.substitutions(step))
        report = report.merge(self.apply(CloseRound(closes["round1_close"])))
        while self.ref.state.phase is Phase.DAY and self.ref.state.round > 1:
            rnd = self.ref.state.round
            self.ref.learn({self.ref.keys.public(key_label(Phase.DAY, step["n"], rnd - 1)): opens})
            if rnd == 2:
                report = report.merge(self.ballots(step.get("runoff_votes", ()), opens))
                report = report.merge(self.apply(CloseRound(closes["round2_close"])))
            else:
                votes = [dict(v, extra={**(v.get("extra") or {})}) for v in summon.get("votes", ())]
                report = report.merge(self.ballots(votes, opens))
                report = report.merge(self.apply(CloseRound(None, tuple(summon.get("online", ())))))
        if report.executed is UNSET:
            report = replace(report, executed=None)
        return report

    def substitutions(self, step: Mapping[str, Any]) -> Report:
        """The step's substitutions (``shenshi substitute``), once its players have written: the
        ``out`` player's own actions and ballots in that step still count (FORMAT
        "Substitutions"); after the GM's command he no longer acts for the seat (RULES.md "The
        substitute's own clocks")."""
        report = Report()
        for sub in step.get("substitutions", ()):
            report = report.merge(self.apply(Substitute(sub["out"], sub["in"])))
        return report

    def gm(self, step: Mapping[str, Any]) -> Report:
        """The GM's rulings (``shenshi override``) as the step opens."""
        report = Report()
        for r in step.get("gm_rulings", ()):
            params = {k: v for k, v in r.items() if k not in ("kind", "name")}
            report = report.merge(self.apply(GmRuling(r["kind"], r["name"], frozen_map(params))))
        return report

    def draw(self, name: str) -> Report:
        """The GM draws ``name`` for the penalty divination (``shenshi override
        extra-divination``); where the rules have no such draw, nothing."""
        try:
            return self.apply(GmRuling("extra_divination", name))
        except IllegalActionError:
            return Report()

    def opening(self, times: Iterable[datetime | None]) -> datetime:
        """The step's opening: before every time it names (untimed entries are written then)."""
        known = [t for t in times if t is not None]
        return (min(known) if known else datetime(2024, 3, 4, 20, 0, tzinfo=TZ)) - timedelta(
            minutes=1
        )

    # -- what players write --------------------------------------------------------------------

    def actions(
        self,
        actions: Iterable[Mapping[str, Any]],
        opens: datetime,
        later: Mapping[str, datetime] | None = None,
    ) -> Report:
        """Each action written at its time (untimed: at the opening of the step, or of its
        night phase, ``later``)."""
        report = Report()
        ordered = in_time_order(actions)
        late = [
            a
            for a in ordered
            if not (a.get("extra") or {}).get("t") and a["action"] in (later or {})
        ]
        for a in [a for a in ordered if a not in late] + late:
            at = when((a.get("extra") or {}).get("t")) or (later or {}).get(a["action"]) or opens
            if a["action"] == ANSWERED:
                report = report.merge(self.apply(GmAnswered(a["actor"], when(a["extra"]["t"]))))
                continue
            if a["action"] == DRAWN:
                report = report.merge(self.draw(a["actor"]))
                continue
            text = action_text(a, self.ref.profile)
            if self.channel is SkillChannel.ROLE_THREAD:
                events = self.post(a["actor"], text, at, self.thread_of(a["actor"]))
            else:
                events = self.pm(a["actor"], text, at)
            report = report.merge(self.read(events))
        return report

    def ballots(self, votes: Iterable[Mapping[str, Any]], opens: datetime) -> Report:
        report = Report()
        for v in in_time_order(votes):
            extra = v.get("extra") or {}
            if not extra.get("format_ok", True):
                continue  # a malformed ballot post: the core ignores it, intake reads none
            at = when(extra.get("t")) or opens
            target = "弃权" if v["target"] == "ABSTAIN" else v["target"]
            if extra.get("via") == "pm_delegate":
                events = self.pm(v["voter"], f"委托投票：{target}", at)
            else:
                events = self.post(v["voter"], f"投票：{target}", at)
            report = report.merge(self.read(events))
        return report

    def thread_of(self, name: str) -> str:
        return (
            self.threads[self.ref.state.seat(name).role]
            if self.ref.state.has_player(name)
            else "999"
        )

    def post(self, author: str, text: str, at: datetime, tid: str = VOTE_THREAD) -> list[Event]:
        n = next(self.ids)
        return self.ref.read_post(
            Post(tid, str(n), n, author, f"u-{author}", at, text), str(n)
        ).events

    def pm(self, sender: str, text: str, at: datetime) -> list[Event]:
        n = next(self.ids)
        message = PrivateMessage(str(n), f"c{n}", sender, f"u-{sender}", "神的使者", "2", at, text)
        return self.ref.read_pm(message, str(n)).events


def drawn(actions: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """A day's actions with the GM's draw before the first penalty divination (the scenario
    names only who sent it; the daemon accepts it from the civilian the GM drew)."""
    items = list(actions)
    asked = [a for a in items if (a.get("extra") or {}).get("extra_divination")]
    if not asked:
        return items
    first = in_time_order(asked)[0]
    return [
        {"actor": first["actor"], "action": DRAWN, "extra": dict(first.get("extra") or {})},
        *items,
    ]


def merged(events: Iterable[Event]) -> Report:
    report = Report()
    for event in events:
        report = report.merge(event.report)
    return report


def when(value: Any) -> datetime | None:
    """A document's time (naive, the forum's clock) as an aware time, or ``None``."""
    return None if value is None else parse_time(value, "time").replace(tzinfo=TZ)


def times_of(entries: Iterable[Mapping[str, Any]]) -> list[datetime | None]:
    return [when((e.get("extra") or {}).get("t")) for e in entries]


def in_time_order(entries: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """FORMAT "Time stamps": untimed entries first in list order, then by time (stable)."""
    items = list(entries)
    return sorted(items, key=lambda e: (when((e.get("extra") or {}).get("t")) is not None,
                                        when((e.get("extra") or {}).get("t")) or datetime.min.replace(tzinfo=TZ)))  # fmt: skip


def action_text(a: Mapping[str, Any], profile: Any) -> str:
    """How a player writes ``a`` (the rule posts' command words, as the demo's players do)."""
    extra = a.get("extra") or {}
    verb = COMMAND_WORDS[a["action"]]
    target = a.get("target") or ""
    text = f"{verb} {target}"
    if a["action"] == "cannon_kill":
        text += f"，炮架子：{extra.get('platform')}"
    if a["action"] == "pair_lovers":
        text = f"{verb} {target}、{extra.get('target2')}"
    post = profile.kill_post
    if post is not None and a["action"] in post.skills and not extra.get("declaration_missing"):
        label = "杀人剧情" if extra.get("story") else post.label
        chars = extra.get("declaration_chars")
        body = FILLER * (int(chars) if chars is not None else max(post.minimum, 1))
        text += f"\n{label}：{body}"
    if extra.get("confirm"):
        text += "\n确定"
    return text


__all__ = ["play_through_referee"]
