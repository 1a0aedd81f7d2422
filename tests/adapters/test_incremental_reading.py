"""The cursor algorithm on made-up threads: budget, no duplicates, shrink reported."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from shenshi.adapters.incremental import read_after
from shenshi.records import Post, ThreadPage

TZ = ZoneInfo("Asia/Shanghai")
START = datetime(2026, 11, 20, 18, 0, tzinfo=TZ)


def thread(pids: list[str], per_page: int, renumber: bool = True):  # type: ignore[no-untyped-def]
    posts = [Post("2", pid, i + 1, "u", "9", START + timedelta(minutes=int(pid)), f"text {pid}") for i, pid in enumerate(pids)]
    pages = max(1, -(-len(posts) // per_page))
    calls: list[int] = []

    def fetch(page: int) -> ThreadPage:
        page = min(page, pages)  # forums clamp a too-large page to the last one
        calls.append(page)
        chunk = posts[(page - 1) * per_page : page * per_page]
        return ThreadPage("2", page, pages, tuple(chunk))

    return fetch, calls


@given(st.integers(1, 60), st.integers(0, 45), st.sampled_from([10, 20]))
def test_catch_up_budget_and_no_duplicates(first: int, more: int, per_page: int) -> None:
    pids = [str(n) for n in range(1, first + more + 1)]
    fetch, _ = thread(pids[:first], per_page)
    seen = read_after("2", None, fetch, per_page)
    fetch, calls = thread(pids, per_page)
    delta = read_after("2", seen.cursor, fetch, per_page)
    assert [p.pid for p in delta.posts] == pids[first:]
    assert len(calls) <= -(-more // per_page) + 1
    assert not delta.shrunk


def test_thread_that_shrank_is_reported_and_loses_nothing() -> None:
    pids = [str(n) for n in range(1, 24)]  # 23 posts, 3 pages of 10
    fetch, _ = thread(pids, 10)
    cursor = read_after("2", None, fetch, 10).cursor
    survivors = [p for p in pids if p not in ("3", "4", "5")] + ["24", "25"]  # 3 deleted, 2 new
    fetch, _ = thread(survivors, 10)
    delta = read_after("2", cursor, fetch, 10)
    assert [p.pid for p in delta.posts] == ["24", "25"]
    assert delta.shrunk


def test_complete_pages_are_never_fetched_again() -> None:
    pids = [str(n) for n in range(1, 21)]  # exactly two full pages
    fetch, _ = thread(pids, 10)
    cursor = read_after("2", None, fetch, 10).cursor
    fetch, calls = thread(pids + ["21"], 10)
    delta = read_after("2", cursor, fetch, 10)
    assert calls == [3] and [p.pid for p in delta.posts] == ["21"]
