"""A page cut short never parses as a valid page with posts missing or a truncated last post
(issue 11: 433 of 2,596 cuts of captured pages used to parse "fine" but wrong).

Every captured thread page, PM list, conversation and board listing of both engines (issue 22:
25 board-listing cuts were still accepted) is cut at many points;
each cut either parses exactly as the whole page does (the cut fell after the list's closing
structure) or raises a :class:`~shenshi.adapters.errors.ForumError` (it is fetched again,
never stored). The HTTP layer fetches a cut page again.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import respx

from shenshi.adapters import discuz_parse, phpwind_parse
from shenshi.adapters.errors import ForumError, IncompletePage
from shenshi.adapters.http import ForumHttp
from shenshi.adapters.text import zone

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
TZ = zone("Asia/Shanghai")
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
CUTS = 60  # cuts spread over each list

PAGES = {
    "discuz/x3.5": {
        "viewthread_p*.html": discuz_parse.parse_thread_page,
        "viewthread_analysis_thread_tid3.html": discuz_parse.parse_thread_page,
        "viewthread_single_post_ajax_viewpid.xml": discuz_parse.parse_thread_page,
        "pm_inbox_*.html": discuz_parse.parse_inbox,
        "pm_conversation_view_*.html": discuz_parse.parse_conversation,
        "forumdisplay_*.html": discuz_parse.parse_board,
        "api_viewthread_p*.json": discuz_parse.parse_api_thread,  # the mobile API: JSON that ends
        "api_mypm_list.json": discuz_parse.parse_api_inbox,
        "api_mypm_view_touid11.json": discuz_parse.parse_api_conversation,
    },
    "phpwind/8.7": {
        "read_p*.html": phpwind_parse.parse_thread_page,
        "read_analysis_thread_tid3.html": phpwind_parse.parse_thread_page,
        "pm_inbox_*.html": phpwind_parse.parse_inbox,
        "pm_conversation_view*.html": phpwind_parse.parse_conversation,
        "thread_list_*.html": phpwind_parse.parse_board,
    },
}


def _cases():
    for folder, kinds in PAGES.items():
        for pattern, parse in kinds.items():
            for path in sorted((FIXTURES / folder).glob(pattern)):
                try:
                    parse(path.read_bytes(), tz=TZ, now=NOW)
                except ForumError:
                    continue  # a guest's page, a page of another kind: not a list
                yield pytest.param(path, parse, id=f"{folder}/{path.name}")


def _points(data: bytes, markers: tuple[str, ...]) -> list[int]:
    """Cuts all over the list, every byte around the first closing structure (where a mistake
    would hide), and a few after it (each of those parses as the whole page)."""
    ends = [at for marker in markers if (at := data.find(marker.encode())) >= 0]
    end = min(ends) if ends else len(data)
    points = set(range(1, end, max(1, end // CUTS)))
    points.update(range(max(1, end - 80), min(len(data), end + 40)))
    points.update(range(end, len(data), max(1, (len(data) - end) // 4)))
    return sorted(points)


@pytest.mark.parametrize(("path", "parse"), list(_cases()))
def test_no_cut_parses_as_a_valid_page_with_something_missing(path: Path, parse) -> None:
    data = path.read_bytes()
    whole = parse(data, tz=TZ, now=NOW)
    module = discuz_parse if parse.__module__.endswith("discuz_parse") else phpwind_parse
    kind = parse.__name__.removeprefix("parse_").removesuffix("_page").upper()
    markers = getattr(module, f"{kind}_END", ())  # (JSON: complete when it parses)
    wrong = []
    for cut in _points(data, markers):
        try:
            found = parse(data[:cut], tz=TZ, now=NOW)
        except ForumError:
            continue
        if _listed(found) != _listed(whole):
            wrong.append(cut)
    assert not wrong, (
        f"{len(wrong)} cuts of {path.name} parse as valid but differ (first at byte {wrong[0]})"
    )


def _listed(parsed):
    """What a cut must not change: the posts (or conversations, or messages) and the paging."""
    if isinstance(parsed, list):
        return parsed
    return (parsed.tid, parsed.page, parsed.pages, parsed.posts)


@respx.mock
def test_a_page_cut_short_is_fetched_again() -> None:
    page = (FIXTURES / "discuz/x3.5/viewthread_p1.html").read_bytes()
    route = respx.get("http://forum.test/forum.php").mock(
        side_effect=[
            httpx.Response(200, content=page[: len(page) // 2]),
            httpx.Response(200, content=page),
        ]
    )
    http = ForumHttp(
        base_url="http://forum.test/", user_agent="t", min_interval=0, sleep=lambda s: None
    )
    check = lambda r: discuz_parse.parse_thread_page(r.content, tz=TZ, now=NOW)  # noqa: E731
    found = http.fetch("GET", "forum.php", check=check)
    assert route.call_count == 2 and found.posts


@respx.mock
def test_a_page_always_cut_short_is_an_error_not_a_page() -> None:
    page = (FIXTURES / "phpwind/8.7/read_p1.html").read_bytes()
    respx.get("http://forum.test/read.php").mock(
        return_value=httpx.Response(200, content=page[: len(page) // 2])
    )
    http = ForumHttp(
        base_url="http://forum.test/", user_agent="t", min_interval=0, sleep=lambda s: None
    )
    with pytest.raises(IncompletePage):
        http.fetch(
            "GET",
            "read.php",
            check=lambda r: phpwind_parse.parse_thread_page(r.content, tz=TZ, now=NOW),
        )
