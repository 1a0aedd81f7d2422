"""Receipts through the referee say exactly what happened (issue 12): a command the rules core
refuses gets a refusal, never "已收到"; a joint killer whose partner sent the declaration is
not told his own is missing (A-J3); 宣言同上 keeps the earlier declaration; PMs from before
the game's start belong to no game."""

from __future__ import annotations

from shenshi.daemon.announce import Templates
from shenshi.daemon.referee import Clockwork, Referee
from shenshi.rulesets.base import PlayerSpec
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import GAME6_10, TZ, UIDS, at, config, pm
from tests.rulesets.test_phases import DECLARATION, referee_at_dawn


def night_one(tmp_path) -> Referee:
    rules = find_ruleset("game6-10")
    state = rules.new_game([PlayerSpec(n, r, rules.info.roles[r].team) for n, r in GAME6_10])
    ref = Referee(rules, config(tmp_path).game, state, game_key="g1", templates=Templates(),
                  uids=UIDS, gm_uid="2", tz=TZ)  # fmt: skip
    ref.tick(at(0), Clockwork())
    return ref


def receipts(out) -> list[str]:
    return [d.text for d in out.drafts if d.kind == "receipt"]


def test_a_command_the_rules_core_refuses_gets_a_refusal_not_a_receipt(tmp_path) -> None:
    ref = referee_at_dawn(tmp_path)
    out = ref.read_pm(pm("小明", "占卜 老王", 24.5), "7")
    assert [a.kind for a in out.alerts] == ["not_in_phase"]
    [text] = receipts(out)
    assert text.startswith("未受理：占卜 老王") and "下一阶段开始后重新发送" in text
    assert "已收到" not in text


def test_a_partner_s_declaration_counts_for_the_joint_kill(tmp_path) -> None:
    ref = night_one(tmp_path)
    ref.read_pm(pm("夜行者", "杀 Rex\n" + DECLARATION, 1), "1")
    out = ref.read_pm(pm("老王", "杀 Rex", 2), "2")
    assert [a.kind for a in out.alerts] == []
    [text] = receipts(out)
    assert "已由 夜行者 提交" in text and "未收到" not in text and "补交" not in text
    out = ref.read_pm(pm("老王", "杀 阿杰", 3), "3")  # another target: his own is missing
    assert [a.kind for a in out.alerts] == ["declaration_missing"]


def test_the_same_declaration_as_before_is_kept(tmp_path) -> None:
    ref = night_one(tmp_path)
    ref.read_pm(pm("夜行者", "杀 Rex\n" + DECLARATION, 1), "1")
    out = ref.read_pm(pm("夜行者", "改杀 阿杰，宣言同上一条", 2), "2")
    assert [a.kind for a in out.alerts] == []
    assert "同上一条" in receipts(out)[0]
    latest = max(ref.state.submissions, key=lambda s: s.sort_key())
    assert (latest.target, latest.extra["declaration"]) == ("阿杰", DECLARATION)


def test_a_pm_from_before_the_game_belongs_to_no_game(tmp_path) -> None:
    ref = night_one(tmp_path)
    out = ref.read_pm(pm("小明", "占卜 老王", -30), "9")
    assert (out.events, out.alerts, out.drafts) == ([], [], [])
    out = ref.read_pm(pm("小明", "占卜 老王", 0.001), "10")  # stamped in the start's own minute
    assert out.events and receipts(out)[0].startswith("已收到")
