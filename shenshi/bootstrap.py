"""Wiring: one place that builds the application from a configuration.

The CLI, the scheduler jobs, the demo and the tests all call :func:`bootstrap` (cosmicpython
style), passing test doubles where they need them: an ``httpx.Client`` bound to the sandbox or
to respx, an in-memory or temporary store, an accelerated clock.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import httpx

from shenshi.adapters.base import ForumAdapter, make_adapter
from shenshi.clock import system_clock
from shenshi.config import DEFAULT_CONFIG, Config, ConfigError, load_config
from shenshi.daemon.drylog import DryRunLog
from shenshi.daemon.service import GameService
from shenshi.store import Store, open_store


def config_from_args(path: Path | None) -> Config:
    """The configuration named by ``--config``, or ``./shenshi.toml``."""
    path = path or DEFAULT_CONFIG
    if not path.exists():
        raise ConfigError(
            f"no configuration at {path}: copy config.example.toml to {DEFAULT_CONFIG} "
            "and edit it, or pass --config PATH"
        )
    return load_config(path)


def make_forum(
    config: Config,
    client: httpx.Client | None = None,
    clock: Callable[[], datetime] | None = None,
    sleep: Callable[[float], None] | None = None,
) -> ForumAdapter:
    """The forum adapter for the configuration's engine (``[forum]`` is its settings)."""
    return make_adapter(config.forum, client=client, clock=clock, sleep=sleep)


def bootstrap(
    config: Config,
    *,
    client: httpx.Client | None = None,
    store: Store | None = None,
    clock: Callable[[], datetime] | None = None,
    sleep: Callable[[float], None] | None = None,
    forum: bool = True,
) -> GameService:
    """The game service for ``config``; ``forum=False`` works offline (status, review, replay)."""
    clock = clock or system_clock
    store = store or open_store(config.daemon.database, clock=clock)
    adapter = make_forum(config, client, clock, sleep) if forum else None
    return GameService(config, store, adapter, clock, drylog=DryRunLog(config.daemon.log), sleep=sleep)
