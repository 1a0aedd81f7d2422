"""The tallies of a day's result post: first round, runoff, and the last-words count."""

from __future__ import annotations

from shenshi.daemon.announce import Templates, public_text
from shenshi.rulesets.base import PublicFact, Report


def test_a_tied_runoff_decided_by_last_words_shows_the_count() -> None:
    report = Report(
        runoff_tally={"阿杰": 3, "夜行者": 3},
        final_tally={"阿杰": 4, "夜行者": 3},
        executed="阿杰",
        public_facts=(PublicFact.of("executed", name="阿杰", value="杀手"),),
    )
    lines = public_text(Templates(), "【第2天投票结果】", report, {}).splitlines()
    assert lines[:4] == [
        "【第2天投票结果】",
        "生死投票/第二轮：夜行者 3 票，阿杰 3 票",
        "计入遗言与招魂后：阿杰 4 票，夜行者 3 票",
        "阿杰 被处决，身份：杀手。",
    ]
