"""Benchmark: HTTP requests per poll, on the recorded flows (respx), for both engines.

* a quiet poll of one game (vote thread + discussion threads on one board + the inbox);
* catching up K new posts from a cursor (at most ceil(K / posts per page) + 1 page requests).
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


def main() -> None:
    for engine in ("discuz", "phpwind"):
        print(f"{engine}: quiet poll (board listing + inbox, nothing new): {quiet_poll(engine)} requests (budget 2)")
        for back in ((3, 12) if engine == "discuz" else (3, 7)):
            k, n = catch_up(engine, back)
            print(f"{engine}: catch up K={k} new posts, 10 per page: {n} page requests (budget {-(-k // 10) + 1})")


if __name__ == "__main__":
    main()
