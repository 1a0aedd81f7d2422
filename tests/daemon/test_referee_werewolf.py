"""The referee on the werewolf clock: night 0, 06:00 and 21:00 on the forum's clock."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from shenshi.daemon.announce import Templates
from shenshi.daemon.referee import Clockwork, Referee
from shenshi.demo.script import load_script
from shenshi.records import Post
from shenshi.rulesets.base import Phase, PlayerSpec
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import TZ, config

START = datetime(2026, 12, 7, 20, 0, tzinfo=TZ)  # a Monday evening
CUPID_THREAD = "9"


def werewolf(tmp_path) -> tuple[Referee, dict]:
    script = load_script("werewolf")
    table = [(s.name, s.role) for s in script.seats]
    cfg = config(tmp_path, "werewolf", table)
    game = replace(cfg.game, start=START, role_threads={"cupid": CUPID_THREAD})
    rules = find_ruleset("werewolf")
    state = rules.new_game([PlayerSpec(s.name, s.role, s.team) for s in script.seats])
    keys: dict = {}
    ref = Referee(rules, game, state, game_key="g1", templates=Templates(), tz=TZ)
    return ref, keys


def test_night_0_ends_at_06_00_and_day_1_opens_unannounced(tmp_path) -> None:
    ref, keys = werewolf(tmp_path)
    ref.tick(START, Clockwork(keys))
    assert ref.state.phase is Phase.NIGHT and ref.state.number == 0
    reply = Post(
        CUPID_THREAD, "30", 2, "白色的猫", None, START + timedelta(hours=1), "【金箭】 月光、Rex"
    )
    assert ref.read_post(reply, "1").events
    out = ref.tick(START + timedelta(hours=4), Clockwork(keys))  # 夜晚1 has closed: no 【通灵】 on night 0
    assert not [d for d in out.drafts if d.kind == "witch_vision"]
    dawn = datetime(2026, 12, 8, 6, 0, tzinfo=TZ)
    out = ref.tick(dawn + timedelta(minutes=30), Clockwork(keys))
    # night 0 publishes no result …; day 1's post says the sheriff's election is open till when (wolfadv W4)
    [opening] = [d for d in out.drafts if d.channel == "thread"]
    assert opening.kind == "vote_opened" and "竞选警长" in opening.text, opening
    assert "2026-12-09 21:00 截止" in opening.text, opening.text
    assert sorted(d.destination for d in out.drafts if d.kind == "lover_partner") == ["Rex", "月光"]
    assert ref.state.phase is Phase.DAY and ref.state.number == 1  # … and day 1 opens anyway
    assert ref.state.params["opened_at"] == dawn


def test_a_step_opened_by_a_post_stored_in_utc_keeps_the_forums_clock(tmp_path) -> None:
    ref, keys = werewolf(tmp_path)
    ref.tick(START, Clockwork(keys))
    ref.tick(datetime(2026, 12, 8, 6, 30, tzinfo=TZ), Clockwork(keys))  # day 1 is open
    living = [s.name for s in ref.state.alive()]
    for i, name in enumerate(living):
        ref.read_post(
            Post(
                "2",
                str(100 + i),
                i + 2,
                name,
                None,
                datetime(2026, 12, 8, 8, tzinfo=TZ),
                "投票：小明",
            ),
            f"v{i}",
        )
    ref.tick(datetime(2026, 12, 9, 21, 0, tzinfo=TZ), Clockwork(keys))  # 21:00 on D+1: the day closes
    assert ref.state.phase is Phase.DUSK
    keys["g1:day1:public"] = datetime(
        2026, 12, 9, 13, 5, tzinfo=ZoneInfo("UTC")
    )  # 21:05 in Shanghai
    ref.tick(datetime(2026, 12, 9, 21, 10, tzinfo=TZ), Clockwork(keys))
    times = ref.times()
    assert ref.state.phase is Phase.NIGHT
    assert times.closes == datetime(2026, 12, 10, 6, 0, tzinfo=TZ)  # the next 06:00 in Shanghai
    assert times.phase_deadlines["1"] == datetime(2026, 12, 10, 0, 0, tzinfo=TZ)  # 00:00, not 00:05


def test_a_werewolf_day_with_every_ballot_in_still_runs_to_21_00(tmp_path) -> None:
    ref, keys = werewolf(tmp_path)
    ref.tick(START, Clockwork(keys))
    ref.tick(datetime(2026, 12, 8, 6, 30, tzinfo=TZ), Clockwork(keys))
    for i, s in enumerate(ref.state.alive()):
        at = datetime(2026, 12, 8, 8, tzinfo=TZ)
        assert ref.read_post(
            Post("2", str(200 + i), i + 2, s.name, None, at, "投票：小明"), f"b{i}"
        ).events
    ref.tick(datetime(2026, 12, 8, 9, 0, tzinfo=TZ), Clockwork(keys))
    assert ref.state.phase is Phase.DAY  # ballots may change until the close (RES-W6)
    ref.tick(datetime(2026, 12, 9, 21, 0, tzinfo=TZ), Clockwork(keys))
    assert ref.state.phase is Phase.DUSK


def test_a_daemon_started_after_night_0_closed_posts_no_deadline_already_past(tmp_path) -> None:
    """gmattack W1: the daemon first ran at 06:07, after night 0's 06:00; it posted
    「夜晚1（金箭、托孤）：…06:00 前」, a deadline already gone."""
    from tests.daemon.helpers import announcements, at, werewolf_with_tree_holes

    svc, clock = werewolf_with_tree_holes(tmp_path, {})
    clock.set(at(10.2))  # 06:12, night 0 (opened 20:00) closed at 06:00
    svc.tick()
    assert not [a for a in announcements(svc) if a.kind == "night_deadlines"]
    assert svc.referee.state.phase is Phase.DAY and svc.referee.state.number == 1
