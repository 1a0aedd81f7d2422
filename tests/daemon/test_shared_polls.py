"""Many games in one daemon on the sandbox forum over real HTTP: the games on one board of one GM
account share one board read and one inbox read per round; a quiet round costs one request,
however many games; each PM reaches its own game, and one that could belong to several is a GM
alert in each of them, counted in none."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.adapters.sandbox import SandboxForum, serve
from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.adapters.sandbox.seed import GM_PASSWORD, PLAYERS, seed_demo
from shenshi.bootstrap import bootstrap_fleet
from shenshi.config import parse_config
from shenshi.records import PrivateMessage
from shenshi.rulesets.base import Phase
from shenshi.store.records import EvidenceKind
from tests.daemon.helpers import START, alerts, announcements
from tests.databases import database_url

ROLES = ["seer", "killer", "commoner", "commoner", "killer", "blesser", "curser", "commoner",
         "binder", "commoner"]  # fmt: skip
SECOND_CAST = [f"乙{n}号" for n in range(1, 11)]


def _fleet(engine: str, tmp_path, casts: list[list[str]]):
    clock = ManualClock(START - timedelta(hours=1))
    forum = SandboxForum(engine, clock)
    accounts = {name.lower(): uid for name, _, uid in seed_demo(forum)}  # phpwind: tom_2
    for name in SECOND_CAST:
        accounts[name.lower()] = forum.add_user(name, "Player_pw1").uid
    forum.add_user("路人甲", "Player_pw1")
    threads = [forum.create_thread("神的使者", 3, f"第{i + 1}局 名单", "名单：" + "、".join(cast), at=START)
               for i, cast in enumerate(casts)]  # fmt: skip
    server = serve(forum)
    base_url = server.__enter__()
    configs = []
    database = database_url(tmp_path, "games.sqlite3")
    for i, (cast, thread) in enumerate(zip(casts, threads, strict=True)):
        raw = {
            "forum": {"engine": engine, "base_url": base_url, "username": "神的使者",
                      "password_env": "SHENSHI_TEST_PASSWORD", "min_interval": 0},
            "game": {"name": f"第{i + 1}局", "ruleset": "game6-10", "board": 3, "vote_thread": thread.tid,
                     "start": START.replace(tzinfo=None).isoformat(),
                     "players": [{"name": n, "uid": accounts[n.lower()], "role": r} for n, r in zip(cast, ROLES, strict=True)]},
            "daemon": {"database": database, "log": str(tmp_path / f"dry{i}.log")},
        }  # fmt: skip
        configs.append(parse_config(raw, tmp_path))
    fleet = bootstrap_fleet(configs, clock=clock, sleep=lambda s: clock.advance(seconds=s))
    fleet.start()
    return clock, forum, fleet, server


@pytest.fixture
def world(tmp_path, monkeypatch):
    monkeypatch.setenv("SHENSHI_TEST_PASSWORD", GM_PASSWORD)
    made = []

    def build(engine: str, casts: list[list[str]]):
        found = _fleet(engine, tmp_path, casts)
        made.append(found)
        return found[:3]

    yield build
    for _, _, fleet, server in made:
        fleet.close()
        server.__exit__(None, None, None)


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
@pytest.mark.parametrize("games", [1, 5])
def test_a_quiet_round_costs_one_request_for_any_number_of_games(world, engine, games) -> None:
    clock, forum, fleet = world(engine, [PLAYERS] * games)
    adapter = fleet.services[0].adapter
    assert all(s.adapter is adapter for s in fleet.services)  # one login, one flood control
    clock.set(START + timedelta(minutes=5))
    fleet.run()  # catch up: every night opens
    assert all(s.referee.state.phase is Phase.NIGHT for s in fleet.services)
    for _ in range(3):
        clock.advance(minutes=2)
        before = adapter.requests
        results = fleet.run()
        assert not any(r.errors for r in results.values()), results
        assert all(r.polled for r in results.values())
        assert adapter.requests - before == 1  # the board listing, which says no PM is new


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_each_pm_reaches_its_own_game_and_a_doubtful_one_is_an_alert(world, engine) -> None:
    clock, forum, fleet = world(engine, [PLAYERS, SECOND_CAST])
    first, second = fleet.services
    clock.set(START + timedelta(minutes=5))
    fleet.run()
    adapter = first.adapter
    clock.advance(minutes=2)
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    forum.send_pm("乙1号", "神的使者", "占卜 乙2号", at=clock())
    forum.send_pm("路人甲", "神的使者", "请问怎么报名？", at=clock())
    clock.advance(minutes=2)
    before = adapter.requests
    fleet.run()
    # the board, the inbox, three conversations (phpwind: and marking them read), for both games
    assert adapter.requests - before <= 1 + 1 + 3 + 1

    def senders(service) -> list[str]:
        return [e.author for e in service.store.stream_evidence(service.game_id, kind=EvidenceKind.PM)]

    assert senders(first) == ["小明"] and senders(second) == ["乙1号"]
    assert [s.actor for s in first.referee.state.submissions] == ["小明"]
    assert [s.actor for s in second.referee.state.submissions] == ["乙1号"]
    for service in (first, second):  # the stranger's PM: which game's? the GM is asked in both
        [doubt] = [a for a in alerts(service) if a.kind == "pm_game_unknown"]
        assert "路人甲" in doubt.message and "第1局" in doubt.message and "第2局" in doubt.message
    clock.advance(minutes=2)
    before = adapter.requests
    fleet.run()
    assert adapter.requests - before == 1  # read once: quiet again


def test_routing_by_seat_and_time() -> None:
    from shenshi.daemon.sharing import Seats, route

    def pm(sender: str, hours: float, to: str = "神的使者") -> PrivateMessage:
        return PrivateMessage("1", "c", sender, sender, to, to, START + timedelta(hours=hours), "x")

    old = Seats(1, "旧局", START - timedelta(days=9), frozenset({"小明", "老王"}), finished=True)
    new = Seats(2, "新局", START, frozenset({"小明", "阿杰"}))
    other = Seats(3, "另一局", START + timedelta(hours=5), frozenset({"阿杰"}))
    games = [old, new, other]
    gm = {"2", "神的使者"}
    slack = timedelta(minutes=1)
    assert route(pm("小明", 1), gm, games, slack) == [new]  # the running game, not the finished one
    assert route(pm("老王", 1), gm, games, slack) == [old]  # only there
    assert route(pm("阿杰", 1), gm, games, slack) == [new]  # the other game had not started
    assert route(pm("阿杰", 6), gm, games, slack) == [new, other]  # both running: not guessed
    assert route(pm("神的使者", 1, to="阿杰"), gm, games, slack) == [new]  # the GM's own, by recipient
    assert route(pm("路人甲", 1), gm, games, slack) == [new]  # a stranger while one game runs
    assert route(pm("路人甲", 6), gm, games, slack) == [new, other]
    assert route(pm("路人甲", 6), gm, [new], slack) == [new]  # one game: its own, as always


def test_a_fresh_read_inside_a_round_sees_what_was_just_posted(world) -> None:
    """The publisher looking on the forum for what it sent reads it again, not the round's
    listing (which was read before the send)."""
    clock, forum, fleet = world("phpwind", [PLAYERS, SECOND_CAST])
    first, _ = fleet.services
    clock.set(START + timedelta(minutes=5))
    fleet.run()
    clock.advance(minutes=1)
    post = forum.post("神的使者", int(first.config.game.vote_thread), "第一夜开始，请行动。" * 2, at=clock())
    first.poll()  # within the round: the listing read at its start does not show the post
    assert str(post.pid) not in {e.forum_id for e in first.store.stream_evidence(first.game_id)}
    first.poll(fresh=True)
    assert str(post.pid) in {e.forum_id for e in first.store.stream_evidence(first.game_id)}


def test_the_shared_read_starts_from_what_every_game_stored() -> None:
    from shenshi.daemon.sharing import common_cursor
    from shenshi.records import ConversationMark, InboxCursor

    a = InboxCursor((ConversationMark("1", ("m1", "m2"), "2|x"), ConversationMark("2", ("m3",), "1|y")))
    b = InboxCursor((ConversationMark("1", ("m1",), "1|x"),))
    assert common_cursor([a]) == a  # one game: its own cursor
    assert common_cursor([a, b]) == InboxCursor((ConversationMark("1", ("m1",), ""),))  # opened again
    assert common_cursor([a, None]) == InboxCursor()  # a new game: every conversation since its start
    assert common_cursor([None, None]) is None


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_a_pm_the_gm_opened_in_the_browser_is_read_before_the_deadline_passes(world, engine) -> None:
    """The notice drops to 0 when the GM reads a PM in the browser first: the inbox is still
    read once the night's deadline has come, before the phase clock passes it (here sooner
    than the 10 minutes after which it is read anyway)."""
    clock, forum, fleet = world(engine, [PLAYERS])
    (service,) = fleet.services
    clock.set(START + timedelta(minutes=5))
    fleet.run()
    deadline = service.next_deadline()
    assert deadline is not None
    clock.set(deadline - timedelta(minutes=6))
    fleet.run()  # the inbox is read (10 minutes since the last read)
    clock.set(deadline - timedelta(minutes=3))
    forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
    for c in forum.conversations_of("神的使者"):
        forum.mark_read("神的使者", c.cid)  # the GM opened it in the browser: no notice
    clock.set(deadline - timedelta(minutes=1))
    fleet.run()
    pms = lambda: [e.author for e in service.store.stream_evidence(service.game_id, kind=EvidenceKind.PM)]  # noqa: E731
    assert pms() == []  # no notice, 5 minutes since the last read: not read yet
    clock.set(deadline + timedelta(seconds=1))
    fleet.run()
    assert pms() == ["小明"]
    # the seer's answer for night 1: the PM counted inside the night, not after it
    assert any(":night1:" in a.key and a.destination == "小明" for a in announcements(service)), [
        a.key for a in announcements(service)
    ]
