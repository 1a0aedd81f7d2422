"""Night 0 (第零日夜晚), RULES.md §5.5 N0.1–N0.4 and RES-W12.

Map::

    pair()        N0.1 【金箭】: two characters become lovers (self-pairing allowed, RES-W10)
    elope()       N0.2 【私奔】: different camps → both lovers and cupid join 〖情侣阵营〗;
                       otherwise cupid joins their common camp
    kindred()     N0.3 【奇缘】: same identity type → cupid takes that type (the lovers'
                       immunity to 【守护】 follows from their identities, :func:`camps.same_type_lovers`)
    entrust()     N0.4 【托孤】: counted after 私奔; the wolf camp must have more than 2 members
"""

from __future__ import annotations

from dataclasses import replace

from shenshi.rulesets.base import DaemonNote, GameState, PrivateResult, Report, Seat, Submission
from shenshi.rulesets.catalog import LONE_WOLF, PAIR_LOVERS
from shenshi.rulesets.common import about, note
from shenshi.rulesets.werewolf import camps
from shenshi.rulesets.werewolf.settle import Settled
from shenshi.rulesets.werewolf.submissions import check_submission, choose, overridden_notes, valid

ENTRUST_MIN = 3  # 【托孤】 needs "more than 2" members in the wolf camp [WW:L153]


def resolve(state: GameState) -> Settled:
    """N0.1–N0.4 in order, each on the state the previous step left (RES-W12)."""
    checked = valid(state, [PAIR_LOVERS])
    notes: list[DaemonNote] = list(checked.notes)
    private: list[PrivateResult] = []
    arrows = checked.per_actor(PAIR_LOVERS)
    for actor in sorted({s.actor for s in checked.of(PAIR_LOVERS)}):
        notes += overridden_notes(choose(checked.of(PAIR_LOVERS, [actor]))[1])
    if arrows:
        # One pair per game: the earliest cupid to shoot (by the reply that counts) decides.
        sub = min(arrows.values(), key=Submission.sort_key)
        state, private = pair(state, sub)
        state = elope(state, state.seat(sub.actor))
        state = kindred(state, state.seat(sub.actor))
    elif not camps.lovers(state):
        # 【金箭】 is <强制>: the host applies the pre-announced default [WW:L60].
        for cupid in (s for s in state.seats if s.role == "cupid" and camps.active(state, s)):
            notes.append(
                note(cupid.name, "forced_default", "flag", "no 【金箭】 reply", log_only=True)
            )
    state, more = entrust(state)
    notes += more
    report = Report(
        private_results=tuple(private),
        daemon=tuple(notes),
        produced=frozenset({"announce_order", "last_words"}),  # nobody goes out on night 0
    )
    return Settled(state, camps.outcome(state), report)


def pair(state: GameState, sub: Submission) -> tuple[GameState, list[PrivateResult]]:
    """N0.1: the two named characters get the ``lover`` add-on and learn each other."""
    first, second = state.seat(sub.target or ""), state.seat(str(sub.extra["target2"]))
    for seat in (first, second):
        state = state.with_seat(replace(seat, addons=seat.addons | {camps.LOVER}))
    memory = replace(camps.memory(state), cupid=state.seat(sub.actor).number)
    state = replace(state, memory=memory)
    return state, [
        PrivateResult(first.name, "lover_partner", second.name),
        PrivateResult(second.name, "lover_partner", first.name),
    ]


def elope(state: GameState, cupid: Seat) -> GameState:
    """N0.2 【私奔】: lovers of different camps, and cupid, join 〖情侣阵营〗; else cupid joins theirs."""
    pair_ = camps.lovers(state)
    teams = {s.team for s in pair_}
    camp = camps.LOVERS if len(teams) > 1 else teams.pop()
    for seat in (*pair_, cupid):
        seat = state.by_number(seat.number)
        state = state.with_seat(replace(seat, team=camp))
    return state


def kindred(state: GameState, cupid: Seat) -> GameState:
    """N0.3 【奇缘】: lovers of one identity type make cupid that type too."""
    if not camps.same_type_lovers(state):
        return state
    kind = camps.lovers(state)[0].role
    memory = camps.memory(state)
    memory = replace(memory, identity=memory.identity + ((cupid.number, kind),))
    return replace(state, memory=memory)


def entrust(state: GameState) -> tuple[GameState, list[DaemonNote]]:
    """N0.4 【托孤】: a werewolf gives the lone-wolf add-on to a werewolf, once per game.

    Checked on the state after 私奔 and 奇缘, so the wolf camp is counted after elopement.
    """
    subs = [s for s in state.submissions if s.action == LONE_WOLF]
    if not subs:
        return state, []
    notes: list[DaemonNote] = []
    good = []
    for sub in subs:
        problem = check_submission(state, sub)
        if problem:
            notes.append(about(problem, sub))
        else:
            good.append(sub)
    chosen, overridden = choose(good)
    notes += overridden_notes(overridden)
    if chosen is None:
        return state, notes
    pack = [s for s in state.seats if s.alive and s.team == camps.WOLVES]
    if len(pack) < ENTRUST_MIN:
        notes.append(
            note(
                chosen.actor,
                "wolf_camp_too_small",
                "rejected",
                f"{len(pack)} members",
                log_only=True,
                seq=chosen.seq,
            )
        )
        return state, notes
    target = state.seat(chosen.target or "")
    state = state.with_seat(replace(target, addons=target.addons | {camps.LONE_WOLF}))
    state = replace(state, memory=replace(camps.memory(state), lone_wolf_given=True))
    return state, notes
