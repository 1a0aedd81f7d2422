"""Reading a game's outcome back from the GM's posts."""

from __future__ import annotations

from datetime import datetime

from shenshi.daemon.announce import Templates, public_text
from shenshi.demo.record import forum_outcome
from shenshi.rulesets.base import PublicFact, Report

AT = datetime(2026, 12, 8, 20, 0)
NAMES = ["小明", "阿杰", "Rex", "老王", "王陵"]


def post(
    title: str, report: Report, declarations: dict | None = None, runoff_template: str = "runoff"
) -> tuple[str, datetime]:
    return public_text(Templates(), title, report, declarations or {}, runoff_template), AT


def a_family_a_game() -> tuple[Report, Report, Report]:
    """A night with two deaths, a tied first round, and a runoff that executes a killer."""
    night = Report(
        public_facts=(
            PublicFact.of("death", name="Rex", cause="killer"),
            PublicFact.of("kill_declaration", victim="Rex"),
            PublicFact.of("death", name="老王", cause="bind_failure"),
        )
    )
    runoff = Report(
        vote_tally={"小明": 3, "阿杰": 3},
        public_facts=(PublicFact.of("runoff", candidates=["小明", "阿杰"]),),
    )
    final = Report(
        runoff_tally={"阿杰": 5, "小明": 2},
        public_facts=(PublicFact.of("executed", name="阿杰", value="杀手"),),
        winner="civilians",
    )
    return night, runoff, final


def test_deaths_runoffs_executions_and_the_winner_as_published() -> None:
    night, runoff, final = a_family_a_game()
    record = forum_outcome(
        [post("【第1夜结果】", night, {"Rex": "老王 小明 阿杰 被杀手杀害。"}), post("【第1天投票结果】", runoff),
         post("【第1天投票结果】", final)],
        NAMES,
    )  # fmt: skip
    assert record.comparable() == [
        ("night1", (("Rex", "killer"), ("老王", "bind_failure")), None, False),
        ("day1", (("阿杰", "execution"),), "阿杰", True),
        ("winner", "civilians"),
    ]


def test_chess_deaths_publish_the_camp_only() -> None:
    night = Report(public_facts=(PublicFact.of("death", name="王陵", camp="han"),))
    day = Report(
        vote_tally={"老王": 9},
        public_facts=(PublicFact.of("executed", name="老王", camp="chu"),),
        winner="han",
    )
    record = forum_outcome(
        [
            post("【第1夜结果】", night, runoff_template="round2"),
            post("【第2天投票结果】", day, runoff_template="round2"),
        ],
        NAMES,
    )
    assert record.comparable(causes=False) == [
        ("night1", ("王陵",), None, False),
        ("day2", ("老王",), "老王", False),
        ("winner", "han"),
    ]


def test_other_posts_are_not_results() -> None:
    assert forum_outcome([("（天神）结果马上公布，请稍候。", AT)], NAMES).steps == []
