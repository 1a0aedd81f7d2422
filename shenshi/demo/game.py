"""One whole game on the sandbox: the forum, the scripted players, the daemon, the outcome.

:func:`play` is what ``shenshi demo`` and the end-to-end tests call::

    run = play("game6-10", "discuz", seed=1, workdir=Path("demo-output"))
    run.forum_record.winner, run.stored_record, run.tally

It seeds a sandbox forum for the ruleset's script, serves it on loopback, writes the daemon's
configuration (``shenshi.toml``, review mode), deals the roles (or sets the script's), and
lets the director play until the GM announces the end. The daemon runs in this process, or in
a subprocess (``subprocess=True``) that the hooks may kill with SIGKILL; then the clock is a
file both processes read.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from shenshi.adapters.sandbox import AcceleratedClock, ManualClock, serve
from shenshi.adapters.sandbox.seed import GM_PASSWORD
from shenshi.bootstrap import bootstrap
from shenshi.config import load_config
from shenshi.daemon.deal import deal_roles
from shenshi.demo import tomlfile
from shenshi.demo.clockfile import FileClock
from shenshi.demo.director import Daemon, Direction, Director, InProcessDaemon
from shenshi.demo.players import MISTAKES, ScriptedPlayers
from shenshi.demo.record import (
    GameRecord,
    Tally,
    event_signature,
    forum_outcome,
    stored_outcome,
    tally,
)
from shenshi.demo.script import GameScript, load_script
from shenshi.demo.world import PASSWORD_ENV, World, build_world, cast_for, game_config
from shenshi.rulesets.registry import find_ruleset
from shenshi.store.engine import open_store
from shenshi.wording import Templates

# Monday 20:00 on the forum clock: chess32 pauses on weekends, and its game ends by Thursday.
START = datetime(2026, 12, 7, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
DAEMON = {"poll_interval": 3600, "fast_poll_interval": 900, "fast_poll_window": 3600}


@dataclass
class GameRun:
    """What one played game left: the records, the counts, where the files are."""

    script: GameScript
    world: World
    players: ScriptedPlayers
    direction: Direction
    forum_record: GameRecord
    stored_record: GameRecord
    tally: Tally
    events: list[tuple[Any, ...]]
    gm_posts: list[str]  # the GM's replies in the vote thread, oldest first
    gm_pms: list[tuple[str, str]]  # (recipient, text) of every PM the GM sent
    workdir: Path
    config_path: Path
    log_path: Path
    database: str
    seconds: float
    dealt: Mapping[str, str] = field(default_factory=dict)  # script name → dealt player
    kills: int = 0


Hook = Callable[[Director], None]


def play(
    ruleset: str,
    engine: str,
    *,
    seed: int = 1,
    workdir: Path,
    deal: bool = True,
    clock: str = "manual",
    factor: float = 3600.0,
    subprocess: bool = False,
    mistakes: Sequence[str] = MISTAKES,
    hooks: Sequence[Hook] = (),
    before: Sequence[Hook] = (),
    pacing: bool = True,
    setup: Callable[[World], None] | None = None,
    limit: timedelta = timedelta(days=20),
    script: GameScript | None = None,
    database: str | None = None,
) -> GameRun:
    """Play ``ruleset``'s script on a sandbox ``engine`` forum until the game is over.

    ``clock`` is ``manual`` (jumps only), ``accelerated`` (real time × ``factor`` plus the
    jumps: the demo) or, with ``subprocess``, always a :class:`FileClock`. ``pacing=False``
    leaves the daemon no way to wait between sends (the forum's flood control then refuses
    them). ``hooks`` run after every daemon cycle (faults, kills), ``before`` just before.
    ``database``: a SQLAlchemy URL (default: a SQLite file in ``workdir``).
    """
    began = time.monotonic()
    workdir.mkdir(parents=True, exist_ok=True)
    workdir = workdir.resolve()
    base = cast_for(script or load_script(ruleset), engine)
    t0 = START + timedelta(minutes=1)  # the GM posted the player list a minute ago
    if subprocess:
        ticking: Any = FileClock(workdir / "clock.txt", t0)
    elif clock == "accelerated":
        ticking = AcceleratedClock(t0, factor)
    else:
        ticking = ManualClock(t0)
    dealt = casting(base, deal_seed(seed)) if deal else {}
    played = base.renamed(dealt)
    roster = {name: i for i, name in enumerate(base.names)}  # the deal follows the roster's order
    played = replace(played, seats=tuple(sorted(played.seats, key=lambda s: roster[s.name])))
    world = build_world(played, engine, ticking, START)
    if setup is not None:
        setup(world)
    os.environ.setdefault(PASSWORD_ENV, GM_PASSWORD)
    with serve(world.forum) as url:
        daemon_options = {**DAEMON, **({"database": database} if database else {})}
        raw = game_config(world, url, workdir, roles=not deal, daemon=daemon_options)
        config_path = workdir / "shenshi.toml"
        config_path.write_text(tomlfile.dumps(raw), encoding="utf-8")
        os.chmod(config_path, 0o600)
        config = load_config(config_path)
        sleep = (lambda s: ticking.advance(seconds=s)) if pacing else (lambda s: None)
        service = bootstrap(config, clock=ticking, sleep=sleep)
        service.adapter.login()
        if deal:
            got = {d.name: (d.role, d.team) for d in service.deal(deal_seed(seed))}
            assert got == {s.name: (s.role, s.team) for s in played.seats}, "the deal differs"
        service.start()
        daemon: Daemon
        if subprocess:
            service.close()  # the subprocess runs the daemon from here on
            from shenshi.demo.runner import DaemonProcess

            daemon = DaemonProcess(config_path, workdir / "clock.txt", env={PASSWORD_ENV: os.environ[PASSWORD_ENV]},
                                   stderr=workdir / "daemon.stderr")  # fmt: skip
        else:
            daemon = InProcessDaemon(service, ticking)
        templates = Templates(config.templates)
        players = ScriptedPlayers(world, played, seed, mistakes=tuple(mistakes), templates=templates)
        director = Director(players, daemon, ticking, lambda s: ticking.advance(seconds=s),
                            limit=limit, hooks=list(hooks), before=list(before))  # fmt: skip
        try:
            direction = director.run()
        finally:
            daemon.close()
        store = service.store if not subprocess else open_store(config.daemon.database)
        with store.snapshot() as uow:
            game_id = uow.games.find(config.game.name).id
        gm = world.gm_uid
        posts = [
            p
            for p in world.forum.visible_posts(world.vote_thread)
            if p.author_uid == gm and not p.first
        ]
        pms = [(world.forum.users[m.recipient_uid].name, m.text) for m in world.forum.messages.values()
               if m.sender_uid == gm]  # fmt: skip
        run = GameRun(
            script=played, world=world, players=players, direction=direction,
            forum_record=forum_outcome([(p.text, p.posted_at) for p in posts], played.names, templates),
            stored_record=stored_outcome(store, game_id), tally=tally(store, game_id),
            events=event_signature(store, game_id), gm_posts=[p.text for p in posts], gm_pms=pms,
            workdir=workdir, config_path=config_path, log_path=config.daemon.log,
            database=config.daemon.database, seconds=time.monotonic() - began, dealt=dealt,
            kills=getattr(daemon, "kills", 0),
        )  # fmt: skip
        (store if subprocess else service).close()
    return run


def deal_seed(seed: int) -> str:
    """The seed ``shenshi deal`` gets in the demo."""
    return f"demo-{seed}"


def casting(script: GameScript, seed: str) -> dict[str, str]:
    """Who plays which script seat once the roles are dealt with ``seed`` (``shenshi deal``
    deals the same): each seat goes to a dealt player with its role and team."""
    info = find_ruleset(script.ruleset).info
    composition = script.rules.get("composition")
    by_part: dict[tuple[str, str], list[str]] = {}
    for d in deal_roles(info, list(script.names), seed, composition):
        by_part.setdefault((d.role, d.team), []).append(d.name)
    out: dict[str, str] = {}
    for seat in script.seats:
        pool = by_part.get((seat.role, seat.team))
        if not pool:
            raise ValueError(f"the deal has no {seat.role} ({seat.team}) left for {seat.name}")
        out[seat.name] = pool.pop(0)
    return out

