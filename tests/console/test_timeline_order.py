"""The console's timeline reads in the order things came about (issue 23, newcomer finding
F31): the GM's corrections at the time he made them, before what they caused (a kill he
entered for a garbled PM before the night's deaths, a substitution before the tally it changed,
shown once even when the seat changes hands at the step's end), a day's tally before the
execution it decided and the deaths after both; the 更正 page lists the same corrections."""

from __future__ import annotations

import pytest

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.console.timeline import timeline
from shenshi.console.views import corrections_made
from shenshi.daemon import gm_commands as ops
from shenshi.store.outbox import AnnouncementState
from tests.console.conftest import KILL, feed
from tests.daemon.helpers import START, announcements, at, config, pm, post

VOTERS = ("夜行者", "老王", "小明", "月光", "阿杰", "Lily99", "Tom_2", "白色的猫", "kk_大侠")


@pytest.fixture
def game(tmp_path):
    clock = ManualClock(START)
    service = bootstrap(config(tmp_path, mode="dry-run"), clock=clock, forum=False)
    service.start()
    clock.set(at(0.02))
    service.tick()
    yield service, clock
    service.close()


def published(service) -> None:
    """The GM posted what waits for him by hand (dry-run) and said so."""
    for a in announcements(service, [AnnouncementState.PROPOSED]):
        if a.destination_kind.value == "thread":
            ops.mark_published(service, [a.id], None)
    service.tick()


def lines(service, step: str) -> list[tuple[str, str]]:
    [found] = [s for s in timeline(service) if s.name == step]
    assert all(e.at is not None for e in found.entries), found.entries  # a time on every line
    return [(e.kind, e.text) for e in found.entries]


def before(entries: list[tuple[str, str]], first: str, then: str) -> bool:
    texts = [t for _, t in entries]
    a = next(i for i, t in enumerate(texts) if t.startswith(first))
    b = next(i for i, t in enumerate(texts) if t.startswith(then))
    return a < b


def test_a_kill_the_gm_entered_comes_before_the_death_it_caused(game) -> None:
    service, clock = game
    feed(service, pm("夜行者", KILL, 0.05))
    feed(service, pm("老王", "杀 小明", 0.06))  # the killers disagree
    clock.set(at(3))
    ops.correct(service, "action", ["老王", "杀", "Rex"], "私信写错了名字")
    clock.set(at(24.5))
    service.tick()
    night = lines(service, "第1夜")
    assert ("correction", "补录 老王 的行动：杀 Rex（理由：私信写错了名字）") in night
    assert before(night, "补录 老王", "出局：Rex")
    made = [c.words for c in corrections_made(service)]
    assert "补录 老王 的行动：杀 Rex（理由：私信写错了名字）" in made


def test_a_rules_decision_comes_before_the_night_it_left_without_deaths(game) -> None:
    service, clock = game
    feed(service, pm("夜行者", KILL, 0.05))
    feed(service, pm("老王", "杀 小明\n杀人宣言：" + "今夜月色正好。" * 20, 0.06))
    clock.set(at(24.5))
    service.tick()
    night = lines(service, "第1夜")
    assert ("result", "无人死亡") in night
    assert [k for k, _ in night].index("note") < [t for _, t in night].index("无人死亡"), night


def test_a_substitution_stays_where_the_gm_made_it_once(game) -> None:
    service, clock = game
    feed(service, pm("夜行者", KILL, 0.05))
    clock.set(at(5))
    ops.substitute(service, "Tom_2", "路人乙", "77", offline=True)  # the night gets 12 h longer
    clock.set(at(37))
    service.tick()  # dawn: the seat changes hands
    night = lines(service, "第1夜")
    subs = [t for _, t in night if "路人乙 接替 Tom_2" in t]
    assert len(subs) == 1, night
    assert before(night, subs[0], "出局：Rex"), night
    assert [c.words for c in corrections_made(service)].count(subs[0]) == 1


def to_the_vote(service, clock) -> None:
    """Night 1 kills Rex, its result published; day 1's vote open (hour 37) and published."""
    feed(service, pm("夜行者", KILL, 0.05))
    clock.set(at(24.5))
    service.tick()
    published(service)
    for h in (30, 37):
        clock.set(at(h))
        service.tick()
        published(service)


def test_a_day_reads_tally_execution_then_deaths(game) -> None:
    service, clock = game
    to_the_vote(service, clock)
    for i, voter in enumerate(VOTERS):
        feed(service, post(voter, "投票：老王" if voter != "老王" else "投票：小明", 37 + i / 10))
    clock.set(at(38))
    ops.correct(service, "ballot", ["阿杰", "小明"], "")
    clock.set(at(90))
    service.tick()
    day = lines(service, "第1天")
    assert before(day, "阿杰 的选票改记为 小明", "计票：")
    assert before(day, "计票：", "处决：老王")
    assert before(day, "处决：老王", "出局：老王（处决）")


def test_a_seat_a_substitute_takes_over_is_not_said_to_exit_for_its_missing_ballot(game) -> None:
    """RES-A18: a seat without a ballot dies only if no substitute enters; the day's rule note
    says the substitute keeps the seat (the daemon raises no exit alert for it either)."""
    service, clock = game
    to_the_vote(service, clock)
    ops.substitute(service, "白色的猫", "路人乙", "77", offline=True)
    for i, voter in enumerate(v for v in VOTERS if v != "白色的猫"):
        feed(service, post(voter, "投票：老王" if voter != "老王" else "投票：小明", 37 + i / 10))
    clock.set(at(100))
    service.tick()
    day = lines(service, "第1天")
    notes = [t for k, t in day if k == "note" and "白色的猫" in t]
    assert notes and all("由替补 路人乙 接替，座位不退出" in t and "自动退出" not in t for t in notes), day
    assert service.referee.state.has_player("路人乙")


def test_the_night_says_what_each_player_has_not_sent(game) -> None:
    """F10: game6's 庶民 pray at night; the 现在 page says 还没提交「祈祷」, not a bare list of
    names under 有能力但还没行动 a newcomer took for missing actions."""
    from starlette.testclient import TestClient

    from shenshi.console.app import create_app
    from shenshi.console.auth import COOKIE, ConsoleKey
    from shenshi.console.desk import Desk
    from tests.console.conftest import TOKEN

    service, clock = game
    feed(service, pm("夜行者", KILL, 0.05))
    feed(service, pm("Tom_2", "祈祷 老王", 0.1))
    key = ConsoleKey(TOKEN)
    with TestClient(create_app(Desk([service]), key)) as client:
        client.cookies.set(COOKIE, key.cookie)
        html = client.get("/g/1/").text
    assert "有能力但还没行动" not in html
    assert "还没提交「祈祷」：白色的猫、kk_大侠、Rex</p>" in html  # Tom_2 prayed
    assert "还没提交「杀」：老王</p>" in html and "还没提交「占卜」：小明</p>" in html
