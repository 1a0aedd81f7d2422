"""The INV/IMP fixed point and the paradox rules (RULES.md §4.6 steps 4–5)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from shenshi.rulesets.chess import night
from shenshi.rulesets.chess.states import IMP, PLATFORM, PRAYER, Edge, EffectGraph, solve


def graph(players: str, *edges: tuple[str, str, str], x: int = 2) -> EffectGraph:
    names = tuple(players.split())
    return EffectGraph(names, tuple(Edge(*e) for e in edges), {p: x for p in names})


def test_no_edges_nobody_is_anything():
    out = solve(graph("a b c"))
    assert out.inv == out.imp == frozenset()
    assert out.cycles == out.referred == ()


def test_a_valid_imprisonment_imprisons():
    out = solve(graph("r c", ("r", "c", IMP)))
    assert out.imp == {"c"}
    assert out.valid("r") and not out.valid("c")


def test_an_imprisoned_source_has_no_effect():
    # r1 imprisons r2, r2 imprisons c: r2's power is void, so c is free [CH:L99].
    out = solve(graph("r1 r2 c", ("r1", "r2", IMP), ("r2", "c", IMP)))
    assert out.imp == {"r2"}


def test_invincible_voids_imprisonment():
    out = solve(graph("c p r", ("p", "c", PLATFORM), ("r", "c", IMP)))
    assert out.inv == {"c"} and out.imp == frozenset()


def test_prayers_count_against_x():
    edges = [("s1", "t", PRAYER), ("s2", "t", PRAYER)]
    assert solve(graph("t s1 s2 s3", *edges, x=3)).inv == frozenset()
    assert solve(graph("t s1 s2 s3", *edges, ("s3", "t", PRAYER), x=3)).inv == {"t"}
    # An imprisoned soldier's prayer does not count.
    blocked = solve(graph("t s1 s2 r", *edges, ("r", "s2", IMP), x=2))
    assert blocked.inv == frozenset() and blocked.imp == {"s2"}


def test_edges_into_players_outside_the_night_are_ignored():
    out = solve(graph("r", ("r", "general", IMP)))
    assert out.imp == frozenset()


def test_pure_cycle_of_two_is_imprisoned():
    out = solve(graph("a b", ("a", "b", IMP), ("b", "a", IMP)))
    assert out.imp == {"a", "b"}
    assert out.cycles == (("a", "b"),)


def test_two_separate_cycles_are_reported_separately():
    edges = [("a", "b", IMP), ("b", "a", IMP), ("c", "d", IMP), ("d", "e", IMP), ("e", "c", IMP)]
    out = solve(graph("a b c d e", *edges))
    assert out.imp == {"a", "b", "c", "d", "e"}
    assert out.cycles == (("a", "b"), ("c", "d", "e"))


def test_special_case_2_6_9():
    # 甲 imprisons 乙; 丙 makes 乙 invincible (platform); 乙 imprisons 丙 [CH:L89-95].
    out = solve(
        graph("jia yi bing", ("jia", "yi", IMP), ("bing", "yi", PLATFORM), ("yi", "bing", IMP))
    )
    assert out.neither == {"yi"}
    assert out.imp == {"bing"} and out.inv == frozenset()
    assert out.valid("yi")


def test_special_case_needs_sufficient_invincibility_sources():
    # Only one of two needed prayers: 乙 is simply imprisoned, no paradox.
    out = solve(graph("jia yi s1", ("jia", "yi", IMP), ("s1", "yi", PRAYER), ("yi", "s1", IMP)))
    assert out.neither == frozenset()
    assert out.imp == {"yi"}


def test_even_loop_through_invincibility_is_referred_to_the_gm():
    # Two cannons as each other's enemy platform, each imprisoned by a chariot.
    edges = [("a", "b", PLATFORM), ("b", "a", PLATFORM), ("r1", "a", IMP), ("r2", "b", IMP)]
    out = solve(graph("a b r1 r2", *edges))
    assert out.referred == (("a", "b"),)
    assert out.imp == {"a", "b"} and out.inv == frozenset()


def test_a_referred_paradox_keeps_what_step_4_decided():
    # p0 and p2 make each other invincible (an even loop, referred to the GM), and p1, whom
    # nobody imprisons, imprisons both. p1 is undecided only in INV: the default must not
    # imprison him, or p3 (p1's enemy platform) would stay invincible on a power that no longer
    # works and p0, p2 would be imprisoned by an imprisoned player.
    loop = [("p0", "p1", PLATFORM), ("p0", "p2", PLATFORM), ("p2", "p0", PLATFORM)]
    loop += [("p1", "p0", IMP), ("p1", "p2", IMP)]
    out = solve(graph("p0 p1 p2 p3", *loop, ("p1", "p3", PLATFORM), x=1))
    assert out.referred == (("p0", "p1", "p2"),)
    assert out.imp == {"p0", "p2"} and out.inv == {"p3"}
    assert out.valid("p1")
    # The GM's log says whom the default imprisoned, not the whole group.
    [referred] = [n for n in night._paradox_notes(out) if n.rule == "paradox_referred"]
    assert (referred.who, referred.detail) == ("p0,p1,p2", "default: imprisoned p0,p2")
    # The same with p1 imprisoning p3: p1's power works, so p3 is imprisoned.
    out = solve(graph("p0 p1 p2 p3", *loop, ("p1", "p3", IMP), x=1))
    assert out.imp == {"p0", "p2", "p3"} and out.inv == frozenset()


EDGE_KINDS = st.sampled_from([IMP, IMP, PLATFORM, PRAYER])


@st.composite
def graphs(draw):
    names = [f"p{i}" for i in range(draw(st.integers(1, 8)))]
    pairs = st.tuples(st.sampled_from(names), st.sampled_from(names), EDGE_KINDS)
    edges = [e for e in draw(st.lists(pairs, max_size=14)) if e[0] != e[1]]
    x = draw(st.integers(1, 3))
    return graph(" ".join(names), *edges, x=x)


@given(graphs(), st.randoms(use_true_random=False))
def test_the_answer_does_not_depend_on_edge_order(g: EffectGraph, rnd: random.Random):
    edges = list(g.edges)
    rnd.shuffle(edges)
    assert solve(g) == solve(EffectGraph(g.players, tuple(edges), g.threshold))


@given(graphs())
def test_the_answer_satisfies_the_rules(g: EffectGraph):
    """Outside the paradox rules, every player's state follows from its sources' states."""
    out = solve(g)
    settled = out.neither | {p for group in out.cycles + out.referred for p in group}
    # 2.6.9 imprisons the Zs it names: those are settled by the rule too.
    for y in out.neither:
        settled |= {e.tgt for e in g.edges if e.src == y and e.kind == IMP}
    assert not (out.inv & out.imp), "nobody is invincible and imprisoned at once"
    for p in g.players:
        if p in settled:
            continue
        platforms = [e.src for e in g.edges if e.tgt == p and e.kind == PLATFORM]
        prayers = {e.src for e in g.edges if e.tgt == p and e.kind == PRAYER}
        imprisoners = [e.src for e in g.edges if e.tgt == p and e.kind == IMP]
        inv = (
            any(out.valid(s) for s in platforms)
            or sum(out.valid(s) for s in prayers) >= g.threshold[p]
        )
        assert (p in out.inv) == inv, p
        assert (p in out.imp) == (not inv and any(out.valid(s) for s in imprisoners)), p
