"""The chess night (RULES.md §4.6), steps 7–10, and the whole night put together.

Map::

    resolve()              steps 1–10 in order (1: collect; 2, 3, 6: structure; 4, 5: states)
    kill_condition_met()   杀帅条件 on a given state (RES-C14: start of night / tally time)
    resolve_kills()        step 7  INV, PROTECTED, MUST, MINE exchange deaths (RES-C10, RES-C11)
    resolve_swaps()        step 8  抽将 for struck generals (RES-C13); the rest stays pending
    announce()             step 10 camps, kill posts of successful kills, identities, checks
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from shenshi.rulesets.base import (
    DaemonNote,
    Death,
    GameState,
    PrivateResult,
    PublicFact,
    Report,
    Saved,
    Seat,
    Submission,
)
from shenshi.rulesets.catalog import BLESS, CANNON_KILL, CURSE, KILL, SWAP_GENERAL
from shenshi.rulesets.chess.collect import Collected, collect
from shenshi.rulesets.chess.memory import ChessMemory, PendingSwap
from shenshi.rulesets.chess.states import NightStates, solve
from shenshi.rulesets.chess.structure import (
    Cannons,
    Derived,
    cannon_shots,
    derived,
    effect_graph,
    prayer_thresholds,
)
from shenshi.rulesets.common import note

KILL_CAUSES = frozenset({"general", "cannon"})  # deaths whose kill post is published
CAUSE_ORDER = ("general", "cannon", "mine", "swap")  # §4.6 settlement order (RES-C35)


def kill_condition_met(state: GameState, general: Seat) -> bool:
    """杀帅条件 [CH:L17]: all of the general's soldiers dead, or all his advisors and elephants."""
    own = [s for s in state.alive() if s.team == general.team]
    soldiers = [s for s in own if s.role == "soldier"]
    guards = [s for s in own if s.role in ("left_advisor", "right_advisor", "elephant")]
    return not soldiers or not guards


@dataclass(frozen=True)
class Attack:
    """One valid kill of the night (the general's, or a valid cannon's)."""

    attacker: str
    target: str
    must: bool  # 必杀
    cause: str  # "general" or "cannon"
    seq: int = 0  # the kill's submission (its 杀人帖 is published if the kill succeeds)


@dataclass
class Casualties:
    """Steps 7 and 8: who dies and why, who survived an attack and why."""

    deaths: dict[str, str] = field(default_factory=dict)  # name → cause (first cause wins)
    saved: dict[str, str] = field(default_factory=dict)  # name → by
    struck: dict[str, Attack] = field(default_factory=dict)  # generals hit, condition met
    killed_by: dict[str, Attack] = field(default_factory=dict)  # name → the kill that counts

    def die(self, name: str, cause: str, attack: Attack | None = None) -> None:
        if name not in self.deaths and attack is not None:
            self.killed_by[name] = attack
        self.deaths.setdefault(name, cause)


def attacks_of(got: Collected, cannons: Cannons, st: NightStates, d: Derived) -> list[Attack]:
    """Step 7: every valid kill: the generals' always, each cannon's unless imprisoned."""
    out = [
        Attack(g, str(sub.target), False, "general", sub.seq) for g, sub in got.of(KILL).items()
    ]
    shot_by = got.of(CANNON_KILL)
    for shot in cannons.shots.values():
        if st.valid(shot.cannon):
            seq = shot_by[shot.cannon].seq
            out.append(Attack(shot.cannon, shot.target, shot.cannon in d.must, "cannon", seq))
    return out


def resolve_kills(
    state: GameState, attacks: list[Attack], st: NightStates, d: Derived
) -> Casualties:
    """Step 7: each attack on its own, all against the start-of-night state."""
    out = Casualties()
    mine_deaths: list[str] = []
    order = {s.name: s.number for s in state.seats}
    # RES-C35: a player dies once, of the first power in the settlement order: the general's
    # kill before a cannon's, every kill before the MINE deaths, and those before a swap.
    for a in sorted(attacks, key=lambda a: (CAUSE_ORDER.index(a.cause), order[a.attacker])):
        target = state.seat(a.target)
        if target.role == "general":
            if not kill_condition_met(state, target):
                out.saved.setdefault(target.name, "general_condition")  # not explained
            else:
                out.struck.setdefault(target.name, a)
            continue
        if target.name in st.inv:
            out.saved.setdefault(target.name, "invincible")  # even against MUST
        elif target.name in d.protected and not a.must:
            out.saved.setdefault(target.name, "protect")  # a silent save [CH:L73]
        else:
            out.die(target.name, a.cause, a)
            attacker = state.seat(a.attacker)
            if target.name in d.mine and a.attacker not in st.inv and attacker.role != "general":
                mine_deaths.append(a.attacker)  # 同归于尽; protection does not help (RES-C10)
    for name in mine_deaths:
        out.die(name, "mine")
    return out


def resolve_swaps(
    state: GameState, swaps: dict[str, Submission], out: Casualties
) -> dict[str, Submission]:
    """Step 8: a struck general with tonight's swap survives if the grabbed player is a living
    own-camp player (who dies instead, once); otherwise the general dies. Returns the swaps that
    did not trigger: they stay pending for tomorrow's execution (RES-C13)."""
    pending = dict(swaps)
    for name, attack in out.struck.items():
        general = state.seat(name)
        swap = pending.pop(name, None)
        if swap is not None:
            grabbed = state.seat(str(swap.target))
            if grabbed.team == general.team and grabbed.alive:
                out.saved[name] = "swap"
                out.die(grabbed.name, "swap")
                continue
        out.die(name, attack.cause, attack)
    return pending


@dataclass(frozen=True)
class NightOutcome:
    """What the night did, before it is published."""

    report: Report
    seats: tuple[Seat, ...]
    memory: ChessMemory


def resolve(state: GameState) -> NightOutcome:
    """Steps 1–10 of §4.6 for the open night."""
    mem: ChessMemory = state.memory
    got = collect(state)  # step 1
    x = prayer_thresholds(state)
    cannons = cannon_shots(state, got.of(CANNON_KILL))  # step 2
    st = solve(effect_graph(state, got, cannons, x))  # steps 3–5
    d = derived(state, got, cannons, st)  # step 6
    out = resolve_kills(state, attacks_of(got, cannons, st, d), st, d)  # step 7
    pending = resolve_swaps(state, got.of(SWAP_GENERAL), out)  # step 8
    order = {s.name: s.number for s in state.seats}
    dead = sorted(out.deaths, key=order.__getitem__)
    after = state.with_deaths(dead)  # step 9: every death at the end of the night

    for general in got.swaps_consumed:
        mem = mem.with_swap_used(state.seat(general).number)
    memory = replace(
        mem,
        pending_swaps=tuple(
            PendingSwap(state.seat(g).number, state.seat(str(s.target)).number, state.number)
            for g, s in sorted(pending.items(), key=lambda kv: order[kv[0]])
        ),
        last_words=mem.last_words + tuple(state.seat(n).number for n in dead),
        curse=_stored(state, got.of(CURSE), st, cursing=True),
        bless=_stored(state, got.of(BLESS), st, cursing=False),
    )
    report = Report(
        deaths=tuple(Death(n, out.deaths[n]) for n in dead),
        saved=tuple(
            Saved(n, by)
            for n, by in sorted(out.saved.items(), key=lambda kv: order[kv[0]])
            if n not in out.deaths
        ),
        public_facts=tuple(announce(state, dead, out.deaths, out.killed_by)),
        private_results=tuple(identity_messages(state, dead) + _check_results(state, got, st)),
        daemon=tuple(got.notes + cannons.notes + _paradox_notes(st)),
        x={"chu": x["chu"], "han": x["han"]},
        states={
            "INV": sorted(st.inv),
            "IMP": sorted(st.imp),
            "MUST": sorted(d.must),
            "MINE": sorted(d.mine),
            "NEITHER_2_6_9": sorted(st.neither),
        },
        last_words=tuple(dead),  # every night victim, MINE and swap deaths included [CH:L152]
    )
    return NightOutcome(report, after.seats, memory)


def _stored(
    state: GameState, subs: dict[str, Submission], st: NightStates, cursing: bool
) -> tuple[int, ...]:
    """Valid curses (unless the target was INV, [CH:L23]) or blesses (RES-C25), as seats."""
    seats = []
    for actor, sub in subs.items():
        if st.valid(actor) and not (cursing and sub.target in st.inv):
            seats.append(state.seat(str(sub.target)).number)
    return tuple(sorted(seats))


def announce(
    state: GameState,
    dead: list[str],
    causes: dict[str, str],
    killed_by: dict[str, Attack] | None = None,
) -> list[PublicFact]:
    """Step 10, public part: each death with its camp; the kill post of each successful kill
    (never for MINE or swap deaths, RES-C23), naming the kill whose post it is (``source``);
    or 无人死亡. Nothing about states or actions."""
    facts: list[PublicFact] = []
    for name in dead:
        facts.append(PublicFact.of("death", name=name, camp=state.seat(name).team))
        if causes[name] in KILL_CAUSES:
            attack = (killed_by or {}).get(name)
            fact = PublicFact.of("kill_post", victim=name)
            facts.append(replace(fact, source=attack.seq if attack else None))
    if not dead:
        facts.append(PublicFact.of("no_death"))
    return facts


def identity_messages(state: GameState, dead: list[str]) -> list[PrivateResult]:
    """The dead player's identity, by PM to his own camp's general [CH:L13] (alive before)."""
    out = []
    for name in dead:
        seat = state.seat(name)
        for general in state.with_role("general"):
            if general.team == seat.team and general.name != name:
                value = {"name": name, "identity": seat.role}
                out.append(PrivateResult(general.name, "death_identity", value))
    return out


def _check_results(state: GameState, got: Collected, st: NightStates) -> list[PrivateResult]:
    """The horse pair's check: identity and camp, to each horse, unless a horse is IMP [CH:L66]."""
    out = []
    for horses, sub in got.checks.values():
        if all(st.valid(h.name) for h in horses):
            target = state.seat(str(sub.target))
            value = {"identity": target.role, "camp": target.team}
            out += [PrivateResult(h.name, "check", value, target.name) for h in horses]
    return out


def _paradox_notes(st: NightStates) -> list[DaemonNote]:
    """Step 5b cycles (imprison_cycle) and step 5c paradoxes referred to the GM (RES-C9)."""
    notes = [note(",".join(c), "imprison_cycle", "void") for c in st.cycles]
    notes += [
        note(",".join(c), "paradox_referred", "flag", _referred_default(c, st), log_only=True)
        for c in st.referred
    ]
    return notes


def _referred_default(group: tuple[str, ...], st: NightStates) -> str:
    """What step 5c's default made of a referred group: its imprisoned members (a member whose
    imprisonment step 4 had already decided keeps it, RES-C9)."""
    imprisoned = [p for p in group if p in st.imp]
    if len(imprisoned) == len(group):
        return "default: imprisoned"
    return "default: imprisoned " + (",".join(imprisoned) or "nobody")
