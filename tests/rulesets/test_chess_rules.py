"""chess32 pieces through the ruleset API: receipts, structures, swaps, voting, phases, purity."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from shenshi.rulesets.base import (
    ABSTAIN,
    CastBallot,
    CloseNight,
    CloseRound,
    DeclareExit,
    ForceExecution,
    GameState,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    PlayerSpec,
    RecordActivity,
    Report,
    RulesetError,
    Submission,
    Submit,
    Substitute,
    frozen_map,
)
from shenshi.rulesets.chess import Chess32
from shenshi.rulesets.chess.memory import ChessMemory
from shenshi.rulesets.chess.night import kill_condition_met
from shenshi.rulesets.chess.structure import cannon_shots, prayer_thresholds
from shenshi.rulesets.registry import find_ruleset

RULES = Chess32()
ROLES = (
    [("Gen", "general"), ("Chariot1", "chariot"), ("Chariot2", "chariot"), ("Horse1", "horse"),
     ("Horse2", "horse"), ("Cannon1", "cannon"), ("Cannon2", "cannon"), ("Eleph1", "elephant"),
     ("Eleph2", "elephant"), ("LeftAdv", "left_advisor"), ("RightAdv", "right_advisor")]
    + [(f"Soldier{i}", "soldier") for i in range(1, 6)]
)  # fmt: skip
NAMES = [camp + suffix for camp in ("Chu", "Han") for suffix, _ in ROLES]
DEADLINE = datetime(2024, 3, 5, 19, 50)
CLOSE = datetime(2024, 3, 5, 20, 0)


def table(dead: tuple[str, ...] = (), **config: Any) -> GameState:
    """The full 32-seat table; ``dead`` are dead from the start."""
    specs = [
        PlayerSpec(prefix + suffix, role, camp, prefix + suffix not in dead)
        for camp, prefix in (("chu", "Chu"), ("han", "Han"))
        for suffix, role in ROLES
    ]
    return RULES.new_game(specs, config)


def night(
    state: GameState, *actions: tuple, n: int = 1, deadline: datetime | None = DEADLINE
) -> tuple[GameState, Report]:
    """Night ``n`` with ``(actor, action, target[, extra])`` submissions; the merged report."""
    report = Report()
    state, events = RULES.apply(state, OpenNight(n, frozen_map({"deadline": deadline})))
    for a in actions:
        extra = dict(a[3]) if len(a) > 3 else {}
        t = extra.pop("t", None)
        state, events = RULES.apply(state, Submit(a[0], a[1], a[2], frozen_map(extra), t))
        for e in events:
            report = report.merge(e.report)
    state, events = RULES.apply(state, CloseNight())
    for e in events:
        report = report.merge(e.report)
    return state, report


def day(
    state: GameState, ballots: dict[str, str], n: int = 1, runoff: dict[str, str] | None = None
) -> tuple[GameState, Report]:
    """Day ``n``: one ballot per voter (``ballots``), then round 2 if it comes."""
    report = Report()
    params = frozen_map({"round1_close": CLOSE, "round2_close": CLOSE + timedelta(hours=24)})
    state, _ = RULES.apply(state, OpenDay(n, params))
    for voter, target in ballots.items():
        state, _ = RULES.apply(state, CastBallot(voter, target))
    state, events = RULES.apply(state, CloseRound())
    for e in events:
        report = report.merge(e.report)
    if state.phase is Phase.DAY:
        for voter, target in (runoff or {}).items():
            state, _ = RULES.apply(state, CastBallot(voter, target))
        state, events = RULES.apply(state, CloseRound())
        for e in events:
            report = report.merge(e.report)
    return state, report


def everyone(
    target: str = ABSTAIN, state: GameState | None = None, **overrides: str
) -> dict[str, str]:
    """Every living player's ballot: ``target`` unless overridden."""
    names = [s.name for s in state.alive()] if state else NAMES
    return {n: overrides.get(n, target) for n in names}


def notes(report: Report, but: str = "") -> set[tuple[str, str, str]]:
    """The FORMAT.md daemon entries of a report (without rule ``but``)."""
    return {(d.who, d.rule, d.verdict) for d in report.daemon if not d.log_only and d.rule != but}


# -- setup ----------------------------------------------------------------------------------------


def test_registry_and_defaults():
    assert find_ruleset("chess32") is find_ruleset("楚汉")
    state = table()
    assert state.config["day_hours"] == 24 and state.config["night_hours"] == 24
    assert table(day_hours=36).config["day_hours"] == 36
    assert state.memory == ChessMemory()
    assert RULES.first_phase is Phase.DAY


@pytest.mark.parametrize("config", [{"day_hours": 0}, {"night_hours": "long"}, {"day_hours": True}])
def test_bad_config_is_refused(config: dict[str, Any]):
    with pytest.raises(RulesetError):
        table(**config)


def test_too_many_of_a_role_is_refused():
    specs = [PlayerSpec(f"G{i}", "general", "chu") for i in range(2)]
    with pytest.raises(RulesetError, match="general"):
        RULES.new_game(specs)


# -- receipts (check_submission) -------------------------------------------------------------------


def _receipt(
    state: GameState,
    actor: str,
    action: str,
    target: str | None,
    t: datetime | None = None,
    **extra: Any,
):
    state, _ = RULES.apply(state, OpenNight(1, frozen_map({"deadline": DEADLINE})))
    problem = RULES.check_submission(state, Submission(actor, action, target, frozen_map(extra), t))
    return None if problem is None else (problem.rule, problem.verdict)


@pytest.mark.parametrize(
    ("actor", "action", "target", "extra", "expected"),
    [
        ("ChuGen", "kill", "HanSoldier1", {}, None),
        ("ChuGen", "kill", "ChuGen", {}, ("self_target", "rejected")),
        ("ChuGen", "kill", "ChuSoldier1", {}, None),  # friendly fire is allowed (RES-C31)
        ("ChuEleph1", "protect", "ChuEleph1", {}, None),  # elephants may protect themselves
        ("ChuEleph1", "protect", "HanGen", {}, ("general_target", "forfeit")),
        ("ChuSoldier1", "pray", "ChuGen", {}, ("general_target", "forfeit")),
        ("ChuChariot1", "imprison", "HanGen", {}, ("general_target", "forfeit")),
        ("ChuChariot1", "imprison", "ChuCannon1", {}, None),  # own camp allowed (RES-C2)
        ("ChuHorse1", "check", "ChuHorse2", {}, ("self_target", "rejected")),
        ("ChuHorse1", "check", "HanGen", {}, None),
        ("ChuCannon1", "cannon_kill", "HanGen", {"platform": "HanSoldier1"}, None),
        ("ChuCannon1", "cannon_kill", "HanSoldier1", {}, ("invalid_platform", "forfeit")),
        (
            "ChuCannon1",
            "cannon_kill",
            "HanSoldier1",
            {"platform": "ChuGen"},
            ("invalid_platform", "forfeit"),
        ),
        (
            "ChuCannon1",
            "cannon_kill",
            "HanSoldier1",
            {"platform": "ChuCannon1"},
            ("invalid_platform", "forfeit"),
        ),
        (
            "ChuCannon1",
            "cannon_kill",
            "HanSoldier1",
            {"platform": "HanSoldier5"},
            ("invalid_platform", "forfeit"),
        ),
        ("ChuLeftAdv", "curse", "HanGen", {}, None),
        ("ChuSoldier1", "kill", "HanSoldier1", {}, ("no_power", "rejected")),
        ("HanSoldier5", "pray", "HanGen", {}, ("dead_actor", "rejected")),
        ("ChuGen", "swap_general", "HanSoldier1", {}, None),  # fails only when it triggers
        ("ChuGen", "swap_general", "ChuGen", {}, ("invalid_target", "rejected")),
        ("ChuSoldier1", "pray", "HanSoldier5", {}, ("target_not_alive", "rejected")),
    ],
)
def test_receipts(
    actor: str, action: str, target: str, extra: dict[str, Any], expected: tuple[str, str] | None
):
    assert _receipt(table(dead=("HanSoldier5",)), actor, action, target, **extra) == expected


def test_receipt_after_the_deadline():
    late = DEADLINE + timedelta(minutes=1)
    assert _receipt(table(), "ChuGen", "kill", "HanSoldier1", late) == ("pm_window", "rejected")
    assert _receipt(table(), "ChuGen", "kill", "HanSoldier1", DEADLINE) is None


def test_latest_invalid_submission_does_not_fall_back_to_an_earlier_one():
    # Step 1: take the latest submission, then discard it if invalid.
    _, report = night(
        table(dead=("HanSoldier5",)),
        ("ChuGen", "kill", "HanSoldier1", {"t": DEADLINE - timedelta(hours=2)}),
        ("ChuGen", "kill", "HanSoldier5", {"t": DEADLINE - timedelta(hours=1)}),
    )
    assert report.deaths == ()


# -- structures -------------------------------------------------------------------------------------


def test_prayer_thresholds():
    assert prayer_thresholds(table()) == {"chu": 2, "han": 2}
    dead = ("ChuSoldier2", "ChuSoldier3", "ChuSoldier4", "ChuSoldier5")
    assert prayer_thresholds(table(dead=dead)) == {"chu": 2, "han": 5}
    assert prayer_thresholds(table(dead=dead + ("ChuSoldier1",))) == {"chu": 2, "han": 5}


def mutual_overlap(first: tuple[datetime | None, int], second: tuple[datetime | None, int]):
    """ChuCannon1 and ChuCannon2 name each other as platform, sent at (time, arrival)."""
    subs = {
        name: Submission(name, "cannon_kill", target, frozen_map({"platform": platform}), t, seq)
        for name, target, platform, (t, seq) in (
            ("ChuCannon1", "HanSoldier1", "ChuCannon2", first),
            ("ChuCannon2", "HanSoldier2", "ChuCannon1", second),
        )
    }
    return cannon_shots(table(), subs)


def test_mutual_overlap_on_equal_times_falls_back_to_arrival_and_flags_the_gm():
    t = DEADLINE - timedelta(hours=1)
    out = mutual_overlap((t, 2), (t, 1))
    assert list(out.shots) == ["ChuCannon2"] and out.shots["ChuCannon2"].overlapping
    assert {(n.who, n.rule) for n in out.notes} == {
        ("ChuCannon1", "mutual_overlap_later"),
        ("ChuCannon1", "overlap_lots"),
    }


def test_mutual_overlap_an_untimed_pm_is_earlier_than_a_timed_one():
    """FORMAT "Time stamps": entries without a time come first, whatever their arrival."""
    out = mutual_overlap((DEADLINE - timedelta(hours=1), 1), (None, 2))
    assert list(out.shots) == ["ChuCannon2"]
    assert [(n.who, n.rule) for n in out.notes] == [("ChuCannon1", "mutual_overlap_later")]


def test_enemy_cannons_as_each_others_platform_are_not_overlapping():
    subs = {
        "ChuCannon1": Submission(
            "ChuCannon1", "cannon_kill", "HanSoldier1", frozen_map({"platform": "HanCannon1"})
        ),
        "HanCannon1": Submission(
            "HanCannon1", "cannon_kill", "ChuSoldier1", frozen_map({"platform": "ChuCannon1"})
        ),
    }
    out = cannon_shots(table(), subs)
    assert set(out.shots) == {"ChuCannon1", "HanCannon1"} and not out.notes
    assert not any(s.overlapping for s in out.shots.values()) and out.linked == []


def test_kill_condition():
    han = table().seat("HanGen")
    assert not kill_condition_met(table(), han)
    soldiers = tuple(f"HanSoldier{i}" for i in range(1, 6))
    assert kill_condition_met(table(dead=soldiers), han)
    assert not kill_condition_met(table(dead=("HanEleph1", "HanEleph2", "HanLeftAdv")), han)
    assert kill_condition_met(
        table(dead=("HanEleph1", "HanEleph2", "HanLeftAdv", "HanRightAdv")), han
    )


def test_eye_block_and_leg_block_need_an_enemy_soldier():
    # A Chu soldier praying for the Chu elephant's protect target blocks nothing.
    _, report = night(
        table(),
        ("ChuEleph1", "protect", "ChuSoldier3"),
        ("ChuSoldier1", "pray", "ChuSoldier3"),
        ("ChuHorse1", "check", "HanSoldier1"),
        ("ChuHorse2", "check", "HanSoldier1"),
        ("ChuSoldier2", "pray", "HanSoldier1"),
        ("HanGen", "kill", "ChuSoldier3"),
    )
    assert report.states["IMP"] == []
    assert {r.to for r in report.private_results if r.text_kind == "check"} == {
        "ChuHorse1",
        "ChuHorse2",
    }
    assert [s.by for s in report.saved] == ["protect"]


# -- swaps -----------------------------------------------------------------------------------------


HAN_SOLDIERS = tuple(f"HanSoldier{i}" for i in range(1, 6))


def test_a_swap_covers_only_its_night_and_the_next_day():
    state, _ = night(table(dead=HAN_SOLDIERS), ("HanGen", "swap_general", "HanChariot1"))
    state, _ = day(state, everyone(), n=2)
    state, report = night(state, ("ChuGen", "kill", "HanGen"), n=2)
    assert [(d.name, d.cause) for d in report.deaths] == [("HanGen", "general")]
    assert state.winner == "chu"


def test_a_swap_is_consumed_even_when_wasted_and_a_third_is_rejected():
    state = table()
    for n in (1, 2):
        state, report = night(state, ("HanGen", "swap_general", "HanChariot1"), n=n)
        assert not notes(report)
    assert state.memory.swaps_left(state.seat("HanGen").number) == 0
    state, report = night(
        state, ("HanGen", "swap_general", "HanChariot2"), ("HanGen", "kill", "ChuSoldier1"), n=3
    )
    assert notes(report) == {("HanGen", "no_swaps_left", "rejected")}
    assert [d.name for d in report.deaths] == ["ChuSoldier1"]  # the kill is separate from the swap


def test_a_night_swap_is_not_blocked_by_invincibility():
    state, report = night(
        table(dead=HAN_SOLDIERS),
        ("HanGen", "swap_general", "HanCannon1"),
        ("ChuCannon1", "cannon_kill", "ChuSoldier5", {"platform": "HanCannon1"}),
        ("ChuGen", "kill", "HanGen"),
    )
    assert "HanCannon1" in report.states["INV"]
    assert {(d.name, d.cause) for d in report.deaths} == {
        ("HanCannon1", "swap"),
        ("ChuSoldier5", "cannon"),
    }
    assert state.winner is None


def test_a_pending_swap_does_not_depend_on_day_numbering():
    # FORMAT.md numbers the day after night 1 "day 2"; a daemon may call it day 1.
    for n in (1, 2):
        state, _ = night(table(dead=HAN_SOLDIERS), ("HanGen", "swap_general", "HanChariot1"))
        chu = {s.name: "HanGen" for s in state.alive() if s.team == "chu"}
        _, report = day(state, everyone(state=state, **chu), n=n)
        assert report.executed == "HanChariot1"
        assert [(s.name, s.by) for s in report.saved] == [("HanGen", "swap")]


# -- day ---------------------------------------------------------------------------------------------


def _ballots_at(
    state: GameState, *ballots: tuple[str, str, datetime | None, bool]
) -> tuple[GameState, Report]:
    state, _ = RULES.apply(state, OpenDay(1, frozen_map({"round1_close": CLOSE})))
    for voter, target, t, ok in ballots:
        state, _ = RULES.apply(state, CastBallot(voter, target, t, format_ok=ok))
    state, events = RULES.apply(state, CloseRound())
    report = Report()
    for e in events:
        report = report.merge(e.report)
    return state, report


def test_ballot_changes():
    h = lambda hours: CLOSE - timedelta(hours=hours)  # noqa: E731
    _, report = _ballots_at(
        table(),
        ("ChuSoldier1", "HanSoldier1", h(5), True),
        ("ChuSoldier1", "HanSoldier1", h(4), True),  # re-posting the same target is no change
        ("ChuSoldier1", "HanSoldier2", h(3), True),  # the one change
        ("ChuSoldier1", "HanSoldier2", h(2), True),  # same again: ignored silently
        ("ChuSoldier2", "HanSoldier1", h(3), False),  # malformed: consumes nothing
        ("ChuSoldier2", "HanSoldier5", h(2.5), True),
        ("ChuSoldier2", "HanSoldier3", h(2), True),
        ("ChuSoldier3", "HanSoldier3", h(0.5), True),  # a first ballot in the last hour is fine
        ("ChuSoldier4", "ABSTAIN", h(3), True),
        ("ChuSoldier4", "HanSoldier3", h(1), True),  # exactly one hour before: last hour
    )
    assert report.vote_tally == {"HanSoldier2": 1, "HanSoldier3": 2}
    assert notes(report, but="lurking") == {
        ("ChuSoldier2", "format_r1", "rejected"),
        ("ChuSoldier4", "last_hour_change_r1", "rejected"),
    }


def test_a_ballot_for_a_dead_player_is_malformed():
    _, report = _ballots_at(
        table(dead=("HanSoldier1",)), ("ChuSoldier1", "HanSoldier1", None, True)
    )
    assert notes(report) >= {("ChuSoldier1", "format_r1", "rejected")}
    assert report.vote_tally == {}


@pytest.mark.parametrize(("votes", "executed"), [(3, True), (2, False)])
def test_thirty_percent_in_integers(votes: int, executed: bool):
    # 10 living players; 3/10 is exactly 30% and executes, 2/10 does not.
    dead = tuple(n for n in NAMES if n.startswith("Han") and n != "HanGen") + (
        "ChuEleph2", "ChuLeftAdv", "ChuRightAdv", "ChuSoldier2", "ChuSoldier3", "ChuSoldier4",
        "ChuSoldier5",
    )  # fmt: skip
    state = table(dead=dead)
    living = [s.name for s in state.alive()]
    assert len(living) == 10
    ballots = {v: ("ChuSoldier1" if i < votes else ABSTAIN) for i, v in enumerate(living)}
    _, report = day(state, ballots)
    assert report.executed == ("ChuSoldier1" if executed else None)


def test_two_curses_from_both_camps_add_up():
    state, _ = night(
        table(), ("ChuLeftAdv", "curse", "HanSoldier1"), ("HanLeftAdv", "curse", "HanSoldier1")
    )
    _, report = day(state, everyone(), n=2)
    assert report.vote_tally == {"HanSoldier1": 2}
    assert report.executed is None  # 2 of 32 ballots is below 30%


def test_a_bless_on_zero_votes_is_announced_and_floored():
    # RES-C17: chess has no suppression clause; RES-C15: tallies are floored at 0.
    state, _ = night(table(), ("ChuRightAdv", "bless", "HanSoldier1"))
    _, report = day(state, everyone(), n=2)
    assert report.vote_tally == {}
    assert [f.get("name") for f in report.public_facts if f.kind == "bless_applied"] == [
        "HanSoldier1"
    ]


def test_curse_and_bless_last_one_day_only():
    state, _ = night(table(), ("ChuLeftAdv", "curse", "HanSoldier1"))
    state, first = day(state, everyone(), n=2)
    state, second = day(state, everyone(), n=3)
    assert first.vote_tally == {"HanSoldier1": 1} and second.vote_tally == {}


def test_round2_ballots_only_for_candidates():
    ballots = everyone(
        **{n: "HanSoldier1" for n in NAMES[:10]}, **{n: "ChuSoldier1" for n in NAMES[16:26]}
    )
    runoff = everyone(
        **{n: "HanSoldier1" for n in NAMES[:10]}, **{n: "HanSoldier2" for n in NAMES[16:26]}
    )
    _, report = day(table(), ballots, runoff=runoff)
    assert report.runoff_tally == {"HanSoldier1": 10}
    assert report.executed == "HanSoldier1"


def test_forced_execution_during_the_day():
    state, _ = RULES.apply(table(), OpenDay(1))
    state, _ = RULES.apply(state, ForceExecution("HanSoldier1", "GM"))
    state, events = RULES.apply(state, CloseRound())
    assert events[0].report.executed == "HanSoldier1"
    assert not state.is_alive("HanSoldier1")


# -- lurking and substitution ---------------------------------------------------------------------------


def test_timeline_lurk_check_counts_a_window():
    t0 = datetime(2024, 3, 5, 12)
    events = [
        {"kind": "post", "actor": n, "t": t0} for n in NAMES if n != "HanSoldier5" for _ in range(6)
    ]
    step = {"check": "lurk", "start": t0, "now": t0 + timedelta(hours=1), "events": events}
    report = RULES.timeline(table(), step)
    assert notes(report) == {("HanSoldier5", "lurking", "warning")}
    assert report.lurk_warnings == {"HanSoldier5": 1}
    with pytest.raises(RulesetError):
        RULES.timeline(table(), {**step, "check": "signin"})


def test_a_substitute_inherits_the_seat_but_not_the_warnings():
    state = table()
    state, _ = RULES.apply(state, OpenDay(1))
    counts = frozen_map({n: 20 for n in NAMES if n != "ChuSoldier5"})
    state, _ = RULES.apply(state, RecordActivity(counts))
    for n in NAMES:
        state, _ = RULES.apply(state, CastBallot(n, ABSTAIN))
    state, _ = RULES.apply(state, Substitute("ChuSoldier5", "ChuSub"))
    state, events = RULES.apply(state, CloseRound())
    assert state.seat("ChuSub").number == 15 and state.seat("ChuSub").role == "soldier"
    assert state.memory.warnings_of("ChuSoldier5") == 1
    assert state.memory.warnings_of("ChuSub") == 0
    assert all(f.kind != "substitution" for e in events for f in e.report.public_facts)  # [CH:L158]


# -- phases and the end of the game -------------------------------------------------------------------


def test_illegal_commands_leave_the_state_untouched():
    state = table()
    with pytest.raises(IllegalActionError):
        RULES.apply(state, CloseNight())
    opened, _ = RULES.apply(state, OpenNight(1))
    with pytest.raises(IllegalActionError):
        RULES.decide(opened, CastBallot("ChuGen", ABSTAIN))
    assert opened.ballots == () and opened.phase is Phase.NIGHT


def test_after_the_win_only_gm_corrections():
    state, report = night(table(dead=HAN_SOLDIERS), ("ChuGen", "kill", "HanGen"))
    assert state.winner == "chu" and state.phase is Phase.OVER
    for command in (
        OpenDay(2),
        Submit("ChuGen", "kill", "HanChariot1"),
        DeclareExit("ChuSoldier1"),
    ):
        with pytest.raises(IllegalActionError):
            RULES.decide(state, command)


def test_a_drowned_general_loses_the_game():
    state, events = RULES.apply(table(), DeclareExit("HanGen", "drowned"))
    assert state.winner == "chu"


def test_no_day_powers():
    state, _ = RULES.apply(table(), OpenDay(1))
    state, events = RULES.apply(state, Submit("ChuGen", "kill", "HanSoldier1"))
    assert [n.rule for n in events[0].report.daemon] == ["pm_window"]
    state, events = RULES.apply(state, CloseRound())
    assert state.is_alive("HanSoldier1")


# -- the daemon's clock --------------------------------------------------------------------------------


def test_phase_times_pause_over_the_weekend():
    friday = datetime(2024, 3, 8, 20)
    night_times = RULES.phase_times(table(), Phase.NIGHT, 1, friday)
    assert night_times.closes == datetime(2024, 3, 11, 20)
    assert night_times.input_deadline == datetime(2024, 3, 11, 19, 50)
    day_times = RULES.phase_times(table(day_hours=36), Phase.DAY, 2, datetime(2024, 3, 11, 20))
    assert day_times.rounds[1] == (datetime(2024, 3, 11, 20), datetime(2024, 3, 13, 8))
    assert day_times.rounds[2] == (datetime(2024, 3, 13, 8), datetime(2024, 3, 14, 8))
    assert day_times.closes == datetime(2024, 3, 13, 8)
    assert RULES.phase_times(table(), Phase.NIGHT, 1, friday, substitutions=2) == night_times
