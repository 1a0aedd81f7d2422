"""Invincible (无敌) and imprisoned (禁锢) for one chess night: RULES.md §4.6 steps 4 and 5.

The night's powers are simultaneous, so whether a player is imprisoned depends on whether the
players who imprison him are themselves imprisoned, and so on. The input is the graph of effect
edges (step 3); the answer is a three-valued fixed point followed by the paradox rules.

Map::

    Edge, EffectGraph       src → tgt with a kind: IMP, PLATFORM (INV), PRAYER (INV, counted to x)
    solve()                 step 4 ⇄ step 5 until every player is decided
      _propagate()          step 4: the three-valued fixed point (T, F, ? = None)
      _special_2_6_9()      step 5a: the 2.6.9 pattern, generalised (RES-C21)
                            step 5b: undecided and not invincible → imprisoned (RES-C9)
                            step 5c: anything else → referred to the GM; what is still
                            undecided defaults to imprisoned, not invincible
      _groups()             the players settled by 5b/5c, in linked groups (for the notes)

Pure functions over player names; generals never appear as players (they are never INV or IMP)
and any source that is not a player (a general) counts as valid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

IMP = "imp"  # 禁锢: chariot, own non-horse platform, 别马腿, 塞相眼
PLATFORM = "platform"  # 无敌 from being an enemy cannon's platform (炮架子)
PRAYER = "prayer"  # 无敌 from own-camp soldiers' prayers, counted against x

Tri = bool | None  # T, F, or undecided (?)


@dataclass(frozen=True)
class Edge:
    """One effect of one player's power on another, valid only while ``src`` is not imprisoned."""

    src: str
    tgt: str
    kind: str  # IMP, PLATFORM or PRAYER


@dataclass(frozen=True)
class EffectGraph:
    """Step 3's output: the players who can be INV/IMP, the edges, and x per player's camp."""

    players: tuple[str, ...]  # non-generals alive at the start of the night, in seat order
    edges: tuple[Edge, ...]
    threshold: Mapping[str, int]  # x of each player's camp

    def sources(self, tgt: str, kind: str) -> list[str]:
        """The distinct sources of ``tgt``'s edges of one kind (one prayer per soldier)."""
        return list(dict.fromkeys(e.src for e in self.edges if e.tgt == tgt and e.kind == kind))

    def imprisons(self, src: str) -> list[str]:
        """Whom ``src``'s own power imprisons."""
        return [e.tgt for e in self.edges if e.src == src and e.kind == IMP]


@dataclass(frozen=True)
class NightStates:
    """Steps 4–5 decided: who is INV and who is IMP, and how the paradoxes were settled."""

    inv: frozenset[str]
    imp: frozenset[str]
    neither: frozenset[str] = frozenset()  # 2.6.9: neither invincible nor imprisoned
    cycles: tuple[tuple[str, ...], ...] = ()  # pure imprisonment cycles (RES-C9)
    referred: tuple[tuple[str, ...], ...] = ()  # other paradoxes, default imprisoned (RES-C9)

    def valid(self, name: str) -> bool:
        """A player's powers work unless imprisoned (generals are never imprisoned)."""
        return name not in self.imp


@dataclass
class _Solver:
    graph: EffectGraph
    inv: dict[str, Tri] = field(default_factory=dict)
    imp: dict[str, Tri] = field(default_factory=dict)
    pinned: set[str] = field(default_factory=set)

    def valid(self, src: str) -> Tri:
        if src not in self.imp:
            return True  # a general, or someone outside the night: always valid
        value = self.imp[src]
        return None if value is None else not value

    def undecided(self) -> list[str]:
        return [p for p in self.graph.players if self.inv[p] is None or self.imp[p] is None]


def solve(graph: EffectGraph) -> NightStates:
    """Steps 4 and 5: decide INV and IMP for every player of ``graph``.

    The result does not depend on the order of the edges: the fixed point is the least one of
    a monotone operator, and the paradox rules pick players in seat order.
    """
    players = set(graph.players)
    graph = EffectGraph(
        graph.players,
        tuple(e for e in graph.edges if e.tgt in players),  # step 3: no edges into generals
        graph.threshold,
    )
    s = _Solver(graph)
    for p in graph.players:
        s.inv[p] = None
        s.imp[p] = None
    neither: set[str] = set()
    cycles: list[tuple[str, ...]] = []
    referred: list[tuple[str, ...]] = []
    while True:
        _propagate(s)
        if not s.undecided():
            break
        y = _special_2_6_9(s)
        if y is not None:
            neither.add(y)
            continue
        cycle = [p for p in s.undecided() if s.inv[p] is False]
        settled = cycle or s.undecided()  # 5b, else 5c (default: imprisoned)
        for p in settled:
            # Only what is still undecided takes the default: a value step 4 decided stays, or
            # what it was derived into (a platform, an imprisonment of someone else) would not
            # hold any more. A player nobody validly imprisons is never imprisoned by default.
            if s.inv[p] is None:
                s.inv[p] = False
            if s.imp[p] is None:
                s.imp[p] = True
            s.pinned.add(p)
        (cycles if cycle else referred).extend(_groups(graph, settled))
    return NightStates(
        inv=frozenset(p for p, v in s.inv.items() if v),
        imp=frozenset(p for p, v in s.imp.items() if v),
        neither=frozenset(neither),
        cycles=tuple(sorted(cycles)),
        referred=tuple(sorted(referred)),
    )


def _propagate(s: _Solver) -> None:
    """Step 4: apply the four rules until nothing changes (only ? ever becomes T or F)."""
    g = s.graph
    changed = True
    while changed:
        changed = False
        for p in g.players:
            if p in s.pinned:
                continue
            if s.inv[p] is None:
                value = _inv_rule(s, p)
                if value is not None:
                    s.inv[p] = value
                    changed = True
            if s.imp[p] is None:
                value = _imp_rule(s, p)
                if value is not None:
                    s.imp[p] = value
                    changed = True


def _inv_rule(s: _Solver, p: str) -> Tri:
    g = s.graph
    platforms = [s.valid(src) for src in g.sources(p, PLATFORM)]
    prayers = [s.valid(src) for src in g.sources(p, PRAYER)]
    x = g.threshold[p]
    if any(v is True for v in platforms) or sum(v is True for v in prayers) >= x:
        return True
    if all(v is False for v in platforms) and sum(v is not False for v in prayers) < x:
        return False
    return None


def _imp_rule(s: _Solver, p: str) -> Tri:
    sources = [s.valid(src) for src in s.graph.sources(p, IMP)]
    if s.inv[p] is True or all(v is False for v in sources):
        return False
    if s.inv[p] is False and any(v is True for v in sources):
        return True
    return None


def _special_2_6_9(s: _Solver) -> str | None:
    """Step 5a (2.6.9, RES-C21): Y's own imprisonment breaks the invincibility it would get.

    Y is undecided, has an imprisonment source, invincibility sources that would suffice if all
    were valid, and imprisons one of them (Z). Then Y acts, every such Z is imprisoned, and Y is
    neither invincible nor imprisoned. Returns Y, or ``None`` when the pattern does not occur.
    """
    g = s.graph
    for y in s.undecided():
        if not g.sources(y, IMP):
            continue
        platforms = g.sources(y, PLATFORM)
        prayers = g.sources(y, PRAYER)
        if not platforms and len(prayers) < g.threshold[y]:
            continue
        zs = [z for z in g.imprisons(y) if z in platforms or z in prayers]
        if not zs:
            continue
        s.inv[y], s.imp[y] = False, False
        s.pinned.add(y)
        for z in zs:
            if z in s.pinned and s.imp[z] is False:
                continue  # another 2.6.9 player: already settled as acting
            s.inv[z], s.imp[z] = False, True
            s.pinned.add(z)
        return y
    return None


def _groups(graph: EffectGraph, members: list[str]) -> list[tuple[str, ...]]:
    """``members`` split into groups linked by edges among them (each sorted by name)."""
    group = {p: p for p in members}

    def root(p: str) -> str:
        while group[p] != p:
            p = group[p]
        return p

    for e in graph.edges:
        if e.src in group and e.tgt in group:
            group[root(e.src)] = root(e.tgt)
    out: dict[str, list[str]] = {}
    for p in members:
        out.setdefault(root(p), []).append(p)
    return sorted(tuple(sorted(g)) for g in out.values())
