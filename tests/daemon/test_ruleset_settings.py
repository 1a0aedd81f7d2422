"""The GM's werewolf settings reach intake: receipts and deadlines agree with the rules core.

Intake once kept its own copy of the night phases and of the last-words limit, so a GM who
moved a skill to 夜晚2 or changed ``last_words_chars`` got receipts that refused what the core
counted (or accepted what it voided).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from shenshi.daemon.announce import Templates
from shenshi.daemon.referee import Referee
from shenshi.demo.script import load_script
from shenshi.intake.batch import run_case
from shenshi.records import Post
from shenshi.rulesets.base import OpenNight, PlayerSpec, PowerSubmitted, frozen_map
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import TZ, config

NIGHT = datetime(2026, 12, 9, 21, 0, tzinfo=TZ)  # night 1 opens; 夜晚1 closes at 00:00, 夜晚2 at 03:00
SEER_THREAD = "11"
# The GM moves 【预言】 to 夜晚2.
DIVINE_LATE = {
    "night_phases": {
        "1": ["guard", "silence_guard", "kill", "pipe", "pair_lovers", "lone_wolf"],
        "2": ["heal", "poison", "divine"],
    }
}


def night_one(tmp_path, rules: dict) -> Referee:
    script = load_script("werewolf")
    cfg = config(tmp_path, "werewolf", [(s.name, s.role) for s in script.seats])
    game = replace(cfg.game, rules=rules, role_threads={"seer": SEER_THREAD})
    ruleset = find_ruleset("werewolf")
    state = ruleset.new_game([PlayerSpec(s.name, s.role, s.team) for s in script.seats], rules)
    state, _ = ruleset.apply(state, OpenNight(1, frozen_map({"opened_at": NIGHT, "window_open": NIGHT})))
    return Referee(ruleset, game, state, game_key="g1", templates=Templates(), tz=TZ)


def prophecy(ref: Referee, hours: float):
    reply = Post(SEER_THREAD, "40", 2, "小明", None, NIGHT + timedelta(hours=hours), "【预言】老王")
    return ref.read_post(reply, "40")


def test_a_skill_moved_to_the_second_night_phase_keeps_that_phase_deadline(tmp_path) -> None:
    ref = night_one(tmp_path, DIVINE_LATE)
    out = prophecy(ref, 4)  # 01:00: after 夜晚1, before 夜晚2 closes
    assert [a.kind for a in out.alerts] == []
    submitted = [e for e in out.events if isinstance(e, PowerSubmitted)]
    assert submitted and ref.ruleset.check_submission(ref.state, submitted[0].submission) is None
    assert "已收到" in out.drafts[0].text
    late = prophecy(ref, 6.5)  # 03:30: after 夜晚2
    assert [a.kind for a in late.alerts] == ["phase_deadline"] and not late.events


def test_with_the_default_phases_the_same_reply_is_late(tmp_path) -> None:
    out = prophecy(night_one(tmp_path, {}), 4)
    assert [a.kind for a in out.alerts] == ["phase_deadline"] and not out.events


def last_words_case(chars: int, rules: dict) -> dict:
    script = load_script("werewolf")
    return {
        "id": "lw", "ruleset": "werewolf", "rules": rules,
        "players": [s.name for s in script.seats], "roles": {s.name: s.role for s in script.seats},
        "dead": ["大卫"], "channel": "post", "from": "大卫", "text": "遗言：" + "好" * chars,
        "phase": "night1", "vote": None, "role_thread": True, "last_words": {"granted": ["大卫"]},
    }  # fmt: skip


@pytest.mark.parametrize(
    ("chars", "limit", "alerts"),
    [(3500, 5000, []), (200, 100, ["last_words_too_long"]), (3500, None, ["last_words_too_long"])],
)
def test_the_last_words_limit_is_the_games_setting(chars: int, limit: int | None, alerts: list) -> None:
    rules = {} if limit is None else {"last_words_chars": limit}
    result = run_case(last_words_case(chars, rules))
    assert [a.kind for a in result.alerts] == alerts
    assert [c.action for c in result.commands] == ([] if alerts else ["last_words"])
