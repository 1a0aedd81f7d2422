"""The referee's day rounds and announcements, as whole games showed them to be needed."""

from __future__ import annotations

from datetime import timedelta

from shenshi.daemon.announce import Templates
from shenshi.daemon.referee import Clockwork, Referee
from shenshi.demo.script import load_script
from shenshi.rulesets.base import OpenNight, Phase, PlayerSpec, frozen_map
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import GAME6_10, TZ, UIDS, at, chess_referee, config, pm, post

DECLARATION = "月黑风高，" + "夜行者悄悄推开了房门，" * 12


def referee(tmp_path, table=GAME6_10, ruleset="game6-10") -> tuple[Referee, dict]:
    cfg = config(tmp_path, ruleset, table)
    rules = find_ruleset(ruleset)
    state = rules.new_game([PlayerSpec(n, r, rules.info.roles[r].team) for n, r in table])
    keys: dict = {}
    ref = Referee(rules, cfg.game, state, game_key="g1", templates=Templates(), uids=UIDS, gm_uid="2", tz=TZ)
    return ref, keys


def to_day(ref: Referee, keys: dict, night_pms: list[tuple[str, str]], dawn: float = 24) -> None:
    """Night 1 with these PMs, its result published at ``dawn``: day 1 is open."""
    ref.tick(at(0), Clockwork(keys))
    for i, (who, text) in enumerate(night_pms):
        ref.read_pm(pm(who, text, 1 + i * 0.1), f"n{i}")
    ref.tick(at(dawn), Clockwork(keys))
    keys["g1:night1:public"] = at(dawn)
    keys["g1:day1:vote_open"] = at(dawn + 12)  # the vote's opening post, out at its hour (game6)
    ref.tick(at(dawn), Clockwork(keys))
    assert ref.state.phase is Phase.DAY


def vote(ref: Referee, ballots: dict[str, str], hours: float) -> None:
    for i, (voter, target) in enumerate(ballots.items()):
        out = ref.read_post(post(voter, f"投票：{target}", hours + i * 0.01), f"v{hours}-{i}")
        assert out.events, (voter, out.alerts)


def tied(living: list[str]) -> dict[str, str]:
    """4 for 老王, 4 for 小明, the rest for 夜行者: a runoff between 老王 and 小明."""
    return {n: "老王" if i < 4 else "小明" if i < 8 else "夜行者" for i, n in enumerate(living)}


def test_the_result_that_ends_the_game_names_the_winner(tmp_path) -> None:
    ref, keys = referee(tmp_path)
    to_day(ref, keys, [("夜行者", "杀 Rex\n" + DECLARATION)])
    living = [s.name for s in ref.state.alive()]
    vote(ref, {n: "老王" for n in living}, 37)
    out = ref.tick(at(38), Clockwork(keys))
    public = next(d for d in out.drafts if d.key.endswith(":public"))
    assert "老王 被处决，身份：杀手" in public.text and "【游戏结束】" not in public.text
    keys["g1:day1:public"] = at(38)
    ref.tick(at(38), Clockwork(keys))
    ref.tick(at(62), Clockwork(keys))  # night 2: nobody acts
    keys["g1:night2:public"] = at(62)
    keys["g1:day2:vote_open"] = at(74)
    ref.tick(at(62), Clockwork(keys))
    vote(ref, {n: "夜行者" for n in living if n != "老王"}, 75)
    out = ref.tick(at(76), Clockwork(keys))
    public = next(d for d in out.drafts if d.key.endswith(":public"))
    assert ref.state.phase is Phase.OVER
    assert "【游戏结束】好人方获胜！" in public.text


def test_the_bound_survivor_does_not_hold_up_an_early_close(tmp_path) -> None:
    ref, keys = referee(tmp_path)
    to_day(ref, keys, [("夜行者", "杀 小明\n" + DECLARATION), ("月光", "束魂 小明")])
    assert ref.context(at(37)).phase.bound == "小明"
    others = {s.name: "老王" for s in ref.state.alive() if s.name != "小明"}
    vote(ref, others, 37)
    assert ref.tick(at(38), Clockwork(keys)).events  # everyone who may vote has voted
    assert ref.state.phase is Phase.DUSK


def test_a_runoff_opens_when_its_announcement_is_published(tmp_path) -> None:
    ref, keys = referee(tmp_path)
    to_day(ref, keys, [("夜行者", "杀 Rex\n" + DECLARATION)])
    living = [s.name for s in ref.state.alive()]
    vote(ref, tied(living), 37)
    out = ref.tick(at(38), Clockwork(keys))  # an early close: 4-4, a runoff
    assert ref.state.round == 2 and "进入生死投票" in next(
        d.text for d in out.drafts if d.key.endswith(":public")
    )
    early = ref.read_post(post("小明", "投票：老王", 38.5), "r0")
    assert not early.events and early.alerts[0].kind == "no_vote_open"
    keys["g1:day1.r1:public"] = at(39)  # the GM posts the runoff at 39 h, long before 60 h
    ref.learn(keys)  # the shell tells the referee (the service does so before every read)
    vote(ref, {n: "老王" for n in living}, 40)
    ref.tick(at(41), Clockwork(keys))
    assert ref.state.phase is Phase.DUSK and not ref.state.seat("老王").alive


def test_a_runoff_lasts_its_hours_from_its_announcement(tmp_path) -> None:
    ref, keys = referee(tmp_path)
    to_day(ref, keys, [("夜行者", "杀 Rex\n" + DECLARATION)])
    living = [s.name for s in ref.state.alive()]
    vote(ref, tied(living), 37)
    ref.tick(at(38), Clockwork(keys))
    keys["g1:day1.r1:public"] = at(39)
    ref.learn(keys)
    opens, closes = ref.times().rounds[2]
    assert opens == at(39) and closes == at(39) + timedelta(hours=12)


def test_chess_cannon_kill_posts_are_published(tmp_path) -> None:
    script = load_script("chess32")
    table = [(s.name, s.role) for s in script.seats]
    cfg = config(tmp_path, "chess32", table)
    rules = find_ruleset("chess32")
    state = rules.new_game(
        [PlayerSpec(s.name, s.role, s.team) for s in script.seats],
        {"day_hours": 24, "night_hours": 24},
    )
    ref = Referee(rules, cfg.game, state, game_key="g1", templates=Templates(), tz=TZ)
    ref.state, _ = rules.apply(
        ref.state, OpenNight(1, frozen_map({"opened_at": at(0), "window_open": at(0)}))
    )
    post_text = "炮声隆隆，" + "夏侯婴倒在了城墙下，" * 16
    out = ref.read_pm(pm("老王", f"炮打 夏侯婴，炮架子：彭越\n杀人帖：{post_text}", 1), "1")
    assert out.events, out.alerts
    out = ref.tick(at(24), Clockwork())
    public = next(d for d in out.drafts if d.channel == "thread")
    assert "夏侯婴 死亡" in public.text and post_text in public.text


def test_a_chess_day_with_every_ballot_in_still_runs_its_hours(tmp_path) -> None:
    script = load_script("chess32")
    ref = chess_referee(tmp_path)
    ref.tick(at(0), Clockwork())
    assert ref.state.phase is Phase.DAY
    for i, s in enumerate(script.seats):
        assert ref.read_post(post(s.name, "弃权", 1 + i * 0.01), f"c{i}").events
    ref.tick(at(2), Clockwork())
    assert ref.state.phase is Phase.DAY  # one change per round is still allowed (RES-C28)
    ref.tick(at(24), Clockwork())
    assert ref.state.phase is Phase.DUSK
