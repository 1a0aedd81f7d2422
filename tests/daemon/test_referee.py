"""The referee plays a game from posts and PMs on a fake clock (no forum, no database)."""

from __future__ import annotations

from shenshi.daemon.announce import Templates
from shenshi.daemon.referee import Clockwork, Referee
from shenshi.rulesets.base import Phase, PlayerSpec
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import GAME6_10, TZ, UIDS, at, config, pm, post

DECLARATION = "月黑风高，" + "夜行者悄悄推开了Rex的房门，" * 10


def referee(tmp_path) -> Referee:
    cfg = config(tmp_path)
    rules = find_ruleset("game6-10")
    state = rules.new_game([PlayerSpec(n, r, rules.info.roles[r].team) for n, r in GAME6_10])
    return Referee(rules, cfg.game, state, game_key="g1", templates=Templates(), uids=UIDS, gm_uid="2", tz=TZ)


def published(keys: dict) -> Clockwork:
    return Clockwork(published=keys)


def day_one(tmp_path) -> tuple[Referee, dict]:
    """A referee with night 1 over (nobody acted) and day 1 opened at 24 h."""
    ref = referee(tmp_path)
    keys: dict = {}
    ref.tick(at(0), published(keys))
    ref.tick(at(24), published(keys))
    keys["g1:night1:public"] = at(24)
    ref.tick(at(24), published(keys))
    return ref, keys


def vote_open(ref: Referee, keys: dict, hours: float = 36) -> None:
    """The vote's hour comes and its opening post is published then: ballots count from it."""
    ref.tick(at(hours), published(keys))
    keys["g1:day1:vote_open"] = at(hours)
    ref.tick(at(hours), published(keys))


def test_a_night_from_pms_to_the_dawn_post(tmp_path) -> None:
    ref = referee(tmp_path)
    keys: dict = {}
    out = ref.tick(at(0), published(keys))
    assert ref.state.phase is Phase.NIGHT and ref.state.number == 1
    inputs = [
        pm("夜行者", "杀 Rex\n" + DECLARATION, 1),
        pm("小明", "占卜 老王", 2),
        pm("阿杰", "诅咒 老王", 3),
        pm("Tom_2", "祈祷 小明", 3),
        pm("白色的猫", "为小明祈祷", 4),
        pm("Rex", "你好，请问今晚几点结束？", 5),
    ]
    for i, message in enumerate(inputs):
        out = ref.read_pm(message, str(i + 1))
        if i < 5:
            assert out.events, message.text
            assert [d.kind for d in out.drafts] == ["receipt"]
        else:  # a question is for the GM to read
            assert not out.events and not out.drafts
            assert [a.kind for a in out.alerts] == ["not_a_command"]
    out = ref.tick(at(23), published(keys))
    assert not out.events  # the night is not over yet
    out = ref.tick(at(24), published(keys))
    assert ref.state.phase is Phase.DAWN
    public = [d for d in out.drafts if d.channel == "thread"]
    assert len(public) == 1 and public[0].key == "g1:night1:public"
    assert "Rex 被杀手杀害" in public[0].text and "夜行者悄悄推开了Rex的房门" in public[0].text
    seer = [d for d in out.drafts if d.kind == "divination"]
    assert seer[0].destination == "小明" and "是杀手" in seer[0].text
    # the day opens only when the GM publishes the dawn post
    assert not ref.tick(at(25), published(keys)).events
    keys["g1:night1:public"] = at(25)
    ref.tick(at(25), published(keys))
    assert ref.state.phase is Phase.DAY and ref.state.params["opened_at"] == at(25)


def test_the_gms_own_post_publishes_the_draft(tmp_path) -> None:
    ref = referee(tmp_path)
    ref.tick(at(0), published({}))
    out = ref.tick(at(24), published({}))
    text = next(d.text for d in out.drafts if d.channel == "thread")
    seen = ref.read_post(post("神的使者", text.replace("\n", "\n\n"), 24.5), "50")
    assert seen.published == [("g1:night1:public", at(24.5))]


def test_votes_in_the_thread_close_and_execute(tmp_path) -> None:
    ref = referee(tmp_path)
    keys: dict = {}
    ref.tick(at(0), published(keys))
    ref.read_pm(pm("夜行者", "杀 Rex\n" + DECLARATION, 1), "1")
    ref.tick(at(24), published(keys))
    keys["g1:night1:public"] = at(24)
    ref.tick(at(24), published(keys))
    # the vote thread opens at the 13th hour of the day (day start + 12 h)
    early = ref.read_post(post("小明", "投票：老王", 30), "2")
    assert not early.events and early.alerts
    vote_open(ref, keys)
    voters = ["小明", "月光", "阿杰", "Lily99", "Tom_2", "白色的猫", "kk_大侠"]
    for i, name in enumerate(voters):
        out = ref.read_post(post(name, f"投票：老王\n理由：{name}觉得他很可疑", 37 + i * 0.1), str(10 + i))
        assert out.events, name
    ref.read_post(post("老王", "投 小明", 38), "20")
    ref.read_post(post("夜行者", "投票：小明", 38.5), "21")
    out = ref.tick(at(60), published(keys))
    public = next(d for d in out.drafts if d.channel == "thread")
    assert public.key == "g1:day1:public"
    assert "老王 被处决，身份：杀手" in public.text
    assert ref.state.phase is Phase.DUSK
    assert not [a for a in out.alerts if "no_vote" in a.kind]


def test_the_penalty_divination_is_granted_by_the_gm_and_answered_at_once(tmp_path) -> None:
    from shenshi.rulesets.base import GmRuling

    ref = referee(tmp_path)
    keys: dict = {}
    ref.tick(at(0), published(keys))
    ref.read_pm(pm("夜行者", "杀 Rex\n月黑风高，夜行者来了。", 1), "1")  # a short declaration
    out = ref.tick(at(24), published(keys))
    assert any(a.kind == "rule:declaration_short" for a in out.alerts)
    keys["g1:night1:public"] = at(24)
    ref.tick(at(24), published(keys))
    ref.apply(GmRuling("extra_divination", "Tom_2"))
    refused = ref.read_pm(pm("白色的猫", "占卜 老王", 25), "2")  # not drawn
    assert not [d for d in refused.drafts if d.kind == "extra_divination"]
    answered = ref.read_pm(pm("Tom_2", "占卜 老王", 26), "3")
    answer = [d for d in answered.drafts if d.kind == "extra_divination"]
    assert len(answer) == 1 and answer[0].destination == "Tom_2" and "老王 是杀手" in answer[0].text
    again = ref.read_pm(pm("Tom_2", "占卜 夜行者", 27), "4")
    assert not [d for d in again.drafts if d.kind == "extra_divination"]  # only the first is answered


def test_two_lurking_warnings_name_the_next_substitute(tmp_path) -> None:
    """The second warning's alert offers the exit and the bench's first free substitute as
    hints (data), and names no command in its message; the first warning offers nothing."""
    from dataclasses import replace as dc_replace

    from shenshi.daemon.hints import AlertFacts, Situation, advise
    from shenshi.daemon.referee import _note_alert
    from shenshi.rulesets.base import DaemonNote

    ref = referee(tmp_path)
    ref.game = dc_replace(ref.game, substitutes=("Rex", "替补甲"))  # Rex already plays
    sit = Situation("review", ref.state, ref.ruleset, bench=tuple(ref.game.substitutes))
    replaced = _note_alert(ref.templates, ref.keys, ref.state, DaemonNote("小明", "lurking", "replaced"), 0, None)
    assert "shenshi" not in replaced.message
    advice = advise(AlertFacts(replaced.kind, replaced.subject, replaced.key, replaced.cause), sit)
    assert [h.args[0] for h in advice.hints] == ["exit", "小明"]
    assert "shenshi substitute 小明 替补甲（新玩家填了 替补甲，确认无误再运行）" in advice.text() and "override exit 小明" in advice.text()
    warned = _note_alert(ref.templates, ref.keys, ref.state, DaemonNote("小明", "lurking", "warning"), 0, None)
    assert advise(AlertFacts(warned.kind, warned.subject, warned.key, warned.cause), sit).hints == ()


def test_an_edited_ballot_after_an_early_close_is_shown_to_the_gm(tmp_path) -> None:
    """Issue 13: the edit is read in the step its post was read in, not in the dusk after it."""
    from dataclasses import replace as dc_replace

    ref, keys = day_one(tmp_path)
    vote_open(ref, keys)
    first = None
    for i, (name, _) in enumerate(GAME6_10):
        ballot = post(name, "投票：老王" if name != "老王" else "投票：小明", 37 + i * 0.1)
        first = first or ballot
        assert ref.read_post(ballot, str(30 + i)).events, name
    ref.tick(at(38), published(keys))
    assert ref.state.phase is Phase.DUSK  # every ballot in: the round closed early
    revision = dc_replace(first, text="投票：月光")
    out = ref.read_edit(first, revision, "30")
    assert [a.kind for a in out.alerts] == ["edited_vote"]
    assert "老王" in out.alerts[0].message and "月光" in out.alerts[0].message
    same = ref.read_edit(first, dc_replace(first, text="投票：老王 "), "30")
    assert not same.alerts


def test_an_edited_first_round_ballot_during_the_runoff_is_read_in_its_own_round(tmp_path) -> None:
    from dataclasses import replace as dc_replace

    ref, keys = day_one(tmp_path)
    vote_open(ref, keys)
    targets = ["老王", "小明", "Rex", "小明", "老王", "小明", "老王", "小明", "老王", "Tom_2"]
    ballots = []
    for i, ((name, _), target) in enumerate(zip(GAME6_10, targets, strict=True)):
        target = "老王" if name == target else target
        ballots.append(post(name, f"投票：{target}", 37 + i * 0.1))
        assert ref.read_post(ballots[-1], str(60 + i)).events, name
    ref.tick(at(48), published(keys))
    assert ref.state.round == 2  # 老王 and 小明 tie: the runoff
    rex = ballots[2]  # 小明 voted Rex in round 1: no candidate of the runoff
    out = ref.read_edit(rex, dc_replace(rex, text="投票：Tom_2"), "62")
    assert [a.kind for a in out.alerts] == ["edited_vote"]


def test_the_closed_steps_ballots_stay_watched_for_edits_until_the_next_step(tmp_path) -> None:
    ref = referee(tmp_path)
    keys: dict = {}
    ref.tick(at(0), published(keys))
    ref.read_pm(pm("小明", "占卜 老王", 1), "1")
    assert ref.watched() == {"1"}
    ref.tick(at(24), published(keys))
    assert ref.state.phase is Phase.DAWN and ref.watched() == {"1"}
    keys["g1:night1:public"] = at(24)
    ref.tick(at(24), published(keys))
    assert ref.watched() == set()


def test_the_vote_thread_opening_is_posted_and_an_early_ballot_is_answered(tmp_path) -> None:
    """Issue 13: game6 opens the vote at the 13th hour of the day; a post says so, and a ballot
    before it is not counted and its voter is told when to vote again."""
    ref, keys = day_one(tmp_path)
    assert [m.what for m in ref.deadlines()] == ["vote_opens", "vote_closes"]
    assert ref.next_deadline(at(30)) == at(36)
    early = ref.read_post(post("小明", "投票：老王", 30), "2")
    assert not early.events and [a.kind for a in early.alerts] == ["no_vote_open"]
    (reply,) = early.drafts
    assert (reply.kind, reply.channel, reply.destination) == ("vote_not_open", "pm", "小明")
    assert "2026-12-03 08:00 开放投票" in reply.text  # day 1 opened at 24 h; +12 h
    assert not [d for d in ref.tick(at(35.9), published(keys)).drafts]
    opened = ref.tick(at(36), published(keys)).drafts
    assert [(d.kind, d.key, d.channel) for d in opened] == [("vote_opened", "g1:day1:vote_open", "thread")]
    assert "【第1天】投票帖自 2026-12-03 08:00 起开放投票（此后的投票均有效），2026-12-04 08:00 截止。" in opened[0].text
    assert not ref.tick(at(37), published(keys)).drafts  # once
    # F37: from the rules' hour a ballot counts, though the GM's opening post is not out yet
    # (a player who votes at the rules' hour is not punished for the GM's delay)
    above = ref.read_post(post("小明", "投票：老王", 37), "3")
    assert above.events and not [d for d in above.drafts if d.kind == "vote_not_open"]


def test_the_last_killers_self_target_supersedes_his_earlier_kill(tmp_path) -> None:
    """RES-A4: refused at once, yet his latest PM: at dawn there is no kill."""
    cfg = config(tmp_path)
    rules = find_ruleset("game6-10")
    specs = [PlayerSpec(n, r, rules.info.roles[r].team, n != "老王") for n, r in GAME6_10]
    state = rules.new_game(specs)
    ref = Referee(rules, cfg.game, state, game_key="g1", templates=Templates(), uids=UIDS, gm_uid="2", tz=TZ)
    ref.tick(at(0), published({}))
    assert ref.read_pm(pm("夜行者", "杀 Rex\n" + DECLARATION, 1), "1").events
    refused = ref.read_pm(pm("夜行者", "杀 夜行者\n" + DECLARATION, 2), "2")
    assert [a.kind for a in refused.alerts] == ["lone_killer_suicide"]
    assert "未受理" in next(d.text for d in refused.drafts if d.kind == "receipt")
    out = ref.tick(at(24), published({}))
    public = next(d for d in out.drafts if d.key == "g1:night1:public")
    assert "Rex" not in public.text and "昨夜无人死亡" in public.text
