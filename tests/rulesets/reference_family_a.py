"""An independent reference resolver for family A (游戏五 / 游戏六): nights and day votes.

Written from ``RULES.md`` §1–3 and ``scenarios/FORMAT.md`` alone, without the rules core's code
or data structures, to be compared with :func:`shenshi.rulesets.scenario.run_scenario` on random
games (``test_random_games.py``). It reads a scenario document and returns, per step label, the
result keys it knows::

    resolve(document) -> {label: {deaths, saved, bound, x, private_results, public_facts,
                                  vote_tally, runoff_tally, final_tally, executed, daemon,
                                  winner}}

``daemon`` holds only FORMAT's visible entries. Where the spec is silent the reference takes
the decision written next to the code (a ``# decision:`` comment), so a disagreement is either a
bug on one side or a decision to settle.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from math import ceil
from typing import Any

KILLER_ROLES = ("killer", "alliance_killer", "independent_killer")
POWERS = {
    "killer": "kill", "alliance_killer": "kill", "independent_killer": "kill", "seer": "divine",
    "binder": "bind", "curser": "curse", "blesser": "bless", "commoner": "pray",
}  # fmt: skip
PENALTY_LEAD = timedelta(hours=1)  # RES-A19: by default 1 h before the vote closes


def entry_time(entry: Mapping[str, Any]) -> datetime | None:
    """An entry's ``extra.t``, if it has one."""
    t = (entry.get("extra") or {}).get("t")
    return datetime.fromisoformat(t) if t else None


def in_time_order(entries: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """FORMAT "Time stamps": untimed entries first (list order), then the timed ones by time."""
    listed = list(entries)
    untimed = [e for e in listed if entry_time(e) is None]
    timed = sorted((e for e in listed if entry_time(e) is not None), key=lambda e: entry_time(e))  # type: ignore[arg-type,return-value]
    return untimed + timed


def played_steps(document: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The night and day steps of ``document``, each with its label (FORMAT "Step objects")."""
    for step in document["steps"]:
        if step["phase"] in ("night", "day"):
            yield step.get("label") or f"{step['phase']}{step['n']}", step


class Roster:
    """Players looked up by name in ``seats`` (each has ``name`` and ``alive``)."""

    seats: list[Any]

    def index(self, name: Any) -> int | None:
        for i, s in enumerate(self.seats):
            if s.name == name:
                return i
        return None

    def alive(self, name: Any) -> bool:
        i = self.index(name) if isinstance(name, str) else None
        return i is not None and self.seats[i].alive


@dataclass
class Seat:
    name: str
    role: str
    team: str
    alive: bool


@dataclass
class Table(Roster):
    """The game as the reference keeps it."""

    ruleset: str
    seats: list[Seat]
    killer_order: list[int] = field(default_factory=list)  # game6-8, seat indexes
    streak: int | None = None  # last night's valid bind target (seat) that no kill touched
    bound: int | None = None
    curse: int | None = None
    bless: int | None = None
    victims: dict[int, list[int]] = field(default_factory=dict)  # night n -> seats, in death order
    accusations: list[tuple[int, list[str]]] = field(default_factory=list)
    final_day: bool = False
    winner: str | None = None

    def living(self, *roles: str) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.alive and (not roles or s.role in roles)]

    def killers(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.alive and s.team == "killers"]

    def civilians(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.alive and s.team == "civilians"]


def resolve(document: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The reference results of every night and day step of a family A scenario document."""
    return _play(document, None)


def completions(document: Mapping[str, Any]) -> dict[str, bool]:
    """RULES.md §1.10 "Early close": per step label, whether the step is complete once every
    entry of it is in (a night's ``actions``; a day's first round, its ``votes``); the runoff
    is ``<label>.runoff``. Complete means the GM may end it before its deadline."""
    found: dict[str, bool] = {}
    _play(document, found)
    return found


def _play(document: Mapping[str, Any], complete: dict[str, bool] | None) -> dict[str, dict[str, Any]]:
    ruleset = document["ruleset"]
    seats = [
        Seat(p["name"], p["role"], p["team"], p.get("alive", True)) for p in document["players"]
    ]
    table = Table(ruleset, seats)
    if ruleset == "game6-8":
        order = (document.get("config") or {}).get("killer_order")
        names = order or [s.name for s in seats if s.role == "killer"]  # RES-A1: seat order
        table.killer_order = [table.index(n) for n in names]  # type: ignore[misc]
    out: dict[str, dict[str, Any]] = {}
    for label, step in played_steps(document):
        if complete is not None and step["phase"] == "night":
            complete[label] = _night_complete(table, step)
        elif complete is not None:
            complete[label] = _vote_complete(table, step.get("votes") or (), None)
        result = _night(table, step) if step["phase"] == "night" else _day(table, step, complete, label)
        result["winner"] = table.winner
        out[label] = result
        _substitute(table, step, result)
    return out


# ------------------------------------------------------------------------------------------------
# early close (§1.10, decided 2026-12-01)


def _night_complete(table: Table, step: Mapping[str, Any]) -> bool:
    """Every living power holder has a valid PM in (the latest one counts, A-S2; one that was
    rejected, which he may resend, is outstanding); the joint units agree (A-J); each kill has
    its declaration (§1.8). The off-duty 8p killer holds no power (RES-A1); a seer whose
    (unit's) divination the GM answered can no longer change it (RES-A21)."""
    n = step["n"]
    window = step.get("window") or {}
    opens = datetime.fromisoformat(window["open"]) if window.get("open") else None
    closes = datetime.fromisoformat(window["close"]) if window.get("close") else None
    answered = (step.get("gm_answered") or {}).get("actor")
    on_duty = _on_duty(table, n) if table.ruleset == "game6-8" else None
    lone = table.ruleset in ("game5", "game6-10") and len(table.killers()) == 1
    last: dict[int, Mapping[str, Any]] = {}
    for entry in in_time_order(step.get("actions") or ()):
        i = table.index(entry["actor"])
        if i is None or not table.seats[i].alive or (entry.get("extra") or {}).get("extra_divination"):
            continue
        if entry["action"] == POWERS[table.seats[i].role]:
            last[i] = entry
    for i in table.living():
        seat = table.seats[i]
        if seat.role == "killer" and on_duty is not None and i != on_duty:
            continue
        if seat.role == "seer" and answered is not None and _same_divination(table, answered, seat):
            continue  # frozen: nothing the seer sends changes the night
        entry = last.get(i)
        if entry is None:
            return False
        t = entry_time(entry)
        if t is not None and ((opens and t < opens) or (closes and t >= closes)):
            return False
        if not table.alive(entry["target"]):
            return False
        target = table.index(entry["target"])
        if entry["action"] == "kill" and lone and table.seats[target].team == "killers":  # type: ignore[index]
            return False  # RES-A4: rejected at once, so that he can still change it
    joint = {"game5": ("killer",), "game6-10": ("killer",),
             "game6-13": ("alliance_killer", "seer", "binder")}.get(table.ruleset, ())  # fmt: skip
    for role in joint:
        members = [i for i in table.living(role) if i in last]
        if role == "seer" and answered is not None:
            continue
        if len({last[i]["target"] for i in members}) > 1:
            return False
    for role in KILLER_ROLES:
        kills = [last[i] for i in table.living(role) if i in last]
        if role == "killer" and on_duty is not None:
            kills = [last[on_duty]] if on_duty in last else []
        groups = [kills] if role in ("killer", "alliance_killer") else [[k] for k in kills]
        for group in groups:
            if group and all((e.get("extra") or {}).get("declaration_missing") for e in group):
                return False
    return True


def _vote_complete(
    table: Table, entries: Iterable[Mapping[str, Any]], candidates: set[str] | None
) -> bool:
    """Every elector (D-E: living, not the bound survivor) has a ballot that counts: the first
    one posted (D-I), or a delegation, which the GM casts once all have voted [G6:L119]."""
    counted = _ballots(table, entries, candidates is not None, None, candidates).counted
    return all(i in counted for i in table.living() if i != table.bound)


def _substitute(table: Table, step: Mapping[str, Any], result: dict[str, Any]) -> None:
    """FORMAT "Substitutions": after the step, the seat (if alive) is played under the new name,
    and family A announces it (decision: not once the game has ended)."""
    if table.winner is not None:
        return
    for sub in step.get("substitutions") or ():
        i = table.index(sub["out"])
        if i is not None and table.seats[i].alive:
            table.seats[i].name = sub["in"]
            result["public_facts"].append(
                {"kind": "substitution", "out": sub["out"], "in": sub["in"]}
            )


# ------------------------------------------------------------------------------------------------
# the night (§1.5)


def _on_duty(table: Table, n: int) -> int | None:
    """game6-8: the killer whose night it is (RES-A1); the survivor kills every night (RES-A2)."""
    living = [k for k in table.killer_order if table.seats[k].alive]
    if len(living) == 2:
        return table.killer_order[(n - 1) % 2]
    return living[0] if living else None


def _same_divination(table: Table, answered: Any, seat: Any) -> bool:
    """A-S2/RES-A21: whether the GM's answer to ``answered`` froze ``seat``'s divination: his
    own answer, or in game6-13, where the two seers divine as one unit [G6:L67], the answer to
    either seer (decided 2026-12-01)."""
    if answered == seat.name:
        return True
    if table.ruleset != "game6-13" or seat.role != "seer":
        return False
    other = table.index(answered)
    return other is not None and table.seats[other].role == "seer"


def _night(table: Table, step: Mapping[str, Any]) -> dict[str, Any]:
    n = step["n"]
    notes: list[dict[str, str]] = []
    window = step.get("window") or {}
    opens = datetime.fromisoformat(window["open"]) if window.get("open") else None
    closes = datetime.fromisoformat(window["close"]) if window.get("close") else None
    answered = step.get("gm_answered") or {}
    answered_t = datetime.fromisoformat(answered["t"]) if answered.get("t") else None
    lone_killer = len(table.killers()) == 1
    on_duty = _on_duty(table, n) if table.ruleset == "game6-8" else None

    latest: dict[tuple[int, str], Mapping[str, Any] | None] = {}  # None: a superseding rejection
    for entry in in_time_order(step.get("actions") or ()):
        actor = table.index(entry["actor"])
        extra = entry.get("extra") or {}
        t = entry_time(entry)

        def reject(rule: str, who: str = entry["actor"]) -> None:
            notes.append({"who": who, "rule": rule, "verdict": "rejected"})

        if actor is None or not table.seats[actor].alive:
            reject("dead_actor")
            continue
        seat = table.seats[actor]
        if extra.get("extra_divination"):
            reject("pm_window")  # the penalty divination is a day PM (RES-A19)
            continue
        if POWERS[seat.role] != entry["action"]:
            continue
        if t is not None and ((opens and t < opens) or (closes and t >= closes)):
            reject("pm_window")
            continue
        if (
            entry["action"] == "divine"
            and _same_divination(table, answered.get("actor"), seat)
            and t is not None
            and answered_t is not None
            and t > answered_t
        ):
            reject("seer_locked")
            continue
        if not table.alive(entry["target"]):
            continue  # RES-A31: invalid, rejected at once (not a FORMAT entry)
        if entry["action"] == "kill":
            if on_duty is not None and actor != on_duty:
                reject("off_duty_killer")
                continue
            target = table.index(entry["target"])
            forbidden = table.ruleset in ("game5", "game6-10") and lone_killer
            if forbidden and table.seats[target].team == "killers":  # type: ignore[index]
                reject("lone_killer_suicide", "killers")
                latest[(actor, "kill")] = None  # RES-A4: it still supersedes
                continue
        latest[(actor, entry["action"])] = entry

    def unit(role: str, action: str, who: str) -> tuple[str | None, list[Mapping[str, Any]]]:
        """A-J1..A-J4: the living members' latest targets must agree (one member: his own)."""
        members = table.living(role)
        chosen = [latest[(m, action)] for m in members if latest.get((m, action)) is not None]
        targets = {e["target"] for e in chosen}  # type: ignore[index]
        if len(targets) > 1:
            notes.append({"who": who, "rule": "joint_disagreement", "verdict": "forfeit"})
            return None, []
        if not targets:
            return None, []
        return targets.pop(), chosen  # type: ignore[return-value]

    # kill sources: (daemon name, target, the agreeing members' latest submissions)
    sources: list[tuple[str, str | None, list[Mapping[str, Any]]]] = []
    if table.ruleset in ("game5", "game6-10"):
        sources.append(("killers", *unit("killer", "kill", "killers")))
    elif table.ruleset == "game6-8":
        if on_duty is not None:
            entry = latest.get((on_duty, "kill"))
            sources.append(
                (
                    table.seats[on_duty].name,
                    entry["target"] if entry else None,
                    [entry] if entry else [],
                )
            )
    else:
        sources.append(("alliance_killers", *unit("alliance_killer", "kill", "alliance_killers")))
        for i in table.living("independent_killer"):
            entry = latest.get((i, "kill"))
            sources.append(
                (table.seats[i].name, entry["target"] if entry else None, [entry] if entry else [])
            )

    kills: list[tuple[str, int]] = []  # (who, target seat)
    for who, target, agreeing in sources:
        if target is None:
            continue
        declared = [e for e in agreeing if not (e.get("extra") or {}).get("declaration_missing")]
        if not declared:
            continue  # no declaration by the deadline: the kill is forfeited (§1.8)
        if not any((e.get("extra") or {}).get("story") for e in declared):
            lengths = [
                e["extra"]["declaration_chars"]
                for e in declared
                if "declaration_chars" in (e.get("extra") or {})
            ]
            if lengths and max(lengths) < 100:
                notes.append({"who": who, "rule": "declaration_short", "verdict": "flag"})
        kills.append((who, table.index(target)))  # type: ignore[arg-type]

    divined, _ = unit("seer", "divine", "seers")
    bind_name, _ = unit("binder", "bind", "binders")
    curse_name, _ = unit("curser", "curse", "cursers")
    bless_name, _ = unit("blesser", "bless", "blessers")
    b = table.index(bind_name) if bind_name else None

    # x (§1.4)
    if table.ruleset == "game6-8":
        x: int | None = 2
    else:
        k = len(table.killers())
        c = len(table.living("commoner"))
        x = ceil(c / k) if k else None
        if x is not None and x <= 1:
            x = None
    prayers: dict[int, int] = {}
    for i in table.living("commoner"):
        entry = latest.get((i, "pray"))
        if entry is not None:
            target = table.index(entry["target"])
            prayers[target] = prayers.get(target, 0) + 1  # type: ignore[index]
    prayed = {p for p, count in prayers.items() if x is not None and count >= x}

    kc: dict[int, int] = {}
    harmless: set[int] = set()
    for who, target in kills:
        kc[target] = kc.get(target, 0) + 1
        if (
            table.ruleset == "game6-8"
            and table.seats[target].team == "killers"
            and table.seats[target].name != who
        ):
            harmless.add(target)  # RES-A3: a hit that kills nobody
    deaths: list[tuple[int, str]] = []
    saved: list[dict[str, str]] = []
    for target, count in kc.items():
        name = table.seats[target].name
        if target in harmless:
            saved.append({"name": name, "by": "bind" if target == b else "void_kill"})
        elif count == 1 and target == b:
            saved.append({"name": name, "by": "bind"})
        elif count == 1 and target in prayed:
            saved.append({"name": name, "by": "prayer"})
        elif count == 2 and target == b and target in prayed:
            saved.append({"name": name, "by": "bind+prayer"})
        else:
            deaths.append((target, "killer"))
    bound = None
    if b is not None:
        if kc.get(b):
            if all(d != b for d, _ in deaths):
                bound = b
            table.streak = None
        elif table.streak == b:
            deaths.append((b, "bind_failure"))  # RES-A7: prayer does not help
            table.streak = None
        else:
            table.streak = b
    else:
        table.streak = None
    dead = {d for d, _ in deaths}
    table.curse = (
        table.index(curse_name) if curse_name and table.index(curse_name) not in dead else None
    )
    table.bless = (
        table.index(bless_name) if bless_name and table.index(bless_name) not in dead else None
    )
    table.bound = bound

    private = []
    if divined is not None:
        answer = "是" if table.seats[table.index(divined)].team == "killers" else "不是"  # type: ignore[index]
        private = [
            {"to": table.seats[s].name, "text_kind": "divination", "value": answer}
            for s in table.living("seer")
        ]
    facts: list[dict[str, Any]] = []
    for d, cause in deaths:
        facts.append({"kind": "death", "name": table.seats[d].name, "cause": cause})
        if cause == "killer":
            facts.append({"kind": "kill_declaration", "victim": table.seats[d].name})
    if bound is not None:
        if table.ruleset == "game5":
            facts.append({"kind": "kill_failed"})
        elif not deaths:
            facts.append({"kind": "no_death"})
        facts.append({"kind": "bound", "name": table.seats[bound].name})
    elif not deaths:
        facts.append({"kind": "no_death"})
    for d in dead:
        table.seats[d].alive = False
    table.victims[n] = [d for d, _ in deaths]
    table.accusations = []
    table.final_day = False
    _win_check(table, dawn=True)
    return {
        "deaths": [{"name": table.seats[d].name, "cause": c} for d, c in deaths],
        "saved": saved,
        "bound": table.seats[bound].name if bound is not None else None,
        "x": x,
        "private_results": private,
        "public_facts": facts,
        "daemon": notes,
    }


def _win_check(table: Table, dawn: bool = False) -> None:
    """§1.7, with the final-day exception at a dawn (RES-A17)."""
    killers, civilians = table.killers(), table.civilians()
    if not killers:
        table.winner = "civilians"
        return
    advisors_dead = not table.living("curser", "blesser")
    if len(civilians) <= len(killers) and advisors_dead:
        pending = {table.curse, table.bless} - {None}
        if (
            dawn
            and len(killers) == 1
            and len(civilians) == 1
            and pending & {killers[0], civilians[0]}
        ):
            table.final_day = True
            return
        table.winner = "killers"


# ------------------------------------------------------------------------------------------------
# the day (§1.6)


@dataclass
class _Round:
    counted: dict[int, Mapping[str, Any]]  # voter seat -> ballot
    notes: list[dict[str, str]]


def _ballots(
    table: Table,
    entries: Iterable[Mapping[str, Any]],
    runoff: bool,
    close: datetime | None,
    candidates: set[str] | None,
) -> _Round:
    """D-E, D-I, D-D for one round: the ballot that counts per voter."""
    suffix = "runoff" if runoff else "r1"
    posted: dict[int, Mapping[str, Any]] = {}
    delegated: dict[int, Mapping[str, Any]] = {}
    notes: list[dict[str, str]] = []
    for entry in in_time_order(entries):
        voter = table.index(entry["voter"])
        via = (entry.get("extra") or {}).get("via", "post")
        t = entry_time(entry)
        if voter is None:
            continue
        if not table.seats[voter].alive or voter == table.bound:
            # FORMAT not_eligible_*: the bound survivor, or a player who is dead (a summoned
            # victim's ballot is in ``summon``, never a round-1 or runoff ballot)
            notes.append(
                {"who": entry["voter"], "rule": f"not_eligible_{suffix}", "verdict": "rejected"}
            )
            continue
        if close is not None and t is not None and t > close:
            continue
        if not (entry.get("extra") or {}).get("format_ok", True) or not table.alive(
            entry["target"]
        ):
            continue
        if candidates is not None and entry["target"] not in candidates:
            continue  # RES-A14
        if via == "pm_delegate":
            delegated[voter] = entry  # the latest delegation counts
        elif voter in posted:
            if not runoff:
                notes.append(
                    {"who": entry["voter"], "rule": "vote_immutable_r1", "verdict": "rejected"}
                )
        else:
            posted[voter] = entry  # D-I: the first ballot posted is final
    counted = dict(posted)
    for voter, entry in delegated.items():
        if voter in posted:
            verdict = "overridden"
        else:
            counted[voter] = entry
            verdict = "delegated"
        if not runoff:
            notes.append({"who": entry["voter"], "rule": "delegation_r1", "verdict": verdict})
    return _Round(counted, notes)


def _count(table: Table, counted: Mapping[int, Mapping[str, Any]]) -> dict[str, int]:
    tally: dict[str, int] = {}
    for entry in counted.values():
        tally[entry["target"]] = tally.get(entry["target"], 0) + 1
    return tally


def _unique_top(tally: Mapping[str, int]) -> tuple[int, list[str]]:
    if not tally:
        return 0, []
    best = max(tally.values())
    return best, sorted(n for n, v in tally.items() if v == best)


def _day(
    table: Table,
    step: Mapping[str, Any],
    complete: dict[str, bool] | None = None,
    label: str = "",
) -> dict[str, Any]:
    n = step["n"]
    result: dict[str, Any] = {}
    notes: list[dict[str, str]] = []
    private: list[dict[str, Any]] = []
    close1 = datetime.fromisoformat(step["round1_close"]) if step.get("round1_close") else None
    close2 = datetime.fromisoformat(step["round2_close"]) if step.get("round2_close") else None
    for lw in step.get("last_words_accusations") or ():
        author = table.index(lw["from"])
        if author is not None:
            table.accusations.append((author, list(lw.get("accused") or ())))

    # RES-A19: the penalty divination, answered at once; only the first valid PM.
    deadline = None
    if step.get("extra_divination_deadline"):
        deadline = datetime.fromisoformat(step["extra_divination_deadline"])
    elif close1 is not None:
        deadline = close1 - PENALTY_LEAD
    for entry in in_time_order(step.get("actions") or ()):
        extra = entry.get("extra") or {}
        t = entry_time(entry)
        if not (entry["action"] == "divine" and extra.get("extra_divination")):
            notes.append({"who": entry["actor"], "rule": "pm_window", "verdict": "rejected"})
            continue
        actor = table.index(entry["actor"])
        if actor is None or not table.seats[actor].alive or table.seats[actor].team != "civilians":
            continue
        if deadline is not None and t is not None and t > deadline:
            notes.append(
                {"who": entry["actor"], "rule": "extra_divination_deadline", "verdict": "rejected"}
            )
            continue
        if not table.alive(entry["target"]) or private:
            continue
        team = table.seats[table.index(entry["target"])].team  # type: ignore[index]
        private.append(
            {
                "to": entry["actor"],
                "text_kind": "extra_divination",
                "value": "是" if team == "killers" else "不是",
            }
        )

    electorate = [i for i in table.living() if i != table.bound]
    missed: list[int] = []

    def note_missing(counted: Mapping[int, Any]) -> None:
        for i in electorate:
            if table.seats[i].alive and i not in counted and i not in missed:
                missed.append(i)
                notes.append({"who": table.seats[i].name, "rule": "no_vote", "verdict": "exit"})

    first = _ballots(table, step.get("votes") or (), False, close1, None)
    notes += first.notes
    note_missing(first.counted)
    raw = _count(table, first.counted)
    adj = dict(raw)
    facts: list[dict[str, Any]] = []
    cu = (
        table.seats[table.curse].name
        if table.curse is not None and table.seats[table.curse].alive
        else None
    )
    bl = (
        table.seats[table.bless].name
        if table.bless is not None and table.seats[table.bless].alive
        else None
    )
    if cu is not None and cu == bl:
        pass  # RES-A13: they cancel, neither is announced
    else:
        if cu is not None:
            adj[cu] = adj.get(cu, 0) + 1
            facts.append({"kind": "curse_applied", "name": cu})
        if bl is not None and raw.get(bl, 0) > 0:
            adj[bl] -= 1
            facts.append({"kind": "bless_applied", "name": bl})
    result["vote_tally"] = {k: v for k, v in adj.items() if v}
    best, leaders = _unique_top(adj)
    executed: str | None = None
    if best > 0 and len(leaders) == 1:
        executed = leaders[0]
    elif table.final_day or best == 0:
        pass  # final day: a tie is the killers' win; no vote at all: nobody (decision: no runoff)
    else:
        facts.append({"kind": "runoff", "candidates": leaders})
        if complete is not None:
            complete[f"{label}.runoff"] = _vote_complete(
                table, step.get("runoff_votes") or (), set(leaders)
            )
        second = _ballots(table, step.get("runoff_votes") or (), True, close2, set(leaders))
        notes += second.notes
        note_missing(second.counted)
        runoff = {c: 0 for c in leaders} | _count(table, second.counted)
        result["runoff_tally"] = {k: v for k, v in runoff.items() if v}
        best, top = _unique_top(runoff)
        if len(top) == 1:
            executed = top[0]
        else:
            final = dict(runoff)
            victims = set(table.victims.get(n, ()))
            for author, accused in table.accusations:
                if author in victims:
                    for name in set(accused):
                        if name in final:
                            final[name] += 1
            result["final_tally"] = {k: v for k, v in final.items() if v}
            best, top = _unique_top(final)
            if len(top) == 1:
                executed = top[0]
            else:
                executed = _summon(table, step.get("summon") or {}, top, final, result)

    deaths: list[dict[str, str]] = []
    if executed is not None:
        seat = table.seats[table.index(executed)]  # type: ignore[index]
        facts.append(
            {
                "kind": "executed",
                "name": executed,
                "value": "杀手" if seat.team == "killers" else "平民",
            }
        )
        deaths.append({"name": executed, "cause": "execution"})
        seat.alive = False
    else:
        facts.append({"kind": "no_execution"})
    after_vote_killers = table.killers()
    substituted = {s["out"] for s in step.get("substitutions") or ()}
    for i in missed:
        seat = table.seats[i]
        if seat.alive and seat.name not in substituted:
            seat.alive = False
            deaths.append({"name": seat.name, "cause": "auto_exit"})
            facts.append({"kind": "exit", "name": seat.name})
    if table.final_day:
        # §1.7.3: the vote alone decides (decision: exits announced with it do not change that)
        if executed is None:
            table.winner = "killers"
        else:
            table.winner = "civilians" if not after_vote_killers else "killers"
    else:
        _win_check(table)
    table.bound = table.curse = table.bless = None
    table.final_day = False
    result.update(
        executed=executed, deaths=deaths, public_facts=facts, daemon=notes, private_results=private
    )
    return result


def _summon(
    table: Table,
    summon: Mapping[str, Any],
    tied: list[str],
    final: dict[str, int],
    result: dict[str, Any],
) -> str | None:
    """D-4 (RES-A16): the latest night with a victim who came online casts the deciding ballots."""
    ballots = list(summon.get("votes") or ())
    came = set(summon.get("online") or ()) | {b["voter"] for b in ballots}
    summoned: list[str] = []
    for night in sorted(table.victims, reverse=True):
        present = [
            table.seats[v].name
            for v in table.victims[night]
            if table.seats[v].name in came and not table.seats[v].alive
        ]
        if present:
            summoned = present
            break
    cast: set[str] = set()
    for b in ballots:
        if b["voter"] in summoned and b["voter"] not in cast and b["target"] in tied:
            cast.add(b["voter"])
            final[b["target"]] += 1
    result["final_tally"] = {k: v for k, v in final.items() if v}
    best, top = _unique_top({k: v for k, v in final.items() if k in tied})
    return top[0] if summoned and len(top) == 1 else None
