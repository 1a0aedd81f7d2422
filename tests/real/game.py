"""One whole game on a real forum, the daemon in review mode sending everything itself, then the
forum read back: every announcement and PM must be there exactly once.

The daemon runs in this process on :class:`~tests.real.forums.OffsetClock`, the clock the
forum's PHP reads through libfaketime: the director jumps it from one due moment to the next
(the README's "Time": no sleeping under libfaketime), the daemon's pacing jumps it too. Every
request the adapter sends is counted (a quiet cycle's cost, a ``run --once``'s, the first poll's,
look-ups by name).
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path

import httpx

from shenshi.bootstrap import bootstrap
from shenshi.config import load_config
from shenshi.daemon.cycle import Cycle
from shenshi.demo import tomlfile
from shenshi.demo.director import Director, InProcessDaemon
from shenshi.demo.game import DAEMON, GameRun, casting, deal_seed
from shenshi.demo.players import MISTAKES, ScriptedPlayers
from shenshi.demo.record import event_signature, forum_outcome, stored_outcome, tally
from shenshi.demo.script import load_script
from shenshi.demo.world import game_config
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import DestinationKind
from tests.real import truth
from tests.real.forums import OffsetClock, RealForumSpec
from tests.real.world import RealForum, cast_onto, open_world

PASSWORD_ENV = "SHENSHI_REAL_GM_PASSWORD_FOR_THE_DAEMON"


class RequestLog:
    """Every request one adapter sent: (method, path?query)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def client(self) -> httpx.Client:
        def note(request: httpx.Request) -> None:
            self.seen.append((request.method, request.url.raw_path.decode("ascii", "replace")))

        return httpx.Client(timeout=60, follow_redirects=False, event_hooks={"request": [note]})

    def since(self, mark: int) -> list[tuple[str, str]]:
        return self.seen[mark:]


def logins(requests: list[tuple[str, str]]) -> int:
    """Login form posts among ``requests`` (both engines)."""
    return sum(1 for method, path in requests if method == "POST" and ("mod=logging" in path or path.startswith("/login.php")))


def threads_read(requests: list[tuple[str, str]]) -> set[str]:
    """The threads whose pages ``requests`` read (HTML or the Discuz mobile API)."""
    found = set()
    for _, path in requests:
        match = re.search(r"[?&]tid=(\d+)", path)
        if match and ("viewthread" in path or path.startswith("/read.php")):
            found.add(match.group(1))
    return found


def conversations_opened(requests: list[tuple[str, str]]) -> int:
    """PM conversations ``requests`` opened."""
    return sum(1 for _, path in requests if "subop=view" in path or "action=info" in path)


def lookups(requests: list[tuple[str, str]]) -> int:
    """Member look-ups by name (a PM to a player whose uid the players file gives needs none)."""
    return sum(1 for _, path in requests if "username=" in path and ("mod=space" in path or path.startswith("/u.php")))


class FloodCount(logging.Handler):
    """Flood-control refusals the adapter met (the request layer warns on each)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("论坛的灌水限制"):
            self.count += 1


@dataclass
class ReadBack:
    """The sent announcements, found on the forum: exactly once each, or not."""

    posts: int = 0
    pms: int = 0
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)

    @property
    def duplicates(self) -> int:
        return len(self.doubled)


@dataclass
class RealRun:
    """A game played on a real forum, with what the suite measured."""

    spec: RealForumSpec
    game: GameRun
    read_back: ReadBack
    first_poll: int
    old_threads_read: list[str]
    conversations_opened: int
    quiet_cycle: int
    once: int
    once_logins: int
    name_lookups: int
    floods: int
    evidence_links: list[str]
    anchored_links: list[str]  # those whose #anchor is on the page they open

    def quiet_line(self) -> str:
        """The quiet cycle's cost in ``make bench``'s words (one game, the real forum)."""
        return f"quiet cycle: engine={self.spec.engine} games=1 requests={self.quiet_cycle}"

    def summary(self) -> str:
        t = self.game.tally
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(t.alert_kinds.items()))
        winner = self.game.forum_record.winner or "none"
        return (
            f"{self.spec.id} {self.game.script.ruleset}: winner {winner} (script: {self.game.script.winner}); "
            f"posts {self.read_back.posts}, PMs {self.read_back.pms}, duplicates {self.read_back.duplicates}, "
            f"lost {len(self.read_back.lost)}; alerts {t.alerts} ({kinds}); "
            f"requests per quiet cycle {self.quiet_cycle}, run --once {self.once} ({self.once_logins} logins), "
            f"first poll {self.first_poll} (old threads {len(self.old_threads_read)}, conversations {self.conversations_opened}); flood refusals {self.floods}, name look-ups {self.name_lookups}; "
            f"{self.game.seconds:.0f} s"
        )


def play_real(spec: RealForumSpec, ruleset: str, workdir: Path, *, seed: int = 1) -> RealRun | str:
    """Play ``ruleset``'s script on the real forum ``spec``; a string says why it cannot be."""
    began = time.monotonic()
    clock = OffsetClock(spec.clock_file)
    forum = RealForum(spec, clock)
    base = cast_onto(load_script(ruleset), spec.players)
    if base is None:
        return f"{ruleset} needs {len(load_script(ruleset).names)} player accounts, {spec.label} lists {len(spec.players)} (tests/real/accounts.py registers more)"
    dealt = casting(base, deal_seed(seed))
    roster = {name: i for i, name in enumerate(base.names)}
    played = base.renamed(dealt)
    played = replace(played, seats=tuple(sorted(played.seats, key=lambda s: roster[s.name])))
    for name in (*played.names, spec.stranger):
        forum.empty_pm_box(name)
    world = open_world(forum, played)
    workdir.mkdir(parents=True, exist_ok=True)
    raw = game_config(world, spec.base_url, workdir, roles=False, daemon=DAEMON)
    raw["forum"] |= {"password_env": PASSWORD_ENV, "timeout": 60}
    raw["game"]["name"] = f"real {spec.id} {ruleset} {world.start:%Y%m%d%H%M%S}"
    raw["game"]["board"] = spec.board
    config_path = workdir / "shenshi.toml"
    config_path.write_text(tomlfile.dumps(raw), encoding="utf-8")
    os.chmod(config_path, 0o600)
    os.environ[PASSWORD_ENV] = spec.gm_password
    config = load_config(config_path)
    requests = RequestLog()
    floods = FloodCount()
    logging.getLogger("shenshi.adapters.http").addHandler(floods)
    try:
        service = bootstrap(config, client=requests.client(), clock=clock, sleep=clock.sleep)
        service.adapter.login()
        got = {d.name: (d.role, d.team) for d in service.deal(deal_seed(seed))}
        assert got == {s.name: (s.role, s.team) for s in played.seats}, "the deal differs"
        service.start()
        players = ScriptedPlayers(world, played, seed, mistakes=MISTAKES)
        first: list[list[tuple[str, str]]] = []
        mark = len(requests.seen)
        director = Director(players, InProcessDaemon(service, clock), clock, clock.advance,
                            limit=timedelta(days=20),
                            hooks=[lambda d: first.append(requests.since(mark)) if not first else None])  # fmt: skip
        direction = director.run()
        clock.advance(60)
        mark = len(requests.seen)
        quiet = Cycle(service, clock).run()
        quiet_cost = len(requests.seen) - mark
        assert not quiet.errors and not quiet.events, quiet
        game_id = service.game_id
        store = service.store
        gm_uid = forum.user(spec.gm).uid
        posts = [p for p in forum.visible_posts(world.vote_thread) if p.author_uid == gm_uid and not p.first]
        pms = truth.sent_pms(spec.db, spec.engine, gm_uid, world.start - timedelta(minutes=5))
        run = GameRun(
            script=played, world=world, players=players, direction=direction,
            forum_record=forum_outcome([(p.text, p.posted_at) for p in posts], played.names),
            stored_record=stored_outcome(store, game_id), tally=tally(store, game_id),
            events=event_signature(store, game_id), gm_posts=[p.text for p in posts],
            gm_pms=[(forum.users[m.recipient_uid].name if m.recipient_uid in forum.users else str(m.recipient_uid),
                     truth.plain_lines(m.text)) for m in pms],
            workdir=workdir, config_path=config_path, log_path=config.daemon.log,
            database=config.daemon.database, seconds=time.monotonic() - began, dealt=dealt,
        )  # fmt: skip
        read_back = check_on_forum(service, forum, pms, world.start)
        links = evidence_links(service)
        anchored = [link for link in links if anchor_on_page(forum, link)]
        service.close()  # the session file is written for the next run
        once_mark = len(requests.seen)
        again = bootstrap(config, client=requests.client(), clock=clock, sleep=clock.sleep)  # `run --once`
        again.adapter.login()
        again.start()
        Cycle(again, clock).run()
        once = requests.since(once_mark)
        again.close()
    finally:
        logging.getLogger("shenshi.adapters.http").removeHandler(floods)
    ours = {str(t) for t in (world.vote_thread, world.discussion, world.chat, *world.role_threads.values())}
    first_poll = first[0] if first else []
    return RealRun(
        spec=spec, game=run, read_back=read_back, first_poll=len(first_poll),
        old_threads_read=sorted(threads_read(first_poll) - ours), conversations_opened=conversations_opened(first_poll),
        quiet_cycle=quiet_cost, once=len(once), once_logins=logins(once), name_lookups=lookups(requests.seen),
        floods=floods.count, evidence_links=links, anchored_links=anchored,
    )  # fmt: skip


def check_on_forum(service, forum: RealForum, pms: list[truth.StoredPM], since: datetime) -> ReadBack:  # type: ignore[no-untyped-def]
    """Every announcement the daemon marked sent is on the forum exactly once: a reply by the GM
    in its thread with its text (padding aside), or a PM from the GM to its player. Two
    announcements with the same text to the same place must be there twice."""
    found = ReadBack()
    with service.store.snapshot() as uow:
        sent = uow.outbox.announcements(service.game_id, [AnnouncementState.SENT])
    gm_uid = forum.user(forum.spec.gm).uid
    on_forum: Counter[tuple[str, str]] = Counter()
    for tid in {a.destination for a in sent if a.destination_kind is DestinationKind.THREAD}:
        on_forum.update((tid, _same(p.text)) for p in forum.visible_posts(int(tid)) if p.author_uid == gm_uid and not p.first)
    by_uid = {a.uid: a.name for a in forum.users.values()}
    on_forum.update((by_uid.get(m.recipient_uid, str(m.recipient_uid)).casefold(), _same(m.text)) for m in pms)
    wanted: dict[tuple[str, str], list[str]] = {}
    for a in sent:
        thread = a.destination_kind is DestinationKind.THREAD
        found.posts += thread
        found.pms += not thread
        where = a.destination if thread else a.destination.casefold()
        wanted.setdefault((where, _same(a.text)), []).append(f"#{a.id} {a.kind} → {a.destination}: {a.text[:40]!r}")
    for key, announcements in wanted.items():
        shown = on_forum[key]
        if shown < len(announcements):
            found.lost += announcements[shown:]
        elif shown > len(announcements):
            found.doubled.append(f"{announcements[0]} shown {shown}× for {len(announcements)}")
    return found


def _same(text: str) -> str:
    """Text compared as the forum keeps it: unescaped, without whitespace or the padding."""
    return "".join(truth.plain(text).replace("（神使）", "").split())


def evidence_links(service) -> list[str]:  # type: ignore[no-untyped-def]
    """The links the dry-run log gives for the PMs behind the announcements and alerts."""
    path = Path(service.config.daemon.log).with_suffix(".jsonl")
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    links: Counter[str] = Counter()
    for line in text.splitlines():
        for item in json.loads(line).get("evidence") or ():
            link = (item.get("url") or "") if isinstance(item, dict) else item  # {id, label, url}
            if "do=pm" in link or "message.php" in link:
                links[link] += 1
    return sorted(links)


def anchor_on_page(forum: RealForum, link: str) -> bool:
    """The GM opening ``link``: the page holds the element its ``#anchor`` names."""
    url, _, anchor = link.partition("#")
    if not anchor:
        return False
    _, page = forum.client(forum.spec.gm).w.get(url)
    return f'id="{anchor}"' in page
