"""A console served for real (uvicorn on a loopback port) over a game service, for the
browser tests and the screenshots."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from shenshi.console.server import Console, serve_in_background
from shenshi.daemon.service import GameService


@contextmanager
def served(services: Sequence[GameService]) -> Iterator[Console]:
    """The console of ``services`` on 127.0.0.1 (a free port), stopped on exit."""
    console = serve_in_background(services, "127.0.0.1", 0)
    try:
        yield console
    finally:
        console.stop()


def signed_in_url(console: Console, path: str = "/") -> str:
    """The first visit's address (with the token)."""
    return f"{console.url}{path}?token={console.key.token}"
