"""An illegal command is refused with a clear error and changes nothing, where it matters:
in the rules core (the phase table), through the referee (a player's post or PM, a GM
correction), and through the CLI on a stored game (``tests/commands/test_daemon_cli.py``)."""

from __future__ import annotations

import pytest

from shenshi.daemon.announce import Templates
from shenshi.daemon.referee import Clockwork, Referee
from shenshi.rulesets.base import (
    TRANSITIONS,
    CastBallot,
    CloseNight,
    CloseRound,
    ForceExecution,
    IllegalActionError,
    OpenDay,
    OpenNight,
    Phase,
    PlayerSpec,
    RulesetError,
    Submit,
    Substitute,
)
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import GAME6_10, TZ, UIDS, at, config, pm, post

TABLE = [
    ("K1", "killer", "killers"), ("K2", "killer", "killers"), ("S", "seer", "civilians"),
    ("B", "binder", "civilians"), ("Cu", "curser", "civilians"), ("Bl", "blesser", "civilians"),
    ("C1", "commoner", "civilians"), ("C2", "commoner", "civilians"),
    ("C3", "commoner", "civilians"), ("C4", "commoner", "civilians"),
]  # fmt: skip
DECLARATION = "月黑风高，" + "夜行者悄悄推开了Rex的房门，" * 10


def new_game():
    rules = find_ruleset("game5")
    return rules, rules.new_game([PlayerSpec(*p) for p in TABLE])


@pytest.mark.parametrize(
    "command",
    [CastBallot("K1", "C1"), CloseNight(), CloseRound(), Submit("K1", "kill", "C1"), ForceExecution("C1")],
    ids=lambda c: type(c).__name__,
)
def test_before_the_first_step_only_the_table_s_commands_are_allowed(command) -> None:
    rules, state = new_game()
    assert type(command) not in TRANSITIONS[Phase.SETUP]
    with pytest.raises(IllegalActionError, match="not allowed during the setup|only today's execution"):
        rules.decide(state, command)


def test_a_ballot_at_night_is_refused_by_name() -> None:
    rules, state = new_game()
    state, _ = rules.apply(state, OpenNight(1))
    with pytest.raises(IllegalActionError, match="CastBallot is not allowed during the night 1"):
        rules.decide(state, CastBallot("S", "K1"))


def test_after_the_winner_only_gm_corrections() -> None:
    rules = find_ruleset("game5")
    table = [PlayerSpec(n, r, t, alive=n in ("K1", "C1", "C2")) for n, r, t in TABLE]
    state = rules.new_game(table)
    state, _ = rules.apply(state, OpenNight(1))
    state, _ = rules.apply(state, Submit("K1", "kill", "C1"))
    state, _ = rules.apply(state, CloseNight())
    assert state.phase is Phase.OVER and state.winner == "killers"
    for command in (OpenDay(1), Submit("K1", "kill", "C2"), Substitute("C2", "X")):
        with pytest.raises(IllegalActionError, match="game is over"):
            rules.decide(state, command)


def test_unknown_player_and_role_are_clear_errors() -> None:
    rules, state = new_game()
    state, _ = rules.apply(state, OpenNight(1))
    with pytest.raises(IllegalActionError, match="'Nobody' is not a player"):
        rules.decide(state, Submit("Nobody", "kill", "C1"))
    with pytest.raises(RulesetError, match="unknown role 'wizard'"):
        rules.new_game([PlayerSpec("A", "wizard", "civilians")])
    with pytest.raises(RulesetError, match="listed twice"):
        rules.new_game([PlayerSpec("A", "seer", "civilians")] * 2)


def test_a_day_cannot_open_before_the_night_is_resolved() -> None:
    rules, state = new_game()
    state, _ = rules.apply(state, OpenNight(1))
    with pytest.raises(IllegalActionError):
        rules.decide(state, OpenDay(1))
    state, _ = rules.apply(state, CloseNight())
    assert state.phase is Phase.DAWN
    with pytest.raises(IllegalActionError):
        rules.decide(state, CloseNight())
    state, _ = rules.apply(state, OpenDay(1))
    assert state.phase is Phase.DAY and state.round == 1


# -- through the referee ----------------------------------------------------------------------


def referee_at_dawn(tmp_path) -> Referee:
    """A game6-10 referee whose night 1 is resolved and not yet published (nothing is open)."""
    rules = find_ruleset("game6-10")
    state = rules.new_game([PlayerSpec(n, r, rules.info.roles[r].team) for n, r in GAME6_10])
    ref = Referee(rules, config(tmp_path).game, state, game_key="g1", templates=Templates(), uids=UIDS, gm_uid="2", tz=TZ)
    ref.tick(at(0), Clockwork())
    assert ref.read_pm(pm("夜行者", "杀 Rex\n" + DECLARATION, 1), "1").events
    ref.tick(at(24), Clockwork())
    assert ref.state.phase is Phase.DAWN
    return ref


@pytest.mark.parametrize(
    ("read", "message", "refused"),
    [
        ("read_pm", pm("小明", "占卜 老王", 24.5), "夜晚结算后（待公布）不能这样做"),  # Submit…
        ("read_post", post("小明", "投票：老王", 24.5), "夜晚结算后（待公布）不能这样做"),  # CastBallot…
    ],
    ids=["skill by PM", "ballot post"],
)
def test_input_between_steps_is_an_alert_and_changes_nothing(tmp_path, read, message, refused) -> None:
    ref = referee_at_dawn(tmp_path)
    before = ref.state
    out = getattr(ref, read)(message, "7")
    assert [(a.kind, a.message) for a in out.alerts] == [("not_in_phase", refused)]
    assert out.events == [] and ref.state is before


def test_a_refused_gm_correction_raises_and_leaves_the_referee_s_state(tmp_path) -> None:
    ref = referee_at_dawn(tmp_path)
    before = ref.state
    for command in (ForceExecution("老王"), CastBallot("小明", "老王"), Substitute("Rex", "替补甲")):
        with pytest.raises(IllegalActionError):
            ref.apply(command)  # Rex died in the night: a substitute takes over a living seat
        assert ref.state is before
