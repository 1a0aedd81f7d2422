"""The tallies of a day's result post: first round, runoff, and the last-words count."""

from __future__ import annotations

from shenshi.daemon.announce import (
    Templates,
    drafts_for_step,
    kind_words,
    missing_texts,
    public_text,
)
from shenshi.rulesets.base import PublicFact, Report


def test_a_tied_runoff_decided_by_last_words_shows_the_count() -> None:
    """The runoff decided by the last-words count says so, not 招魂 (issue 20: game5 has a
    summoning, but this day had none)."""
    report = Report(
        runoff_tally={"阿杰": 3, "夜行者": 3},
        final_tally={"阿杰": 4, "夜行者": 3},
        executed="阿杰",
        public_facts=(PublicFact.of("executed", name="阿杰", value="杀手"),),
    )
    lines = public_text(Templates(), "【第2天投票结果】", report, {}).splitlines()
    assert lines[:4] == [
        "【第2天投票结果】",
        "生死投票：夜行者 3 票，阿杰 3 票",
        "计入遗言后：阿杰 4 票，夜行者 3 票",
        "阿杰 被处决，身份：杀手。",
    ]
    summoned = Report(final_tally={"阿杰": 5, "夜行者": 3}, executed="阿杰")  # the 招魂's own result
    assert "计入遗言与招魂后：阿杰 5 票，夜行者 3 票" in public_text(Templates(), "【第2天投票结果】", summoned, {})


def test_chess_speaks_of_round_2_and_kill_posts() -> None:
    """Issue 16: chess32's second round is 第二轮 (not 生死投票), its kill posts 杀人帖."""
    day = Report(runoff_tally={"项伯": 5, "项庄": 2}, executed="项伯",
                 public_facts=(PublicFact.of("executed", name="项伯", camp="chu"),))  # fmt: skip
    lines = public_text(Templates(), "【第2天投票结果】", day, {}, runoff_template="round2").splitlines()
    assert lines[1] == "第二轮：项伯 5 票，项庄 2 票"
    night = Report(public_facts=(PublicFact.of("death", name="项伯", camp="chu"),
                                 PublicFact.of("kill_post", victim="项伯")))  # fmt: skip
    text = public_text(Templates(), "【第2夜结果】", night, {"项伯": "子时三刻……"}, "round2")
    assert "杀人帖（项伯）：\n｜子时三刻……" in text and "宣言" not in text
    text = public_text(Templates(), "【第2夜结果】", night, {}, "round2")
    assert "杀人帖" not in text and "法官" not in text  # not on record: nothing about it in public
    [note] = missing_texts(Templates(), night, {})
    assert "项伯" in note and "杀人帖" in note and "shenshi edit" in note  # the GM is told beside it


def test_announcement_kinds_are_words_for_the_gm() -> None:
    t = Templates()
    assert kind_words(t, "round_result", "g1:day1.r1:public") == "第1天第一轮结果"
    assert kind_words(t, "day_result", "g1:day1:public") == "第1天投票结果"
    assert kind_words(t, "night_result", "g1:night2:public") == "第2夜结果"
    assert kind_words(t, "receipt", "g1:receipt:7:0") == "回执"
    assert kind_words(t, "check", "g1:night1:check:张良:0") == "查证结果"
    assert kind_words(t, "something_new", "g1:x") == "something_new"


def test_a_round_that_leads_to_another_is_a_round_result() -> None:
    report = Report(vote_tally={"项伯": 3, "项庄": 3},
                    public_facts=(PublicFact.of("runoff", candidates=["项伯", "项庄"]),))  # fmt: skip
    [draft] = drafts_for_step(Templates(), game="g1", label="day1.r1", title="【第1天投票结果】",
                              thread="2", report=report, runoff_template="round2")  # fmt: skip
    assert draft.kind == "round_result" and "第二轮投票" in draft.text


def test_every_player_a_curse_or_bless_names_has_a_count_in_the_tally() -> None:
    """newcomer3 N34: Tom_2's one vote blessed away left 「Tom_2 因庇佑减少一票」 under a tally
    that did not list him; every name a tally fact speaks of is counted, at 0 too (day results
    of random game6 games, as the rules core gives them)."""
    from tests.rulesets.test_family_a_properties import merged, play

    seen = 0
    for seed in range(60):
        for kind, _, events, _ in play("game6-10", seed):
            report = merged(events)
            if kind != "day" or not report.vote_tally:
                continue
            lines = public_text(Templates(), "【第1天投票结果】", report, {}).splitlines()
            counted = {line.split("：")[0] for line in lines if line.endswith(" 票")}
            for fact in report.public_facts:
                if fact.kind in ("curse_applied", "bless_applied"):
                    seen += fact.get("name") not in report.vote_tally
                    assert fact.get("name") in counted, lines
    assert seen  # some blessed player was at 0
