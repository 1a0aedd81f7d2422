"""Wiring: one place that builds the application from a configuration.

The CLI, the scheduler jobs, the demo and the tests all call :func:`bootstrap` (cosmicpython
style), passing test doubles where they need them: an ``httpx.Client`` bound to the sandbox or
to respx, an in-memory or temporary store, an accelerated clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from sqlalchemy.engine import make_url

from shenshi.adapters.base import ForumAdapter, make_adapter
from shenshi.clock import system_clock
from shenshi.config import DEFAULT_CONFIG, Config, ConfigError, in_file, load_config
from shenshi.daemon.drylog import DryRunLog
from shenshi.daemon.service import GameService

if TYPE_CHECKING:
    from shenshi.daemon.fleet import Fleet
from shenshi.store import Store, open_store


def config_from_args(path: Path | None) -> Config:
    """The configuration named by ``--config``, or ``./shenshi.toml``."""
    path = path or DEFAULT_CONFIG
    if not path.exists():
        raise ConfigError(
            f"{path} 处没有配置文件：把 config.example.toml 复制为 {DEFAULT_CONFIG} 再编辑，"
            "或用 --config 指定配置文件"
        )
    return load_config(path)


def make_forum(
    config: Config,
    client: httpx.Client | None = None,
    clock: Callable[[], datetime] | None = None,
    sleep: Callable[[float], None] | None = None,
) -> ForumAdapter:
    """The forum adapter for the configuration's engine (``[forum]`` is its settings), with the
    session kept beside the database and the players' uids from the players file."""
    sleep = forum_sleep(clock, sleep)
    adapter = make_adapter(config.forum, client=client, clock=clock, sleep=sleep, session_file=session_path(config))
    adapter.remember_uids({p.name: p.uid for p in config.game.players if p.uid})
    return adapter


def forum_sleep(
    clock: Callable[[], datetime] | None, sleep: Callable[[float], None] | None
) -> Callable[[float], None] | None:
    """How to wait a number of the forum's seconds (the flood interval between two sends): on a
    rehearsal clock that runs X times faster, X times shorter in real time (wolfadv W0: at 120×
    the 15 s between two PMs were half a forum hour, the forum unread meanwhile)."""
    factor = float(getattr(clock, "factor", 1.0) or 1.0)
    if sleep is not None or factor == 1.0:
        return sleep
    return lambda seconds: time.sleep(max(seconds, 0.0) / factor)


def session_path(config: Config) -> Path:
    """The forum session file (0600): in the state directory, beside an SQLite database (else
    beside the dry-run log)."""
    url = make_url(config.daemon.database)
    database = url.database if url.get_backend_name() == "sqlite" else None
    folder = Path(database).expanduser().resolve().parent if database and database != ":memory:" else config.daemon.log.parent
    return folder / "shenshi-forum-session.json"


DRIVERS = {"MySQLdb": "mysqlclient", "pymysql": "PyMySQL", "psycopg2": "psycopg2-binary", "psycopg": "psycopg[binary]"}


def open_database(config: Config, clock: Callable[[], datetime] | None = None) -> Store:
    """The store of ``config``'s ``[daemon] database``; a URL that cannot be opened (an unknown
    kind of database, its driver not installed, the server down or refusing) is one
    :class:`ConfigError` naming the file and the option, never a traceback."""
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    url = config.daemon.database
    try:
        return open_store(url, clock=clock)
    except NoSuchModuleError:
        reason = f"不认识这种数据库（{url.split(':', 1)[0]}）；shenshi 用 sqlite:/// 或 postgresql+psycopg://"
    except ArgumentError as exc:
        reason = f"不是数据库网址：{exc}"
    except ImportError as exc:
        driver = exc.name or str(exc)
        package = DRIVERS.get(driver.split(".")[0])
        install = f"（pip install {package}）" if package else ""
        reason = f"没有安装这个数据库的驱动 {driver}{install}；shenshi 在 SQLite 和 PostgreSQL（postgresql+psycopg://）上测试过"
    except DBAPIError as exc:
        first = str(exc.orig or exc).strip().splitlines()[0] if str(exc.orig or exc).strip() else type(exc).__name__
        reason = f"连不上数据库 {_shown_url(url)}：{first}"
    raise in_file(ConfigError(f"[daemon] database: {reason}"), config.path)


def _shown_url(url: str) -> str:
    """The database URL without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - a URL that does not parse shows nothing of itself
        return "（这个网址）"


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
    store = store or open_database(config, clock=clock)
    adapter = make_forum(config, client, clock, sleep) if forum else None
    return GameService(config, store, adapter, clock, drylog=DryRunLog(config.daemon.log, config.forum.tz),
                       sleep=forum_sleep(clock, sleep))


def bootstrap_fleet(
    configs: Sequence[Config],
    *,
    client: httpx.Client | None = None,
    clock: Callable[[], datetime] | None = None,
    sleep: Callable[[float], None] | None = None,
) -> Fleet:
    """Every game of ``configs`` in one daemon (:class:`~shenshi.daemon.fleet.Fleet`): one store
    per database URL, one adapter per forum account (one login, one flood control for its
    sends) with the reads its games share, one owner name on every lease."""
    from shenshi.daemon.fleet import Fleet
    from shenshi.daemon.lease import owner_name
    from shenshi.daemon.sharing import SharedReads

    clock = clock or system_clock
    stores: dict[str, Store] = {}
    forums: dict[tuple[str, str, str], tuple[ForumAdapter, SharedReads]] = {}
    owner = owner_name()
    services = []
    for config in configs:
        url = config.daemon.database
        if url not in stores:
            stores[url] = open_database(config, clock=clock)
        account = (config.forum.engine, config.forum.base_url, config.forum.username)
        if account not in forums:
            adapter = make_forum(config, client, clock, sleep)
            forums[account] = (adapter, SharedReads(adapter, clock))
        adapter, reads = forums[account]
        adapter.remember_uids({p.name: p.uid for p in config.game.players if p.uid})
        service = GameService(
            config, stores[url], adapter, clock, drylog=DryRunLog(config.daemon.log, config.forum.tz),
            sleep=forum_sleep(clock, sleep),
        )  # fmt: skip
        service.reads = reads
        service.owner = owner
        services.append(service)
    return Fleet(services, clock)
