"""Every captured page with an expected parse beside it parses to exactly that, field by field."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from adapter_world import ENGINE_DIRS, TZ

from shenshi.adapters.inspecting import inspect_bytes

EXPECTED = sorted(p for d in ENGINE_DIRS.values() for p in d.glob("*.expected.json"))


def _page_for(expected: Path) -> Path:
    stem = expected.name[: -len(".expected.json")]
    found = [p for p in expected.parent.glob(stem + ".*") if not p.name.endswith(".expected.json")]
    assert len(found) == 1, f"one page beside {expected.name}, found {found}"
    return found[0]


def _parse(expected: Path, data: bytes | None = None) -> tuple[dict, dict]:
    spec = json.loads(expected.read_text(encoding="utf-8"))
    page = _page_for(expected)
    now = datetime.fromisoformat(spec["now"])
    got = inspect_bytes(spec["kind"], spec["engine"], data if data is not None else page.read_bytes(), tz=TZ, now=now)
    return spec, got


def _compare(kind: str, want: dict, got: dict) -> None:
    key = {"thread": "posts", "inbox": "conversations", "conversation": "messages", "board": "threads"}[kind]
    if kind == "thread":
        assert (got["page"], got["pages"]) == (want["page"], want["pages"])
    assert len(got[key]) == len(want[key]), f"{key}: {len(got[key])} parsed, {len(want[key])} expected"
    for index, (g, w) in enumerate(zip(got[key], want[key], strict=True)):
        for name in w:
            assert g[name] == w[name], f"{key}[{index}].{name}: got {g[name]!r}, expected {w[name]!r}"


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_captured_page_parses_as_expected(expected: Path) -> None:
    spec, got = _parse(expected)
    _compare(spec["kind"], spec["expected"], got)


UTF8_PAGES = [p for p in EXPECTED if "_gbk" not in p.name and not p.name.startswith("api_")]


@pytest.mark.parametrize("expected", UTF8_PAGES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_page_transcoded_to_gbk_parses_the_same(expected: Path) -> None:
    """Many phpwind 8.x sites are GBK: decode by the page's own declaration, never assume UTF-8."""
    text = _page_for(expected).read_text(encoding="utf-8")
    for old in ('<meta charset="utf-8" />', 'encoding="utf-8"', "charset=utf-8"):
        text = text.replace(old, old.replace("utf-8", "gbk"))
    gbk = text.encode("gbk", errors="xmlcharrefreplace")  # what a GBK forum stores for 😅 etc.
    spec, got = _parse(expected, gbk)
    want = json.loads(json.dumps(spec["expected"]))
    # Characters outside GBK (emoji) survive as character references; the rest is identical.
    _compare(spec["kind"], want, got)


def test_stored_gbk_page_declares_gbk_and_is_not_utf8() -> None:
    page = ENGINE_DIRS["phpwind"] / "read_p3_transcoded_gbk.html"
    data = page.read_bytes()
    assert b"charset=gbk" in data[:500]
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")


def test_discuz_html_and_api_give_identical_posts_except_the_edit_mark() -> None:
    """The two Discuz paths agree on every field but ``edited`` (the API does not carry it)."""
    folder = ENGINE_DIRS["discuz"]
    html: dict[str, dict] = {}
    for n in range(1, 8):
        spec = json.loads((folder / f"viewthread_p{n}.expected.json").read_text(encoding="utf-8"))
        html.update({p["pid"]: p for p in spec["expected"]["posts"]})
    compared = 0
    for name in ("api_viewthread_p1", "api_viewthread_p7", "api_viewthread_ppp20_p2"):
        _, got = _parse(folder / f"{name}.expected.json")
        for post in got["posts"]:
            reference = dict(html[post["pid"]], edited=None)
            assert post == reference
            compared += 1
    assert compared == 39
    assert html["96"]["edited"] == {"by": "小明", "at": "2026-11-29T18:39:00+08:00"}
