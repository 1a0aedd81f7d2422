"""Receipts through the referee say exactly what happened (issue 12): a command the rules core
refuses gets a refusal, never "已收到"; a joint killer whose partner sent the declaration is
not told his own is missing (A-J3); 宣言同上 keeps the earlier declaration; PMs from before
the game's start belong to no game."""

from __future__ import annotations

from shenshi.daemon.announce import Templates
from shenshi.daemon.referee import Clockwork, Referee
from shenshi.rulesets.base import PlayerSpec
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import GAME6_10, TZ, UIDS, at, config, pm, post
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
    assert text.startswith("未受理：占卜 老王") and "这一夜已经结算" in text and "下一夜开始后发送" in text  # (gmattack2 F18)
    assert "已收到" not in text


def test_a_partner_s_declaration_counts_for_the_joint_kill(tmp_path) -> None:
    ref = night_one(tmp_path)
    ref.read_pm(pm("夜行者", "杀 Rex\n" + DECLARATION, 1), "1")
    out = ref.read_pm(pm("老王", "杀 Rex", 2), "2")
    assert [a.kind for a in out.alerts] == []
    [text] = receipts(out)
    assert "已由 夜行者 提交" in text and "未收到" not in text and "补交" not in text
    out = ref.read_pm(pm("老王", "杀 阿杰", 3), "3")  # another target: his own is missing
    # (and the killers now disagree: the GM sees both kills, issue 20)
    assert [a.kind for a in out.alerts] == ["declaration_missing", "joint_disagreement"]


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


def test_nothing_a_player_sees_reveals_an_unpublished_death(tmp_path) -> None:
    """Issue 13: Rex died in the night, and the dawn post is not published yet."""
    ref = referee_at_dawn(tmp_path)
    assert not ref.state.seat("Rex").alive
    for message in (pm("小明", "占卜 Rex", 24.5), pm("Rex", "祈祷 老王", 24.5)):
        out = ref.read_pm(message, str(message.id))
        assert [a.kind for a in out.alerts] == ["not_in_phase"]
        shown = " ".join(receipts(out)) + " ".join(a.message for a in out.alerts)
        assert "出局" not in shown and "dead" not in shown, shown


def test_a_ballot_in_the_same_second_as_the_last_does_not_reveal_the_execution(tmp_path) -> None:
    """Issue 13: the bound survivor's ballot, posted in the second the last eligible ballot closed
    the round early, met an execution that was not yet published."""
    from tests.daemon.test_referee_rounds import DECLARATION as KILL_TEXT
    from tests.daemon.test_referee_rounds import referee, to_day, vote

    ref, keys = referee(tmp_path)
    to_day(ref, keys, [("夜行者", "杀 小明\n" + KILL_TEXT), ("月光", "束魂 小明")])
    voters = {s.name: "老王" for s in ref.state.alive() if s.name != "小明"}
    vote(ref, voters, 37)
    last = 37 + (len(voters) - 1) * 0.01
    ref.tick(at(last), Clockwork(keys))  # every eligible ballot is in: the round closes early
    assert not ref.state.seat("老王").alive  # executed, not yet published
    out = ref.read_post(post("小明", "投票：老王", last), "late")
    shown = " ".join(a.message for a in out.alerts)
    assert "dead_target" not in [a.kind for a in out.alerts] and "出局" not in shown, shown


def test_a_player_the_settled_night_put_out_is_not_asked_to_resend(tmp_path) -> None:
    """gmattack2 F18: 月光, dead in the night just settled (its post not out), PMed 「庇佑 老王」
    and was told to resend in the next phase."""
    ref = night_one(tmp_path)
    ref.read_pm(pm("夜行者", "杀 Rex\n" + DECLARATION, 1), "1")
    ref.tick(at(24.5), Clockwork())
    assert ref.state.phase.value == "dawn" and not ref.state.is_alive("Rex")
    out = ref.read_pm(pm("Rex", "祈祷 老王", 24.6), "9")
    [text] = receipts(out)
    assert text.startswith("未受理") and "重新发送" not in text and "下一夜" not in text, text


def test_a_kill_refused_after_the_night_settled_is_one_alert(tmp_path) -> None:
    """recheck3 F3: 「杀 Rex」 after the settlement raised 「缺杀人宣言」 beside 「现在不受理」 for a
    kill that was never accepted."""
    ref = referee_at_dawn(tmp_path)
    out = ref.read_pm(pm("夜行者", "杀 Rex", 24.5), "8")
    assert [a.kind for a in out.alerts] == ["not_in_phase"], [a.kind for a in out.alerts]
