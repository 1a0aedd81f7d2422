"""Benchmark: HTTP requests per poll, on the recorded flows (respx), for both engines.

* a quiet poll of one game (vote thread + discussion threads on one board + the inbox);
* catching up K new posts from a cursor (at most ceil(K / posts per page) + 1 page requests);
* a quiet cycle of one daemon serving G games on one board of one GM account (the sandbox forum
  over loopback HTTP): ``quiet cycle: engine=<e> games=<G> requests=<n>`` for G = 1, 5, 20 (the
  limit is 1: the board listing, whose new-PM notice says the inbox has nothing new), with the
  CPU time of such a cycle and the peak RSS of the process serving 20 games.
Prints the counts; no assertions.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "adapters"))

import respx  # noqa: E402
from adapter_world import CAPTURED_AT, ENGINE_DIRS, FakeClock, World, load_flows, logged_in  # noqa: E402

from shenshi.adapters import discuz_parse, phpwind_parse  # noqa: E402
from shenshi.records import ConversationMark, InboxCursor, ThreadCursor  # noqa: E402

GAME = {
    "discuz": {"board": "forumdisplay_fid3.html", "inbox": "pm_inbox_unread.html", "pages": [f"viewthread_p{n}.html" for n in (6, 7)], "parser": discuz_parse},
    "phpwind": {"board": "thread_list_fid3.html", "inbox": "pm_inbox_unread.html", "pages": ["read_p7.html"], "parser": phpwind_parse},
}


def world(engine: str, router: respx.MockRouter) -> World:
    from datetime import datetime

    return World(engine, router, load_flows(engine), FakeClock(datetime.fromisoformat(CAPTURED_AT[engine])))


def quiet_poll(engine: str) -> int:
    game = GAME[engine]
    with respx.mock(assert_all_called=False) as router:
        w = world(engine, router)
        w.route(game["board"])
        w.route(game["inbox"])
        adapter = logged_in(w)
        rows = adapter.list_board("3")
        cursors = {row.tid: ThreadCursor(tid=row.tid, floor=row.replies + 1) for row in rows}  # all stored
        inbox_rows = game["parser"].parse_inbox((ENGINE_DIRS[engine] / game["inbox"]).read_bytes(), tz=adapter.tz, now=adapter.now())
        inbox = InboxCursor(tuple(ConversationMark(id=r.id, seen=("x",), fingerprint=adapter.fingerprint(r)) for r in inbox_rows))
        before = adapter.requests
        assert adapter.poll_board("3", cursors) == {}
        assert adapter.read_pms(inbox).messages == ()
        return adapter.requests - before


def catch_up(engine: str, back: int) -> tuple[int, int]:
    game = GAME[engine]
    with respx.mock(assert_all_called=False) as router:
        w = world(engine, router)
        for name in game["pages"]:
            w.route(name)
        adapter = logged_in(w)
        pages = adapter.reread_pages("2", [7] if engine == "phpwind" else [6, 7])
        posts = [p for page in pages for p in page.posts]
        anchor = posts[-back - 1]
        cursor = ThreadCursor(tid="2", floor=anchor.floor, pid=anchor.pid, per_page=10, pages=7, tail=(anchor.pid,))
        before = adapter.requests
        delta = adapter.read_thread("2", cursor)
        return len(delta.posts), adapter.requests - before


def quiet_cycles(engine: str, games: int, rounds: int = 3) -> tuple[int, float]:
    """Requests and CPU seconds of a quiet round of one daemon serving ``games`` games (the
    most of ``rounds`` rounds), after the first round opened every night."""
    import os
    import tempfile
    import time
    from datetime import UTC, datetime, timedelta

    from shenshi.adapters.sandbox import SandboxForum, serve
    from shenshi.adapters.sandbox.clock import ManualClock
    from shenshi.adapters.sandbox.seed import GM_PASSWORD, PLAYERS, seed_demo
    from shenshi.bootstrap import bootstrap_fleet
    from shenshi.config import parse_config

    start = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    clock = ManualClock(start - timedelta(hours=1))
    forum = SandboxForum(engine, clock)
    uids = {name.lower(): uid for name, _, uid in seed_demo(forum)}
    roles = ["seer", "killer", "commoner", "commoner", "killer", "blesser", "curser", "commoner", "binder", "commoner"]
    os.environ["SHENSHI_BENCH_PASSWORD"] = GM_PASSWORD
    with tempfile.TemporaryDirectory() as tmp, serve(forum) as base_url:
        configs = []
        for i in range(games):
            thread = forum.create_thread("神的使者", 3, f"第{i + 1}局", "名单：" + "、".join(PLAYERS), at=start)
            raw = {
                "forum": {"engine": engine, "base_url": base_url, "username": "神的使者",
                          "password_env": "SHENSHI_BENCH_PASSWORD", "min_interval": 0},
                "game": {"name": f"第{i + 1}局", "ruleset": "game6-10", "board": 3, "vote_thread": thread.tid,
                         "start": start.isoformat(),
                         "players": [{"name": n, "uid": uids[n.lower()], "role": r} for n, r in zip(PLAYERS, roles, strict=True)]},
                "daemon": {"database": f"sqlite:///{tmp}/games.sqlite3", "log": f"{tmp}/dry{i}.log"},
            }  # fmt: skip
            configs.append(parse_config(raw, Path(tmp)))
        fleet = bootstrap_fleet(configs, clock=clock, sleep=lambda s: clock.advance(seconds=s))
        try:
            fleet.start()
            clock.set(start + timedelta(minutes=5))
            fleet.run()
            adapter = fleet.services[0].adapter
            requests, cpu = 0, 0.0
            for _ in range(rounds):
                clock.advance(minutes=2)
                before, began = adapter.requests, time.process_time()
                fleet.run()
                cpu = max(cpu, time.process_time() - began)
                requests = max(requests, adapter.requests - before)
        finally:
            fleet.close()
    return requests, cpu


def main() -> None:
    import resource

    for engine in ("discuz", "phpwind"):
        print(f"{engine}: the adapter alone, board listing + inbox read (nothing new): {quiet_poll(engine)} requests")
        for back in ((3, 12) if engine == "discuz" else (3, 7)):
            k, n = catch_up(engine, back)
            print(f"{engine}: catch up K={k} new posts, 10 per page: {n} page requests (budget {-(-k // 10) + 1})")
    for engine in ("discuz", "phpwind"):
        for games in (1, 5, 20):
            requests, cpu = quiet_cycles(engine, games)
            print(f"quiet cycle: engine={engine} games={games} requests={requests}")
            if games == 20:
                print(f"quiet cycle cpu: engine={engine} games=20 cpu_ms={cpu * 1000:.0f} (sandbox in-process)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process (20 games served, sandbox forum in the same process): {peak:.0f} MB")


if __name__ == "__main__":
    main()
