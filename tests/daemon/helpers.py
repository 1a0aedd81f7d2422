"""Builders for daemon tests: a game config, posts and PMs on a fake forum clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import count
from zoneinfo import ZoneInfo

from shenshi.config import parse_config
from shenshi.records import Post, PrivateMessage
from shenshi.store.records import Alert, Announcement
from tests.databases import database_url

TZ = ZoneInfo("Asia/Shanghai")
START = datetime(2026, 12, 1, 20, 0, tzinfo=TZ)
_ids = count(100)

GAME6_10 = [
    ("夜行者", "killer"), ("老王", "killer"), ("小明", "seer"), ("月光", "binder"),
    ("阿杰", "curser"), ("Lily99", "blesser"), ("Tom_2", "commoner"), ("白色的猫", "commoner"),
    ("kk_大侠", "commoner"), ("Rex", "commoner"),
]  # fmt: skip
UIDS = {name: str(i + 3) for i, (name, _) in enumerate(GAME6_10)}


def config(tmp_path, ruleset: str = "game6-10", table=GAME6_10, **daemon):
    """A parsed configuration for a test game (the forum is never reached)."""
    raw = {
        "forum": {"engine": "discuz", "base_url": "http://127.0.0.1:1/", "username": "神的使者"},
        "game": {
            "name": "test game", "ruleset": ruleset, "board": 3, "vote_thread": 2,
            "start": START.replace(tzinfo=None).isoformat(),
            "players": [{"name": n, "uid": UIDS.get(n), "role": r} for n, r in table],
        },
        "daemon": {"database": database_url(tmp_path), "log": str(tmp_path / "dry.log"), **daemon},
    }  # fmt: skip
    return parse_config(raw, tmp_path)


def at(hours: float) -> datetime:
    """The forum time ``hours`` after the player list."""
    return START + timedelta(hours=hours)


def post(author: str, text: str, hours: float, tid: str = "2") -> Post:
    """A post in the vote thread."""
    n = next(_ids)
    uid = UIDS.get(author, "2" if author == "神的使者" else "999")
    return Post(tid, str(n), n, author, uid, at(hours), text)


def pm(sender: str, text: str, hours: float) -> PrivateMessage:
    """A PM to the GM."""
    n = next(_ids)
    return PrivateMessage(str(n), f"c{UIDS.get(sender, '999')}", sender, UIDS.get(sender, "999"), "神的使者", "2", at(hours), text)


def announcements(service, states=None) -> list[Announcement]:
    """The service's game's announcements (in ``states``, if given), oldest first."""
    with service.store.snapshot() as uow:
        return uow.outbox.announcements(service.game_id, states)


def announcement(service, key: str) -> Announcement | None:
    """The service's game's announcement proposed under ``key``, if any."""
    with service.store.snapshot() as uow:
        return uow.outbox.by_key(service.game_id, key)


def alerts(service) -> list[Alert]:
    """The service's game's alerts, oldest first."""
    with service.store.snapshot() as uow:
        return uow.alerts.raised(service.game_id)


def chess_referee(tmp_path):
    """A chess32 referee (the demo's 32 players, 24 h days and nights) before day 1."""
    from shenshi.daemon.announce import Templates
    from shenshi.daemon.referee import Referee
    from shenshi.demo.script import load_script
    from shenshi.rulesets.base import PlayerSpec
    from shenshi.rulesets.registry import find_ruleset

    script = load_script("chess32")
    cfg = config(tmp_path, "chess32", [(s.name, s.role) for s in script.seats])
    rules = find_ruleset("chess32")
    state = rules.new_game(
        [PlayerSpec(s.name, s.role, s.team) for s in script.seats], {"day_hours": 24, "night_hours": 24}
    )
    return Referee(rules, cfg.game, state, game_key="g1", templates=Templates(), tz=TZ)


def started(tmp_path, ruleset: str = "game6-10", mode: str = "review", script=None, **daemon):
    """A started service for a test game (no forum), its first step open at ``at(0.02)``:
    ``(service, clock)``. ``script``: a demo script whose seats (with their teams) play."""
    from dataclasses import replace

    from shenshi.adapters.sandbox.clock import ManualClock
    from shenshi.bootstrap import bootstrap

    table = [(s.name, s.role) for s in script.seats] if script is not None else GAME6_10
    cfg = config(tmp_path, ruleset, table, mode=mode, **daemon)
    if script is not None:
        teams = {s.name: s.team for s in script.seats}
        cfg = replace(cfg, game=replace(cfg.game, players=tuple(replace(p, team=teams[p.name]) for p in cfg.game.players)))
    clock = ManualClock(START)
    service = bootstrap(cfg, clock=clock, forum=False)
    service.start()
    clock.set(at(0.02))
    service.tick()
    return service, clock


def publish_vote_opening(service, at_time=None) -> None:
    """The GM's post that the vote opens (game6: the 13th hour), proposed at the hour, is on
    the forum (``at_time``: when; default now): ballots count from it (F37)."""
    from shenshi.daemon.gm_commands import mark_published
    from shenshi.daemon.keys import step_label
    from shenshi.rulesets.base import Phase

    state = service.referee.state
    key = service.referee.keys.notice(step_label(Phase.DAY, state.number), "vote_open")
    a = announcement(service, key)
    assert a is not None, "the vote's opening post is proposed at its hour"
    mark_published(service, [a.id], at_time)
    service.tick()


def open_vote_on_forum(service, clock) -> None:
    """A daemon cycle at the vote's hour (game6: the 13th hour): its opening post goes out, and
    ballots count from it (F37)."""
    from shenshi.daemon.cycle import Cycle

    Cycle(service, clock).run()
    clock.advance(minutes=1)


def werewolf_with_tree_holes(tmp_path, role_threads: dict[str, str]):
    """The demo's werewolf game (review mode, not started on the clock) whose roles reply in
    these 功能树洞 threads (role → tid): ``(service, clock)`` at the start."""
    from dataclasses import replace

    from shenshi.adapters.sandbox.clock import ManualClock
    from shenshi.bootstrap import bootstrap
    from shenshi.demo.script import load_script

    script = load_script("werewolf")
    cfg = config(tmp_path, "werewolf", [(s.name, s.role) for s in script.seats], mode="review")
    teams = {s.name: s.team for s in script.seats}
    game = replace(cfg.game, players=tuple(replace(p, team=teams[p.name]) for p in cfg.game.players),
                   role_threads=role_threads)  # fmt: skip
    clock = ManualClock(START)
    service = bootstrap(replace(cfg, game=game), clock=clock, forum=False)
    service.start()
    return service, clock


def elect_sheriff(service, clock, sheriff: str) -> None:
    """Werewolf day 1 (the sheriff's election): every living character votes ``sheriff`` and
    the day closes."""
    from tests.daemon.test_status import feed

    clock.set(at(10.6))
    service.tick()
    for i, s in enumerate(service.referee.state.alive()):
        feed(service, post(s.name, f"投票：{sheriff}", 11 + i / 60))
    clock.set(at(49.1))
    service.tick()


def werewolf_night_one(tmp_path, role_threads: dict[str, str], sheriff_role: str = "seer"):
    """The demo's werewolf game (tree-holes ``role_threads``) at night 1: night 0 over, the
    holder of ``sheriff_role`` elected sheriff on day 1 and its result out: ``(service, clock)``."""
    from shenshi.daemon.gm_commands import mark_published

    service, clock = werewolf_with_tree_holes(tmp_path, role_threads)
    clock.set(at(0.02))
    service.tick()
    sheriff = next(s.name for s in service.referee.state.seats if s.role == sheriff_role)
    elect_sheriff(service, clock, sheriff)
    mark_published(service, [a.id for a in announcements(service) if a.kind == "day_result"])
    clock.set(at(49.2))
    service.tick()
    return service, clock


def lover_left(tmp_path):
    """The demo's werewolf game on day 1 where the GM put one of two village lovers out (the
    other follows by 殉情): ``(service, clock, notice)``, ``notice`` the 遗言期限 PM proposed to
    the follower, with its deadline in ``notes``."""
    from shenshi.daemon import gm_commands
    from shenshi.demo.script import load_script

    service, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    cupid = next(s.name for s in service.referee.state.seats if s.role == "cupid")
    a, b = [s.name for s in service.referee.state.seats if s.team == "village" and s.role != "cupid"][:2]
    gm_commands.enter_action(service, [cupid, "pair_lovers", a, b])
    clock.set(at(10.6))
    service.tick()
    gm_commands.correct(service, "exit", [a])  # b follows by 殉情: his last words have a deadline
    [notice] = [x for x in announcements(service) if x.kind == "last_words_notice" and x.destination == b]
    return service, clock, notice


def vote_opened(service, clock) -> None:
    """Night 1 of a game6-10 over and published, day 1's vote opened (its post published at
    the 13th hour, ``at(37)``)."""
    from shenshi.daemon.gm_commands import mark_published

    clock.set(at(24.5))
    service.tick()
    mark_published(service, [announcement(service, service.referee.gate_key()).id])
    clock.set(at(37))
    service.tick()
    publish_vote_opening(service)


def vote_opened_by_the_daemon(service, clock) -> None:
    """Night 1 of a game6-10 settled at ``at(25)`` and published, day 1's vote opened by a
    daemon cycle at ``at(37)`` (:func:`open_vote_on_forum`)."""
    from shenshi.daemon.gm_commands import mark_published

    clock.set(at(25))
    service.tick()
    mark_published(service, [a.id for a in announcements(service) if a.kind == "night_result"])
    clock.set(at(37))
    open_vote_on_forum(service, clock)
