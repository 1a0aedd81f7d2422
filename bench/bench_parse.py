"""Benchmark: parse a captured 10-post Discuz thread page, lxml (ours) vs BeautifulSoup.

Prints the median time of each over interleaved runs (the same load for both). Ours is the
parser the daemon runs, with every completeness check on (a cut page is refused); the
BeautifulSoup version reads the same fields (pid, floor, author, uid, time, text) with
``html.parser``. Figures only, no assertions (the target, issue 22: at least 12×).
"""

from __future__ import annotations

import re
import statistics
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bs4 import BeautifulSoup

from shenshi.adapters.discuz_parse import parse_thread_page

PAGE = Path(__file__).resolve().parents[1] / "fixtures/discuz/x3.5/viewthread_p3.html"
TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 29, 18, 42, 12, tzinfo=TZ)


def with_soup(data: bytes) -> list[tuple[str, str, str, str, str, str]]:
    soup = BeautifulSoup(data.decode("utf-8"), "html.parser")
    rows = []
    for table in soup.select("table.plhin[id^=pid]"):
        pid = table["id"][3:]
        author = table.select_one("td.pls div.authi > a.xw1")
        floor = table.select_one(f"a#postnum{pid}")
        posted = table.select_one(f"em#authorposton{pid}")
        span = posted.select_one("span[title]") if posted else None
        body = table.select_one(f"td#postmessage_{pid}")
        rows.append((
            pid,
            floor.get_text(strip=True) if floor else "",
            author.get_text(strip=True) if author else "",
            re.search(r"uid=(\d+)", author["href"]).group(1) if author else "",
            span["title"] if span else (posted.get_text(strip=True) if posted else ""),
            body.get_text("\n", strip=True) if body else "",
        ))
    return rows


def timed_ms(run) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    data = PAGE.read_bytes()
    posts = parse_thread_page(data, tz=TZ, now=NOW).posts
    assert len(posts) == 10 and len(with_soup(data)) == 10
    # Interleaved, so that both parsers meet the same load on a shared machine: each round
    # times ours ten times and BeautifulSoup once; the ratio is taken round by round.
    ours: list[float] = []
    soup: list[float] = []
    ratios: list[float] = []
    for _ in range(25):
        mine = [timed_ms(lambda: parse_thread_page(data, tz=TZ, now=NOW)) for _ in range(10)]
        theirs = timed_ms(lambda: with_soup(data))
        ours += mine
        soup.append(theirs)
        ratios.append(theirs / statistics.median(mine))
    print(f"page: {PAGE.name} ({len(data) / 1024:.0f} KiB, {len(posts)} posts), every completeness check on")
    print(f"lxml (shenshi parse_thread_page): median {statistics.median(ours):.2f} ms")
    print(f"BeautifulSoup html.parser (same fields): median {statistics.median(soup):.2f} ms")
    print(f"ratio: {statistics.median(soup) / statistics.median(ours):.1f}x "
          f"(round by round: median {statistics.median(ratios):.1f}x, lowest {min(ratios):.1f}x)")


if __name__ == "__main__":
    main()
