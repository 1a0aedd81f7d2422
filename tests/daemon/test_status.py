"""The status model (``shenshi status``, ``--json``, the console): deadlines on the forum's
clock, the vote with each candidate's voters and their posts, who has not acted, what waits
for the GM, the living as the players know them, alerts and their acknowledgement, health."""

from __future__ import annotations

from datetime import timedelta

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon.status import build_status, record_poll, to_json
from shenshi.rulesets.base import Phase
from tests.daemon.helpers import (
    GAME6_10,
    START,
    TZ,
    announcement,
    at,
    config,
    pm,
    post,
    publish_vote_opening,
)

KILL = "杀 Rex\n杀人宣言：\n" + "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6


def service_at(tmp_path, clock):
    svc = bootstrap(config(tmp_path), clock=clock, forum=False)
    svc.start()
    return svc


def feed(svc, item) -> int:
    """Store a post or PM as the poll would, and process it."""
    with svc.store.transaction() as uow:
        [result] = uow.evidence.record(
            svc.game_id,
            [(item, f"http://forum.example/{item.__class__.__name__}/{result_id(item)}")],
        )
    svc.process()
    return result.evidence.id


def result_id(item) -> str:
    return getattr(item, "pid", None) or item.id


def night_one(svc, clock) -> None:
    """Night 1 open; the killer 夜行者 kills Rex, the seer 小明 divines 老王."""
    clock.set(at(0.02))
    svc.tick()
    feed(svc, pm("夜行者", KILL, 0.05))
    feed(svc, pm("小明", "占卜 老王", 0.1))


def test_a_night_shows_its_deadline_actions_and_who_has_not_acted(tmp_path) -> None:
    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    night_one(svc, clock)
    clock.set(at(1))
    s = build_status(svc)
    assert (s.phase, s.number, s.step) == ("night", 1, "第1夜")
    assert s.deadline.what == "night_end" and s.deadline.at == START + timedelta(hours=24)
    assert s.deadline.at.tzinfo is not None and s.deadline.at.utcoffset() == timedelta(hours=8)
    assert s.deadline.seconds_left == 23 * 3600
    words = [a.words for a in s.night.submitted]
    assert words == ["夜行者 杀 Rex", "小明 占卜 老王"]
    assert s.night.submitted[1].evidence.label.startswith("小明 占卜 老王 → PM ")
    assert (
        "夜行者" not in s.night.not_acted
        and "老王" in s.night.not_acted
        and "Rex" in s.night.not_acted
    )
    # grouped by what each may still send (F10: a game6 庶民 prays), for the CLI and the console
    still = dict(s.night.still_to_send)
    assert "Rex" in still["祈祷"] and "老王" in still["杀"] and "小明" not in still.get("占卜", ())
    from shenshi.commands.status import render

    text = "\n".join(render(s, 200))
    assert "还没提交「祈祷」：" in text and "有能力但还没行动" not in text


def test_a_death_counts_for_the_players_from_its_publication(tmp_path) -> None:
    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    night_one(svc, clock)
    clock.set(at(24.5))
    svc.tick()  # the night resolves: Rex dies, the result waits for the GM
    s = build_status(svc)
    assert s.phase == "dawn" and "Rex" in s.living and s.unannounced_deaths == ("Rex",)
    result = announcement(svc, svc.referee.gate_key())
    [waiting] = [w for w in s.waiting if w.opens_next_step]
    assert waiting.id == result.id and f"shenshi published {result.id}" in waiting.hint
    feed(svc, post("神的使者", result.text, 24.6))  # the GM posts it by hand
    clock.set(at(24.7))
    svc.tick()
    s = build_status(svc)
    assert (
        s.phase == "day" and "Rex" in s.dead and "Rex" not in s.living and not s.unannounced_deaths
    )
    assert not [w for w in s.waiting if w.opens_next_step]
    assert s.deadline.what == "vote_opens"  # game6: the vote opens at the 13th hour of the day
    assert s.deadline.at == at(24.6) + timedelta(hours=12)  # from the publication, not the close


def test_the_vote_lists_each_candidates_voters_with_their_posts(tmp_path) -> None:
    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    night_one(svc, clock)
    clock.set(at(24.5))
    svc.tick()
    feed(svc, post("神的使者", announcement(svc, svc.referee.gate_key()).text, 24.6))
    clock.set(at(37))
    svc.tick()
    publish_vote_opening(svc)  # ballots count from the vote's opening post (F37)
    for voter, target, hours in (
        ("小明", "老王", 37.1),
        ("月光", "老王", 37.2),
        ("老王", "小明", 37.3),
    ):
        feed(svc, post(voter, f"投票：{target}", hours))
    clock.set(at(38))
    s = build_status(svc)
    v = s.vote
    assert v is not None and v.open and v.round == 1 and s.deadline.what == "vote_closes"
    assert [(c.name, c.votes, [b.voter for b in c.voters]) for c in v.tally] == [
        ("老王", 2, ["小明", "月光"]), ("小明", 1, ["老王"]),
    ]  # fmt: skip
    assert v.tally[0].voters[0].evidence.label.startswith("小明 投 老王 → ")
    assert v.decisive == 5  # nine living voters
    assert set(v.not_voted) == {n for n, _ in GAME6_10} - {"Rex", "小明", "月光", "老王"}
    assert v.decided is None


def test_alerts_until_acknowledged_with_their_evidence_and_next_command(tmp_path) -> None:
    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    night_one(svc, clock)
    feed(svc, pm("路人甲", "杀 小明", 0.3))  # not a player
    s = build_status(svc)
    [alert] = [a for a in s.alerts if a.kind == "not_a_player"]
    assert (
        alert.name == "非玩家的指令" and alert.hint and alert.at.utcoffset() == timedelta(hours=8)
    )
    assert alert.evidence.label.startswith("路人甲：杀 小明 → PM ") and alert.evidence.url
    with svc.store.transaction() as uow:
        uow.alerts.acknowledge(svc.game_id, [alert.id])
    assert alert.id not in [a.id for a in build_status(svc).alerts]


def test_the_health_check_needs_a_recent_successful_poll(tmp_path) -> None:
    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    assert not build_status(svc).health.ok  # never polled
    record_poll(svc.store, svc.game_id, clock())
    clock.advance(seconds=3 * svc.config.daemon.poll_interval)
    assert build_status(svc).health.ok
    clock.advance(seconds=1)
    health = build_status(svc).health
    assert not health.ok and "超过 3 个轮询间隔" in health.problem


def test_json_is_plain_and_on_the_forums_clock(tmp_path) -> None:
    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    night_one(svc, clock)
    data = to_json(build_status(svc))
    assert data["phase"] == "night" and data["deadline"]["what"] == "night_end"
    assert data["deadline"]["at"].endswith("+08:00") and data["now"].endswith("+08:00")
    assert data["night"]["submitted"][0]["evidence"]["label"].startswith("夜行者 杀 Rex")
    assert data["roles"]["小明"] == "占卜者"
    assert str(TZ) == data["timezone"]


def test_substitutions_and_exits_are_announced_where_the_ruleset_publishes_them(tmp_path) -> None:
    from shenshi.rulesets.base import DeclareExit

    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    night_one(svc, clock)
    out = svc.substitute("阿杰", "替补甲", "99")
    [sub] = [d for d in out.drafts if d.channel == "thread"]  # (and a PM to 阿杰, who leaves)
    assert [d.destination for d in out.drafts if d.channel == "pm"] == ["阿杰"]
    assert (sub.channel, sub.destination, sub.text.splitlines()[0]) == (
        "thread",
        "2",
        "阿杰 退出，由替补 替补甲 接替。",
    )
    out = svc.gm(DeclareExit("kk_大侠"))
    [notice] = out.drafts
    assert notice.text.startswith("kk_大侠 退出游戏。")  # (the GM's own exit: not 「自动」, wolfadv W22)
    s = build_status(svc)
    assert "kk_大侠" in s.living and s.unannounced_deaths == ("kk_大侠",)  # until it is posted
    feed(svc, post("神的使者", notice.text, 0.5))
    assert "kk_大侠" in build_status(svc).dead
    assert svc.referee.state.phase is Phase.NIGHT


def test_a_failed_send_shows_the_forums_reason(tmp_path) -> None:
    from shenshi.daemon.announce import Draft
    from shenshi.daemon.referee import Effects

    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    svc._commit(Effects(drafts=[Draft("k1", "receipt", "pm", "小明", "已收到")]), "test", None)
    with svc.store.transaction() as uow:
        [a] = uow.outbox.announcements(svc.game_id)
        uow.outbox.approve(a.id)
        uow.outbox.mark_sending(a.id)
        uow.outbox.mark_failed(a.id, "对不起，您两次发表间隔少于 15 秒")
    [failed] = build_status(svc).failed
    assert (failed.id, failed.where, failed.error) == (
        a.id,
        "私信 小明",
        "对不起，您两次发表间隔少于 15 秒",
    )


def test_werewolf_night_phases_are_deadlines(tmp_path) -> None:
    from shenshi.demo.script import load_script

    script = load_script("werewolf")
    table = [(s.name, s.role) for s in script.seats]
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path, "werewolf", table), clock=clock, forum=False)
    svc.start()
    clock.set(at(0.1))
    svc.tick()
    s = build_status(svc)
    assert s.phase == "night"
    whats = [(d.what, d.label) for d in s.deadlines]
    assert ("night_phase", "夜晚1截止") in whats and ("night_phase", "夜晚2截止") in whats
    assert s.deadline.what == "night_phase" and s.deadline.label == "夜晚1截止"


def test_marks_are_the_ones_the_players_know(tmp_path) -> None:
    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    night_one(svc, clock)
    feed(svc, pm("月光", "束魂 Rex", 0.2))  # the binder binds the killers' target: 束魂成功
    clock.set(at(24.5))
    svc.tick()
    assert not build_status(svc).marks  # resolved, not yet published
    result = announcement(svc, svc.referee.gate_key())
    assert "Rex 被束魂" in result.text
    feed(svc, post("神的使者", result.text, 24.6))
    clock.set(at(24.7))
    svc.tick()
    s = build_status(svc)
    assert [(m.name, m.kind) for m in s.marks] == [("Rex", "bound")] and "Rex" in s.living


def test_a_day_is_discussion_until_its_vote_opens_and_the_runoff_shows_no_curse(tmp_path) -> None:
    """newcomer3 N42: game6's day is 讨论 until the 13th hour (not 投票 from dawn on); in the
    runoff the curse mark published with round 1 is not shown (A-D10: the runoff counts
    without curse and bless)."""
    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    night_one(svc, clock)
    feed(svc, pm("阿杰", "诅咒 月光", 0.2))
    clock.set(at(24.5))
    svc.tick()
    result = announcement(svc, svc.referee.gate_key())
    feed(svc, post("神的使者", result.text, 24.6))
    clock.set(at(25))
    svc.tick()
    assert build_status(svc).step == "第1天 讨论（投票未开放）"
    clock.set(at(37))
    svc.tick()
    publish_vote_opening(svc)
    assert build_status(svc).step == "第1天 投票"
    # 老王 4, 月光 3 + the curse = 4, 小明 2: a tie, the runoff
    votes = {"夜行者": "老王", "小明": "老王", "Lily99": "老王", "Tom_2": "老王", "老王": "月光",
             "月光": "小明", "阿杰": "月光", "白色的猫": "月光", "kk_大侠": "小明"}  # fmt: skip
    for i, (voter, target) in enumerate(votes.items()):
        feed(svc, post(voter, f"投票：{target}", 37.1 + i / 100))
    clock.set(at(37 + 25))
    svc.tick()
    assert svc.referee.state.round == 2, svc.referee.state.round
    tally = announcement(svc, svc.referee._round_key(1))
    assert "月光 获得诅咒附加的一票" in tally.text, tally.text
    feed(svc, post("神的使者", tally.text, 62.1))
    clock.set(at(62.2))
    svc.tick()
    s = build_status(svc)
    assert s.step == "第1天 生死投票"
    assert "curse_applied" not in [m.kind for m in s.marks], s.marks
