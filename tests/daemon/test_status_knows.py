"""The status model knows what the daemon is doing (issue 20): pacing sends is not "not
reading the forum"; a result the daemon just sent is published; a werewolf night settled at
03:00 is announced at 06:00; one post is one alert."""

from __future__ import annotations

from datetime import timedelta

from shenshi.commands.status import render
from shenshi.daemon.announce import Draft
from shenshi.daemon.referee import Effects
from shenshi.daemon.status import build_status, record_poll
from tests.daemon.helpers import START, announcement, at, started


def service(tmp_path, mode="review", **kw):
    return started(tmp_path, mode=mode, **kw)


def test_a_daemon_pacing_its_sends_is_not_said_to_be_stopped(tmp_path) -> None:
    svc, clock = service(tmp_path)
    svc._commit(Effects(drafts=[Draft(f"k{i}", "receipt", "pm", "小明", f"已收到 {i}") for i in range(7)]), "t", None)
    record_poll(svc.store, svc.game_id, at(0.1))
    clock.set(at(1.5))  # an hour and a half later: the daemon has been sending since
    svc.lease.hold()
    with svc.store.transaction() as uow:
        ids = [a.id for a in uow.outbox.announcements(svc.game_id) if a.key.startswith("k")]
        for i in ids:
            uow.outbox.approve(i)
        uow.outbox.mark_sending(ids[0], owner=svc.owner)
        uow.outbox.mark_sent(ids[0], forum_id="900", at=clock())
    s = build_status(svc)
    assert s.health.ok and s.health.sending == 6
    text = "\n".join(render(s, 200))
    assert "正在按论坛的发帖间隔发送（还有 6 条）" in text and "shenshi run" not in text.split("守护进程：")[-1]
    svc.lease.release()
    clock.set(at(3))
    assert not build_status(svc).health.ok  # nobody holds the game: it is stopped


def test_right_after_approve_a_running_daemon_is_not_said_to_be_stopped(tmp_path) -> None:
    """adversary4 A14: just after ``approve``, before the daemon's first paced send, status
    said 「守护进程没有在运行：请运行 shenshi run」 while it ran."""
    svc, clock = service(tmp_path)
    svc._commit(Effects(drafts=[Draft(f"k{i}", "receipt", "pm", "小明", f"已收到 {i}") for i in range(2)]), "t", None)
    record_poll(svc.store, svc.game_id, at(0.1))
    clock.set(at(1.5))
    svc.lease.hold()  # it runs (its lease is fresh) and has sent nothing yet
    with svc.store.transaction() as uow:
        for a in uow.outbox.announcements(svc.game_id):
            if a.key.startswith("k"):
                uow.outbox.approve(a.id)
    s = build_status(svc)
    assert s.health.ok and s.health.sending == 2
    assert "没有在运行" not in "\n".join(render(s, 200))


def test_a_result_the_daemon_just_sent_is_published(tmp_path) -> None:
    svc, clock = service(tmp_path)
    clock.set(at(24.5))
    svc.tick()
    assert build_status(svc).step == "第1夜（已结算，待公布）"
    result = announcement(svc, svc.referee.gate_key())
    with svc.store.transaction() as uow:
        uow.outbox.approve(result.id)
        uow.outbox.mark_sending(result.id, owner=svc.owner)
        uow.outbox.mark_sent(result.id, forum_id="901", at=clock())
    step = build_status(svc).step
    assert step == "第1夜（结果已公布，下一阶段即将开始）" and "待公布" not in step


def test_one_post_is_one_alert(tmp_path) -> None:
    """A dead chess player's ballot breaks the speech rule and is no ballot: one alert, saying
    both."""
    from shenshi.daemon.referee import Clockwork
    from tests.daemon.helpers import chess_referee, post
    from tests.daemon.test_referee_chess import night_one

    ref = chess_referee(tmp_path)
    night_one(ref)  # 韩信 killed
    ref.tick(at(50), Clockwork({"g1:night1:public": at(49.5)}))  # day 2 open
    out = ref.read_post(post("韩信", "投 项羽", 51), "99")
    [alert] = out.alerts
    assert alert.message == "已出局的 韩信 在游戏区发帖；韩信 已出局，其投票无效"


def test_a_werewolf_night_settled_at_3_is_announced_at_6(tmp_path) -> None:

    from shenshi.daemon.gm_commands import mark_published
    from shenshi.demo.script import load_script

    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    for hours in (10.6, 49.1):  # night 0; day 1 at 06:00; its close at 21:00 the next day
        clock.set(at(hours))
        svc.tick()
    result = announcement(svc, svc.referee.gate_key())
    if result is not None:  # (a day nobody voted in has nothing to announce)
        mark_published(svc, [result.id])
    clock.set(at(49.2))
    svc.tick()
    assert svc.referee.state.phase.value == "night"
    clock.set(START + timedelta(days=2, hours=7, minutes=30))  # 03:30: night 1 has settled
    svc.tick()
    assert build_status(svc).step == "第1夜（已结算，06:00 公布）"


def test_a_decided_vote_says_why_it_is_still_open(tmp_path) -> None:
    """'月光 已无法被追上' yet the vote ran on: the status says what it waits for (the
    ruleset's own answer, RULES.md "Early close"), and when it closes otherwise."""
    from shenshi.daemon.gm_commands import mark_published
    from tests.daemon.helpers import post

    svc, clock = service(tmp_path)
    clock.set(at(24.5))
    svc.tick()
    mark_published(svc, [announcement(svc, svc.referee.gate_key()).id])
    clock.set(at(37))
    svc.tick()
    from tests.daemon.helpers import publish_vote_opening

    publish_vote_opening(svc)  # ballots count from the vote's opening post (F37)
    for i, voter in enumerate(("夜行者", "老王", "小明", "阿杰", "Lily99", "Tom_2")):
        from tests.daemon.test_status import feed

        feed(svc, post(voter, "投 月光", 37 + i / 100))
    vote = build_status(svc).vote
    assert vote.decided == "月光"
    assert vote.why_open.startswith("结果已定，但要所有人投票才提前结束（还没有投票：")
    assert "月光" in vote.why_open and "否则到 12-04 08:30 截止时计票" in vote.why_open


def test_an_unconfirmed_exit_is_listed_with_its_confirmation_never_to_approve(tmp_path) -> None:
    from tests.daemon.helpers import GAME6_10, post

    svc, clock = service(tmp_path)
    with svc.store.transaction() as uow:  # everyone signs in but Rex
        uow.evidence.record(svc.game_id, [(post(n, "签到", 1), None) for n, _ in GAME6_10 if n != "Rex"])
    svc.process()
    clock.set(at(25))
    svc.tick()
    text = "\n".join(render(build_status(svc), 300))
    [line] = [x for x in text.splitlines() if "未签到：#" in x]
    assert "approve" not in line and "shenshi override exit Rex" in line and "待你确认" in line


def test_a_werewolf_vote_is_never_said_decided_while_ballots_may_still_change(tmp_path) -> None:
    """adversary3 A10: werewolf's latest ballot counts (RES-W6) and the sheriff's weighs 1.5:
    however many ballots one character leads by, the status never says he cannot be caught
    (only where a ballot once cast is final, family A)."""
    from shenshi.demo.script import load_script
    from tests.daemon.helpers import post
    from tests.daemon.test_status import feed

    script = load_script("werewolf")
    svc, clock = started(tmp_path, "werewolf", script=script)
    clock.set(at(10.6))  # night 0 over: day 1 opens at 06:00
    svc.tick()
    assert svc.referee.state.phase.value == "day"
    names = [s.name for s in svc.referee.state.alive()]
    target, voters = names[0], names[1:]
    for i, voter in enumerate(voters):
        feed(svc, post(voter, f"投票：{target}", 10.7 + i / 100))
    status = build_status(svc)
    vote = status.vote
    assert vote is not None and vote.tally[0].name == target and vote.tally[0].votes > len(names) / 2
    assert vote.decided is None and vote.why_open is None
    assert "已无法被追上" not in "\n".join(render(status, 200))
    assert vote.decisive == 0 and "票过半即可确定" not in "\n".join(render(status, 200))  # (C13: 2.1 weighs more)


def test_an_alert_the_gm_fixed_is_not_counted_as_waiting(tmp_path) -> None:
    """newcomer N7: after the fix an alert asked for, status still said 「2 条未确认」 and the
    console's header counted it, until the GM acked it by hand."""
    from shenshi.daemon.gm_commands import enter_action
    from tests.daemon.helpers import pm
    from tests.daemon.test_status import feed

    svc, clock = service(tmp_path)
    feed(svc, pm("小明", "占卜 老汪", 0.05))  # no such player: an alert
    assert len(build_status(svc).open_alerts) == 1
    enter_action(svc, ["小明", "占卜", "老王"])  # the GM enters what he meant: the alert resolves
    s = build_status(svc)
    assert s.open_alerts == () and len(s.alerts) == 1
    assert "提醒（0 条待处理，1 条已自行解决" in "\n".join(render(s, 200))


def test_a_delegated_ballot_does_not_make_the_vote_decided(tmp_path) -> None:
    """newcomer N9: 「老王 已无法被追上」 counted Rex's delegation, which his own post would void."""
    from tests.daemon.helpers import pm, post, vote_opened
    from tests.daemon.test_status import feed

    svc, clock = service(tmp_path)
    vote_opened(svc, clock)
    for i, voter in enumerate(("夜行者", "老王", "小明", "阿杰", "Lily99")):
        feed(svc, post(voter, "投 月光", 37 + i / 100))
    feed(svc, pm("Rex", "委托投票：月光", 37.1))  # 6 of 10 with his: not final
    assert build_status(svc).vote.decided is None
    feed(svc, post("Tom_2", "投 月光", 37.2))  # 6 firm: out of reach now
    assert build_status(svc).vote.decided == "月光"


def test_keeping_a_player_who_missed_the_sign_in_settles_its_alert(tmp_path) -> None:
    """newcomer N14: after 「保留他」 the alert still offered 「确认退出」 and 「换人」."""
    from shenshi.daemon.gm_commands import outbox_action
    from tests.daemon.helpers import GAME6_10, announcements, post

    svc, clock = service(tmp_path)
    with svc.store.transaction() as uow:  # everyone signs in but Rex
        uow.evidence.record(svc.game_id, [(post(n, "签到", 1), None) for n, _ in GAME6_10 if n != "Rex"])
    svc.process()
    clock.set(at(25))
    svc.tick()
    [signin] = [a for a in announcements(svc) if a.kind == "signin"]
    assert [a.subject for a in build_status(svc).open_alerts if a.kind == "signin"] == ["Rex"]
    outbox_action(svc, "reject", [signin.id])  # keep him
    s = build_status(svc)
    assert not [a for a in s.open_alerts if a.kind == "signin"]
    [kept] = [a for a in s.alerts if a.kind == "signin"]
    assert kept.resolution == f"保留 Rex（#{signin.id} 已放弃）"


def test_the_sign_in_count_keeps_a_settled_nights_dead(tmp_path) -> None:
    """newcomer4 G7: once night 1 settled early (its dead not published), the sign-in line said
    已签到 10 of 12: the GM wondered who was missing, and the number told the unpublished deaths."""
    from shenshi.daemon.status import build_status
    from tests.daemon.helpers import GAME6_10, at, pm, post, started
    from tests.daemon.test_status import feed

    svc, clock = started(tmp_path)
    with svc.store.transaction() as uow:
        uow.evidence.record(svc.game_id, [(post(n, "签到", 0.1), None) for n, _ in GAME6_10])
    svc.process()
    declaration = "杀人宣言：" + "月光下的小巷里，风吹过破旧的招牌，" * 8
    plan = [("夜行者", f"杀 Rex\n{declaration}"), ("老王", f"杀 Rex\n{declaration}"), ("小明", "占卜 老王"),
            ("月光", "束魂 阿杰"), ("阿杰", "诅咒 小明"), ("Lily99", "庇佑 白色的猫"),
            *((n, "祈祷 小明") for n in ("Tom_2", "白色的猫", "kk_大侠", "Rex"))]  # fmt: skip
    for i, (who, text) in enumerate(plan):
        feed(svc, pm(who, text, 0.2 + i / 100))
    svc.tick()
    assert svc.referee.state.phase.value == "dawn" and not svc.referee.state.is_alive("Rex")
    clock.set(at(0.5))
    sign_in = build_status(svc).sign_in
    assert sign_in is not None and len(sign_in.signed) == 10 and "Rex" in sign_in.signed, sign_in
