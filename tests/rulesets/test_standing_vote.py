"""``Ruleset.standing_vote``: the open round as ``shenshi status`` shows it, by each ruleset's
own ballot rules (which ballot counts, who must vote, how ballots weigh)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from shenshi.rulesets.base import CastBallot, CloseRound, OpenDay, PlayerSpec, Resolved
from shenshi.rulesets.registry import find_ruleset
from tests.rulesets.commands import apply_all

T0 = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)
GAME6_10 = [
    ("夜行者", "killer"), ("老王", "killer"), ("小明", "seer"), ("月光", "binder"),
    ("阿杰", "curser"), ("Lily99", "blesser"), ("Tom_2", "commoner"), ("白色的猫", "commoner"),
    ("kk_大侠", "commoner"), ("Rex", "commoner"),
]  # fmt: skip


def ballot(voter: str, target: str, minutes: int) -> CastBallot:
    return CastBallot(voter, target, T0 + timedelta(minutes=minutes))


def test_family_a_counts_the_first_ballot_and_agrees_with_the_close() -> None:
    rules = find_ruleset("game6-10")
    specs = [PlayerSpec(n, r, rules.info.roles[r].team) for n, r in GAME6_10]
    state, _ = apply_all(rules, rules.new_game(specs), [OpenDay(1, {"opened_at": T0})])
    state, _ = apply_all(rules, state, [
        ballot("小明", "老王", 1), ballot("月光", "老王", 2), ballot("小明", "Rex", 3),  # D-I
        ballot("Rex", "夜行者", 4),
    ])  # fmt: skip
    vote = rules.standing_vote(state)
    assert {v: b.target for v, b in vote.counted.items()} == {
        "小明": "老王",
        "月光": "老王",
        "Rex": "夜行者",
    }
    assert dict(vote.counts) == {"老王": 2, "夜行者": 1}
    assert set(vote.electorate) == {n for n, _ in GAME6_10}
    [resolved, *_] = rules.decide(state, CloseRound(T0 + timedelta(hours=1)))
    assert isinstance(resolved, Resolved)
    assert dict(resolved.report.vote_tally) == dict(vote.counts)  # no curse or bless tonight


def test_werewolf_counts_the_latest_ballot_of_characters_in_play() -> None:
    rules = find_ruleset("werewolf")
    names = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸", "子", "丑"]
    roles = ["seer", "witch", "guard", "cupid", "werewolf", "werewolf", "werewolf", "piper",
             "villager", "villager", "villager", "villager"]  # fmt: skip
    specs = [PlayerSpec(n, r, rules.info.roles[r].team) for n, r in zip(names, roles, strict=True)]
    state, _ = apply_all(rules, rules.new_game(specs), [OpenDay(1, {"opened_at": T0})])
    state, _ = apply_all(
        rules, state, [ballot("甲", "乙", 1), ballot("甲", "丙", 2), ballot("丁", "丙", 3)]
    )
    vote = rules.standing_vote(state)
    assert {v: b.target for v, b in vote.counted.items()} == {"甲": "丙", "丁": "丙"}  # RES-W6
    assert dict(vote.counts) == {"丙": 2}
    assert len(vote.electorate) == len(names)
