"""Game scripts: what the scripted players mean to do, step by step, and what that must give.

A script is a whole game in the neutral scenario format (``scenarios/FORMAT.md``): the table
(players, roles, teams), the ruleset settings, one plan per step (night actions, first-round
ballots, runoff ballots, last words, summoned ballots) and, per step label, the expected
outcome, worked out by hand from ``RULES.md`` (never by asking the rules core). The scripts
live in ``shenshi/demo/games/full-<ruleset>.json``.

The expected outcome the end-to-end tests check is :class:`Expected`: who died in each step,
who was executed, and who won. Mistakes (typos, quotes, edits, late PMs…) are not part of the
script: the players add them (:mod:`shenshi.demo.players`) and they must not change it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

GAMES = "shenshi.demo.games"


@dataclass(frozen=True)
class Seat:
    """One player of the table."""

    name: str
    role: str
    team: str
    addons: tuple[str, ...] = ()


@dataclass(frozen=True)
class Act:
    """One intended night action (a PM to the GM, or a werewolf 功能树洞 reply)."""

    actor: str
    action: str
    target: str | None
    platform: str | None = None  # chess cannon 炮架子
    target2: str | None = None  # werewolf 【金箭】 second lover
    declaration_chars: int | None = None  # kills: length of the 杀人宣言 / 杀人帖 written with it
    story: bool = False
    confirm: bool = False  # werewolf "确定"


@dataclass(frozen=True)
class Vote:
    """One intended ballot: a post in the vote thread, or a delegated vote by PM (委托投票)."""

    voter: str
    target: str  # a player, or "ABSTAIN" (chess 弃权)
    via: str = "post"  # post | pm_delegate


@dataclass(frozen=True)
class LastWords:
    """A night victim's 遗言, accusing some players (family A 遗言计票)."""

    author: str
    accused: tuple[str, ...]


@dataclass(frozen=True)
class Step:
    """The plan of one step."""

    phase: str  # night | day
    n: int
    actions: tuple[Act, ...] = ()
    votes: tuple[Vote, ...] = ()
    runoff_votes: tuple[Vote, ...] = ()
    summon_votes: tuple[Vote, ...] = ()
    last_words: tuple[LastWords, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.phase}{self.n}"


@dataclass(frozen=True)
class Expected:
    """What a step must give, as the forum shows it: deaths (name → cause), execution, winner."""

    deaths: Mapping[str, str] = field(default_factory=dict)
    executed: str | None = None
    winner: str | None = None
    runoff: bool = False  # family A 生死投票 / chess round 2 was held
    madness: tuple[str, ...] | None = None  # werewolf: the maddened (癫狂) after it, if given


@dataclass(frozen=True)
class GameScript:
    """A whole game the scripted players play, with its expected outcome."""

    id: str
    ruleset: str
    description: str
    seats: tuple[Seat, ...]
    rules: Mapping[str, Any]
    steps: tuple[Step, ...]
    expected: Mapping[str, Expected]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def winner(self) -> str | None:
        """The expected winner of the game (the last step's)."""
        return self.expected[self.steps[-1].label].winner

    def seat(self, name: str) -> Seat:
        return next(s for s in self.seats if s.name == name)

    def step(self, label: str) -> Step:
        return next(s for s in self.steps if s.label == label)

    def renamed(self, names: Mapping[str, str]) -> GameScript:
        """The same game with players renamed (``names``: old → new; others unchanged)."""

        def r(name: str | None) -> str | None:
            return names.get(name, name) if name is not None else None

        def votes(vs: tuple[Vote, ...]) -> tuple[Vote, ...]:
            return tuple(Vote(r(v.voter), r(v.target), v.via) for v in vs)

        steps = tuple(
            Step(
                s.phase, s.n,
                tuple(Act(r(a.actor), a.action, r(a.target), r(a.platform), r(a.target2),
                          a.declaration_chars, a.story, a.confirm) for a in s.actions),
                votes(s.votes), votes(s.runoff_votes), votes(s.summon_votes),
                tuple(LastWords(r(w.author), tuple(r(x) for x in w.accused)) for w in s.last_words),
            )
            for s in self.steps
        )  # fmt: skip
        expected = {
            label: Expected(
                {r(k): v for k, v in e.deaths.items()},
                r(e.executed),
                e.winner,
                e.runoff,
                None if e.madness is None else tuple(r(n) for n in e.madness),
            )
            for label, e in self.expected.items()
        }
        rules = {
            k: ([r(x) for x in v] if k == "killer_order" else v) for k, v in self.rules.items()
        }
        seats = tuple(Seat(r(s.name), s.role, s.team, s.addons) for s in self.seats)
        return GameScript(self.id, self.ruleset, self.description, seats, rules, steps, expected)


def available() -> tuple[str, ...]:
    """The rulesets that have a script."""
    names = [p.name for p in resources.files(GAMES).iterdir() if p.name.startswith("full-")]
    return tuple(sorted(n[len("full-") : -len(".json")] for n in names if n.endswith(".json")))


def load_script(ruleset: str) -> GameScript:
    """The script of ``ruleset`` (``shenshi/demo/games/full-<ruleset>.json``)."""
    path = resources.files(GAMES) / f"full-{ruleset}.json"
    if not path.is_file():
        raise KeyError(f"no demo script for {ruleset!r} (scripts: {', '.join(available())})")
    return parse_script(json.loads(path.read_text(encoding="utf-8")))


def parse_script(data: Mapping[str, Any]) -> GameScript:
    """A script from its JSON object (the scenario format)."""
    seats = tuple(
        Seat(p["name"], p["role"], p["team"], tuple(p.get("addons", ()))) for p in data["players"]
    )
    steps = tuple(_step(s) for s in data["steps"])
    expected = {label: _expected(e) for label, e in data["expect"].items()}
    missing = [s.label for s in steps if s.label not in expected]
    if missing:
        raise ValueError(f"{data['id']}: no expected outcome for {', '.join(missing)}")
    return GameScript(
        data["id"], data["ruleset"], data["description"], seats, dict(data.get("config", {})),
        steps, expected,
    )  # fmt: skip


def _votes(items: Any) -> tuple[Vote, ...]:
    return tuple(
        Vote(v["voter"], v["target"], (v.get("extra") or {}).get("via", "post"))
        for v in items or ()
    )


def _step(s: Mapping[str, Any]) -> Step:
    actions = []
    for a in s.get("actions", ()):
        extra = a.get("extra") or {}
        if extra.get("extra_divination"):
            continue  # the penalty divination needs a GM grant the daemon does not have yet
        actions.append(
            Act(
                a["actor"], a["action"], a.get("target"), extra.get("platform"), extra.get("target2"),
                extra.get("declaration_chars"), bool(extra.get("story")), bool(extra.get("confirm")),
            )
        )  # fmt: skip
    summon = s.get("summon") or {}
    return Step(
        s["phase"], int(s["n"]), tuple(actions), _votes(s.get("votes")), _votes(s.get("runoff_votes")),
        _votes(summon.get("votes")),
        tuple(LastWords(w["from"], tuple(w["accused"])) for w in s.get("last_words_accusations", ())),
    )  # fmt: skip


def _expected(e: Mapping[str, Any]) -> Expected:
    deaths = {d["name"]: d["cause"] for d in e.get("deaths", ())}
    executed = e.get("executed")
    if executed and executed not in deaths:
        deaths[executed] = "execution"
    runoff = bool(e.get("runoff_tally")) or any(
        f.get("kind") == "runoff" for f in e.get("public_facts", ())
    )
    madness = tuple(e["madness"]) if "madness" in e else None
    return Expected(deaths, executed, e.get("winner"), runoff, madness)
