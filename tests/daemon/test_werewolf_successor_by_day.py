"""recheck: a sheriff the GM's exit put out by day was PMed to reply 「【殉职】角色名」 and his
reply was refused as 「你已出局，不能再行动」: the badge was lost. By day, as at dawn, the out
sheriff's 【殉职】 hands the badge over (RES-W21: 【殉职】 is <强制>, at once by day)."""

from __future__ import annotations

from dataclasses import replace

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon import gm_commands
from shenshi.daemon.gm_commands import mark_published
from shenshi.demo.script import load_script
from shenshi.rulesets.werewolf import camps
from tests.daemon.helpers import START, announcements, at, config, post
from tests.daemon.test_stream import _fed


def test_a_sheriff_put_out_by_an_exit_names_his_successor_by_day(tmp_path) -> None:
    script = load_script("werewolf")
    seer = next(s.name for s in script.seats if s.role == "seer")
    cfg = config(tmp_path, "werewolf", [(s.name, s.role) for s in script.seats], mode="review")
    teams = {s.name: s.team for s in script.seats}
    game = replace(cfg.game, players=tuple(replace(p, team=teams[p.name]) for p in cfg.game.players),
                   role_threads={"seer": "41"})
    clock = ManualClock(START)
    svc = bootstrap(replace(cfg, game=game), clock=clock, forum=False)
    svc.start()
    clock.set(at(10.6))
    svc.tick()  # day 1: the sheriff's election
    living = [s.name for s in svc.referee.state.alive()]
    _fed(svc, *[post(n, f"投票：{seer}", 11 + i / 60) for i, n in enumerate(living)])
    clock.set(at(49.1))
    svc.tick()
    mark_published(svc, [a.id for a in announcements(svc) if a.kind == "day_result"])
    clock.set(at(49.2))
    svc.tick()
    heir = next(n for n in living if n != seer)
    gm_commands.correct(svc, "exit", [seer], reason="本人申请退出")
    assert camps.sheriff(svc.referee.state) is None
    clock.set(at(49.3))
    _fed(svc, post(seer, f"【殉职】{heir}", 49.25, tid="41"))
    assert camps.sheriff(svc.referee.state) is not None and camps.sheriff(svc.referee.state).name == heir
    refused = [a for a in announcements(svc) if a.destination == seer and "不能再行动" in a.text]
    assert not refused, [a.text for a in refused]
