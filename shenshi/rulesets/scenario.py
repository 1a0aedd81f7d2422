"""Replay a scenario file (``scenarios/FORMAT.md``) through the rules core.

``run_scenario(document) -> {label: result}`` is what ``shenshi simulate`` prints. Each step of
the file becomes commands of the core (:mod:`shenshi.rulesets.base`); the events' reports are
merged into the step's result. A rule broken by a submission or a ballot is not an error: it is
a ``daemon`` entry. A file that cannot be run ("Malformed files": an unknown ruleset or role, a
malformed step, a ``night`` or ``day`` step after the game has ended, a substitution of an
unknown or dead seat or by a name already used) raises :class:`ScenarioError` with a one-line
reason, and nothing is returned.

Within one step the entries of ``votes``, ``runoff_votes`` and ``actions`` reach the core in
FORMAT's time order ("Time stamps"): entries without ``extra.t`` first, in list order, then
the timed ones by time (equal times keep their list order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any, NamedTuple

from shenshi.rulesets.base import (
    ABSTAIN,
    UNSET,
    CastBallot,
    CloseNight,
    CloseRound,
    Command,
    Event,
    GameState,
    GmAnswered,
    GmRuling,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    PlayerSpec,
    RecordActivity,
    RecordLastWords,
    Report,
    Ruleset,
    RulesetError,
    Submit,
    Substitute,
    frozen_map,
)
from shenshi.rulesets.catalog import ALL_ACTIONS
from shenshi.rulesets.registry import find_ruleset


class ScenarioError(ValueError):
    """The scenario file cannot be run; the message is one line."""


STEP_PHASES = ("night", "day", "setup", "timeline")
TIMELINE_CHECKS = ("signin", "lurk", "schedule")


def parse_time(value: Any, where: str) -> datetime:
    """A naive local time of the forum's clock (FORMAT.md), e.g. ``2024-03-01T20:00``."""
    if not isinstance(value, str):
        raise ScenarioError(f"{where}: expected an ISO time, got {value!r}")
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise ScenarioError(f"{where}: not an ISO time: {value!r}") from None


def _opt_time(value: Any, where: str) -> datetime | None:
    return None if value is None else parse_time(value, where)


def time_ordered(commands: Iterable[Command]) -> list[Command]:
    """FORMAT "Time stamps": entries without a time first, in list order, then the timed ones
    by time; equal times keep their list order (the sort is stable)."""

    def key(command: Command) -> tuple[bool, datetime]:
        t = getattr(command, "t", None)
        return (t is not None, t or datetime.min)

    return sorted(commands, key=key)


def step_label(step: Mapping[str, Any]) -> str:
    """The key of a step in ``expect``: its ``label``, else ``phase + n``."""
    if step.get("label"):
        return str(step["label"])
    return f"{step['phase']}{step.get('n', '')}"


def run_scenario(document: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Run every step of a scenario document and return what ``shenshi simulate`` prints.

    ``document`` is one parsed scenario file (``scenarios/FORMAT.md``). The result maps each
    step label (``night1``, ``day1``, or a step's ``label``) to that step's result object, with
    every FORMAT result key the step produces (``deaths``, ``public_facts``, ``daemon``, …).
    ``expect`` and ``malformed`` are not read: comparing is :mod:`shenshi.rulesets.checking`'s
    job. Raises :class:`ScenarioError` (one line) for a file that cannot be run; the rules core
    is pure, so the same document always gives the same result.
    """
    return play_scenario(document).results


class ScenarioRun(NamedTuple):
    """A scenario played through the core: the printed results and what produced them.

    ``start`` is the game before the first step, ``events`` every event the steps caused, in
    order, and ``state`` the game after the last step: folding ``ruleset.evolve`` over
    ``events`` from ``start`` gives ``state`` again (replay). Never stored (not a dataclass).
    """

    results: dict[str, dict[str, Any]]
    ruleset: Ruleset
    start: GameState
    events: tuple[Event, ...]
    state: GameState


def play_scenario(document: Mapping[str, Any]) -> ScenarioRun:
    """:func:`run_scenario` with the game's events and states kept (for replay checks)."""
    if not isinstance(document, Mapping):
        raise ScenarioError("a scenario file holds one JSON object")
    for key in ("ruleset", "players", "steps"):
        if key not in document:
            raise ScenarioError(f"missing top-level key {key!r}")
    try:
        ruleset = find_ruleset(str(document["ruleset"]))
    except KeyError as exc:
        raise ScenarioError(str(exc.args[0])) from None
    steps = document["steps"]
    if not isinstance(steps, list):
        raise ScenarioError("'steps' must be a list")
    start = _new_game(ruleset, document)
    runner = _Runner(ruleset, start, _all_names(document))
    results: dict[str, dict[str, Any]] = {}
    for index, step in enumerate(steps):
        where = f"step {index + 1}"
        if not isinstance(step, Mapping) or step.get("phase") not in STEP_PHASES:
            raise ScenarioError(f"{where}: 'phase' must be one of {', '.join(STEP_PHASES)}")
        if step["phase"] in ("night", "day") and not isinstance(step.get("n"), int):
            raise ScenarioError(f"{where}: a {step['phase']} step needs an integer 'n'")
        label = step_label(step)
        if label in results:
            raise ScenarioError(f"{where}: a second step labelled {label!r}")
        try:
            report = runner.run(step, where)
        except (IllegalActionError, RulesetError) as exc:
            raise ScenarioError(f"{where} ({label}): {exc}") from None
        results[label] = report.to_json()
    return ScenarioRun(results, ruleset, start, tuple(runner.events), runner.state)


def _new_game(ruleset: Ruleset, document: Mapping[str, Any]) -> GameState:
    players = document["players"]
    if not isinstance(players, list) or not players:
        raise ScenarioError("'players' must be a non-empty list")
    specs = []
    for i, p in enumerate(players):
        if not isinstance(p, Mapping) or not all(k in p for k in ("name", "role", "team")):
            raise ScenarioError(f"player {i + 1}: needs 'name', 'role' and 'team'")
        specs.append(
            PlayerSpec(
                str(p["name"]),
                str(p["role"]),
                str(p["team"]),
                bool(p.get("alive", True)),
                tuple(p.get("addons", ())),
            )
        )
    config = document.get("config") or {}
    if not isinstance(config, Mapping):
        raise ScenarioError("'config' must be an object")
    try:
        return ruleset.new_game(specs, config)
    except RulesetError as exc:
        raise ScenarioError(str(exc)) from None


def _all_names(document: Mapping[str, Any]) -> set[str]:
    names = {str(p["name"]) for p in document["players"]}
    for step in document["steps"]:
        if isinstance(step, Mapping) and isinstance(step.get("substitutions"), list):
            for sub in step["substitutions"]:
                if isinstance(sub, Mapping) and "in" in sub:
                    names.add(str(sub["in"]))
    return names


def _entries(step: Mapping[str, Any], key: str, where: str) -> list[Any]:
    """The list under ``key`` (empty when absent); anything but a list is malformed."""
    value = step.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: {key!r} must be a list")
    return value


def _object(value: Any, where: str) -> Mapping[str, Any]:
    """An optional JSON object (``extra``, ``window``, ``summon``…); anything else is malformed."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{where}: expected an object, got {value!r}")
    return value


class _Runner:
    """Turns steps into commands and gathers the events' reports."""

    def __init__(self, ruleset: Ruleset, state: GameState, names: set[str]) -> None:
        self.ruleset = ruleset
        self.state = state
        self.names = names
        self.taken = {s.name for s in state.seats}  # every name a player has had so far
        self.events: list[Event] = []

    # -- plumbing ----------------------------------------------------------------------------

    def _do(self, command: Command) -> Report:
        self.state, events = self.ruleset.apply(self.state, command)
        self.events += events
        report = Report()
        for event in events:
            report = report.merge(event.report)
        return report

    def _do_all(self, commands: Iterable[Command]) -> Report:
        report = Report()
        for command in commands:
            report = report.merge(self._do(command))
        return report

    def _name(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or value not in self.names:
            raise ScenarioError(f"{where}: {value!r} is not a player of this scenario")
        return value

    # -- steps ---------------------------------------------------------------------------------

    def run(self, step: Mapping[str, Any], where: str) -> Report:
        phase = step["phase"]
        if phase == "setup":
            if not isinstance(step.get("registrants"), int):
                raise ScenarioError(f"{where}: a setup step needs an integer 'registrants'")
            return self.ruleset.setup(step["registrants"])
        if phase == "timeline":
            if step.get("check") not in TIMELINE_CHECKS:
                raise ScenarioError(f"{where}: 'check' must be one of {', '.join(TIMELINE_CHECKS)}")
            return self.ruleset.timeline(self.state, self._timeline_step(step, where))
        if self.state.phase is Phase.OVER:
            raise ScenarioError(f"{where}: the game is already over ({self.state.winner} won)")
        report = self.run_night(step, where) if phase == "night" else self.run_day(step, where)
        return replace(report, winner=self.state.winner)

    def run_night(self, step: Mapping[str, Any], where: str) -> Report:
        window = _object(step.get("window"), f"{where} window")
        deadlines = _object(step.get("phase_deadlines"), f"{where} phase_deadlines")
        params: dict[str, Any] = {
            "window_open": _opt_time(window.get("open"), f"{where} window.open"),
            "window_close": _opt_time(window.get("close"), f"{where} window.close"),
            "deadline": _opt_time(step.get("deadline"), f"{where} deadline"),
            "phase_deadlines": frozen_map(
                {str(k): parse_time(v, f"{where} phase_deadlines") for k, v in deadlines.items()}
            ),
        }
        commands: list[Command] = [OpenNight(step["n"], frozen_map(params))]
        answered = _object(step.get("gm_answered"), f"{where} gm_answered")
        if answered:
            commands.append(
                GmAnswered(
                    self._name(answered.get("actor"), f"{where} gm_answered"),
                    _opt_time(answered.get("t"), f"{where} gm_answered.t"),
                )
            )
        commands += self._substitutions(step, where)
        commands += self._rulings(step, where)
        commands += self._actions(_entries(step, "actions", where), where)
        close = params["window_close"]
        commands.append(CloseNight(close if isinstance(close, datetime) else None))
        return self._do_all(commands)

    def run_day(self, step: Mapping[str, Any], where: str) -> Report:
        params = {
            key: _opt_time(step.get(key), f"{where} {key}")
            for key in ("round1_close", "round2_close", "extra_divination_deadline")
        }
        commands: list[Command] = [OpenDay(step["n"], frozen_map(params))]
        commands += self._substitutions(step, where)
        commands += self._rulings(step, where)
        post_counts = _object(step.get("post_counts"), f"{where} post_counts")
        if post_counts:
            counts = {}
            for k, v in post_counts.items():
                if isinstance(v, bool) or not isinstance(v, int):
                    raise ScenarioError(f"{where} post_counts: {v!r} is not a whole number")
                counts[self._name(k, f"{where} post_counts")] = v
            commands.append(RecordActivity(frozen_map(counts)))
        for lw in _entries(step, "last_words_accusations", where):
            at = f"{where} last_words_accusations"
            accused = _entries(_object(lw, at), "accused", at)
            commands.append(
                RecordLastWords(self._name(lw.get("from"), at), tuple(str(a) for a in accused))
            )
        commands += self._actions(_entries(step, "actions", where), where)
        commands += self._ballots(_entries(step, "votes", where), where, "votes")
        report = self._do_all(commands)
        report = report.merge(self._do(CloseRound(params["round1_close"])))
        summon = _object(step.get("summon"), f"{where} summon")
        while self.state.phase is Phase.DAY and self.state.round > 1:
            rnd = self.state.round
            if rnd == 2:
                ballots = self._ballots(
                    _entries(step, "runoff_votes", where), where, "runoff_votes"
                )
                close = CloseRound(params["round2_close"])
            else:
                votes = _entries(summon, "votes", f"{where} summon")
                ballots = self._ballots(votes, where, "summon", via="summon")
                online = tuple(
                    self._name(n, f"{where} summon.online")
                    for n in _entries(summon, "online", f"{where} summon")
                )
                close = CloseRound(None, online)
            report = report.merge(self._do_all([*ballots, close]))
            if self.state.round == rnd and self.state.phase is Phase.DAY:  # pragma: no cover
                raise ScenarioError(f"{where}: round {rnd} did not close")
        if report.executed is UNSET:
            report = replace(report, executed=None)
        return report

    # -- inputs --------------------------------------------------------------------------------

    def _substitutions(self, step: Mapping[str, Any], where: str) -> list[Command]:
        """FORMAT "Substitutions": ``out`` a seat alive when the step starts (the core checks
        it), once per step; ``in`` a name no player of the scenario has had."""
        out: list[Command] = []
        leaving: set[str] = set()
        for sub in _entries(step, "substitutions", where):
            if not isinstance(sub, Mapping) or "out" not in sub or "in" not in sub:
                raise ScenarioError(f"{where}: a substitution needs 'out' and 'in'")
            old, new = self._name(sub["out"], f"{where} substitution"), str(sub["in"])
            if new in self.taken:
                raise ScenarioError(f"{where}: substitute {new!r} is not a new name")
            if old in leaving:
                raise ScenarioError(f"{where}: {old!r} is substituted twice in one step")
            leaving.add(old)
            self.taken.add(new)
            out.append(Substitute(old, new))
        return out

    def _rulings(self, step: Mapping[str, Any], where: str) -> list[Command]:
        """``"gm_rulings": [{"kind": "penalty", "name": "V1", "points": 12}]``: GM rulings the
        ruleset knows (werewolf penalty points / 罚下), applied when the step opens."""
        out: list[Command] = []
        for i, r in enumerate(_entries(step, "gm_rulings", where)):
            at = f"{where} gm_ruling {i + 1}"
            if not isinstance(r, Mapping) or "kind" not in r or "name" not in r:
                raise ScenarioError(f"{at}: needs 'kind' and 'name'")
            params = {k: v for k, v in r.items() if k not in ("kind", "name")}
            out.append(GmRuling(str(r["kind"]), self._name(r["name"], at), frozen_map(params)))
        return out

    def _actions(self, actions: Iterable[Any], where: str) -> list[Command]:
        out: list[Command] = []
        for i, a in enumerate(actions):
            at = f"{where} action {i + 1}"
            if not isinstance(a, Mapping) or "actor" not in a or "action" not in a:
                raise ScenarioError(f"{at}: needs 'actor' and 'action'")
            if a["action"] not in ALL_ACTIONS:
                raise ScenarioError(f"{at}: unknown action {a['action']!r}")
            extra = dict(_object(a.get("extra"), f"{at} extra"))
            t = _opt_time(extra.pop("t", None), f"{at} extra.t")
            target = a.get("target")
            out.append(
                Submit(
                    self._name(a["actor"], at),
                    str(a["action"]),
                    None if target is None else str(target),
                    frozen_map(extra),
                    t,
                )
            )
        return time_ordered(out)

    def _ballots(
        self, votes: Iterable[Any], where: str, key: str, via: str | None = None
    ) -> list[Command]:
        out: list[Command] = []
        for i, v in enumerate(votes):
            at = f"{where} {key} {i + 1}"
            if not isinstance(v, Mapping) or "voter" not in v or "target" not in v:
                raise ScenarioError(f"{at}: needs 'voter' and 'target'")
            extra = _object(v.get("extra"), f"{at} extra")
            target = str(v["target"])
            if target != ABSTAIN and target not in self.names:
                raise ScenarioError(f"{at}: {target!r} is not a player of this scenario")
            out.append(
                CastBallot(
                    self._name(v["voter"], at),
                    target,
                    _opt_time(extra.get("t"), f"{at} extra.t"),
                    via or str(extra.get("via", "post")),
                    bool(extra.get("format_ok", True)),
                )
            )
        return time_ordered(out)

    def _timeline_step(self, step: Mapping[str, Any], where: str) -> dict[str, Any]:
        events = []
        for i, e in enumerate(_entries(step, "events", where)):
            at = f"{where} event {i + 1}"
            if not isinstance(e, Mapping) or e.get("kind") not in ("signin", "post"):
                raise ScenarioError(f"{at}: 'kind' must be signin or post")
            events.append(
                {
                    "kind": e["kind"],
                    "actor": self._name(e.get("actor"), at),
                    "t": parse_time(e.get("t"), at),
                }
            )
        return {
            "check": step["check"],
            "start": parse_time(step.get("start"), f"{where} start"),
            "now": _opt_time(step.get("now"), f"{where} now"),
            "events": events,
            "runoff": bool(step.get("runoff", False)),
            "substitutions": int(step.get("substitutions", 0)),
            "substitution_phase": str(step.get("substitution_phase", "day1")),
        }
