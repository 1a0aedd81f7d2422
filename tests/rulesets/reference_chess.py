"""An independent reference resolver for chess32 (楚汉): nights and the two-round day vote.

Written from ``RULES.md`` §4 and ``scenarios/FORMAT.md`` alone, without the rules core's code or
data structures, to be compared with :func:`shenshi.rulesets.scenario.run_scenario` on random
games (``test_random_games.py``). It reads a scenario document and returns, per step label, the
result keys it knows::

    resolve(document) -> {label: {deaths, saved, x, states, private_results, public_facts,
                                  vote_tally, runoff_tally, executed, winner, replaced,
                                  lurk_warnings (days), daemon (FORMAT's visible entries)}}

The weekend clock is left out. Where the spec is silent the reference takes the decision written next to the code
(a ``# decision:`` comment).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from math import ceil
from typing import Any

from tests.rulesets.reference_family_a import (
    Roster,
    entry_time,
    in_time_order,
    played_steps,
)

ABSTAIN = "ABSTAIN"
NO_SELF = ("kill", "swap_general", "cannon_kill", "imprison", "check")  # §4.3
NOT_ON_GENERALS = ("imprison", "protect", "pray")  # §4.3: forbidden targets
CAUSE_ORDER = ("general", "cannon", "mine", "swap")  # RES-C35


@dataclass
class Seat:
    name: str
    role: str
    camp: str
    alive: bool


@dataclass
class Board(Roster):
    """The game as the reference keeps it."""

    seats: list[Seat]
    swaps_used: dict[int, int] = field(default_factory=dict)  # general seat -> uses
    pending_swap: dict[int, int | None] = field(default_factory=dict)  # general -> grabbed
    curses: list[int] = field(default_factory=list)
    blesses: list[int] = field(default_factory=list)
    winner: str | None = None
    warnings: dict[str, int] = field(default_factory=dict)  # lurking warnings, by person (RES-C33)

    def of(self, camp: str, *roles: str) -> list[int]:
        """Living seats of ``camp`` with one of ``roles``."""
        return [
            i
            for i, s in enumerate(self.seats)
            if s.alive and s.camp == camp and (not roles or s.role in roles)
        ]

    def general(self, camp: str) -> int:
        return next(i for i, s in enumerate(self.seats) if s.camp == camp and s.role == "general")


def _enemy(camp: str) -> str:
    return "han" if camp == "chu" else "chu"


def resolve(document: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The reference results of every night and day step of a chess32 scenario document."""
    board = Board([Seat(p["name"], p["role"], p["team"], p.get("alive", True))
                   for p in document["players"]])  # fmt: skip
    out: dict[str, dict[str, Any]] = {}
    for label, step in played_steps(document):
        result = _night(board, step) if step["phase"] == "night" else _day(board, step)
        result["winner"] = board.winner
        out[label] = result
        for sub in step.get("substitutions") or ():  # RES-C33: the seat goes on, unannounced
            i = board.index(sub["out"])
            if i is not None and board.seats[i].alive and board.winner is None:
                board.seats[i].name = sub["in"]  # FORMAT: nobody enters a finished game
        # FORMAT replaced (decided 2026-12-01): everyone due after the step, until a
        # substitute takes the seat or he dies [CH:L144]
        result["replaced"] = [s.name for s in board.seats if s.alive and board.warnings.get(s.name, 0) >= 2]
    return out


# ------------------------------------------------------------------------------------------------
# the night (§4.6)


@dataclass
class Act:
    actor: int
    action: str
    target: int
    platform: int | None = None
    order: int = 0  # position in time order (RES-C8: the earlier sender)


def _collect(
    board: Board, step: Mapping[str, Any], notes: list[dict[str, str]]
) -> dict[tuple[int, str], Act]:
    """Step 1: the latest submission before dawn − 10 min per actor and action, then the
    invalid ones dropped (no fallback to an earlier one); FORMAT's entries into ``notes``."""

    def note(who: Any, rule: str, verdict: str) -> None:
        notes.append({"who": board.seats[who].name if isinstance(who, int) else who,
                      "rule": rule, "verdict": verdict})  # fmt: skip

    deadline = datetime.fromisoformat(step["deadline"]) if step.get("deadline") else None
    latest: dict[tuple[int, str], tuple[int, Mapping[str, Any]]] = {}
    for k, entry in enumerate(in_time_order(step.get("actions") or ())):
        actor = board.index(entry["actor"])
        if actor is None or not board.seats[actor].alive:
            note(entry["actor"], "dead_actor", "rejected")
            continue
        t = entry_time(entry)
        if deadline is not None and t is not None and t > deadline:
            note(actor, "pm_window", "rejected")  # RES-C32
            continue
        latest[(actor, entry["action"])] = (k, entry)
    acts: dict[tuple[int, str], Act] = {}
    board.pending_swap = {}
    for (actor, action), (k, entry) in latest.items():
        seat = board.seats[actor]
        target = board.index(entry["target"])
        if action == "swap_general":
            if board.swaps_used.get(actor, 0) >= 2:
                note(actor, "no_swaps_left", "rejected")
                continue
            # "Any submitted swap consumes one use" (§4.6 step 1, RES-C13): decision, even
            # one whose target is not allowed (the general himself)
            board.swaps_used[actor] = board.swaps_used.get(actor, 0) + 1
        if target is None:
            continue
        if not board.seats[target].alive and action != "swap_general":
            continue  # a swap on a dead player fails when it triggers (RES-C13)
        if action in NO_SELF and target == actor:
            continue
        if action in NOT_ON_GENERALS and board.seats[target].role == "general":
            note(actor, "general_target", "forfeit")  # RES-C24 for protect
            continue
        platform = None
        if action == "cannon_kill":
            platform = board.index((entry.get("extra") or {}).get("platform"))
            if (
                platform is None
                or not board.seats[platform].alive
                or board.seats[platform].role == "general"
                or platform in (target, actor)
            ):
                note(actor, "invalid_platform", "forfeit")
                continue
        if (
            action == "check"
            and board.seats[target].role == "horse"
            and (board.seats[target].camp == seat.camp)
        ):
            continue  # a pair's own horse
        chars = (entry.get("extra") or {}).get("declaration_chars")
        if action in ("kill", "cannon_kill") and chars is not None and chars < 150:
            note(actor, "kill_post_short", "flag")  # C-D6: flag only (RES-C18)
        acts[(actor, action)] = Act(actor, action, target, platform, k)
    return acts


def _night(board: Board, step: Mapping[str, Any]) -> dict[str, Any]:
    notes: list[dict[str, str]] = []
    acts = _collect(board, step, notes)
    seats = board.seats
    living = [i for i, s in enumerate(seats) if s.alive]
    generals = {i for i in living if seats[i].role == "general"}

    # a valid swap waits for tonight and tomorrow (RES-C13)
    for (actor, action), a in acts.items():
        if action == "swap_general":
            board.pending_swap[actor] = a.target

    # horse pairs (RES-C3): their latest checks must agree
    checks: dict[str, int | None] = {}
    for camp in ("chu", "han"):
        horses = board.of(camp, "horse")
        named = {acts[(h, "check")].target for h in horses if (h, "check") in acts}
        checks[camp] = named.pop() if len(named) == 1 else None
        if len(named) > 1:
            notes.append({"who": f"{camp}_horses", "rule": "joint_disagreement",
                          "verdict": "forfeit"})  # fmt: skip

    # Step 2: cannons
    cannon = {a.actor: a for (_, action), a in acts.items() if action == "cannon_kill"}
    dropped: set[int] = set()
    for c, a in cannon.items():
        other = cannon.get(a.platform)  # type: ignore[arg-type]
        if other is not None and other.platform == c and seats[a.platform].camp == seats[c].camp:  # type: ignore[index]
            dropped.add(c if a.order > other.order else other.actor)  # RES-C8
    for c in dropped:
        notes.append({"who": seats[c].name, "rule": "mutual_overlap_later", "verdict": "void"})
    cannon = {c: a for c, a in cannon.items() if c not in dropped}
    must_candidates = {
        c for c, a in cannon.items()
        if seats[a.platform].role == "cannon" and seats[a.platform].camp == seats[c].camp  # type: ignore[index]
    }  # fmt: skip

    # Step 3: edges (source, target)
    imp: list[tuple[int, int]] = []
    inv_platform: list[tuple[int, int]] = []
    prayers: dict[int, list[int]] = {}  # target -> own-camp praying soldiers
    for (actor, action), a in acts.items():
        if action == "imprison":
            imp.append((actor, a.target))
        elif action == "pray" and seats[a.target].camp == seats[actor].camp:
            prayers.setdefault(a.target, []).append(actor)
    for c, a in cannon.items():
        p = a.platform
        assert p is not None
        if seats[p].camp != seats[c].camp:
            inv_platform.append((c, p))
        elif seats[p].role != "horse":  # 马后炮
            chariot_over = acts.get((p, "imprison"))
            if not (seats[p].role == "chariot" and chariot_over and chariot_over.target == c):
                imp.append((c, p))  # 车比炮大 deletes this edge
    for (actor, action), a in acts.items():
        if action != "pray":
            continue
        for camp in ("chu", "han"):
            if camp != seats[actor].camp and checks[camp] == a.target:
                imp += [(actor, h) for h in board.of(camp, "horse")]  # 别马腿
        for e in living:
            protect = acts.get((e, "protect"))
            if protect and seats[e].camp != seats[actor].camp and protect.target == a.target:
                imp.append((actor, e))  # 塞相眼
    imp = [(s, t) for s, t in imp if t not in generals]
    inv_platform = [(s, t) for s, t in inv_platform if t not in generals]

    soldiers = {c: len(board.of(c, "soldier")) for c in ("chu", "han")}
    x = {}
    for camp in ("chu", "han"):
        own, enemy = soldiers[camp], soldiers[_enemy(camp)]
        x[camp] = max(2, own) if enemy == 0 else max(2, ceil(own / enemy))

    # Step 4/5: the three-valued fixed point (None = undecided)
    INV: dict[int, bool | None] = {i: (False if i in generals else None) for i in living}
    IMP: dict[int, bool | None] = {i: (False if i in generals else None) for i in living}
    neither: set[int] = set()

    def valid(i: int) -> bool | None:
        return None if IMP[i] is None else not IMP[i]

    def settle() -> None:
        changed = True
        while changed:
            changed = False
            for p in living:
                if p in generals:
                    continue
                plats = [valid(s) for s, t in inv_platform if t == p]
                pray = [valid(s) for s in prayers.get(p, ())]
                need = x[seats[p].camp]
                if INV[p] is None:
                    if True in plats or pray.count(True) >= need:
                        INV[p], changed = True, True
                    elif (
                        all(v is False for v in plats)
                        and pray.count(True) + pray.count(None) < need
                    ):
                        INV[p], changed = False, True
                if IMP[p] is None:
                    sources = [valid(s) for s, t in imp if t == p]
                    if INV[p] is True or all(v is False for v in sources):
                        IMP[p], changed = False, True
                    elif INV[p] is False and True in sources:
                        IMP[p], changed = True, True

    settle()
    while any(IMP[p] is None for p in living):
        special = False
        for y in living:  # (a) the 2.6.9 special case
            if IMP[y] is not None or not any(t == y for _, t in imp):
                continue
            inv_sources = {s for s, t in inv_platform if t == y} | set(prayers.get(y, ()))
            enough = (
                any(t == y for _, t in inv_platform) or len(prayers.get(y, ())) >= x[seats[y].camp]
            )
            hit = {t for s, t in imp if s == y and t in inv_sources}
            if enough and hit:
                IMP[y], INV[y] = False, False
                neither.add(y)
                for z in hit:
                    IMP[z] = True
                special = True
        if special:
            settle()
            continue
        cycle = [p for p in living if IMP[p] is None and INV[p] is False]
        if cycle:  # (b) pure imprisonment cycles, one entry per cycle (its members, sorted)
            for p in cycle:
                IMP[p] = True
            for members in _components(set(cycle), imp):
                names = ",".join(sorted(seats[m].name for m in members))
                notes.append({"who": names, "rule": "imprison_cycle", "verdict": "void"})
            settle()
            continue
        for p in living:  # (c) referred to the GM; the reference default (RES-C9)
            if IMP[p] is None:
                IMP[p] = True
                if INV[p] is None:
                    INV[p] = False
        settle()

    # Step 6: derived states
    must = {c for c in must_candidates if IMP[c] is False}
    mine: set[int] = set()
    for camp in ("chu", "han"):
        pair = [c for c in cannon if seats[c].camp == camp]
        if len(pair) == 2 and cannon[pair[0]].platform == cannon[pair[1]].platform:
            for c, other in ((pair[0], pair[1]), (pair[1], pair[0])):
                if IMP[other] is False:
                    mine.add(c)
        horses = board.of(camp, "horse")
        if len(horses) == 2 and not any(IMP[h] for h in horses):
            mine |= set(horses)
    protected: set[int] = set()
    for (actor, action), a in acts.items():
        if action == "protect" and IMP[actor] is False:
            protected.add(a.target)
            partner = seats[a.target]
            if (
                partner.role == "elephant"
                and partner.camp == seats[actor].camp
                and a.target != actor
            ):
                mine.add(a.target)  # 连环相
    mine = {m for m in mine if not INV[m]}

    # Step 7: kills
    start_alive = {i for i in living}
    killed: dict[int, list[str]] = {}  # seat -> causes
    saved: list[tuple[int, str]] = []
    posts: set[int] = set()
    kills = [(g, acts[(g, "kill")].target) for g in generals if (g, "kill") in acts]
    kills += [(c, a.target) for c, a in cannon.items() if IMP[c] is False]
    for attacker, t in kills:
        cause = "general" if attacker in generals else "cannon"
        if t in generals:
            camp = seats[t].camp
            met = not [i for i in start_alive if seats[i].camp == camp and seats[i].role == "soldier"] or not [
                i for i in start_alive
                if seats[i].camp == camp and seats[i].role in ("left_advisor", "right_advisor", "elephant")
            ]  # fmt: skip
            if not met:
                saved.append((t, "general_condition"))
                continue
        elif INV[t]:
            saved.append((t, "invincible"))
            continue
        elif t in protected and attacker not in must:
            saved.append((t, "protect"))
            continue
        killed.setdefault(t, []).append(cause)
        posts.add(t)
        if t in mine and not INV.get(attacker) and attacker not in generals:
            killed.setdefault(attacker, []).append("mine")

    # Step 8: swaps
    for g in generals:
        if g not in killed or g not in board.pending_swap:
            continue
        grabbed = board.pending_swap.pop(g)
        if grabbed is not None and grabbed in start_alive and seats[grabbed].camp == seats[g].camp:
            del killed[g]
            posts.discard(g)  # RES-C23: the kill post aimed at the general is not published
            killed.setdefault(grabbed, []).append("swap")
            saved.append((g, "swap"))

    deaths = []
    for i in sorted(killed, key=lambda i: i):
        cause = min(killed[i], key=CAUSE_ORDER.index)
        deaths.append({"name": seats[i].name, "cause": cause})
    facts: list[dict[str, Any]] = []
    for i in killed:
        facts.append({"kind": "death", "name": seats[i].name, "camp": seats[i].camp})
    facts += [{"kind": "kill_post", "victim": seats[i].name} for i in posts if i in killed]
    if not killed:
        facts.append({"kind": "no_death"})
    private: list[dict[str, Any]] = []
    for i in killed:
        if i not in generals:
            private.append({"to": seats[board.general(seats[i].camp)].name,
                            "text_kind": "death_identity",
                            "value": {"name": seats[i].name, "identity": seats[i].role}})  # fmt: skip
    for camp in ("chu", "han"):
        horses = board.of(camp, "horse")
        target = checks[camp]
        if target is not None and horses and not any(IMP[h] for h in horses):
            value = {"identity": seats[target].role, "camp": seats[target].camp}
            private += [{"to": seats[h].name, "text_kind": "check", "value": value} for h in horses]
    # curses (not on an INV target) and blesses of valid advisors, for tomorrow (RES-C34)
    board.curses = [a.target for (actor, action), a in acts.items()
                    if action == "curse" and IMP[actor] is False and not INV[a.target]]  # fmt: skip
    board.blesses = [a.target for (actor, action), a in acts.items()
                     if action == "bless" and IMP[actor] is False]  # fmt: skip
    for i in killed:
        seats[i].alive = False
    _win(board, {i for i in killed if i in generals})
    states = {
        "INV": sorted(seats[i].name for i in living if INV[i]),
        "IMP": sorted(seats[i].name for i in living if IMP[i]),
        "MUST": sorted(seats[i].name for i in must),
        "MINE": sorted(seats[i].name for i in mine),
        "NEITHER_2_6_9": sorted(seats[i].name for i in neither),
    }
    return {
        "deaths": deaths,
        "saved": [{"name": seats[i].name, "by": by} for i, by in saved if i not in killed],
        "x": x,
        "states": states,
        "private_results": private,
        "public_facts": facts,
        "daemon": notes,
    }


def _components(members: set[int], edges: list[tuple[int, int]]) -> list[set[int]]:
    """The groups of ``members`` joined by ``edges`` (either direction)."""
    out: list[set[int]] = []
    left = set(members)
    while left:
        group, todo = set(), [left.pop()]
        while todo:
            m = todo.pop()
            group.add(m)
            for s, t in edges:
                for a, b in ((s, t), (t, s)):
                    if a == m and b in left:
                        left.discard(b)
                        todo.append(b)
        out.append(group)
    return out


def _win(board: Board, dead_generals: set[int]) -> None:
    if len(dead_generals) == 2:
        board.winner = "draw"
    elif dead_generals:
        board.winner = _enemy(board.seats[dead_generals.pop()].camp)


# ------------------------------------------------------------------------------------------------
# the day (§4.7)


def _ballots(
    board: Board,
    entries: Iterable[Mapping[str, Any]],
    close: datetime | None,
    candidates: set[str] | None,
    notes: list[dict[str, str]],
) -> dict[int, str]:
    """One round: each voter's vote after at most one change (RES-C28); FORMAT's visible
    entries into ``notes`` (round 2 has only ``not_eligible_runoff``)."""
    votes: dict[int, str] = {}
    changed: set[int] = set()
    first = candidates is None

    def note(entry: Mapping[str, Any], rule: str) -> None:
        notes.append({"who": entry["voter"], "rule": rule, "verdict": "rejected"})

    for entry in in_time_order(entries):
        voter = board.index(entry["voter"])
        if voter is None:
            continue
        if not board.seats[voter].alive:  # §4.7: the electorate is the living players
            note(entry, "not_eligible_r1" if first else "not_eligible_runoff")
            continue
        t = entry_time(entry)
        target = entry["target"]
        if close is not None and t is not None and t >= close:
            continue  # decision: after the close nothing counts
        ok = (entry.get("extra") or {}).get("format_ok", True)
        if target != ABSTAIN and not board.alive(target):
            ok = False  # RES-C29: a living player or ABSTAIN
        if candidates is not None and target != ABSTAIN and target not in candidates:
            ok = False  # RES-C16
        if not ok:
            if first:
                note(entry, "format_r1")  # consumes nothing
            continue
        if voter not in votes:
            votes[voter] = target
        elif votes[voter] == target:
            continue  # not a change
        elif voter in changed:
            if first:
                note(entry, "change_limit_r1")
            continue
        elif close is not None and t is not None and t >= close - timedelta(hours=1):
            if first:
                note(entry, "last_hour_change_r1")
            continue
        else:
            votes[voter] = target
            changed.add(voter)
    return votes


def _day(board: Board, step: Mapping[str, Any]) -> dict[str, Any]:
    seats = board.seats
    close1 = datetime.fromisoformat(step["round1_close"]) if step.get("round1_close") else None
    close2 = datetime.fromisoformat(step["round2_close"]) if step.get("round2_close") else None
    notes: list[dict[str, str]] = []
    electorate = [i for i, s in enumerate(seats) if s.alive]
    votes = _ballots(board, step.get("votes") or (), close1, None, notes)
    # [CH:L118] not voting is a lurking day (decision: only on a day whose vote thread has
    # any ballot: a step without ``votes`` tracks no vote)
    tracked = bool(step.get("votes"))
    missing = {i for i in electorate if i not in votes} if tracked else set()
    total = len(votes)
    tally: dict[str, int] = {}
    for target in votes.values():
        if target != ABSTAIN:
            tally[target] = tally.get(target, 0) + 1
    facts: list[dict[str, Any]] = []
    for kind, targets, delta in (("curse_applied", board.curses, 1),
                                 ("bless_applied", board.blesses, -1)):  # fmt: skip
        for t in targets:
            if seats[t].alive:
                tally[seats[t].name] = tally.get(seats[t].name, 0) + delta
                facts.append({"kind": kind, "name": seats[t].name})
    tally = {k: max(0, v) for k, v in tally.items()}
    board.curses, board.blesses = [], []
    result: dict[str, Any] = {"vote_tally": {k: v for k, v in tally.items() if v}}
    best = max(tally.values(), default=0)
    top = sorted(k for k, v in tally.items() if v == best)
    executed: str | None = None
    if best > 0 and 10 * best >= 3 * total:
        if len(top) == 1:
            executed = top[0]
        else:
            facts.append({"kind": "runoff", "candidates": top})
            second = _ballots(board, step.get("runoff_votes") or (), close2, set(top), notes)
            if tracked:
                missing |= {i for i in electorate if i not in second}
            runoff: dict[str, int] = {}
            for target in second.values():
                if target != ABSTAIN:
                    runoff[target] = runoff.get(target, 0) + 1
            result["runoff_tally"] = runoff
            best = max(runoff.values(), default=0)
            top = [k for k, v in runoff.items() if v == best]
            if best > 0 and len(top) == 1:
                executed = top[0]
    deaths: list[dict[str, str]] = []
    saved: list[dict[str, str]] = []
    private: list[dict[str, Any]] = []
    cause = "execution"
    if executed is not None:
        i = board.index(executed)
        assert i is not None
        if seats[i].role == "general":
            camp = seats[i].camp
            met = not board.of(camp, "soldier") or not board.of(
                camp, "left_advisor", "right_advisor", "elephant"
            )
            grabbed = board.pending_swap.get(i)
            if not met:
                saved.append({"name": executed, "by": "general_condition"})
                executed = None
            elif grabbed is not None and seats[grabbed].alive and seats[grabbed].camp == camp:
                board.pending_swap.pop(i)
                saved.append({"name": executed, "by": "swap"})
                i, executed, cause = grabbed, seats[grabbed].name, "swap"
    if executed is not None:
        seat = seats[i]
        deaths.append({"name": executed, "cause": cause})
        facts.append({"kind": "executed", "name": executed, "camp": seat.camp})
        if seat.role != "general":
            private.append({"to": seats[board.general(seat.camp)].name,
                            "text_kind": "death_identity",
                            "value": {"name": executed, "identity": seat.role}})  # fmt: skip
        seat.alive = False
        _win(board, {i} if seat.role == "general" else set())
    else:
        facts.append({"kind": "no_execution"})
    board.pending_swap = {}  # the swap covers the night and the day after (RES-C13)
    # §4.8 lurking: fewer than 5 counted posts and fewer than 20% of the day's mean over the
    # day's living players (RES-C19), or no ballot; each lurking day is one warning, the
    # second means replacement [CH:L144] (FORMAT: warning and replaced both)
    counts = step.get("post_counts") or {}
    lurking = set(missing)
    if counts:
        names = [seats[i].name for i in electorate]
        mean = sum(counts.get(n, 0) for n in names) / len(names)
        lurking |= {i for i in electorate if counts.get(seats[i].name, 0) < 5
                    and counts.get(seats[i].name, 0) < mean / 5}  # fmt: skip
    for i in sorted(lurking):
        name = seats[i].name
        board.warnings[name] = board.warnings.get(name, 0) + 1
        notes.append({"who": name, "rule": "lurking", "verdict": "warning"})
        if board.warnings[name] >= 2:
            notes.append({"who": name, "rule": "lurking", "verdict": "replaced"})
    result.update(executed=executed, deaths=deaths, saved=saved, public_facts=facts,
                  private_results=private, daemon=notes,
                  lurk_warnings=dict(board.warnings))  # fmt: skip
    return result
