"""Steps 2, 3 and 6 of the chess night (RULES.md §4.5, §4.6): structures, edges, derived states.

Map::

    prayer_thresholds()  §4.5   x per camp from the soldiers alive at the start of the night
    cannon_shots()       step 2 重叠炮 (mutual: the earlier effective PM fires, RES-C8), 连环炮
    effect_graph()       step 3 IMP/INV edges: chariots, platforms (马后炮), 别马腿, 塞相眼,
                                own-soldier prayers; 车比炮大 deletes one edge
    derived()            step 6 MUST, MINE (连环炮/连环马/连环相, dropped when INV), PROTECTED
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shenshi.rulesets.base import DaemonNote, GameState, Submission
from shenshi.rulesets.catalog import IMPRISON, PRAY, PROTECT
from shenshi.rulesets.chess.collect import CAMPS, Collected, enemy_of
from shenshi.rulesets.chess.states import IMP, PLATFORM, PRAYER, Edge, EffectGraph, NightStates
from shenshi.rulesets.common import ceil_div, note


def prayer_thresholds(state: GameState) -> dict[str, int]:
    """x(camp) = max(2, ceil(S_own / S_enemy)); with no enemy soldier, max(2, S_own) (RES-C5)."""
    soldiers = {
        camp: sum(1 for s in state.with_role("soldier") if s.team == camp) for camp in CAMPS
    }
    out = {}
    for camp in CAMPS:
        own, enemy = soldiers[camp], soldiers[enemy_of(camp)]
        out[camp] = max(2, ceil_div(own, enemy) if enemy else own)
    return out


@dataclass(frozen=True)
class CannonShot:
    """A cannon's kill that survived step 2."""

    cannon: str
    target: str
    platform: str
    overlapping: bool  # 重叠炮: the platform is the camp's other cannon (a MUST candidate)


@dataclass
class Cannons:
    """Step 2: the shots, the 连环炮 pairs, and the notes."""

    shots: dict[str, CannonShot] = field(default_factory=dict)
    linked: list[tuple[str, str]] = field(default_factory=list)
    notes: list[DaemonNote] = field(default_factory=list)


def cannon_shots(state: GameState, subs: dict[str, Submission]) -> Cannons:
    """Step 2: mutual 重叠炮 (the later effective PM only serves as platform), 连环炮 pairs."""
    out = Cannons()
    dropped: set[str] = set()
    names = sorted(subs, key=lambda n: state.seat(n).number)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            same_camp = state.seat(a).team == state.seat(b).team
            if (
                same_camp
                and subs[a].extra.get("platform") == b
                and subs[b].extra.get("platform") == a
            ):
                later, tie = _later(subs[a], subs[b])
                dropped.add(later.actor)
                out.notes.append(note(later.actor, "mutual_overlap_later", "void", seq=later.seq))
                if tie:  # RES-C8: equal timestamps, the GM draws lots; arrival order meanwhile
                    out.notes.append(
                        note(later.actor, "overlap_lots", "flag", log_only=True, seq=later.seq)
                    )
    for name in names:
        if name in dropped:
            continue
        sub = subs[name]
        platform = str(sub.extra["platform"])
        p_seat, c_seat = state.seat(platform), state.seat(name)
        overlapping = p_seat.role == "cannon" and p_seat.team == c_seat.team
        out.shots[name] = CannonShot(name, str(sub.target), platform, overlapping)
    shooters = list(out.shots)
    for i, a in enumerate(shooters):
        for b in shooters[i + 1 :]:
            same_camp = state.seat(a).team == state.seat(b).team
            if same_camp and out.shots[a].platform == out.shots[b].platform:
                out.linked.append((a, b))  # 连环炮
    return out


def _later(a: Submission, b: Submission) -> tuple[Submission, bool]:
    """The later of two effective PMs in FORMAT's time order (untimed ones first, by arrival;
    then by time), and whether their times are equal (the GM draws lots, RES-C8)."""
    tie = a.t is not None and a.t == b.t
    return max(a, b, key=Submission.sort_key), tie


def effect_graph(
    state: GameState, got: Collected, cannons: Cannons, x: dict[str, int]
) -> EffectGraph:
    """Step 3: every effect edge of the night (edges into generals are dropped by the solver)."""
    team = {s.name: s.team for s in state.seats}
    role = {s.name: s.role for s in state.seats}
    edges: list[Edge] = []
    for chariot, sub in got.of(IMPRISON).items():
        edges.append(Edge(chariot, str(sub.target), IMP))
    for shot in cannons.shots.values():
        if team[shot.platform] != team[shot.cannon]:
            edges.append(Edge(shot.cannon, shot.platform, PLATFORM))  # enemy platform: 无敌
        elif role[shot.platform] != "horse":  # 马后炮: an own horse is not imprisoned
            edges.append(Edge(shot.cannon, shot.platform, IMP))
    checks = {camp: (horses, str(sub.target)) for camp, (horses, sub) in got.checks.items()}
    protects = {e: str(sub.target) for e, sub in got.of(PROTECT).items()}
    for soldier, sub in got.of(PRAY).items():
        prayed = str(sub.target)
        if team[prayed] == team[soldier]:
            edges.append(Edge(soldier, prayed, PRAYER))
        for camp, (horses, checked) in checks.items():
            if camp != team[soldier] and checked == prayed:  # 别马腿 (RES-C7)
                edges += [Edge(soldier, h.name, IMP) for h in horses]
        for elephant, protected in protects.items():
            if team[elephant] != team[soldier] and protected == prayed:  # 塞相眼 (RES-C7)
                edges.append(Edge(soldier, elephant, IMP))
    # 车比炮大: own chariot R imprisons own cannon C whose platform is R: C → R is deleted.
    for chariot, sub in got.of(IMPRISON).items():
        imprisoned = cannons.shots.get(str(sub.target))
        if (
            imprisoned
            and imprisoned.platform == chariot
            and team[chariot] == team[imprisoned.cannon]
        ):
            edges = [e for e in edges if (e.src, e.tgt) != (imprisoned.cannon, chariot)]
    players = tuple(s.name for s in state.alive() if s.role != "general")
    return EffectGraph(players, tuple(dict.fromkeys(edges)), {p: x[team[p]] for p in players})


@dataclass(frozen=True)
class Derived:
    """Step 6: must-kill shooters, exchange (兑子) players, protected players."""

    must: frozenset[str]
    mine: frozenset[str]
    protected: frozenset[str]


def derived(state: GameState, got: Collected, cannons: Cannons, st: NightStates) -> Derived:
    """Step 6: MUST for valid 重叠炮 shooters; MINE per §4.5 unless INV; PROTECTED."""
    must = {c for c, shot in cannons.shots.items() if shot.overlapping and st.valid(c)}
    mine: set[str] = set()
    for a, b in cannons.linked:  # 连环炮: MINE if the partner's action is valid
        if st.valid(b):
            mine.add(a)
        if st.valid(a):
            mine.add(b)
    for camp in CAMPS:  # 连环马: MINE by nature while both live and neither is imprisoned
        horses = [s.name for s in state.with_role("horse") if s.team == camp]
        if len(horses) == 2 and all(st.valid(h) for h in horses):
            mine.update(horses)
    protected: set[str] = set()
    for elephant, sub in got.of(PROTECT).items():
        if not st.valid(elephant):
            continue
        target = state.seat(str(sub.target))
        protected.add(target.name)
        mine_elephant = target.role == "elephant" and target.name != elephant
        if mine_elephant and target.team == state.seat(elephant).team:
            mine.add(target.name)  # 连环相
    return Derived(frozenset(must), frozenset(mine - st.inv), frozenset(protected))
