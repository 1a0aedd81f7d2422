"""Unit tests of the werewolf ruleset's pieces (RULES.md §5, RES-W*), through the core's commands."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shenshi.rulesets.base import (
    CastBallot,
    CloseNight,
    CloseRound,
    Command,
    DeclareExit,
    ForceExecution,
    GameState,
    GmRuling,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    PlayerSpec,
    PublicFact,
    RecordLastWords,
    Report,
    RulesetError,
    Submission,
    Submit,
    Substitute,
    frozen_map,
)
from shenshi.rulesets.registry import find_ruleset
from shenshi.rulesets.werewolf import camps, clock
from shenshi.rulesets.werewolf.settings import NIGHT_STEPS, WerewolfSettings, default_config
from shenshi.rulesets.werewolf.submissions import choose
from tests.rulesets.commands import apply_all

WW = find_ruleset("werewolf")
T0 = datetime(2024, 3, 5, 21, 0)

CAST = (
    ("Seer", "seer", "village"),
    ("Witch", "witch", "village"),
    ("Guard", "guard", "village"),
    ("Cupid", "cupid", "village"),
    ("W1", "werewolf", "wolves"),
    ("W2", "werewolf", "wolves"),
    ("W3", "werewolf", "wolves"),
    ("Piper", "piper", "piper"),
    ("V1", "villager", "village"),
    ("V2", "villager", "village"),
    ("V3", "villager", "village"),
)


def game(
    cast: Iterable[tuple[str, str, str]] = CAST,
    config: dict[str, Any] | None = None,
    addons: dict[str, tuple[str, ...]] | None = None,
) -> GameState:
    addons = addons or {}
    specs = [PlayerSpec(n, r, t, addons=addons.get(n, ())) for n, r, t in cast]
    return WW.new_game(specs, config)


def act(
    actor: str, action: str, target: str | None, t: datetime | None = None, **extra: Any
) -> Submit:
    return Submit(actor, action, target, frozen_map(extra), t)


def run(state: GameState, commands: Sequence[Command]) -> tuple[GameState, Report]:
    return apply_all(WW, state, commands)


def night(
    state: GameState,
    n: int,
    actions: Sequence[Submit] = (),
    deadlines: dict[str, datetime] | None = None,
) -> tuple[GameState, Report]:
    params = frozen_map({"phase_deadlines": frozen_map(deadlines or {})})
    return run(state, [OpenNight(n, params), *actions, CloseNight()])


def day(
    state: GameState,
    n: int,
    votes: Sequence[tuple[str, str]] = (),
    actions: Sequence[Submit] = (),
    before_close: Sequence[Command] = (),
) -> tuple[GameState, Report]:
    ballots = [CastBallot(v, t) for v, t in votes]
    return run(state, [OpenDay(n), *actions, *ballots, *before_close, CloseRound()])


def names(report: Report, key: str = "deaths") -> list[str]:
    return [d.name for d in getattr(report, key)]


def visible_rules(report: Report) -> set[tuple[str, str]]:
    return {(n.who, n.rule) for n in report.daemon if not n.log_only}


def private(report: Report, kind: str) -> dict[str, Any]:
    return {r.to: r.value for r in report.private_results if r.text_kind == kind}


def paired(first: str, second: str, **kw: Any) -> GameState:
    state, _ = night(game(**kw), 0, [act("Cupid", "pair_lovers", first, target2=second)])
    return state


# -- settings (RES-W1, RES-W2, RES-W3) -----------------------------------------------------------


def test_defaults_are_the_spec_proposals() -> None:
    s = WerewolfSettings.from_config(default_config())
    assert s.night_order == NIGHT_STEPS == ("guard", "kill", "witch", "seer", "piper")
    assert s.night_phase["kill"] == s.night_phase["guard"] == s.night_phase["pipe"] == "1"
    assert s.night_phase["heal"] == s.night_phase["poison"] == "2"
    assert s.weight == Fraction(21, 10)
    assert (s.win.piper_madness, s.win.last_camp_standing, s.win.draw_when_none_left) == (
        True,
        True,
        True,
    )
    assert default_config()["composition"]["werewolf"] == 3
    assert (s.last_words_limit, s.last_words_chars, s.sent_off_points) == (4, 3000, 12)


def test_default_config_is_a_fresh_copy() -> None:
    first = WW.default_config()
    first["win"]["piper_madness"] = False
    assert WW.default_config()["win"]["piper_madness"] is True


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"night_order": ["kill", "guard", "witch", "seer"]}, "night_order"),
        ({"win": {"wolves_majority": True}}, "unknown condition"),
        ({"night_phases": {"1": ["kill"], "2": ["kill"]}}, "two phases"),
        ({"night_phases": {"1": ["vote"]}}, "not a night skill"),
        ({"sheriff_default": "random"}, "sheriff_default"),
        ({"sheriff_weight": "heavy"}, "config"),
        ({"night_phase_deadlines": {"1": "midnight"}}, "night_phase_deadlines"),
    ],
)
def test_bad_settings_are_refused(config: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        game(config=config)


def test_night_phase_deadlines_are_times_of_day() -> None:
    """A host who gives other deadlines (夜晚1 23:30, 夜晚2 02:00) gets them on every night."""
    state = game(config={"night_phase_deadlines": {"1": "23:30", "2": "02:00"}})
    times = WW.phase_times(state, Phase.NIGHT, 3, datetime(2024, 3, 5, 21, 7))
    assert times.phase_deadlines == {"1": datetime(2024, 3, 5, 23, 30), "2": datetime(2024, 3, 6, 2, 0)}
    late = WW.phase_times(state, Phase.NIGHT, 3, datetime(2024, 3, 6, 0, 30))  # opened after 23:30
    assert late.phase_deadlines == {"1": datetime(2024, 3, 6, 2, 20), "2": datetime(2024, 3, 6, 4, 10)}


def test_a_night_opened_after_a_phases_time_shares_what_is_left_of_it() -> None:
    """recheck2 N5: a night opened at 01:00 (the day's result posted late) closed both phases
    at 06:00: the witch got her 【通灵】 list with the morning's post and could not act. What is
    left is shared as a whole night is: a part for each phase, one for 殉职 and last words."""
    state = game()
    times = WW.phase_times(state, Phase.NIGHT, 3, datetime(2024, 3, 6, 1, 0))
    assert times.phase_deadlines == {"1": datetime(2024, 3, 6, 2, 40), "2": datetime(2024, 3, 6, 4, 20)}
    assert times.closes == datetime(2024, 3, 6, 6, 0)


@given(minutes=st.integers(min_value=0, max_value=9 * 60 - 1), seconds=st.integers(0, 59))
def test_every_night_phase_has_time_before_the_dawn(minutes: int, seconds: int) -> None:
    """Whatever minute a night opens (21:00 to 05:59), its phases close in order, after it
    opened and by the dawn; the witch's phase never closes with the dawn unless the night
    opened in its last minutes."""
    opened = datetime(2024, 3, 5, 21, 0) + timedelta(minutes=minutes, seconds=seconds)
    times = WW.phase_times(game(), Phase.NIGHT, 3, opened)
    one, two = times.phase_deadlines["1"], times.phase_deadlines["2"]
    assert opened < one <= two <= times.closes
    if times.closes - opened >= timedelta(minutes=10):
        assert one < two < times.closes


def test_win_settings_merge_key_by_key() -> None:
    state = game(config={"win": {"piper_madness": False}})
    win = camps.settings(state).win
    assert (win.piper_madness, win.last_camp_standing) == (False, True)


def test_addon_counts_are_checked() -> None:
    with pytest.raises(RulesetError, match="lover"):
        game(addons={"V1": ("lover",)})
    with pytest.raises(RulesetError, match="sheriff"):
        game(addons={"V1": ("sheriff",), "V2": ("sheriff",)})


def test_a_gm_may_reorder_the_night() -> None:
    # With the seer's step before the kill and the witch before the kill, the witch sees nothing.
    order = ["guard", "witch", "seer", "kill", "piper"]
    state = game(config={"night_order": order})
    _, report = night(state, 1, [act("W1", "kill", "V1")])
    assert private(report, "witch_vision") == {"Witch": []}
    assert names(report) == ["V1"]


# -- the 确定 lock and the latest reply (RES-W7) ----------------------------------------------------


def sub(actor: str, target: str, minute: int, seq: int, confirm: bool = False) -> Submission:
    extra = frozen_map({"confirm": True} if confirm else {})
    return Submission(actor, "kill", target, extra, T0.replace(minute=minute), seq)


def test_choose_latest_without_a_lock() -> None:
    chosen, overridden = choose([sub("W1", "V1", 10, 1), sub("W2", "V2", 20, 2)])
    assert chosen is not None and chosen.target == "V2" and overridden == []


def test_choose_first_lock_wins_and_later_replies_are_overridden() -> None:
    subs = [
        sub("W1", "V1", 10, 1),
        sub("W2", "V2", 20, 2, True),
        sub("W3", "V3", 25, 3, True),
        sub("W1", "V1", 30, 4),
    ]
    chosen, overridden = choose(reversed(subs))  # arrival order does not matter, time does
    assert chosen is not None and chosen.target == "V2"
    assert [s.target for s in overridden] == ["V3", "V1"]


def test_pack_kill_latest_reply_before_the_deadline() -> None:
    deadline = {"1": T0.replace(hour=23, minute=30)}
    actions = [
        act("W1", "kill", "V1", T0.replace(hour=22)),
        act("W3", "kill", "V3", T0.replace(hour=23)),
        act("W2", "kill", "V2", T0.replace(hour=23, minute=45)),
    ]
    _, report = night(game(), 1, actions, deadline)
    assert names(report) == ["V3"]
    assert visible_rules(report) == {("W2", "phase_deadline")}


# -- night 0 (N0.1–N0.4, RES-W10, RES-W12) ---------------------------------------------------------


def test_lovers_of_different_camps_elope_with_cupid() -> None:
    state = paired("V1", "W1")
    assert {n: state.seat(n).team for n in ("V1", "W1", "Cupid", "W2")} == {
        "V1": "lovers", "W1": "lovers", "Cupid": "lovers", "W2": "wolves",
    }  # fmt: skip
    assert {s.name for s in camps.lovers(state)} == {"V1", "W1"}
    assert not camps.same_type_lovers(state)


def test_lovers_of_one_camp_take_cupid_into_it() -> None:
    state = paired("W1", "W2")
    assert state.seat("Cupid").team == "wolves"
    assert camps.identity(state, state.seat("Cupid")) == "werewolf"  # 奇缘
    assert state.seat("Cupid").role == "cupid"  # RES-W11: not part of the pack
    assert [g.who for g in camps.kill_groups(state)] == ["wolves"]


def test_cupid_may_pair_himself_but_not_one_character_twice() -> None:
    state = paired("Cupid", "Piper")
    assert state.seat("Cupid").team == state.seat("Piper").team == "lovers"
    state, report = night(game(), 0, [act("Cupid", "pair_lovers", "V1", target2="V1")])
    assert camps.lovers(state) == ()
    assert report.private_results == ()


def test_lover_partners_are_told_privately() -> None:
    _, report = night(game(), 0, [act("Cupid", "pair_lovers", "V2", target2="W3")])
    assert private(report, "lover_partner") == {"V2": "W3", "W3": "V2"}
    assert report.public_facts == ()


def test_entrust_counts_the_wolf_camp_after_elopement() -> None:
    actions = [act("Cupid", "pair_lovers", "V1", target2="W1"), act("W2", "lone_wolf", "W3")]
    state, _ = night(game(), 0, actions)
    assert "lone_wolf" not in state.seat("W3").addons  # W1 eloped: the camp has 2 members
    state, _ = night(game(), 0, [act("W2", "lone_wolf", "W3")])
    assert "lone_wolf" in state.seat("W3").addons


def test_entrust_needs_a_werewolf_target_and_is_single_use() -> None:
    state, _ = night(game(), 0, [act("W1", "lone_wolf", "V1")])
    assert not any("lone_wolf" in s.addons for s in state.seats)
    state, _ = night(game(), 0, [act("W1", "lone_wolf", "W2"), act("W3", "lone_wolf", "W3")])
    assert [s.name for s in state.seats if "lone_wolf" in s.addons] == ["W3"]  # the latest


def test_night_zero_skills_only_on_night_zero() -> None:
    state, report = night(game(), 0, [act("W1", "kill", "V1")])
    assert names(report) == [] and all(s.alive for s in state.seats)
    state, _ = night(state, 1, [act("Cupid", "pair_lovers", "V1", target2="V2")])
    assert camps.lovers(state) == ()


# -- P1 guard, P2 kill, P3 witch ---------------------------------------------------------------------


def test_same_type_lovers_are_immune_to_the_guard_and_use_the_slot() -> None:
    state = paired("V1", "V2")
    state, report = night(state, 1, [act("Guard", "guard", "V1")])
    assert camps.memory(state).guarded == {state.seat("V1").number}
    _, report = night(state, 2, [act("Guard", "guard", "V1"), act("W1", "kill", "V1")])
    assert ("Guard", "guard_once") in visible_rules(report)
    assert [(d.name, d.cause) for d in report.deaths] == [("V1", "kill"), ("V2", "lovers_suicide")]


def test_guard_may_protect_himself() -> None:
    _, report = night(game(), 1, [act("Guard", "guard", "Guard"), act("W1", "kill", "Guard")])
    assert names(report) == [] and names(report, "saved") == ["Guard"]


def test_vision_lists_immune_targets_and_heal_is_consumed_without_effect() -> None:
    state, report = night(
        game(),
        1,
        [act("Guard", "guard", "V1"), act("W1", "kill", "V1"), act("Witch", "heal", "V1")],
    )
    assert private(report, "witch_vision") == {"Witch": ["V1"]}
    assert [(s.name, s.by) for s in report.saved] == [("V1", "guard")]
    assert camps.memory(state).heal_used == {state.seat("Witch").number}
    # 【通灵】 is lost with the heal; a second heal is refused.
    state, report = night(state, 2, [act("W1", "kill", "V2"), act("Witch", "heal", "V2")])
    assert private(report, "witch_vision") == {} and names(report) == ["V2"]


def test_heal_outside_the_list_is_rejected_and_not_consumed() -> None:
    state, report = night(game(), 1, [act("W1", "kill", "V1"), act("Witch", "heal", "V2")])
    assert ("Witch", "heal_not_in_vision") in visible_rules(report)
    assert camps.memory(state).heal_used == frozenset()


def test_witch_vision_hook_matches_the_night() -> None:
    state, _ = run(game(), [OpenNight(1), act("W2", "kill", "Seer"), act("W1", "kill", "V3")])
    assert [(r.to, r.value) for r in WW.witch_vision(state)] == [("Witch", ["V3"])]


def test_poison_fails_when_the_witch_is_dying_from_a_kill() -> None:
    state, report = night(game(), 1, [act("W1", "kill", "Witch"), act("Witch", "poison", "W2")])
    assert names(report) == ["Witch"] and state.is_alive("W2")
    assert camps.memory(state).poison_used == {state.seat("Witch").number}


def test_poison_goes_through_the_guard_and_is_announced_after_the_dying() -> None:
    actions = [
        act("Guard", "guard", "W2"),
        act("Witch", "poison", "W2", T0.replace(hour=22)),
        act("W1", "kill", "V1", T0.replace(hour=23)),
    ]
    _, report = night(game(), 1, actions)
    assert [(d.name, d.cause) for d in report.deaths] == [("V1", "kill"), ("W2", "poison")]
    assert report.announce_order == ("V1", "W2")


def test_both_potions_in_one_night() -> None:
    state, report = night(
        game(),
        1,
        [act("W1", "kill", "V1"), act("Witch", "heal", "V1"), act("Witch", "poison", "W1")],
    )
    assert names(report) == ["W1"] and names(report, "saved") == ["V1"]
    mem = camps.memory(state)
    assert mem.heal_used == mem.poison_used == {state.seat("Witch").number}


def test_witch_replies_count_only_within_her_phase() -> None:
    """夜晚2 opens when 夜晚1 closes (§5.4, RES-W3): a reply before it fails like a late one."""
    deadlines = {"1": T0.replace(hour=23), "2": T0.replace(hour=23, minute=59)}
    early = act("Witch", "poison", "W1", T0.replace(hour=22))  # before her phase opens
    late = act("Witch", "heal", "V1", datetime(2024, 3, 6, 0, 30))
    state, report = night(
        game(), 1, [act("W1", "kill", "V1", T0.replace(hour=22)), early, late], deadlines
    )
    assert visible_rules(report) == {("Witch", "phase_deadline")}
    assert ("Witch", "phase_not_open") in {(n.who, n.rule) for n in report.daemon}
    assert names(report) == ["V1"]
    assert not camps.memory(state).poison_used  # a failed reply spends nothing


def test_a_heal_before_the_vision_is_sent_fails_even_on_a_listed_target() -> None:
    """The 【通灵】 list is sent when 夜晚1 closes; a 【救药】 sent before it (here on the
    character who ends up on the list) is outside 夜晚2 and fails; one at the opening counts."""
    deadlines = {"1": T0.replace(hour=23), "2": datetime(2024, 3, 6, 2)}
    kills = [act("W1", "kill", "V2", T0.replace(hour=21, minute=30)),
             act("W2", "kill", "V1", T0.replace(hour=22, minute=30))]  # fmt: skip
    early = act("Witch", "heal", "V1", T0.replace(hour=22, minute=45))
    state, report = night(game(), 1, [*kills, early], deadlines)
    assert names(report) == ["V1"] and report.saved == ()
    assert not camps.memory(state).heal_used
    at_opening = act("Witch", "heal", "V1", T0.replace(hour=23))
    _, report = night(game(), 1, [*kills, early, at_opening], deadlines)
    assert names(report) == [] and names(report, "saved") == ["V1"]


# -- P4 seer, P5 piper -----------------------------------------------------------------------------


def test_seer_answers_by_current_camp() -> None:
    state = paired("W1", "W2")  # cupid joins the wolves
    _, report = night(state, 1, [act("Seer", "divine", "Cupid")])
    assert private(report, "prophecy") == {"Seer": "非村民阵营"}
    _, report = night(game(), 1, [act("Seer", "divine", "Guard")])
    assert private(report, "prophecy") == {"Seer": "村民阵营"}


def test_a_seer_killed_tonight_still_gets_the_answer() -> None:
    _, report = night(game(), 1, [act("Seer", "divine", "W1"), act("W1", "kill", "Seer")])
    assert names(report) == ["Seer"] and private(report, "prophecy") == {"Seer": "非村民阵营"}


def test_the_seer_checks_only_the_living() -> None:
    """P4: a character out at the start of the night gets no answer; one who goes out this
    night was alive when checked and is answered."""
    cast = [(n, r, t) for n, r, t in CAST]
    state = WW.new_game([PlayerSpec(n, r, t, alive=n != "V3") for n, r, t in cast])
    _, report = night(state, 1, [act("Seer", "divine", "V3")])
    assert private(report, "prophecy") == {}
    _, report = night(state, 1, [act("Seer", "divine", "W2"), act("W1", "kill", "W2")])
    assert names(report) == ["W2"] and private(report, "prophecy") == {"Seer": "非村民阵营"}


@pytest.mark.parametrize("target", ["V1", "V2", "Piper", "V3"])
def test_pipe_spares_lovers_the_silenced_and_the_piper(target: str) -> None:
    state = paired("V1", "V2")
    state, report = night(
        state, 1, [act("Guard", "silence_guard", "V3"), act("Piper", "pipe", target)]
    )
    assert report.madness == ()


def test_a_dead_actor_does_not_act() -> None:
    state, _ = night(game(), 1, [act("W1", "kill", "Seer")])
    state, report = night(state, 2, [act("Seer", "divine", "W1")])
    assert ("Seer", "dead_actor") in visible_rules(report)
    assert private(report, "prophecy") == {}


# -- P6, announcement, last words ----------------------------------------------------------------------


def test_lover_partner_follows_and_last_words_go_to_the_first_four() -> None:
    state = paired("V1", "W3")
    state, report = night(state, 1, [act("W1", "kill", "V1"), act("Witch", "poison", "V2")])
    assert report.announce_order == ("V1", "V2", "W3")
    assert report.last_words == ("V1", "V2", "W3")
    state, report = day(state, 2, [("Seer", "V3"), ("W1", "V3"), ("W2", "V3")])
    assert report.last_words == ("V3",)
    state, report = night(state, 2, [act("W1", "kill", "Seer")])
    assert report.last_words == () and "last_words" in report.to_json()


def test_no_death_is_announced() -> None:
    _, report = night(game(), 1)
    assert [f.kind for f in report.public_facts] == ["no_death"]
    assert report.to_json()["announce_order"] == []


def test_last_words_are_checked() -> None:
    state, _ = night(game(), 1, [act("W1", "kill", "V1")])
    state, report = run(state, [RecordLastWords("V1", chars=3001)])
    assert [n.rule for n in report.daemon] == ["last_words_long"]
    state, report = run(state, [RecordLastWords("V2", chars=10)])
    assert [n.rule for n in report.daemon] == ["last_words_not_granted"]
    state, report = run(state, [RecordLastWords("V1", chars=3000)])
    assert report.daemon == () and camps.memory(state).last_words_received == (
        state.seat("V1").number,
    )
    state, _ = night(game(), 1, [act("W1", "kill", "V1")])
    state, report = run(state, [OpenDay(2), RecordLastWords("V1", chars=10)])
    assert [n.rule for n in report.daemon] == ["last_words_late"]


# -- extra kill holders: 复仇 and 遗志 (RES-W11, RES-W13) ---------------------------------------------


def test_cupid_gains_the_kill_once_every_other_werewolf_is_out() -> None:
    state = paired("W1", "W2")
    state, _ = night(state, 1, [act("Cupid", "kill", "V1"), act("Witch", "poison", "W1")])
    assert state.is_alive("V1")  # cupid has no kill yet; W1 and W2 (殉情) are out
    state, _ = day(state, 2, [("Seer", "W3"), ("V1", "W3"), ("W3", "Seer")])
    assert [g.who for g in camps.kill_groups(state)] == ["cupid"]
    state, report = night(state, 2, [act("Cupid", "kill", "V1")])
    assert names(report) == ["V1"] and private(report, "witch_vision") == {"Witch": ["V1"]}


def test_eloped_werewolf_keeps_the_pack_kill() -> None:
    """RES-W26: 私奔 changes his camp, not his skill; the living werewolves share one kill."""
    state = paired("V1", "W1")
    assert state.seat("W1").team == "lovers"
    assert [(g.who, [m.name for m in g.members]) for g in camps.kill_groups(state)] == [
        ("wolves", ["W1", "W2", "W3"])
    ]
    state, report = night(state, 1, [act("W2", "kill", "V2"), act("W1", "kill", "Seer")])
    assert names(report) == ["Seer"]  # the last target of any werewolf (RES-W7)


def test_eloped_werewolf_alone_keeps_the_kill_and_then_uses_the_lovers_kill() -> None:
    """RES-W26: the only living werewolf, in 〖情侣阵营〗, still kills; once 〖狼人阵营〗 has
    lost, his kill is the lovers' 【遗志】 kill, and nobody holds two kills in one night."""
    state = paired("V1", "W1")
    state = state.with_deaths(["W2"])
    assert [g.who for g in camps.kill_groups(state)] == ["wolves"]  # W3 keeps the camp alive
    state = state.with_deaths(["W3"])
    groups = camps.kill_groups(state)
    assert [(g.who, sorted(m.name for m in g.members)) for g in groups] == [("lovers", ["V1", "W1"])]
    state, report = night(state, 1, [act("W1", "kill", "V2"), act("V1", "kill", "V3")])
    assert names(report) == ["V3"]  # one kill for the group: the last target named


# -- day: sheriff, weights, tie, 孤刀 ------------------------------------------------------------------


def test_day_one_elects_the_sheriff_and_nobody_goes_out() -> None:
    state, report = day(game(), 1, [("V1", "V2"), ("V2", "V1"), ("V3", "V1")])
    assert camps.sheriff(state).name == "V1"
    assert report.executed is None and report.deaths == ()
    assert report.vote_tally == {"V1": 2, "V2": 1}


def test_sheriff_tie_goes_to_whoever_reached_the_top_first() -> None:
    t = [T0.replace(hour=h) for h in range(8, 14)]
    commands: list[Command] = [OpenDay(1)]
    for voter, target, when in [
        ("V1", "V2", t[0]),
        ("V2", "V2", t[3]),
        ("V3", "W1", t[1]),
        ("W1", "W1", t[2]),
    ]:
        commands.append(CastBallot(voter, target, when))
    state, report = run(game(), [*commands, CloseRound()])
    assert camps.sheriff(state).name == "W1"  # W1's second ballot at 10:00, V2's at 11:00
    assert report.public_facts[0].get("name") == "W1"


def test_a_repeated_sheriff_ballot_stands_from_its_first_post() -> None:
    """Re-posting the ballot that stands is no new ballot (RES-W6): V2 reached the top count
    at 09:00 and keeps it, though V1 posts the same ballot again at 12:00."""
    t = [T0.replace(hour=h) for h in range(8, 14)]
    commands: list[Command] = [OpenDay(1)]
    for voter, target, when in [
        ("V1", "V2", t[1]),
        ("V3", "W1", t[2]),
        ("V1", "V2", t[4]),  # the same ballot again
    ]:
        commands.append(CastBallot(voter, target, when))
    state, report = run(game(), [*commands, CloseRound()])
    assert camps.sheriff(state).name == "V2"
    assert report.vote_tally == {"V2": 1, "W1": 1}
    changed_back = [CastBallot("V1", "W1", t[3]), CastBallot("V1", "V2", t[4])]
    state, _ = run(game(), [*commands[:3], *changed_back, CloseRound()])
    assert camps.sheriff(state).name == "W1"  # V1's vote for V2 stands only from 12:00


def test_latest_ballot_before_the_close_counts() -> None:
    close = T0.replace(hour=21)
    commands: list[Command] = [
        OpenDay(2, frozen_map({"round1_close": close})),
        CastBallot("V1", "W1", T0.replace(hour=9)),
        CastBallot("V1", "W2", T0.replace(hour=10)),
        CastBallot("V1", "W3", T0.replace(hour=22)),  # after the close
        CastBallot("V2", "W2", T0.replace(hour=11)),
        CloseRound(),
    ]
    _, report = run(game(), commands)
    assert report.vote_tally == {"W2": 2} and report.executed == "W2"


def test_sheriff_voted_out_names_his_successor_by_day() -> None:
    state = game(addons={"V1": ("sheriff",)})
    state, report = day(
        state,
        2,
        [("Seer", "V1"), ("W1", "V1"), ("V1", "W1")],
        [act("V1", "sheriff_successor", "V3")],
    )
    assert report.vote_tally == {"V1": 2, "W1": 2.1}
    assert report.executed == "W1"
    state, report = day(
        state,
        3,
        [("Seer", "V1"), ("W2", "V1"), ("V2", "V1"), ("V1", "W2")],
        [act("V1", "sheriff_successor", "V3")],
    )
    assert report.executed == "V1" and camps.sheriff(state).name == "V3"
    assert [f.kind for f in report.public_facts] == ["out", "sheriff"]


def test_no_successor_once_the_game_has_ended() -> None:
    cast = [
        ("V1", "villager", "village"),
        ("W1", "werewolf", "wolves"),
        ("V2", "villager", "village"),
    ]
    state = game(cast, addons={"W1": ("sheriff",)})
    state, report = day(
        state, 2, [("V1", "W1"), ("V2", "W1")], [act("W1", "sheriff_successor", "V1")]
    )
    assert state.winner == "village" and camps.sheriff(state) is None
    assert report.public_facts == (PublicFact.of("out", name="W1"),)


def lone_wolf_table(piper: bool) -> GameState:
    cast = [
        ("Seer", "seer", "village"),
        ("W3", "werewolf", "wolves"),
        ("V1", "villager", "village"),
        ("V2", "villager", "village"),
    ]
    if piper:
        cast.append(("Piper", "piper", "piper"))
    return game(cast, addons={"W3": ("lone_wolf",)})


def test_lone_blade_takes_a_villager_when_no_rival_camp_stands() -> None:
    state, report = day(
        lone_wolf_table(False), 2, [("Seer", "W3"), ("V1", "W3")], [act("W3", "lone_blade", "Seer")]
    )
    assert [(d.name, d.cause) for d in report.deaths] == [
        ("W3", "vote_out"),
        ("Seer", "lone_blade"),
    ]
    assert state.winner == "village"


def test_lone_blade_is_spent_without_effect_while_the_piper_stands() -> None:
    state, report = day(
        lone_wolf_table(True), 2, [("Seer", "W3"), ("V1", "W3")], [act("W3", "lone_blade", "Seer")]
    )
    assert names(report) == ["W3"]
    assert camps.memory(state).blade_used == {state.seat("W3").number}


def test_lone_blade_needs_the_last_wolf() -> None:
    state = game(addons={"W3": ("lone_wolf",)})
    _, report = day(state, 2, [("Seer", "W3"), ("V1", "W3")], [act("W3", "lone_blade", "Seer")])
    assert names(report) == ["W3"]


def test_lone_blade_is_no_use_when_he_is_not_voted_out() -> None:
    state, report = day(
        lone_wolf_table(False), 2, [("Seer", "V1"), ("V1", "V1")], [act("W3", "lone_blade", "Seer")]
    )
    assert names(report) == ["V1"] and camps.memory(state).blade_used == frozenset()


# -- win conditions (RES-W2) --------------------------------------------------------------------------


def test_piper_wins_when_every_other_living_character_is_maddened() -> None:
    cast = [
        ("Piper", "piper", "piper"),
        ("W1", "werewolf", "wolves"),
        ("V1", "villager", "village"),
    ]
    state, report = night(game(cast), 1, [act("Piper", "pipe", "V1"), act("W1", "kill", "Piper")])
    assert state.winner is None and report.madness == ()  # the piper is out: madness lifted
    state, report = night(game(cast), 1, [act("Piper", "pipe", "V1")])
    assert state.winner is None
    state, report = night(state, 2, [act("Piper", "pipe", "W1")])
    assert state.winner == "piper" and state.phase is Phase.OVER


def test_piper_madness_win_can_be_switched_off() -> None:
    cast = [("Piper", "piper", "piper"), ("V1", "villager", "village")]
    state, _ = night(
        game(cast, config={"win": {"piper_madness": False}}), 1, [act("Piper", "pipe", "V1")]
    )
    assert state.winner is None


def test_the_piper_out_lifts_all_madness() -> None:
    state, _ = night(game(), 1, [act("Piper", "pipe", "V1")])
    state, report = night(state, 2, [act("W1", "kill", "Piper")])
    assert report.madness == () and camps.memory(state).madness == frozenset()
    assert [f.kind for f in report.public_facts] == ["out", "madness_lifted"]


def test_draw_when_the_last_camps_lose_together() -> None:
    cast = [("W1", "werewolf", "wolves"), ("V1", "villager", "village")]
    state = game(cast, addons={"W1": ("lover",), "V1": ("lover",)})
    state, report = night(state, 1, [act("W1", "kill", "V1")])
    assert [(d.name, d.cause) for d in report.deaths] == [("V1", "kill"), ("W1", "lovers_suicide")]
    assert state.winner == "draw"


# -- sent off, GM rulings, substitutions ----------------------------------------------------------------


def test_sent_off_character_may_not_vote_or_act_but_keeps_passive_skills() -> None:
    state, report = run(
        game(),
        [GmRuling("send_off", "Witch"), GmRuling("penalty", "Seer", frozen_map({"points": 11}))],
    )
    assert camps.sent_off(state, state.seat("Witch")) and not camps.sent_off(
        state, state.seat("Seer")
    )
    assert [f.kind for f in report.public_facts] == ["sent_off", "penalty"]  # (a direct 罚下 is published as such: wolfadv W11)
    state, report = night(state, 1, [act("W1", "kill", "V1"), act("Witch", "heal", "V1")])
    assert names(report) == ["V1"]  # <单次> 救药 is lost...
    assert private(report, "witch_vision") == {"Witch": ["V1"]}  # ...<被动> 通灵 is kept
    state, report = day(state, 2, [("Witch", "W1"), ("Seer", "W2")])
    assert report.vote_tally == {"W2": 1} and report.executed == "W2"


def test_penalty_points_stay_with_the_player_who_leaves() -> None:
    state, _ = run(game(), [GmRuling("penalty", "V1", frozen_map({"points": 12}))])
    state, _ = run(state, [OpenNight(1), Substitute("V1", "V1x"), CloseNight()])
    assert state.seat("V1x").number == 8 and not camps.sent_off(state, state.seat("V1x"))
    assert camps.memory(state).points("V1") == 12
    _, report = day(state, 2, [("V1x", "W1")])
    assert report.vote_tally == {"W1": 1}


def test_gm_appoints_a_sheriff_and_unknown_rulings_are_illegal() -> None:
    state, report = run(replace(game(), number=2), [GmRuling("sheriff", "V2")])
    assert camps.sheriff(state).name == "V2" and report.sheriff == "V2"
    with pytest.raises(IllegalActionError, match="no GM ruling"):
        WW.decide(state, GmRuling("pardon", "V2"))


def test_no_badge_before_the_election_and_no_vote_out_on_its_day() -> None:
    """gmattack W2/W5: a badge handed out on night 0 was posted 「小明 成为警长。」; a forced
    execution on day 1 put a character out on the day that only elects the sheriff (RES-W5)."""
    with pytest.raises(IllegalActionError, match="no badge before it"):
        WW.decide(game(), GmRuling("sheriff", "V2"))
    with pytest.raises(IllegalActionError, match="nobody goes out today"):
        WW.decide(replace(game(), number=1, phase=Phase.DAY), ForceExecution("V2"))
    with pytest.raises(IllegalActionError, match="nobody goes out today"):  # nor is it cancelled (recheck2 W5)
        WW.decide(replace(game(), number=1, phase=Phase.DAY), ForceExecution(None))


def test_declared_exit_takes_the_partner_and_the_badge() -> None:
    state = game(addons={"V1": ("lover", "sheriff"), "W1": ("lover",)})
    state, report = run(state, [DeclareExit("V1")])
    assert not state.is_alive("W1") and camps.sheriff(state) is None
    assert {"exit", "out"} <= {f.kind for f in report.public_facts}


def test_forced_execution_before_and_after_the_close() -> None:
    state = game(addons={"V1": ("lover",), "W1": ("lover",)})
    state, report = day(state, 2, [("Seer", "V2")], before_close=[ForceExecution("V1")])
    assert report.executed == "V1" and not state.is_alive("W1")
    # After the close the GM cancels it: V1 and W1 (殉情) are back, the order of outs too.
    state, events = WW.apply(state, ForceExecution(None))
    assert state.is_alive("V1") and state.is_alive("W1") and state.phase is Phase.DUSK
    assert camps.memory(state).out_order == ()
    state, events = WW.apply(state, ForceExecution("V2"))
    assert not state.is_alive("V2") and state.is_alive("V1")
    assert events[0].report.executed == "V2"


# -- phases, purity, clock -------------------------------------------------------------------------------


def test_an_illegal_command_leaves_the_state_untouched() -> None:
    state, _ = run(game(), [OpenNight(1), act("W1", "kill", "V1")])
    for command in (CastBallot("V1", "W1"), CloseRound(), OpenDay(2)):
        with pytest.raises(IllegalActionError):
            WW.decide(state, command)
    assert WW.apply(state, CloseNight())[0].phase is Phase.DAWN


def test_after_the_winner_only_gm_corrections_are_accepted() -> None:
    cast = [("W1", "werewolf", "wolves"), ("V1", "villager", "village")]
    state, _ = day(game(cast), 2, [("V1", "W1")])
    assert state.winner == "village"
    for command in (OpenNight(2), act("W1", "kill", "V1")):
        with pytest.raises(IllegalActionError, match="over"):
            WW.decide(state, command)
    state, _ = WW.apply(state, ForceExecution(None))
    assert state.winner is None and state.is_alive("W1")


def test_game_day_clock() -> None:
    s = camps.settings(game())
    full = clock.schedule(datetime(2024, 3, 4, 10, 0), s, cycles=2)
    assert full["day1_start"] == datetime(2024, 3, 5, 6, 0)  # the first 06:00 after the start
    assert full["day1_end"] == datetime(2024, 3, 6, 21, 0)
    assert full["night1_end"] == full["day2_start"] == datetime(2024, 3, 7, 6, 0)
    assert full["day2_end"] == datetime(2024, 3, 8, 21, 0)
    assert set(clock.first_game_day(datetime(2024, 3, 4), s)) == {
        "day1_start",
        "day1_end",
        "night1_end",
    }


def test_registry_and_aliases() -> None:
    assert find_ruleset("WW") is WW and find_ruleset("狼人") is WW


def test_werewolf_core_imports_only_the_standard_library_and_the_package() -> None:
    import sys

    root = Path(__file__).resolve().parents[2] / "shenshi" / "rulesets" / "werewolf"
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                top = node.module.split(".")[0]
            elif isinstance(node, ast.Import):
                top = node.names[0].name.split(".")[0]
            else:
                continue
            assert top in sys.stdlib_module_names or top in ("shenshi", "__future__"), (
                path.name,
                top,
            )


# -- daemon checks: speed-up (W-D7) ------------------------------------------------------------------------


def test_speed_up_needs_everyone_in_play_and_a_determined_result() -> None:
    cast = [
        ("V1", "villager", "village"),
        ("V2", "villager", "village"),
        ("W1", "werewolf", "wolves"),
    ]
    state, _ = run(game(cast), [GmRuling("send_off", "V2"), OpenDay(2), CastBallot("V1", "W1")])
    consent = [act(n, "speed_up", None, day=2) for n in ("V1", "W1")]
    agreed, _ = run(state, consent)
    # V2 is sent off: not asked, and casts nothing; W1's ballot is still to come (1 : 0 + 1)
    assert not WW.completion(agreed).complete
    both, _ = run(agreed, [CastBallot("W1", "V2")])  # 1 : 1 (a sent-off target still counts)
    assert not WW.completion(both).complete
    decided, _ = run(agreed, [CastBallot("W1", "W1")])  # 2 : 0, nothing to come
    assert WW.completion(decided).complete
    one, _ = run(state, consent[:1] + [CastBallot("W1", "W1")])
    assert [o.who for o in WW.completion(one).outstanding] == ["W1"]


def test_no_correction_after_the_close_across_a_substitution() -> None:
    state, _ = day(game(), 2, [("Seer", "V2")], before_close=[Substitute("V1", "V1x")])
    assert state.has_player("V1x")
    with pytest.raises(IllegalActionError, match="substitute"):
        WW.decide(state, ForceExecution(None))


# -- the daemon's clock and intake facts --------------------------------------------------------------


def test_step_order_and_clock_hooks() -> None:
    assert WW.first_phase is Phase.NIGHT and WW.first_number == 0
    assert WW.next_step(Phase.NIGHT, 0) == (Phase.DAY, 1)
    assert WW.next_step(Phase.DAY, 1) == (Phase.NIGHT, 1)
    assert WW.next_step(Phase.NIGHT, 1) == (Phase.DAY, 2)
    state = game()
    night_times = WW.phase_times(state, Phase.NIGHT, 1, datetime(2024, 3, 5, 21, 4))
    assert night_times.closes == datetime(2024, 3, 6, 6, 0)
    # times of day, whatever minute the night opened (a real forum landed at 00:04/03:04)
    assert night_times.phase_deadlines == {
        "1": datetime(2024, 3, 6, 0, 0),
        "2": datetime(2024, 3, 6, 3, 0),
    }
    zero = WW.phase_times(state, Phase.NIGHT, 0, datetime(2024, 3, 4, 5, 0))
    assert zero.closes == datetime(2024, 3, 4, 6, 0)  # opened after both phases' times: shared
    assert zero.phase_deadlines == {"1": datetime(2024, 3, 4, 5, 20), "2": datetime(2024, 3, 4, 5, 40)}
    day_times = WW.phase_times(state, Phase.DAY, 2, datetime(2024, 3, 6, 6, 12))
    assert day_times.closes == datetime(2024, 3, 7, 21, 0)
    assert day_times.rounds[1] == (datetime(2024, 3, 6, 6, 12), datetime(2024, 3, 7, 21, 0))


def test_intake_facts() -> None:
    state, _ = night(
        game(),
        1,
        [act("Guard", "guard", "V1"), act("Piper", "pipe", "V2"), act("W1", "kill", "V3")],
    )
    state, _ = run(state, [GmRuling("send_off", "Seer")])
    facts = WW.intake_facts(state)
    assert facts["guarded_before"] == {"V1"} and facts["maddened"] == {"V2"}
    assert facts["sent_off"] == {"Seer"} and facts["last_words_granted"] == {"V3"}
    assert facts["witch_vision"] is None and facts["used_skills"] == frozenset()
    state, _ = run(
        state, [OpenNight(2), act("W2", "kill", "V1", confirm=True), act("Witch", "heal", "V1")]
    )
    facts = WW.intake_facts(state)
    assert facts["witch_vision"] == {"V1"} and facts["locked"] == {"W2": {"kill"}}
    assert facts["last_words_granted"] == frozenset()  # a later game day: the window has closed


def test_the_badge_of_a_sheriff_in_play_is_not_handed_over() -> None:
    """gmattack W6: `override sheriff Y` with the sheriff alive was posted and re-weighted the
    day's ballots; the badge passes only when its holder goes out (【殉职】 or the default)."""
    state, _ = run(replace(game(), number=2), [GmRuling("sheriff", "V2")])
    for name in ("V1", "V2"):  # to another, or to him again (recheck2: a second 「V2 成为警长。」)
        with pytest.raises(IllegalActionError, match="sheriff in play"):
            WW.decide(state, GmRuling("sheriff", name))
