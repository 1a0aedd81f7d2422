"""A player seated in two games of one GM account at once (issue 22): his PMs go to the game
that is certain — the one his PM names, else the one where it counts (a target only that game
has, the role he holds there, the step open there) — and where it stays ambiguous he is told
once how to name the game, each game's GM alert offers "count this PM in this game", and
entering it works (the CLI's and the console's operation alike). On the sandbox forum over
real HTTP, both engines."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.adapters.sandbox import SandboxForum, serve
from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.adapters.sandbox.seed import GM_PASSWORD, PLAYERS, seed_demo
from shenshi.bootstrap import bootstrap_fleet
from shenshi.config import parse_config
from shenshi.daemon import gm_commands
from shenshi.daemon.hints import advise
from shenshi.daemon.situation import facts_of, situation_of
from shenshi.errors import UserError
from shenshi.store.records import EvidenceKind
from tests.daemon.helpers import START, alerts, announcements
from tests.databases import database_url

ROLES = ["seer", "killer", "commoner", "commoner", "killer", "blesser", "curser", "commoner",
         "binder", "commoner"]  # fmt: skip
# 小明: seer in the first game, killer in the second; 月光: binder in both; 老王 only in the
# first, 乙3号 only in the second.
SECOND = ["乙1号", "小明", "乙3号", "乙4号", "乙5号", "乙6号", "乙7号", "乙8号", "月光", "乙10号"]
DECLARATION = "\n杀人宣言：" + "风雨交加，雷声在远处的山谷里回荡，今夜无人入眠。" * 5


@pytest.fixture(params=["discuz", "phpwind"])
def games(request, tmp_path, monkeypatch):
    """Two game6-10 games on one board of one GM account, night 1 open in both."""
    yield from two_games(request.param, "dry-run", tmp_path, monkeypatch)


@pytest.fixture(params=[(e, m) for e in ("discuz", "phpwind") for m in ("dry-run", "live")], ids=lambda p: "-".join(p))
def games_any_mode(request, tmp_path, monkeypatch):
    """The same two games, in dry-run (the GM sends by hand) or live (the daemon sends)."""
    engine, mode = request.param
    yield from two_games(engine, mode, tmp_path, monkeypatch)


def two_games(engine: str, mode: str, tmp_path, monkeypatch):
    monkeypatch.setenv("SHENSHI_TEST_PASSWORD", GM_PASSWORD)
    clock = ManualClock(START - timedelta(hours=1))
    forum = SandboxForum(engine, clock)
    uids = {name.lower(): uid for name, _, uid in seed_demo(forum)}
    for name in SECOND:
        if name.lower() not in uids:
            uids[name.lower()] = forum.add_user(name, "Player_pw1").uid
    casts = [list(PLAYERS), SECOND]
    threads = [forum.create_thread("神的使者", 3, f"第{i + 1}局 名单", "名单：" + "、".join(c), at=START)
               for i, c in enumerate(casts)]  # fmt: skip
    server = serve(forum)
    base_url = server.__enter__()
    configs = []
    for i, (cast, thread) in enumerate(zip(casts, threads, strict=True)):
        raw = {
            "forum": {"engine": engine, "base_url": base_url, "username": "神的使者",
                      "password_env": "SHENSHI_TEST_PASSWORD", "min_interval": 0},
            "game": {"name": f"第{i + 1}局", "ruleset": "game6-10", "board": 3, "vote_thread": thread.tid,
                     "start": START.replace(tzinfo=None).isoformat(),
                     "players": [{"name": n, "uid": uids[n.lower()], "role": r} for n, r in zip(cast, ROLES, strict=True)]},
            "daemon": {"database": database_url(tmp_path, "games.sqlite3"), "log": str(tmp_path / f"dry{i}.log"), "mode": mode},
        }  # fmt: skip
        configs.append(parse_config(raw, tmp_path))
    fleet = bootstrap_fleet(configs, clock=clock, sleep=lambda s: clock.advance(seconds=s))
    fleet.start()
    clock.set(START + timedelta(minutes=5))
    fleet.run()
    yield clock, forum, fleet
    fleet.close()
    server.__exit__(None, None, None)


def send(clock, forum, fleet, sender: str, text: str, subject: str | None = None) -> None:
    clock.advance(minutes=2)
    forum.send_pm(sender, "神的使者", text, subject, at=clock())
    clock.advance(minutes=2)
    results = fleet.run()
    assert not any(r.errors for r in results.values()), results


def acted(service) -> list[tuple[str, str, str]]:
    return [(s.actor, s.action, s.target) for s in service.referee.state.submissions]


def doubts(service) -> list:
    return [a for a in alerts(service) if a.kind == "pm_game_unknown"]


def test_a_target_only_one_game_has_decides(games) -> None:
    clock, forum, fleet = games
    first, second = fleet.services
    send(clock, forum, fleet, "月光", "束魂 老王")  # a binder in both; 老王 plays only the first
    send(clock, forum, fleet, "月光", "束魂 乙3号")  # … 乙3号 only the second
    assert acted(first) == [("月光", "bind", "老王")] and acted(second) == [("月光", "bind", "乙3号")]
    assert not doubts(first) and not doubts(second)


def test_the_role_he_holds_in_each_decides(games) -> None:
    clock, forum, fleet = games
    first, second = fleet.services
    send(clock, forum, fleet, "小明", "占卜 月光")  # a seer only in the first (月光 plays both)
    send(clock, forum, fleet, "小明", "杀 月光" + DECLARATION)  # a killer only in the second
    assert acted(first) == [("小明", "divine", "月光")]
    assert [(a, t) for _, a, t in acted(second)] == [("kill", "月光")]
    assert not doubts(first) and not doubts(second)
    receipts = [a for a in announcements(first) + announcements(second) if a.kind == "receipt"]
    assert len(receipts) == 2 and all(a.destination == "小明" for a in receipts)  # one each, the usual


def test_a_pm_that_names_its_game_goes_there(games) -> None:
    clock, forum, fleet = games
    first, second = fleet.services
    send(clock, forum, fleet, "月光", "【第2局】束魂 小明")  # 小明 plays both: the name decides
    assert acted(first) == [] and acted(second) == [("月光", "bind", "小明")]
    if forum.engine == "phpwind":  # phpwind PMs have a title: the game named there counts too
        send(clock, forum, fleet, "月光", "束魂 小明", subject="第1局 夜间行动")
        assert acted(first) == [("月光", "bind", "小明")]


def test_an_ambiguous_pm_is_counted_nowhere_told_once_and_counted_where_the_gm_says(games) -> None:
    clock, forum, fleet = games
    first, second = fleet.services
    send(clock, forum, fleet, "月光", "束魂 小明")  # a binder in both, 小明 in both: not certain
    assert acted(first) == [] and acted(second) == []
    [one], [two] = doubts(first), doubts(second)
    for alert in (one, two):
        assert "月光" in alert.message and "《第1局》" in alert.message and "《第2局》" in alert.message
    # the player is told once (not once per game) how to say which game
    told = [a for s in fleet.services for a in announcements(s) if a.key.endswith(":receipt") and ":pm_game:" in a.key]
    assert len(told) == 1 and told[0].destination == "月光"
    assert "【第" in told[0].text and "束魂 小明" in told[0].text
    # the PM is kept in both games, read by neither
    for service in fleet.services:
        [kept] = [e for e in service.store.stream_evidence(service.game_id, kind=EvidenceKind.PM) if e.author == "月光"]
        assert kept.processed_at is not None
    # each alert's fix: count this PM in this game (data, as the console shows it as a button)
    advice = advise(facts_of(two), situation_of(second))
    [hint] = advice.hints
    pm_id = two.key.rsplit(":", 1)[-1]
    assert hint.argv() == ("override", "count-pm", pm_id, "--game", "第2局")
    said = gm_commands.run_hint(second, hint, by="控制台")  # the console's button, the CLI's operation
    assert any("束魂" in line for line in said.lines)
    assert acted(second) == [("月光", "bind", "小明")] and acted(first) == []
    for service in fleet.services:  # closed in both games, with what closed them
        [closed] = doubts(service)
        assert closed.resolved_at is not None and "第2局" in closed.resolution
    with pytest.raises(UserError, match="已经定了"):
        gm_commands.count_pm(first, pm_id)  # the other game cannot count it too
    # the daemon goes on: nothing is read twice, and the first game no longer waits for it
    clock.advance(minutes=3)
    fleet.run()
    assert acted(second) == [("月光", "bind", "小明")] and acted(first) == []
    assert "月光" not in first.referee.awaited.holders()


def test_a_pm_sent_again_naming_its_game_lets_the_other_game_stop_waiting(games) -> None:
    """The PM kept aside keeps each game's night waiting for its sender (he was told to send
    it again, RULES.md "Early close"); once he sends it again naming 第2局, neither game waits for
    it any more: both alerts close with what closed them, and so after a restart."""
    clock, forum, fleet = games
    first, second = fleet.services
    send(clock, forum, fleet, "月光", "束魂 小明")
    assert "月光" in first.referee.awaited.holders() and "月光" in second.referee.awaited.holders()
    send(clock, forum, fleet, "月光", "【第2局】束魂 小明")
    assert acted(second) == [("月光", "bind", "小明")] and acted(first) == []
    clock.advance(minutes=1)
    fleet.run()
    for service in fleet.services:
        [closed] = doubts(service)
        assert closed.resolved_at is not None and "重发" in closed.resolution and "第2局" in closed.resolution
        assert "月光" not in service.referee.awaited.holders()
        service._recall_refusals(service.referee)  # as a restart recalls them
        assert "月光" not in service.referee.awaited.holders()


def test_a_different_pm_naming_a_game_keeps_the_other_game_waiting(games) -> None:
    """Another command naming 第2局 is not the PM kept aside: 第1局 still waits for it."""
    clock, forum, fleet = games
    first, second = fleet.services
    send(clock, forum, fleet, "月光", "束魂 小明")
    send(clock, forum, fleet, "月光", "【第2局】束魂 乙3号")
    assert "月光" in first.referee.awaited.holders()
    assert [a.resolved_at for a in doubts(first)] == [None]


def test_a_question_from_a_player_in_both_games_is_asked_in_both(games) -> None:
    clock, forum, fleet = games
    first, second = fleet.services
    send(clock, forum, fleet, "月光", "请问今晚几点截止？")  # no command: nothing can tell
    assert len(doubts(first)) == 1 and len(doubts(second)) == 1
    assert not acted(first) and not acted(second)


def test_the_gms_own_pm_to_him_goes_to_the_game_whose_outbox_holds_it(games) -> None:
    clock, forum, fleet = games
    first, second = fleet.services
    send(clock, forum, fleet, "月光", "束魂 乙3号")  # the second game's: its receipt is proposed there
    [receipt] = [a for a in announcements(second) if a.kind == "receipt" and a.destination == "月光"]
    clock.advance(minutes=2)
    forum.send_pm("神的使者", "月光", receipt.text, at=clock())  # the GM sends it by hand (dry-run)
    clock.advance(minutes=11)  # (no new-PM notice for a PM sent: the inbox is read every 10 minutes)
    fleet.run()
    [again] = [a for a in announcements(second) if a.id == receipt.id]
    assert again.published_at is not None  # recognised as published, in its own game
    assert not doubts(first) and not doubts(second)



def records_of(service, tmp_path, index: int) -> str:
    """Everything game ``index`` keeps: its evidence, alerts, proposals and dry-run log."""
    texts = [e.text for e in service.store.stream_evidence(service.game_id)]
    texts += [a.message for a in alerts(service)] + [a.text for a in announcements(service)]
    log = tmp_path / f"dry{index}.log"
    return "\n".join(texts) + (log.read_text(encoding="utf-8") if log.exists() else "")


def test_the_gms_receipts_to_a_player_in_both_games_stay_in_their_game(games_any_mode, tmp_path) -> None:
    """A1: each receipt the GM account sent (by the daemon in live mode, by hand in dry-run)
    goes back to the game whose outbox holds it every time the player's conversation is read
    again: no alert in either game, and no game's record holds the other game's text."""
    clock, forum, fleet = games_any_mode
    first, second = fleet.services
    live = first.config.daemon.mode == "live"
    sent: list = []

    def by_hand() -> None:  # dry-run: the GM sends what was proposed, as the log shows it
        for service in fleet.services:
            for a in announcements(service):
                if a.kind == "receipt" and a.destination == "月光" and a.id not in {s.id for s in sent if s.game_id == service.game_id}:
                    clock.advance(minutes=1)
                    forum.send_pm("神的使者", "月光", a.text, at=clock())
                    sent.append(a)
        clock.advance(minutes=11)
        fleet.run()

    send(clock, forum, fleet, "月光", "束魂 乙3号")  # the second game's
    if not live:
        by_hand()
    send(clock, forum, fleet, "月光", "束魂 老王")  # the first game's: the conversation is read again
    if not live:
        by_hand()
    send(clock, forum, fleet, "月光", "束魂 乙4号")  # the second's again (a change): read again
    if not live:
        by_hand()
    clock.advance(minutes=11)
    fleet.run()
    assert acted(first) == [("月光", "bind", "老王")] and acted(second) == [("月光", "bind", "乙3号"), ("月光", "bind", "乙4号")]
    assert not doubts(first) and not doubts(second)
    for service in fleet.services:
        receipts = [a for a in announcements(service) if a.kind == "receipt" and a.destination == "月光"]
        assert receipts and all((a.published_at or a.sent_at) and a.forum_id for a in receipts), receipts
    for secret in ("束魂 乙3号", "束魂 乙4号"):  # the second game's actions (the PMs, their receipts)
        assert secret not in records_of(first, tmp_path, 0)
    assert "束魂 老王" not in records_of(second, tmp_path, 1)
