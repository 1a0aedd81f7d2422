"""The status model knows what the daemon is doing (issue 20): pacing sends is not "not
reading the forum"; a result the daemon just sent is published; a werewolf night settled at
03:00 is announced at 06:00; one post is one alert."""

from __future__ import annotations

from datetime import timedelta

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.commands.status import render
from shenshi.daemon.announce import Draft
from shenshi.daemon.referee import Effects
from shenshi.daemon.status import build_status, record_poll
from tests.daemon.helpers import START, announcement, at, config


def service(tmp_path, mode="review", **kw):
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path, mode=mode, **kw), clock=clock, forum=False)
    svc.start()
    clock.set(at(0.02))
    svc.tick()
    return svc, clock


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
    from dataclasses import replace

    from shenshi.daemon.gm_commands import mark_published
    from shenshi.demo.script import load_script

    script = load_script("werewolf")
    cfg = config(tmp_path, "werewolf", [(s.name, s.role) for s in script.seats], mode="review")
    teams = {s.name: s.team for s in script.seats}
    cfg = replace(cfg, game=replace(cfg.game, players=tuple(replace(p, team=teams[p.name]) for p in cfg.game.players)))
    clock = ManualClock(START)
    svc = bootstrap(cfg, clock=clock, forum=False)
    svc.start()
    for hours in (0.02, 10.6, 49.1):  # night 0; day 1 at 06:00; its close at 21:00 the next day
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
