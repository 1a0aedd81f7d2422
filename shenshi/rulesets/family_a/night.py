"""Family A night resolution (RULES.md §1.5, N1–N9), one function per step.

Map::

    collect()          N1  latest valid submission per actor, joint units agree or forfeit
    kill_targets()     N2  the kill sources' valid targets (8p: the on-duty killer only)
    prayed()           N3  prayer threshold x and the prayed players
    resolve_kills()    N5  who dies, who is saved and why (bind, prayer, both, void_kill)
    bind_outcome()     N6  bind success / miss / the two-night bind failure
    announce()         N8  public facts and the seers' private answers
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

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
from shenshi.rulesets.catalog import BIND, BLESS, CURSE, DIVINE, KILL, PRAY
from shenshi.rulesets.common import about, ceil_div, joint_choice, latest_per_actor, note
from shenshi.rulesets.family_a.memory import FamilyAMemory

if TYPE_CHECKING:
    from shenshi.rulesets.family_a.rules import FamilyA

DECLARATION_MIN = 100  # 杀人宣言 ≥ 100 characters without whitespace (§1.8, RES-A29)


@dataclass(frozen=True)
class KillSource:
    """One kill per night: the killer unit, the 8p on-duty killer, or the 13p independent."""

    who: str  # name in daemon notes: a unit ("killers", "alliance_killers") or a player
    members: tuple[Seat, ...]
    joint: bool


@dataclass
class Collected:
    """N1: the night's effective actions after validation."""

    notes: list[DaemonNote] = field(default_factory=list)
    kills: list[tuple[KillSource, Submission]] = field(default_factory=list)
    divine: Submission | None = None
    bind: Submission | None = None
    curse: Submission | None = None
    bless: Submission | None = None
    prayers: dict[str, Submission] = field(default_factory=dict)


SUPERSEDING = frozenset({"lone_killer_suicide"})  # rejected, yet the latest PM (RES-A4)
DECLARATION_SEQ = "_declaration_seq"  # the submission whose declaration a kill publishes


def collect(rules: FamilyA, state: GameState) -> Collected:
    """N1: validate every submission, keep each actor's latest valid one, resolve units.

    The last killer's self-target is rejected at once, yet it is his latest PM: it supersedes
    his earlier target, and if it still stands at dawn there is no kill (RES-A4).
    """
    out = Collected()
    valid: list[Submission] = []
    forbidden: set[tuple[str, int]] = set()  # (actor, seq) of superseding rejected PMs
    for sub in state.submissions:
        problem = rules.check_submission(state, sub)
        if problem:
            problem = about(problem, sub)
            out.notes.append(problem)
        if problem is None or problem.rule in SUPERSEDING:
            valid.append(sub)
        if problem is not None and problem.rule in SUPERSEDING:
            forbidden.add((sub.actor, sub.seq))
    for action in (KILL, DIVINE, BIND, CURSE, BLESS, PRAY):
        per_actor = latest_per_actor(valid, action)
        if action == KILL:
            per_actor = {
                a: s for a, s in per_actor.items() if (s.actor, s.seq) not in forbidden
            }
            for source in rules.kill_sources(state):
                chosen = _unit_action(source.who, source.members, per_actor, out.notes)
                if chosen is not None:
                    chosen = _checked_declaration(source, chosen, per_actor, out.notes)
                if chosen is not None:
                    out.kills.append((source, chosen))
        elif action == PRAY:
            out.prayers = per_actor
        else:
            role = rules.POWER_ROLE[action]
            members = state.with_role(role)  # alive at the start of the night (A-J4)
            chosen = _unit_action(rules.unit_name(role), members, per_actor, out.notes)
            setattr(out, action, chosen)
    return out


def _unit_action(
    who: str, members: Sequence[Seat], per_actor: dict[str, Submission], notes: list[DaemonNote]
) -> Submission | None:
    if len(members) <= 1:
        return per_actor.get(members[0].name) if members else None
    choice = joint_choice(members, per_actor)
    if choice.disagreement:
        notes.append(note(who, "joint_disagreement", "forfeit"))
    return choice.submission


def _checked_declaration(
    source: KillSource, chosen: Submission, per_actor: dict[str, Submission], notes: list[DaemonNote]
) -> Submission | None:
    """N2 and §1.8 for the unit's kill (RES-A5): the agreeing members' latest submissions
    together. The kill has a declaration when any of them carries one (no
    ``declaration_missing``); otherwise it is forfeited. Its length is the largest any gives,
    and a kill story by any of them waives the length rule; a declaration under 100
    characters is flagged. Nothing depends on the order of the members."""
    agreeing = [per_actor[m.name] for m in source.members if m.name in per_actor]
    declared = [s for s in agreeing if not s.extra.get("declaration_missing")]
    if not declared:
        notes.append(note(source.who, "declaration_missing", "forfeit", log_only=True))
        return None
    # The declaration published with the death: the longest (a story first), whoever of
    # the agreeing members wrote it; ties go to the earliest submission.
    published = max(
        declared,
        key=lambda s: (bool(s.extra.get("story")), int(s.extra.get("declaration_chars") or 0)),
    )
    chosen = replace(chosen, extra={**chosen.extra, DECLARATION_SEQ: published.seq})
    if any(s.extra.get("story") for s in declared):
        return chosen
    lengths = [s.extra["declaration_chars"] for s in declared if "declaration_chars" in s.extra]
    longest = max((int(n or 0) for n in lengths), default=None)
    if longest is not None and longest < DECLARATION_MIN:
        notes.append(note(source.who, "declaration_short", "flag", f"{longest} characters"))
        return replace(chosen, extra={**chosen.extra, "_short": True})
    return chosen


def prayer_threshold(rules: FamilyA, state: GameState) -> int | None:
    """N3 / §1.4: x, or ``None`` when prayer is void (x ≤ 1)."""
    if rules.FIXED_X is not None:
        return rules.FIXED_X
    commoners = len(state.with_role("commoner"))
    killers = len(state.on_team("killers"))
    if killers == 0:
        return None
    x = ceil_div(commoners, killers)
    return x if x > 1 else None


def prayed(state: GameState, x: int | None, prayers: dict[str, Submission]) -> set[str]:
    """Players with at least x distinct living commoners' prayers."""
    if x is None:
        return set()
    counts: dict[str, int] = {}
    for actor, sub in prayers.items():
        if state.seat(actor).role == "commoner" and sub.target:
            counts[sub.target] = counts.get(sub.target, 0) + 1
    return {name for name, c in counts.items() if c >= x}


@dataclass(frozen=True)
class NightOutcome:
    """What the night did, before it is published."""

    report: Report
    seats: tuple[Seat, ...]
    memory: FamilyAMemory


def resolve(rules: FamilyA, state: GameState) -> NightOutcome:
    """N1–N8: the night's deaths, saves, bind, curse/bless, answers and announcement."""
    mem: FamilyAMemory = state.memory
    got = collect(rules, state)
    x = prayer_threshold(rules, state)
    saved_by_prayer = prayed(state, x, got.prayers)

    # N2: the kill targets (a multiset); 8p killer-on-killer stays a target but cannot kill.
    kc: dict[str, int] = {}
    harmless: set[str] = set()
    for _source, kill in got.kills:
        target = kill.target or ""
        kc[target] = kc.get(target, 0) + 1
        other_killer = state.seat(target).team == "killers" and target != kill.actor
        if rules.KILLERS_CANNOT_KILL_EACH_OTHER and other_killer:
            harmless.add(target)
    b = got.bind.target if got.bind else None

    # N5: kill outcome
    deaths: list[Death] = []
    saved: list[Saved] = []
    for target, count in kc.items():
        if target in harmless:
            saved.append(Saved(target, "bind" if target == b else "void_kill"))
        elif count == 1 and target == b:
            saved.append(Saved(target, "bind"))
        elif count == 1 and target in saved_by_prayer:
            saved.append(Saved(target, "prayer"))
        elif count >= 2 and target == b and target in saved_by_prayer:
            saved.append(Saved(target, "bind+prayer"))
        else:
            deaths.append(Death(target, "killer"))

    # N6: bind success / miss / failure (RES-A10)
    bound: str | None = None
    unattacked: int | None = None
    if b is not None:
        b_seat = state.seat(b).number
        if kc.get(b, 0) >= 1:
            if all(d.name != b for d in deaths):
                bound = b
        elif mem.unattacked_bind == b_seat:
            deaths.append(Death(b, "bind_failure"))  # prayer does not help (RES-A7)
        else:
            unattacked = b_seat

    dead = {d.name for d in deaths}
    # N7: curse/bless for the day's first round; dropped if the target died tonight (RES-A30)
    curse = got.curse.target if got.curse and got.curse.target not in dead else None
    bless = got.bless.target if got.bless and got.bless.target not in dead else None

    report = Report(
        deaths=tuple(deaths),
        saved=tuple(saved),
        daemon=tuple(got.notes),
        bound=bound,
        x=x,
        public_facts=tuple(announce(rules, deaths, bound, _declared_by(got))),
        private_results=tuple(_divination_answers(rules, state, got.divine)),
    )
    after = state.with_deaths(dead)
    victims = tuple(after.seat(n).number for n in sorted(dead, key=lambda n: after.seat(n).number))
    short = any(sub.extra.get("_short") for _, sub in got.kills)
    memory = replace(
        mem,
        unattacked_bind=unattacked,
        bound=after.seat(bound).number if bound else None,
        curse=after.seat(curse).number if curse else None,
        bless=after.seat(bless).number if bless else None,
        victims=mem.victims + ((state.number, victims),),
        last_words=(),
        final_day=False,
        short_declaration_night=state.number if short else mem.short_declaration_night,
        extra_divination_used=False,
    )
    return NightOutcome(report, after.seats, memory)


def _declared_by(got: Collected) -> dict[str, int | None]:
    """Each kill target's published declaration (the first kill source's, if two)."""
    out: dict[str, int | None] = {}
    for _source, kill in got.kills:
        out.setdefault(kill.target or "", kill.extra.get(DECLARATION_SEQ))
    return out


def announce(
    rules: FamilyA, deaths: Sequence[Death], bound: str | None, declared_by: dict[str, int | None]
) -> list[PublicFact]:
    """N8: the dawn announcement (identities are never published). A kill's declaration
    names the submission it comes from (``source``: see :func:`_checked_declaration`)."""
    facts: list[PublicFact] = []
    for d in deaths:
        facts.append(PublicFact.of("death", name=d.name, cause=d.cause))
        if d.cause == "killer":
            fact = PublicFact.of("kill_declaration", victim=d.name)
            facts.append(replace(fact, source=declared_by.get(d.name)))
    if bound:
        if rules.BIND_SUCCESS_WORDING == "kill_failed":
            facts.append(PublicFact.of("kill_failed"))
        elif not deaths:
            facts.append(PublicFact.of("no_death"))
        facts.append(PublicFact.of("bound", name=bound))
    elif not deaths:
        facts.append(PublicFact.of("no_death"))
    return facts


def _divination_answers(
    rules: FamilyA, state: GameState, divine: Submission | None
) -> list[PrivateResult]:
    """The seer unit's 是/不是 by PM, to every seer alive at the start of the night."""
    if divine is None or divine.target is None:
        return []
    value = "是" if state.seat(divine.target).team == "killers" else "不是"
    return [
        PrivateResult(s.name, "divination", value, divine.target) for s in state.with_role("seer")
    ]
