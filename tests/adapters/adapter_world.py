"""Shared pieces of the adapter tests: fixture paths, recorded flows as respx routes, a fake clock."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
import respx

from shenshi.adapters.base import ForumSettings, make_adapter

ROOT = Path(__file__).resolve().parents[2] / "fixtures"
ENGINE_DIRS = {"discuz": ROOT / "discuz" / "x3.5", "phpwind": ROOT / "phpwind" / "8.7"}
BASE_URLS = {"discuz": "http://127.0.0.1:8081/", "phpwind": "http://127.0.0.1:8082/"}
CAPTURED_AT = {"discuz": "2026-11-29T18:42:12+08:00", "phpwind": "2026-11-29T18:50:00+08:00"}
TZ = ZoneInfo("Asia/Shanghai")
PASSWORD = "GmPass_2024"  # the GM's password in the recorded login flows


def load_flows(engine: str) -> dict[str, dict[str, Any]]:
    """Recorded flows (``http_flows.jsonl``) plus the supplementary ones, by fixture file name."""
    flows: dict[str, dict[str, Any]] = {}
    for name in ("http_flows.jsonl", "http_flows_supplement.jsonl"):
        path = ENGINE_DIRS[engine] / name
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                flow = json.loads(line)
                flows.setdefault(flow["file"], flow)
    return flows


def flow_response(engine: str, flow: dict[str, Any], *, body: str | None = None, status: int | None = None) -> httpx.Response:
    """The first hop of a recorded flow as an ``httpx.Response`` (redirects keep their Location)."""
    hop = flow["responses"][0]
    headers = [("Content-Type", hop.get("content_type") or "text/html; charset=utf-8")]
    headers += [("Set-Cookie", cookie) for cookie in hop.get("set_cookie") or []]
    if hop.get("location") and body is None:
        headers.append(("Location", hop["location"]))
        return httpx.Response(status or hop["status"], headers=headers)
    content = (ENGINE_DIRS[engine] / (body or flow["file"])).read_bytes()
    return httpx.Response(status or hop["status"], headers=headers, content=content)


@dataclass
class FakeClock:
    """The injected clock and sleep: sleeping advances the clock, nothing really waits."""

    now: datetime
    slept: list[float] = field(default_factory=list)

    def __call__(self) -> datetime:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += timedelta(seconds=max(0.0, seconds))


@dataclass
class World:
    """One engine's recorded forum: respx routes built from its flows, an adapter to drive."""

    engine: str
    router: respx.MockRouter
    flows: dict[str, dict[str, Any]]
    clock: FakeClock

    def route(self, name: str, *, then: list[str | httpx.Response | Exception] | None = None, body: str | None = None, status: int | None = None) -> respx.Route:
        """Route the request of flow ``name``; ``then`` lists later answers (file names, responses, errors)."""
        flow = self.flows[name]
        url = httpx.URL(flow["request"]["url"])
        params = dict(url.params)
        if params:  # the adapter may add parameters (page=1…): the recorded ones must be there
            route = self.router.route(method=flow["request"]["method"], path=url.path, params=params)
        else:  # a bare URL (forum.php, login.php) matches only a bare request
            route = self.router.route(method=flow["request"]["method"], path=url.path, params__eq={})
        first = flow_response(self.engine, flow, body=body, status=status)
        if then is None:
            route.mock(return_value=first)
        else:
            answers = [first] + [self._answer(flow, item) for item in then]
            route.mock(side_effect=answers)
        return route

    def _answer(self, flow: dict[str, Any], item: str | httpx.Response | Exception) -> Any:
        if isinstance(item, str):
            other = self.flows.get(item)
            return flow_response(self.engine, other) if other else flow_response(self.engine, flow, body=item)
        return item

    def adapter(self, session_file: Any = None, **overrides: Any):  # type: ignore[no-untyped-def]
        settings = ForumSettings(
            engine=self.engine,
            base_url=BASE_URLS[self.engine],
            username="神的使者",
            password=overrides.pop("password", PASSWORD),
            min_interval=overrides.pop("min_interval", 0.0),
            use_mobile_api=overrides.pop("use_mobile_api", "no"),
            **overrides,
        )
        return make_adapter(settings, client=httpx.Client(), clock=self.clock, sleep=self.clock.sleep, session_file=session_file)


LOGIN_FLOWS = {
    "discuz": ["login_page.html", "login_post_response.html", "forum_index.html"],
    "phpwind": ["login_page.html", "login_post_response.html", "forum_index.html"],
}


@pytest.fixture
def make_world():
    """Build a :class:`World` for an engine inside a respx mock (unrouted requests fail)."""
    with respx.mock(assert_all_called=False) as router:

        def build(engine: str) -> World:
            clock = FakeClock(datetime.fromisoformat(CAPTURED_AT[engine]))
            return World(engine, router, load_flows(engine), clock)

        yield build


def logged_in(world: World, **overrides: Any):  # type: ignore[no-untyped-def]
    """An adapter that went through the recorded login flow."""
    for name in LOGIN_FLOWS[world.engine]:
        world.route(name)
    adapter = world.adapter(**overrides)
    adapter.login()
    return adapter
