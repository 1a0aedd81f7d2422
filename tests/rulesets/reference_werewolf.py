"""An independent reference resolver for werewolf (狼人): night 0, the nights, the day votes.

Written from ``RULES.md`` §5, §6.3 and ``scenarios/FORMAT.md`` alone, without the rules core's
code or data structures, to be compared with :func:`shenshi.rulesets.scenario.run_scenario` on
random games (``test_random_games.py``). It reads a scenario document and returns, per step
label, the result keys it knows::

    resolve(document) -> {label: {deaths, saved, announce_order, private_results, public_facts,
                                  madness, sheriff, camps, last_words, vote_tally, executed,
                                  daemon (nights: FORMAT's visible entries), winner}}

``speed_up_closes`` reads RES-W14's "uniquely determined" (加速, W-D7) on its own.

Left out: GM rulings (penalty points, sent off), substitutions' own rules beyond the renaming, and
the extra 【杀人】 holders (【复仇】, 【遗志】, RES-W13) and 【孤刀】 (RES-W16): a game that
reaches one of those stops being compared at that step. Where the spec is silent the reference
takes the decision written next to the code (a ``# decision:`` comment).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from tests.rulesets.reference_family_a import (
    Roster,
    entry_time,
    in_time_order,
    played_steps,
)

VILLAGE_ANSWER, OTHER_ANSWER = "村民阵营", "非村民阵营"
PHASE = {"guard": "1", "silence_guard": "1", "kill": "1", "divine": "1", "pipe": "1",
         "heal": "2", "poison": "2"}  # fmt: skip
SKILLS = {"seer": {"divine"}, "witch": {"heal", "poison"}, "guard": {"guard", "silence_guard"},
          "piper": {"pipe"}, "cupid": {"pair_lovers"}}  # fmt: skip
SHERIFF_WEIGHT = Fraction(21, 10)


class Unsupported(Exception):
    """The game reached a rule the reference leaves out: stop comparing here."""


@dataclass
class Char:
    name: str
    base: str  # the dealt identity (the pack is the dealt werewolves, RES-W11)
    identity: str  # 【奇缘】 may change cupid's
    camp: str
    alive: bool
    addons: set[str] = field(default_factory=set)


@dataclass
class Village(Roster):
    chars: list[Char]
    lovers: list[int] = field(default_factory=list)
    same_type_lovers: bool = False
    guarded: set[int] = field(default_factory=set)
    silenced: set[int] = field(default_factory=set)
    heal_used: bool = False
    poison_used: bool = False
    madness: set[int] = field(default_factory=set)
    out_order: list[int] = field(default_factory=list)  # RES-W15: outs since the record began
    camps_at_start: set[str] = field(default_factory=set)
    winner: str | None = None

    @property
    def seats(self) -> list[Char]:  # type: ignore[override]
        return self.chars

    def living(self) -> list[int]:
        return [i for i, c in enumerate(self.chars) if c.alive]

    def sheriff(self) -> int | None:
        return next((i for i in self.living() if "sheriff" in self.chars[i].addons), None)


def resolve(document: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The reference results of every night and day step of a werewolf scenario document."""
    chars = [Char(p["name"], p["role"], p["role"], p["team"], p.get("alive", True),
                  set(p.get("addons") or ())) for p in document["players"]]  # fmt: skip
    v = Village(chars, camps_at_start={c.camp for c in chars if c.alive})
    v.lovers = [i for i, c in enumerate(chars) if "lover" in c.addons]
    out: dict[str, dict[str, Any]] = {}
    for label, step in played_steps(document):
        try:
            if step.get("gm_rulings"):
                raise Unsupported  # penalty points and what the GM rules by hand
            if step["phase"] == "day":
                result = _day(v, step)
            else:
                result = _night0(v, step) if step["n"] == 0 else _night(v, step)
        except Unsupported:
            break
        result["winner"] = v.winner
        result["madness"] = sorted(v.chars[i].name for i in v.madness if v.chars[i].alive)
        result["sheriff"] = v.chars[s].name if (s := v.sheriff()) is not None else None
        out[label] = result
        for sub in step.get("substitutions") or ():  # RES-W25: the character goes on
            i = v.index(sub["out"])
            if i is not None and v.chars[i].alive:
                v.chars[i].name = sub["in"]
    return out


def _chosen(entries: Iterable[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """RES-W7: the first reply locked by 确定, else the latest (entries in time order)."""
    entries = list(entries)
    locked = [e for e in entries if (e.get("extra") or {}).get("confirm")]
    if locked:
        return locked[0]
    return entries[-1] if entries else None


# ------------------------------------------------------------------------------------------------
# night 0 (§5.5 N0.1–N0.4, RES-W10, RES-W12)


def _night0(v: Village, step: Mapping[str, Any]) -> dict[str, Any]:
    private: list[dict[str, Any]] = []
    chars = v.chars
    pairs = []
    for e in in_time_order(step.get("actions") or ()):
        actor = v.index(e["actor"])
        second = (e.get("extra") or {}).get("target2")
        if (
            e["action"] == "pair_lovers"
            and actor is not None
            and chars[actor].alive
            and chars[actor].base == "cupid"
            and v.alive(e["target"])
            and v.alive(second)
            and e["target"] != second
            and not v.lovers
        ):
            pairs.append(e)
    pair = _chosen(pairs)
    if pair is not None:
        cupid = v.index(pair["actor"])
        a, b = v.index(pair["target"]), v.index(pair["extra"]["target2"])
        assert cupid is not None and a is not None and b is not None
        v.lovers = [a, b]
        for i in (a, b):
            chars[i].addons.add("lover")
        if chars[a].camp != chars[b].camp:  # 【私奔】
            for i in {a, b, cupid}:
                chars[i].camp = "lovers"
        else:
            chars[cupid].camp = chars[a].camp
        if chars[a].identity == chars[b].identity:  # 【奇缘】 (RES-W24)
            v.same_type_lovers = True
            chars[cupid].identity = chars[a].identity
        private = [
            {"to": chars[a].name, "text_kind": "lover_partner", "value": chars[b].name},
            {"to": chars[b].name, "text_kind": "lover_partner", "value": chars[a].name},
        ]
    wolves = [i for i in v.living() if chars[i].camp == "wolves"]
    entrusted = [
        e for e in in_time_order(step.get("actions") or ())
        if e["action"] == "lone_wolf" and v.index(e["actor"]) in wolves
        and chars[v.index(e["actor"])].identity == "werewolf"  # type: ignore[index]
        and v.alive(e["target"]) and chars[v.index(e["target"])].identity == "werewolf"  # type: ignore[index]
    ]  # fmt: skip
    given = _chosen(entrusted)
    if given is not None and len(wolves) > 2:
        chars[v.index(given["target"])].addons.add("lone_wolf")  # type: ignore[index]
    v.camps_at_start = {c.camp for c in chars if c.alive}
    return {
        "deaths": [],
        "private_results": private,
        "camps": {c.name: c.camp for c in chars},
    }


# ------------------------------------------------------------------------------------------------
# nights n ≥ 1 (§5.5 P1–P6)


def _pack(v: Village) -> list[int]:
    """Who shares the one 【杀人】: the living dealt werewolves, whatever their camp (RES-W26)."""
    chars = v.chars
    wolf_lovers = [i for i in v.lovers if chars[i].base == "werewolf"]
    if (
        wolf_lovers
        and len(wolf_lovers) == len(v.lovers)
        and not any(c.alive and c.base == "werewolf" for c in chars)
    ):
        raise Unsupported  # 【复仇】 (RES-W11, RES-W13)
    if wolf_lovers and chars[wolf_lovers[0]].camp == "lovers" and _lost(v, "wolves"):
        raise Unsupported  # 【遗志】 (RES-W13, RES-W26)
    return [i for i in v.living() if v.chars[i].base == "werewolf"]


def _lost(v: Village, camp: str) -> bool:
    return not any(c.alive and c.camp == camp for c in v.chars)


def _night(v: Village, step: Mapping[str, Any]) -> dict[str, Any]:
    chars = v.chars
    deadlines = {
        k: datetime.fromisoformat(t) for k, t in (step.get("phase_deadlines") or {}).items()
    }
    pack = _pack(v)
    start = set(v.living())
    valid: dict[tuple[int, str], list[Mapping[str, Any]]] = {}
    kills: list[Mapping[str, Any]] = []
    entries = in_time_order(step.get("actions") or ())

    notes: list[dict[str, str]] = []  # FORMAT's visible daemon entries

    def reject(e: Mapping[str, Any], rule: str) -> None:
        notes.append({"who": e["actor"], "rule": rule, "verdict": "rejected"})

    def fails(e: Mapping[str, Any]) -> bool:
        """W-D1: the actor, the skill, its phase's validity period, a living target."""
        actor, action, t = v.index(e["actor"]), e["action"], entry_time(e)
        if actor not in start:
            notes.append({"who": e["actor"], "rule": "dead_actor", "verdict": "rejected"})
            return True
        held = (action == "kill" and actor in pack) or action in SKILLS.get(chars[actor].base, ())
        key = PHASE.get(action)
        if not held or key is None:
            return True
        if t is not None and key in deadlines and t > deadlines[key]:
            notes.append({"who": e["actor"], "rule": "phase_deadline", "verdict": "rejected"})
            return True
        opens = deadlines.get(str(int(key) - 1))  # 夜晚2 opens when 夜晚1 closes (§5.4)
        if t is not None and opens is not None and t < opens:
            return True  # decision: a note for the GM's log only (FORMAT has no id for it)
        target = v.index(e["target"])
        # W-D2: once per character, "whether or not that character is still in play" (FORMAT)
        if action == "guard" and target in v.guarded:
            reject(e, "guard_once")
            return True
        if action == "silence_guard" and target in v.silenced:
            reject(e, "silence_once")
            return True
        return not v.alive(e["target"])

    for e in entries:  # 夜晚1 first: the 【通灵】 list depends on the kill replies
        if PHASE.get(e["action"]) == "2" or fails(e):
            continue
        actor, action = v.index(e["actor"]), e["action"]
        if action == "kill":
            kills.append(e)
        else:
            valid.setdefault((actor, action), []).append(e)  # type: ignore[index]
    kill = _chosen(kills)
    vision = sorted({kill["target"]} if kill else set())
    for e in entries:
        if PHASE.get(e["action"]) != "2" or fails(e):
            continue
        actor, action = v.index(e["actor"]), e["action"]
        if (action == "heal" and v.heal_used) or (action == "poison" and v.poison_used):
            continue  # single use (a log note)
        if action == "heal" and e["target"] not in vision:
            reject(e, "heal_not_in_vision")  # the potion is not spent
            continue
        valid.setdefault((actor, action), []).append(e)  # type: ignore[index]

    def reply(actor: int, action: str) -> int | None:
        e = _chosen(valid.get((actor, action), ()))
        return v.index(e["target"]) if e else None

    private: list[dict[str, Any]] = []
    saved: list[tuple[int, str]] = []
    kill_immune: set[int] = set()
    pipe_immune: set[int] = set()
    for g in (i for i in start if chars[i].base == "guard"):  # P1
        guarded, silenced = reply(g, "guard"), reply(g, "silence_guard")
        if guarded is not None:
            v.guarded.add(guarded)
            if not (v.same_type_lovers and guarded in v.lovers):
                kill_immune.add(guarded)
        if silenced is not None:
            v.silenced.add(silenced)
            pipe_immune.add(silenced)
    dying: list[int] = []
    if kill is not None:  # P2
        target = v.index(kill["target"])
        assert target is not None
        if target in kill_immune:
            saved.append((target, "guard"))
        else:
            dying.append(target)
    poisons: list[tuple[int, int]] = []
    for w in (i for i in start if chars[i].base == "witch"):  # P3
        if not v.heal_used:
            private.append({"to": chars[w].name, "text_kind": "witch_vision", "value": vision})
        healed, poisoned = reply(w, "heal"), reply(w, "poison")
        if healed is not None:
            v.heal_used = True
            if healed in dying:
                dying.remove(healed)
                saved.append((healed, "witch_heal"))
        if poisoned is not None:
            v.poison_used = True
            poisons.append((w, poisoned))
    for s in (i for i in start if chars[i].base == "seer"):  # P4
        divined = reply(s, "divine")
        if divined is not None:
            answer = VILLAGE_ANSWER if chars[divined].camp == "village" else OTHER_ANSWER
            private.append({"to": chars[s].name, "text_kind": "prophecy", "value": answer})
    for p in (i for i in start if chars[i].base == "piper"):  # P5
        piped = reply(p, "pipe")
        if piped is not None and piped not in v.lovers and piped not in pipe_immune and piped != p:
            v.madness.add(piped)
    outs: list[tuple[int, str]] = [(i, "kill") for i in dying]  # P6 (b), in dying order
    for w, target in poisons:  # P6 (a)
        if w not in dying and target not in dying and all(o != target for o, _ in outs):
            outs.append((target, "poison"))
    result = _go_out(v, outs, step.get("actions") or ())
    out_names = {d["name"] for d in result["deaths"]}
    result["saved"] = [{"name": chars[i].name, "by": by} for i, by in saved
                       if chars[i].name not in out_names]  # fmt: skip
    result["private_results"] = private
    result["daemon"] = notes
    result["announce_order"] = [d["name"] for d in result["deaths"]]
    if not result["deaths"]:
        result["public_facts"].insert(0, {"kind": "no_death"})
    return result


def _go_out(
    v: Village, outs: list[tuple[int, str]], actions: Iterable[Mapping[str, Any]]
) -> dict[str, Any]:
    """P6 (c)–(g) after the outs given: 殉情, the piper's madness, 殉职, camps, last words."""
    chars = v.chars
    sheriff = v.sheriff()
    for i, _ in list(outs):
        if i in v.lovers:
            partner = next((p for p in v.lovers if p != i), None)
            if partner is not None and chars[partner].alive and all(o != partner for o, _ in outs):
                outs.append((partner, "lovers_suicide"))  # (c)
    facts: list[dict[str, Any]] = []
    for i, _ in outs:
        chars[i].alive = False
        v.madness.discard(i)  # RES-W27
        v.out_order.append(i)
        facts.append({"kind": "out", "name": chars[i].name})
    if any(chars[i].base == "piper" for i, _ in outs):  # (d)
        v.madness.clear()
        facts.append({"kind": "madness_lifted"})
    if sheriff is not None and not chars[sheriff].alive:  # (e) 【殉职】
        chars[sheriff].addons.discard("sheriff")
        named = [
            e
            for e in in_time_order(actions)
            if e["action"] == "sheriff_successor" and e["actor"] == chars[sheriff].name
        ]
        successor = _chosen([e for e in named if v.alive(e["target"])])
        _win(v)
        if successor is not None and v.winner is None:  # RES-W21: none once the game ended
            chars[v.index(successor["target"])].addons.add("sheriff")  # type: ignore[index]
            facts.append({"kind": "sheriff", "name": successor["target"]})
    _win(v)
    first_four = v.out_order[:4]  # (g) RES-W15
    return {
        "deaths": [{"name": chars[i].name, "cause": c} for i, c in outs],
        "public_facts": facts,
        "last_words": [chars[i].name for i, _ in outs if i in first_four],
        "camps": {c.name: c.camp for c in chars},
    }


def _win(v: Village) -> None:
    """§5.7 (RES-W2): the piper's madness, the last camp standing, or a draw."""
    if v.winner is not None:
        return
    living = v.living()
    piper = [i for i in living if v.chars[i].camp == "piper"]
    others = [i for i in living if v.chars[i].base != "piper"]
    if piper and others and all(i in v.madness for i in others):
        v.winner = "piper"
        return
    standing = {v.chars[i].camp for i in living} & v.camps_at_start
    if len(standing) == 1:
        v.winner = standing.pop()
    elif not standing:
        v.winner = "draw"


# ------------------------------------------------------------------------------------------------
# the day (§5.6)


def _day(v: Village, step: Mapping[str, Any]) -> dict[str, Any]:
    chars = v.chars
    close = datetime.fromisoformat(step["round1_close"]) if step.get("round1_close") else None
    counted: dict[int, tuple[int, Mapping[str, Any]]] = {}  # voter -> (order, ballot)
    for k, b in enumerate(in_time_order(step.get("votes") or ())):
        voter, t = v.index(b["voter"]), entry_time(b)
        if voter is None or not chars[voter].alive:
            continue
        if close is not None and t is not None and t > close:
            continue
        if not (b.get("extra") or {}).get("format_ok", True) or not v.alive(b["target"]):
            continue
        if voter in counted and counted[voter][1]["target"] == b["target"]:
            continue  # the ballot that stands, posted again (RES-W6)
        counted[voter] = (k, b)
    sheriff = v.sheriff()
    tally: dict[str, Fraction] = {}
    for voter, (_, b) in counted.items():
        weight = SHERIFF_WEIGHT if voter == sheriff else Fraction(1)
        tally[b["target"]] = tally.get(b["target"], Fraction(0)) + weight
    best = max(tally.values(), default=Fraction(0))
    top = sorted(n for n, w in tally.items() if w == best and w > 0)
    printed = {n: (int(w) if w.denominator == 1 else float(w)) for n, w in tally.items() if w}
    result: dict[str, Any] = {"vote_tally": printed, "executed": None}
    if step["n"] == 1:  # RES-W5: the sheriff election, nobody goes out
        elected = None
        if len(top) == 1:
            elected = top[0]
        elif top:

            def reached(name: str) -> int:
                running = Fraction(0)
                for voter, (k, _) in sorted(
                    ((vr, kb) for vr, kb in counted.items() if kb[1]["target"] == name),
                    key=lambda x: x[1][0],
                ):
                    running += SHERIFF_WEIGHT if voter == sheriff else 1
                    if running >= best:
                        return k
                return 10**9

            elected = min(top, key=reached)
        facts = []
        if elected is not None and sheriff is None:
            chars[v.index(elected)].addons.add("sheriff")  # type: ignore[index]
            facts.append({"kind": "sheriff", "name": elected})
        result.update(deaths=[], public_facts=facts, last_words=[])
        return result
    if len(top) != 1:  # no runoff: nobody goes out [WW:L95]
        result.update(deaths=[], public_facts=[{"kind": "no_execution"}], last_words=[])
        return result
    voted = v.index(top[0])
    assert voted is not None
    blades = [e for e in step.get("actions") or () if e["action"] == "lone_blade"]
    if "lone_wolf" in chars[voted].addons and any(e["actor"] == top[0] for e in blades):
        raise Unsupported  # 【孤刀】 (RES-W16)
    result["executed"] = top[0]
    result.update(_go_out(v, [(voted, "vote_out")], step.get("actions") or ()))
    return result


def speed_up_closes(
    electorate: Mapping[str, Fraction], agreed: Iterable[str], ballots: Mapping[str, str]
) -> bool:
    """W-D7 / RES-W14 (decided 2026-12-01): the day may close at once when every character in
    play (``electorate``: name → ballot weight, the sheriff's 2.1) agreed, and with the
    ``ballots`` standing (voter → target) one character leads and the ballots not yet cast
    could not change that even if every one of them went to the runner-up."""
    if set(electorate) - set(agreed):
        return False
    votes: dict[str, Fraction] = {}
    for voter, target in ballots.items():
        votes[target] = votes.get(target, Fraction(0)) + electorate[voter]
    ranked = sorted(votes.values(), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0] == ranked[1]):
        return False
    runner_up = ranked[1] if len(ranked) > 1 else Fraction(0)
    to_come = sum((w for name, w in electorate.items() if name not in ballots), Fraction(0))
    return ranked[0] - runner_up > to_come

