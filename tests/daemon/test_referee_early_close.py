"""The daemon's early close follows the ruleset (RULES.md "Early close", RES-W14 加速).

Seen in whole games (issue 21): a game6-10 night closed 17 hours early on its tenth PM while a
killer was being told to send his missing declaration "before the deadline"; on a real Discuz
X3.5 a werewolf day all nine players had agreed to speed up closed on its first ballot and put
kk_大侠 out on one vote. Here the referee closes a step early only when the ruleset's
``completion`` says so.
"""

from __future__ import annotations

from datetime import datetime

from shenshi.daemon.referee import Clockwork
from shenshi.rulesets.base import DeclareExit, Phase
from tests.daemon.helpers import at, pm
from tests.daemon.test_referee_rounds import DECLARATION, referee, to_day, vote
from tests.daemon.test_referee_werewolf_notices import Game, t

CIVILIANS = [
    ("小明", "占卜 Rex"), ("月光", "束魂 Rex"), ("阿杰", "诅咒 Rex"), ("Lily99", "庇佑 Rex"),
    ("Tom_2", "祈祷 Rex"), ("白色的猫", "祈祷 Rex"), ("kk_大侠", "祈祷 Rex"), ("Rex", "祈祷 Tom_2"),
]  # fmt: skip


def night_with(tmp_path, killers: list[tuple[str, str]]):
    """Night 1 of game6-10 opened, every civilian's PM in, and these killers' PMs."""
    ref, keys = referee(tmp_path)
    ref.tick(at(0), Clockwork(keys))
    for i, (who, text) in enumerate([*killers, *CIVILIANS]):
        out = ref.read_pm(pm(who, text, 1 + i * 0.1), f"n{i}")
        assert out.events, (who, out.alerts)
    return ref, keys


def test_a_kill_still_missing_its_declaration_keeps_the_night_open(tmp_path) -> None:
    ref, keys = night_with(tmp_path, [("夜行者", "杀 小明"), ("老王", "杀 小明")])
    told = [d.text for d in ref.read_pm(pm("夜行者", "杀 小明", 2.5), "again").drafts]
    assert any("补交" in text for text in told)  # he is told he may still send it
    ref.tick(at(3), Clockwork(keys))
    assert ref.state.phase is Phase.NIGHT  # so the night does not close under him
    assert ref.read_pm(pm("老王", "杀 小明\n" + DECLARATION, 4), "decl").events
    ref.tick(at(4), Clockwork(keys))
    assert ref.state.phase is Phase.DAWN  # now everything stands: the early close


def test_joint_killers_who_disagree_keep_the_night_open(tmp_path) -> None:
    ref, keys = night_with(
        tmp_path, [("夜行者", "杀 小明\n" + DECLARATION), ("老王", "杀 Rex\n" + DECLARATION)]
    )
    ref.tick(at(3), Clockwork(keys))
    assert ref.state.phase is Phase.NIGHT
    assert ref.read_pm(pm("老王", "杀 小明\n" + DECLARATION, 4), "agree").events
    ref.tick(at(4), Clockwork(keys))
    assert ref.state.phase is Phase.DAWN


def test_the_tenth_valid_pm_still_closes_the_night_early(tmp_path) -> None:
    ref, keys = night_with(
        tmp_path, [("夜行者", "杀 小明\n" + DECLARATION), ("老王", "杀 小明")]
    )  # RES-A5: one declaration is the unit's
    ref.tick(at(3), Clockwork(keys))
    assert ref.state.phase is Phase.DAWN


def test_no_early_close_when_the_gm_turned_it_off(tmp_path) -> None:
    ref, keys = night_with(tmp_path, [("夜行者", "杀 小明\n" + DECLARATION), ("老王", "杀 小明")])
    ref.early_close = False
    ref.tick(at(3), Clockwork(keys))
    assert ref.state.phase is Phase.NIGHT


def test_a_ballot_of_a_player_who_left_is_shown_to_the_gm_as_not_eligible(tmp_path) -> None:
    """A ballot by a player who is dead at the close (here: he voted, then the GM confirmed
    his exit) is reported as not_eligible_r1, through the rule alerts the GM reads."""
    ref, keys = referee(tmp_path)
    to_day(ref, keys, [("夜行者", "杀 Rex\n" + DECLARATION)])
    voters = [s.name for s in ref.state.alive()]
    vote(ref, {n: "老王" for n in voters[:-1]}, 37)  # the last one has not voted: no early close
    ref.apply(DeclareExit(voters[0], "潜水"))
    out = ref.tick(at(60), Clockwork(keys))
    kinds = {(a.kind, a.subject) for a in out.alerts}
    assert ("rule:not_eligible_r1", voters[0]) in kinds
    assert not any(a.kind == "rule:dead_voter" for a in out.alerts)


def test_an_exit_not_yet_announced_does_not_close_the_vote_early(tmp_path) -> None:
    """newcomer N-14: every other player had voted; the GM recorded the non-voter's exit and
    the vote closed early on the next cycle, before the exit post was out (an exit takes
    effect when it is announced; a GM who then withdrew it had lost the vote)."""
    ref, keys = referee(tmp_path)
    to_day(ref, keys, [("夜行者", "杀 Rex\n" + DECLARATION)])
    voters = [s.name for s in ref.state.alive()]
    vote(ref, {n: voters[0] for n in voters[:-1]}, 37)
    ref.apply(DeclareExit(voters[-1], "潜水"))
    ref.tick(at(38), Clockwork(keys))
    assert ref.state.phase is Phase.DAY  # the exit post is not out: he still plays
    exit_key = ref.keys.exit(voters[-1])
    assert exit_key in ref.wants(at(39)).announcements  # the clock asks when it is out
    ref.tick(at(39), Clockwork({**keys, exit_key: at(38.5)}))
    assert ref.state.phase is not Phase.DAY  # announced: everyone in play has voted


# -- werewolf 加速 (W-D7, RES-W14) -------------------------------------------------------------------


def speed_up_day_2(tmp_path) -> Game:
    """Day 2 open (06:10); every character in play replied 同意第2天加速 by 07:00."""
    game = Game(tmp_path)
    game.day_2()
    assert game.ref.state.phase is Phase.DAY and game.ref.state.number == 2
    for i, seat in enumerate(game.ref.state.alive()):
        assert game.reply(seat.name, "同意第2天加速", t(10, 6, 20 + i)).events, seat.name
    return game


def test_an_agreement_taken_back_keeps_the_day_open_until_agreed_again(tmp_path) -> None:
    """adversary3 A9: 「撤回加速，不同意第2天加速」 in the 功能树洞 takes the agreement back; the
    latest reply counts (a new 同意 agrees again)."""
    game = speed_up_day_2(tmp_path)
    living = [s.name for s in game.ref.state.alive()]
    doubter = next(n for n in living if n not in ("kk_大侠", "小明"))
    out = game.reply(doubter, "撤回加速，不同意第2天加速", t(10, 7, 30))
    assert out.events and not [a for a in out.alerts if a.kind == "not_a_command"]
    for i, voter in enumerate(living):
        game.vote(voter, "kk_大侠" if voter != "kk_大侠" else "小明", t(10, 8, i))
    game.tick(t(10, 9))
    assert game.ref.state.phase is Phase.DAY  # decided, but one no longer agrees
    game.reply(doubter, "同意第2天加速", t(10, 9, 5))
    game.tick(t(10, 9, 6))
    assert game.ref.state.phase is Phase.DUSK


def test_speed_up_does_not_close_the_day_on_its_first_ballot(tmp_path) -> None:
    game = speed_up_day_2(tmp_path)
    voter = next(s.name for s in game.ref.state.alive() if s.name not in ("kk_大侠", "小明"))
    game.vote(voter, "kk_大侠", t(10, 8))
    game.tick(t(10, 8, 1))
    assert game.ref.state.phase is Phase.DAY  # one ballot in, ten to come: not determined


def test_speed_up_closes_once_the_ballots_to_come_cannot_change_who_goes_out(tmp_path) -> None:
    game = speed_up_day_2(tmp_path)
    living = [s.name for s in game.ref.state.alive()]
    plain = [n for n in living if n not in ("kk_大侠", "小明")]  # 小明 is sheriff (2.1)
    for i, voter in enumerate(plain[:6]):
        game.vote(voter, "kk_大侠", t(10, 8, i))
    game.tick(t(10, 8, 30))
    # 6 for kk_大侠; to come: 小明 2.1, kk_大侠 and the rest: 6 ≤ 2.1 + 3 + … : open
    assert game.ref.state.phase is Phase.DAY
    to_come = [n for n in living if n not in plain[:7]]
    game.vote(plain[6], "kk_大侠", t(10, 9))
    game.tick(t(10, 9, 1))
    weights = sum(2.1 if n == "小明" else 1 for n in to_come)
    assert weights < 7  # the lead can no longer be caught
    assert game.ref.state.phase is Phase.DUSK
    assert not game.ref.state.seat("kk_大侠").alive


def test_speed_up_still_needs_every_character_in_play(tmp_path) -> None:
    game = Game(tmp_path)
    game.day_2()
    living = [s.name for s in game.ref.state.alive()]
    for i, name in enumerate(living[:-1]):
        game.reply(name, "同意第2天加速", t(10, 6, 20 + i))
    for i, voter in enumerate(living):
        game.vote(voter, "kk_大侠" if voter != "kk_大侠" else "小明", t(10, 8, i))
    game.tick(datetime(2026, 12, 10, 9, tzinfo=t(10, 9).tzinfo))
    assert game.ref.state.phase is Phase.DAY  # everyone voted, but one did not agree
