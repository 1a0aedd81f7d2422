"""Benchmark: replay a 30-day chess32 game from the store through the rules core.

    python bench/bench_replay.py [--days 30] [--posts 5000] [--pms 1000] [--db PATH]

Builds a chess32-sized store (32 seats; 5,000 posts and 1,000 PMs as evidence; the events a
game of that size produces: phase openings, a ballot per vote post, a submission per action
PM, activity counts, and a resolution per night and per vote, each carrying 32 seats and a
report), then, in a fresh process so that the figure is the reader's own, times reading every
event back and decoding it with :mod:`shenshi.store.codec`, and prints the peak resident memory
(``resource.getrusage``). Target (issue 22): opening the store and replaying the game (read,
decode, evolve through the rules core) in at most 0.4 s on SQLite, under 150 MB. The CPU time
of the same is printed beside the wall time: on a machine shared with other work, it is the
figure that does not depend on the others' load.

The lead extends this to a full replay through the rules core: :func:`build_store` is reusable
(it only uses the public store API) and :func:`read_back` is the place to fold ``evolve``.
Event payloads are synthesised from the core's own event types (no chess32 ruleset is needed).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from shenshi.daemon import keys
from shenshi.records import Post, PrivateMessage, Quote
from shenshi.rulesets.base import (
    ABSTAIN,
    CastBallot,
    CloseNight,
    CloseRound,
    Command,
    OpenDay,
    OpenNight,
    Phase,
    PlayerSpec,
    RecordActivity,
    Seat,
    Submit,
    frozen_map,
)
from shenshi.rulesets.catalog import CHESS32
from shenshi.rulesets.registry import find_ruleset
from shenshi.store import Store, open_store
from shenshi.store.codec import decode, encode
from shenshi.store.rows import dumps_json

GAME = "楚汉 bench"
START = datetime(2024, 3, 4, 12, 0, tzinfo=UTC)  # 20:00 Asia/Shanghai
GM = ("天神", "1")
ACTIONS = {
    "general": "kill",
    "chariot": "imprison",
    "horse": "check",
    "cannon": "cannon_kill",
    "elephant": "protect",
    "left_advisor": "curse",
    "right_advisor": "bless",
    "soldier": "pray",
}
WORDS = [
    "分析",
    "我觉得",
    "楚方",
    "汉方",
    "车",
    "马",
    "炮",
    "相",
    "士",
    "兵",
    "帅",
    "昨晚",
    "投票",
    "怀疑",
    "站边",
    "心路",
    "复盘",
    "+1",
    "了",
    "吧",
]


@dataclass(frozen=True)
class Built:
    """What :func:`build_store` made."""

    game_id: int
    posts: int
    pms: int
    events: int
    seconds: float


def _seats() -> tuple[Seat, ...]:
    seats = []
    for camp in CHESS32.teams:
        for role, count in CHESS32.composition.items():
            for _ in range(count):
                n = len(seats)
                seats.append(Seat(n, f"玩家{n + 1:02d}", role, camp))
    return tuple(seats)


def _text(rng: random.Random, words: int) -> str:
    return "".join(rng.choice(WORDS) for _ in range(words))


def build_store(
    url: str, *, days: int = 30, posts: int = 5000, pms: int = 1000, seed: int = 32
) -> Built:
    """Fill the store at ``url`` with a chess32 game of ``days`` days and nights."""
    began = time.perf_counter()
    store = open_store(url)
    try:
        builder = _Builder(store, days, posts, pms, random.Random(seed))
        for n in range(1, days + 1):
            if builder.state.phase is Phase.OVER:
                break
            builder.day(n)
            if builder.state.phase is Phase.OVER:
                break
            builder.night(n)
            builder.days_played = n
    finally:
        store.close()
    return Built(builder.game_id, posts, pms, builder.events, time.perf_counter() - began)


class _Builder:
    """Plays a chess32 game through the real rules core into the store (public API only)."""

    def __init__(self, store: Store, days: int, posts: int, pms: int, rng: random.Random) -> None:
        self.store, self.days, self.posts, self.pms, self.rng = store, days, posts, pms, rng
        self.rules = find_ruleset("chess32")
        seats = _seats()
        with store.transaction() as uow:
            self.game_id = uow.games.create(GAME, "chess32", {"day_hours": 24, "night_hours": 24}).id
            for s in seats:
                uow.games.add_player(self.game_id, s.number, s.name, s.role, s.team, uid=_uid(s))
        self.state = self.rules.new_game([PlayerSpec(s.name, s.role, s.team) for s in seats])
        self.events = 0
        self.days_played = 0

    def share(self, total: int, n: int) -> int:
        """Day ``n``'s part of ``total``, spread exactly over the days."""
        return total * n // self.days - total * (n - 1) // self.days

    def apply(self, command: Command, evidence_id: int | None = None) -> None:
        """Decide and evolve one command, and store its events like the daemon does."""
        self.state, events = self.rules.apply(self.state, command)
        key = None if evidence_id is None else keys.evidence_batch(evidence_id)
        with self.store.transaction() as uow:
            uow.events.append(self.game_id, [encode(e) for e in events], evidence_id, key=key)
        self.events += len(events)

    def alive(self) -> list[Seat]:
        return list(self.state.alive())

    def day(self, n: int) -> None:
        """Discussion and vote posts (a page of 30 per transaction), a ballot per vote post,
        the activity counts, and the close of the vote (and of round 2 if there is one)."""
        t = START + timedelta(days=2 * (n - 1))
        close = t + timedelta(hours=23)
        alive, rng = self.alive(), self.rng
        self.apply(OpenDay(n, frozen_map({"opened_at": t, "round1_close": close})))
        page: list[tuple[Post, str]] = []
        votes: list[tuple[Post, str]] = []
        recorded: dict[str, int] = {}  # pid: evidence id
        for i in range(self.share(self.posts, n)):
            author, target = rng.choice(alive), rng.choice(alive).name
            is_vote = i % 4 == 0
            tid = str(2000 + n) if is_vote else (str(1000 + n) if i % 7 else "999")  # 999: 灌水
            text = f"投票 {target}" if is_vote else _text(rng, rng.randint(20, 120))
            quotes = (Quote(rng.choice(alive).name, None, _text(rng, 15)),) if i % 5 == 1 else ()
            at = t + timedelta(seconds=rng.randrange(22 * 3600))
            post = Post(tid, f"{n}{i:05d}", i + 2, author.name, _uid(author), at, text, quotes)
            page.append((post, f"https://forum.example/t/{tid}#pid{post.pid}"))
            if is_vote:  # most players abstain, so that the game lasts the 30 days
                votes.append((post, target if rng.random() < 0.06 else ABSTAIN))
            if len(page) == 30 or i == self.share(self.posts, n) - 1:
                with self.store.transaction() as uow:
                    results = uow.evidence.record(self.game_id, page)
                recorded.update((r.evidence.forum_id, r.evidence.id) for r in results)
                page = []
        for post, target in sorted(votes, key=lambda v: v[0].posted_at):
            ident = recorded[post.pid]
            self.apply(CastBallot(post.author, target, post.posted_at, evidence=str(ident)), ident)
        counts = {s.name: rng.randint(0, 12) for s in alive}
        self.apply(RecordActivity(frozen_map(counts)))
        self.apply(CloseRound(close))
        if self.state.phase is Phase.DAY:  # round 2
            candidates = sorted(self.state.memory.round2) if hasattr(self.state.memory, "round2") else []
            names = [self.state.by_number(c).name for c in candidates] or [s.name for s in alive]
            for s in self.alive():
                self.apply(CastBallot(s.name, rng.choice(names), close + timedelta(hours=1)))
            self.apply(CloseRound(close + timedelta(hours=24)))

    def night(self, n: int) -> None:
        """Action PMs (a conversation per player, one transaction each), a submission per
        action, and the resolution at dawn."""
        t = START + timedelta(days=2 * n - 1)
        alive, rng = self.alive(), self.rng
        deadline = t + timedelta(hours=23, minutes=50)
        self.apply(OpenNight(n, frozen_map({"opened_at": t, "deadline": deadline})))
        conversations: dict[str, list[tuple[PrivateMessage, str]]] = {}
        for i in range(self.share(self.pms, n)):
            actor, target = rng.choice(alive), rng.choice(alive).name
            at = t + timedelta(seconds=rng.randrange(23 * 3600))
            text = f"{ACTIONS[actor.role]} {target}"
            player = (actor.name, _uid(actor))
            sender, recipient = (GM, player) if i % 10 == 9 else (player, GM)  # 9: GM's receipt
            pm = PrivateMessage(f"{n}{i:04d}", f"c{actor.number}", *sender, *recipient, at, text)
            conversations.setdefault(pm.conversation, []).append(
                (pm, f"https://forum.example/pm/{pm.id}")
            )
        actions = []
        for conversation in conversations.values():
            with self.store.transaction() as uow:
                results = uow.evidence.record(self.game_id, conversation)
            for result in results:
                if result.evidence.author != GM[0]:
                    actions.append(result.evidence)
        platforms = [s.name for s in alive if s.role != "general"]
        for e in sorted(actions, key=lambda e: e.posted_at):
            action, target = e.text.split()
            if action in ("kill", "cannon_kill") and rng.random() < 0.92:
                continue  # a PM that asks the GM something: no kill, so the game goes on
            extra = {"platform": rng.choice(platforms)} if action == "cannon_kill" else {}
            if action == "kill":
                extra["declaration_chars"] = 160
            self.apply(Submit(e.author, action, target, frozen_map(extra), e.posted_at, str(e.id)), e.id)
        self.apply(CloseNight(deadline))

    def finish(self) -> None:
        """Nothing to add: the game ended, or the 30 days were played."""


def _uid(seat: Seat) -> str:
    return str(100 + seat.number)


def read_back(url: str, name: str = GAME) -> dict[str, float]:
    """Time reading every event and decoding it, as a replay would (streamed, not kept)."""
    rss_start = _rss_mb()
    began, cpu_began = time.perf_counter(), time.process_time()
    store = open_store(url, create=False)
    with store.snapshot() as uow:
        game = uow.games.find(name)
        assert game is not None, f"no game {name!r} in {url}"
        players = sorted(uow.games.players(game.id), key=lambda p: p.seat)
    opened, cpu_opened = time.perf_counter(), time.process_time()
    events = sum(1 for _ in store.stream_events(game.id))
    read, cpu_read = time.perf_counter(), time.process_time()
    kinds: dict[str, int] = {}
    rules = find_ruleset(game.ruleset)
    state = rules.new_game([PlayerSpec(p.name, p.role, p.team) for p in players], game.config)
    for stored in store.stream_events(game.id):
        event = decode(stored.payload)
        state = rules.evolve(state, event)  # the replay: the rules core folds every event
        kinds[type(event).__name__] = kinds.get(type(event).__name__, 0) + 1
    decoded, cpu_decoded = time.perf_counter(), time.process_time()
    kinds["final: " + state.phase.value + f" {state.number}, {len(state.alive())} alive"] = 1
    evidence = sum(1 for _ in store.stream_evidence(game.id))
    evidence_done = time.perf_counter()
    figures = {
        "events": events,
        "payload_mb": sum(len(dumps_json(e.payload)) for e in store.stream_events(game.id)) / 1e6,
        "open_s": opened - began,
        "read_s": read - opened,
        "read_decode_s": decoded - read,
        "replay_cpu_s": (cpu_opened - cpu_began) + (cpu_decoded - cpu_read),  # as "total", in CPU time
        "evidence": evidence,
        "evidence_s": evidence_done - decoded,
        "rss_start_mb": rss_start,
        "peak_rss_mb": _rss_mb(),
        "kinds": kinds,
    }
    store.close()
    return figures


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--posts", type=int, default=5000)
    parser.add_argument("--pms", type=int, default=1000)
    parser.add_argument("--db", type=Path, help="keep the database here (default: a temp dir)")
    parser.add_argument("--url", help="an empty database's SQLAlchemy URL instead (e.g. PostgreSQL)")
    parser.add_argument("--no-postgresql", action="store_true",
                        help="do not repeat the benchmark on a throw-away PostgreSQL server")  # fmt: skip
    parser.add_argument("--read-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.read_only:
        print(json.dumps(read_back(args.url or f"sqlite:///{args.db}")))
        return 0
    if args.url:
        _bench(args, args.url, "given database")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "bench.db"
        if db.exists():
            sys.exit(f"{db} exists: give a new path")
        _bench(args, f"sqlite:///{db}", f"SQLite, {db.stat().st_size / 1e6:.1f} MB" if db.exists() else "SQLite")
    if not args.no_postgresql:
        _on_postgresql(args)
    return 0


def _on_postgresql(args: argparse.Namespace) -> None:
    """The same on a throw-away PostgreSQL server (tests/postgresql.py), where one can start."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.postgresql import LocalServer, find_bin_dir, unavailable_reason

    reason = unavailable_reason()
    if reason:
        print(f"postgresql: skipped ({reason})")
        return
    server = LocalServer(find_bin_dir())  # type: ignore[arg-type]
    try:
        server.start()
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        admin = create_engine(server.url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text('CREATE DATABASE "bench"'))
        admin.dispose()
        url = make_url(server.url).set(database="bench").render_as_string(hide_password=False)
        _bench(args, url, "PostgreSQL")
    finally:
        server.stop()


def _bench(args: argparse.Namespace, url: str, label: str) -> None:
    """Build the game at ``url``, then time its replay in a fresh process."""
    built = build_store(url, days=args.days, posts=args.posts, pms=args.pms)
    print(f"== {label}")
    print(f"built     {built.posts} posts, {built.pms} PMs, {built.events} events in {built.seconds:.1f} s")
    out = subprocess.run(
        [sys.executable, __file__, "--read-only", "--url", url],
        check=True,
        capture_output=True,
        text=True,
    )
    f = json.loads(out.stdout)
    total = f["open_s"] + f["read_decode_s"]
    print(
        f"events    {f['events']} ({f['payload_mb']:.1f} MB of JSON): "
        + ", ".join(f"{k} {v}" for k, v in sorted(f["kinds"].items()))
    )
    print(f"open      {f['open_s'] * 1000:.0f} ms (engine, migration check)")
    print(f"read      {f['read_s'] * 1000:.0f} ms (rows and JSON only)")
    print(f"replay    {f['read_decode_s'] * 1000:.0f} ms (read + codec.decode + evolve through the rules core)")
    print(f"evidence  {f['evidence']} records in {f['evidence_s'] * 1000:.0f} ms")
    print(f"total     {total:.2f} s to open the store and replay the game (target ≤ 0.4 s; "
          f"CPU {f['replay_cpu_s']:.2f} s)")
    print(
        f"peak RSS  {f['peak_rss_mb']:.0f} MB (after imports {f['rss_start_mb']:.0f} MB; target < 150 MB)"
    )


if __name__ == "__main__":
    raise SystemExit(main())
