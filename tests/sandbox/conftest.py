"""Fixtures for the sandbox forum tests: a seeded forum on a manual clock, served on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sandbox_helpers import OPEN_CLIENTS, START

from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    """Browsers opened with ``sandbox_helpers.client`` are closed after each test (no stray sockets)."""
    yield
    while OPEN_CLIENTS:
        OPEN_CLIENTS.pop().close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


def _forum(engine: str, clock: ManualClock, **kwargs: object) -> SandboxForum:
    forum = SandboxForum(engine, clock=clock, **kwargs)  # type: ignore[arg-type]
    seed_demo(forum)
    return forum


@pytest.fixture
def discuz(clock: ManualClock) -> SandboxForum:
    return _forum("discuz", clock)


@pytest.fixture
def phpwind(clock: ManualClock) -> SandboxForum:
    return _forum("phpwind", clock)


@pytest.fixture
def discuz_url(discuz: SandboxForum) -> Iterator[str]:
    with serve(discuz) as base_url:
        yield base_url


@pytest.fixture
def phpwind_url(phpwind: SandboxForum) -> Iterator[str]:
    with serve(phpwind) as base_url:
        yield base_url

