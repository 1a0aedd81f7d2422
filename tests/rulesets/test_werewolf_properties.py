"""Property tests over random legal werewolf games (hypothesis, the "ci" profile keeps them fast).

Each example deals a random table, plays night 0 and then days and nights with random skill
replies (many of them invalid: dead or sent-off actors, late, wrong targets), random ballots,
the odd penalty and substitution, until a camp wins or eight game days have passed. After every
step it checks:

* nobody comes back, and the step's deaths are exactly the seats that went out;
* characters that are out (or sent off) never act, vote or get counted: removing their replies
  and ballots changes nothing but the daemon notes (the sheriff's 殉职 and the lone wolf's 孤刀
  are replies made while still in play);
* the tally equals the valid weighted ballots (latest per voter, sheriff 2.1);
* the result does not depend on the arrival order of replies and ballots with distinct times;
* lovers go out together, there is at most one sheriff and he is in play, madness only on the
  living, last words only for the first four out;
* the winner is set once; afterwards every command but a GM correction is refused, untouched.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import event as tally_event
from hypothesis import given, settings
from hypothesis import strategies as st

from shenshi.rulesets.base import (
    Ballot,
    CastBallot,
    CloseNight,
    CloseRound,
    Command,
    Event,
    ForceExecution,
    GameState,
    GmRuling,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    PlayerSpec,
    Report,
    Resolved,
    Submission,
    Submit,
    Substitute,
    frozen_map,
)
from shenshi.rulesets.catalog import ADDON_POWERS, WEREWOLF
from shenshi.rulesets.registry import find_ruleset
from shenshi.rulesets.werewolf import camps
from tests.rulesets.commands import apply_all as commands_apply_all

WW = find_ruleset("werewolf")
START = datetime(2024, 3, 4, 21, 0)
ALL_ACTIONS = (
    "guard",
    "silence_guard",
    "kill",
    "divine",
    "pipe",
    "heal",
    "poison",
    "pair_lovers",
    "lone_wolf",
)


@st.composite
def tables(draw: st.DrawFn) -> list[PlayerSpec]:
    """A random table: 1–3 werewolves, 1–4 villagers, any of the special identities."""
    specs = [
        PlayerSpec(f"W{i}", "werewolf", "wolves") for i in range(1, draw(st.integers(1, 3)) + 1)
    ]
    specs += [
        PlayerSpec(f"V{i}", "villager", "village") for i in range(1, draw(st.integers(1, 4)) + 1)
    ]
    for role in ("seer", "witch", "guard", "cupid", "piper"):
        if draw(st.booleans()):
            specs.append(PlayerSpec(role.title(), role, WEREWOLF.roles[role].team))
    return draw(st.permutations(specs))


def resolution(events: list[Event]) -> Resolved:
    first = events[0]
    assert isinstance(first, Resolved)
    return first


def without_notes(report: Report) -> Report:
    return replace(report, daemon=())


def notes(report: Report) -> list[str]:
    """The notes without the arrival number of the item they judge (it changes with reseq)."""
    return sorted(repr(replace(n, seq=None)) for n in report.daemon)


def in_play(state: GameState, name: str) -> bool:
    return state.is_alive(name) and not camps.sent_off(state, state.seat(name))


def same_resolution(a: Resolved, b: Resolved, compare_notes: bool) -> None:
    assert (a.seats, a.memory, a.outcome) == (b.seats, b.memory, b.outcome)
    assert without_notes(a.report) == without_notes(b.report)
    if compare_notes:
        assert notes(a.report) == notes(b.report)


def reseq(state: GameState, order: list[int]) -> GameState:
    """The same replies and ballots, arriving in another order (times unchanged)."""
    subs = [state.submissions[i] for i in order if i < len(state.submissions)]
    subs = [replace(s, seq=k + 1) for k, s in enumerate(subs)]
    return replace(state, submissions=tuple(subs))


def check_night_close(state: GameState, data: st.DataObject) -> None:
    """Dead and sent-off actors change nothing; arrival order of timed replies changes nothing."""
    resolved = resolution(WW.decide(state, CloseNight()))
    kept = tuple(s for s in state.submissions if in_play(state, s.actor))
    same_resolution(
        resolved, resolution(WW.decide(replace(state, submissions=kept), CloseNight())), False
    )
    order = data.draw(st.permutations(range(len(state.submissions))), label="arrival order")
    same_resolution(resolved, resolution(WW.decide(reseq(state, order), CloseNight())), True)


def expected_tally(state: GameState) -> dict[str, Fraction]:
    """Independently: each in-play voter's latest ballot on a living target, weighted."""
    latest: dict[str, Ballot] = {}
    for b in sorted(state.ballots, key=Ballot.sort_key):
        if in_play(state, b.voter) and state.is_alive(b.target):
            latest[b.voter] = b
    tally: dict[str, Fraction] = {}
    for voter, b in latest.items():
        w = Fraction(21, 10) if "sheriff" in state.seat(voter).addons else Fraction(1)
        tally[b.target] = tally.get(b.target, Fraction(0)) + w
    return tally


def check_day_close(state: GameState, data: st.DataObject) -> None:
    resolved = resolution(WW.decide(state, CloseRound()))
    want = {
        k: (int(v) if v.denominator == 1 else float(v)) for k, v in expected_tally(state).items()
    }
    assert resolved.report.vote_tally == dict(sorted(want.items()))
    kept = replace(
        state,
        ballots=tuple(b for b in state.ballots if in_play(state, b.voter)),
        submissions=tuple(s for s in state.submissions if in_play(state, s.actor)),
    )
    same_resolution(resolved, resolution(WW.decide(kept, CloseRound())), False)
    order = data.draw(st.permutations(range(len(state.ballots))), label="ballot order")
    shuffled = tuple(replace(state.ballots[i], seq=k + 1) for k, i in enumerate(order))
    same_resolution(
        resolved, resolution(WW.decide(replace(state, ballots=shuffled), CloseRound())), True
    )


def check_invariants(
    before: GameState, after: GameState, report: Report, renamed: dict[str, str]
) -> None:
    was = {s.number for s in before.seats if s.alive}
    now = {s.number for s in after.seats if s.alive}
    assert now <= was, "nobody comes back"
    gone = {after.by_number(n).name for n in was - now}
    assert {d.name for d in report.deaths} == gone
    pair = camps.lovers(after)
    assert len({s.alive for s in pair}) <= 1, "lovers go out together"
    chiefs = [s for s in after.seats if "sheriff" in s.addons]
    assert len(chiefs) <= 1 and all(s.alive for s in chiefs)
    mem = camps.memory(after)
    living = {s.name for s in after.alive()}
    living |= {old for old, new in renamed.items() if new in living}  # reports use the old name
    assert set(report.madness or ()) <= living
    assert len(mem.last_words) <= camps.settings(after).last_words_limit
    assert set(report.last_words) <= gone
    if before.outcome is not None:
        assert after.outcome == before.outcome


def replies(state: GameState, data: st.DataObject, n: int, base: datetime) -> list[Command]:
    """Random skill replies, distinct times: mostly the actor's own skills on living targets,
    plus noise (any skill, any target, by anyone, the dead included), some late, some locked."""
    out: list[Command] = []
    names = [s.name for s in state.seats]
    living = [s.name for s in state.alive()] or names
    for seat in state.seats:
        own = list(WEREWOLF.roles[seat.role].powers)
        for addon in seat.addons:
            own += ADDON_POWERS.get(addon, ())
        pool = own + (["kill"] if seat.role == "cupid" or "lover" in seat.addons else [])
        count = data.draw(st.integers(0, 3), label=f"replies of {seat.name}")
        for _ in range(count):
            own_power = bool(pool) and data.draw(st.integers(0, 3), label="own skill?") > 0
            action = data.draw(st.sampled_from(pool if own_power else list(ALL_ACTIONS)))
            target = data.draw(st.sampled_from(living if own_power else names))
            extra: dict[str, Any] = {}
            if action == "pair_lovers":
                extra["target2"] = data.draw(st.sampled_from(living))
            if data.draw(st.integers(0, 5)) == 0:
                extra["confirm"] = True
            minute = data.draw(st.integers(0, 540), label="minute")
            t = base + timedelta(minutes=minute, microseconds=len(out))  # distinct times
            out.append(Submit(seat.name, action, target, frozen_map(extra), t))
    return out


def ballots(state: GameState, data: st.DataObject, base: datetime) -> list[Command]:
    """Random ballots (0–2 per character, the dead and sent-off included), distinct times."""
    names = [s.name for s in state.seats]
    living = [s.name for s in state.alive()] or names
    out: list[Command] = []
    for seat in state.seats:
        for _ in range(data.draw(st.integers(0, 2), label=f"ballots of {seat.name}")):
            target = data.draw(st.sampled_from(living if data.draw(st.booleans()) else names))
            minute = data.draw(st.integers(0, 2000), label="minute")
            t = base + timedelta(minutes=minute, microseconds=len(out))
            out.append(CastBallot(seat.name, target, t))
    return out


def day_skills(state: GameState, data: st.DataObject, base: datetime) -> list[Command]:
    out: list[Command] = []
    names = [s.name for s in state.seats]
    for seat in state.seats:
        for action in ADDON_POWERS["sheriff"] + ADDON_POWERS["lone_wolf"]:
            if data.draw(st.integers(0, 2)) == 0:
                target = data.draw(st.sampled_from(names))
                out.append(
                    Submit(
                        seat.name, action, target, frozen_map(), base + timedelta(minutes=len(out))
                    )
                )
    return out


def apply_all(state: GameState, commands: list[Command]) -> tuple[GameState, Report]:
    return commands_apply_all(WW, state, commands)


def gm_events(state: GameState, data: st.DataObject, n: int) -> list[Command]:
    out: list[Command] = []
    living = [s.name for s in state.alive()]
    if living and data.draw(st.integers(0, 6), label="penalty?") == 0:
        out.append(
            GmRuling(
                "penalty",
                data.draw(st.sampled_from(living)),
                frozen_map({"points": data.draw(st.sampled_from([3, 12]))}),
            )
        )
    if living and data.draw(st.integers(0, 8), label="substitute?") == 0:
        old = data.draw(st.sampled_from(living))
        out.append(Substitute(old, f"{old}x{n}"))
    return out


def assert_over_and_untouched(state: GameState, ended_by_vote: bool) -> None:
    """After the end only GM corrections: everything else raises and changes nothing."""
    first = state.seats[0].name
    for command in (OpenNight(state.number + 1), OpenDay(state.number + 1), CastBallot(first, first),
                    Submit(first, "kill", first), CloseNight(), CloseRound()):  # fmt: skip
        try:
            WW.decide(state, command)
        except IllegalActionError:
            continue
        raise AssertionError(f"{type(command).__name__} accepted after the end")
    if ended_by_vote:  # the GM may still cancel the vote-out that ended the game
        try:
            after, _ = WW.apply(state, ForceExecution(None))
        except IllegalActionError as exc:
            assert "substitute" in str(exc)  # a seat changed hands at that close
            return
        assert after.outcome is None or after.outcome == camps.outcome(after)


@settings(max_examples=12)  # a few games in `make test` (each is up to 8 days and nights)
@given(tables(), st.data())
def test_random_games_keep_the_rules(specs: list[PlayerSpec], data: st.DataObject) -> None:
    random_game_keeps_the_rules(specs, data)


@pytest.mark.slow  # the profile's number of games (`make e2e`, .ci/run)
@given(tables(), st.data())
def test_many_random_games_keep_the_rules(specs: list[PlayerSpec], data: st.DataObject) -> None:
    random_game_keeps_the_rules(specs, data)


def random_game_keeps_the_rules(specs: list[PlayerSpec], data: st.DataObject) -> None:
    """Play the table through up to 8 days and nights of random GM steps, replies, skills and
    ballots; every step keeps the invariants, and a game that ended stays over."""
    state = WW.new_game(specs)
    steps: list[tuple[str, int]] = [("night", 0)]
    for n in range(1, 9):
        steps += [("day", n), ("night", n)]
    ended_by_vote = False
    for phase, n in steps:
        if state.outcome is not None:
            break
        before = state
        if phase == "night":
            base = START + timedelta(days=2 * n)
            deadlines = frozen_map({"1": base + timedelta(hours=3), "2": base + timedelta(hours=6)})
            state, report = apply_all(
                state, [OpenNight(n, frozen_map({"phase_deadlines": deadlines}))]
            )
            gm = gm_events(state, data, n)
            state, more = apply_all(state, gm + replies(state, data, n, base))
            check_night_close(state, data)
            close: Command = CloseNight()
        else:
            base = START + timedelta(days=2 * n - 1, hours=9)
            state, report = apply_all(state, [OpenDay(n)])
            gm = gm_events(state, data, n)
            state, more = apply_all(
                state, gm + day_skills(state, data, base) + ballots(state, data, base)
            )
            check_day_close(state, data)
            close = CloseRound()
        report = report.merge(more)
        state, more = apply_all(state, [close])
        report = report.merge(more)
        renamed = {c.old: c.new for c in gm if isinstance(c, Substitute)}
        check_invariants(before, state, report, renamed)
        ended_by_vote = phase == "day"
    tally_event(f"winner: {state.winner}")
    tally_event(f"lovers: {bool(camps.lovers(state))}")
    tally_event(f"characters out: {sum(not s.alive for s in state.seats)}")
    if state.outcome is not None:
        assert state.phase is Phase.OVER
        assert_over_and_untouched(state, ended_by_vote)


def test_a_dead_sheriff_names_no_one_unless_he_went_out_this_step() -> None:
    cast = [
        PlayerSpec("V1", "villager", "village", addons=("sheriff",)),
        PlayerSpec("W1", "werewolf", "wolves"),
        PlayerSpec("V2", "villager", "village"),
        PlayerSpec("V3", "villager", "village"),
    ]
    state, _ = apply_all(
        WW.new_game(cast), [OpenNight(1), Submit("W1", "kill", "V1"), CloseNight()]
    )
    assert camps.sheriff(state) is None
    state, report = apply_all(
        state, [OpenNight(2), Submit("V1", "sheriff_successor", "V2"), CloseNight()]
    )
    assert camps.sheriff(state) is None
    assert [n.rule for n in report.daemon if not n.log_only] == ["dead_actor"]


def test_submission_sort_key_puts_timed_replies_in_time_order() -> None:
    early = Submission("A", "kill", "B", t=START, seq=9)
    late = Submission("A", "kill", "C", t=START + timedelta(minutes=1), seq=1)
    assert sorted([late, early], key=Submission.sort_key) == [early, late]
