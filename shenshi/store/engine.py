"""Opening a store: the engine, the SQLite file's safety settings, and the migrations.

``open_store(url)`` is the one way in. For a SQLite file it creates the file with mode 0600
before SQLAlchemy touches it (and tightens an existing one: the database holds roles and night
actions), turns on WAL and foreign keys, and takes over ``BEGIN`` from the sqlite3 driver so
that DDL is transactional and write transactions start ``BEGIN IMMEDIATE`` (writers queue on
the busy timeout instead of failing on a lock upgrade). Any other SQLAlchemy URL (PostgreSQL)
is used as given. Then ``alembic upgrade head`` runs, programmatically: there is no alembic.ini.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.pool import StaticPool

from shenshi.store.errors import DatabaseMissing, SchemaTooNew
from shenshi.store.rows import dumps_json
from shenshi.store.unit_of_work import WRITE_OPTION, Store

MIGRATIONS = Path(__file__).with_name("migrations")

SQLITE_BUSY_TIMEOUT_S = 30.0
FILE_MODE = 0o600
DIR_MODE = 0o700


def open_store(
    url: str | URL,
    *,
    create: bool = True,
    clock: Callable[[], datetime] | None = None,
) -> Store:
    """The store at ``url``, migrated to the latest schema.

    ``create=False`` refuses to create a database that is not there yet
    (:class:`DatabaseMissing`); an existing one is still upgraded. A database migrated by a
    newer shenshi raises :class:`SchemaTooNew`. ``clock`` returns aware UTC datetimes
    (defaults to the system clock) and stamps ``first_seen_at``, ``recorded_at``…
    """
    engine = make_engine(url, create=create)
    try:
        with engine.connect() as conn:
            if not create and not _has_schema(conn):
                raise DatabaseMissing(f"no shenshi database at {_safe(engine.url)}")
        upgrade(engine)
    except BaseException:
        engine.dispose()
        raise
    return Store(engine, clock=clock)


def make_engine(url: str | URL, *, create: bool = True) -> Engine:
    """An engine for ``url`` with shenshi's settings (SQLite: 0600 file, WAL, foreign keys)."""
    u = make_url(url)
    options: dict[str, Any] = {"json_serializer": dumps_json, "json_deserializer": json.loads}
    if u.get_backend_name() != "sqlite":
        return create_engine(u, pool_pre_ping=True, **options)
    memory = u.database in (None, "", ":memory:")
    if memory:
        options |= {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    else:
        prepare_sqlite_file(Path(u.database or ""), create=create)
        options["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT_S}
    engine = create_engine(u, **options)
    _sqlite_events(engine, wal=not memory)
    return engine


def prepare_sqlite_file(path: Path, *, create: bool) -> None:
    """Create ``path`` with mode 0600 if missing (parents 0700), and tighten it if it exists.

    The WAL and shared-memory files SQLite adds later take the database file's mode.
    """
    if not path.exists():
        if not create:
            raise DatabaseMissing(f"no shenshi database at {path}")
        path.parent.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, FILE_MODE))
    for file in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))):
        if file.exists():
            os.chmod(file, FILE_MODE)


def _sqlite_events(engine: Engine, *, wal: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver stops emitting BEGIN itself; _on_begin below does it for every transaction.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT_S * 1000)}")
        if wal:
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute(
                "PRAGMA synchronous = FULL"
            )  # an acknowledged commit survives power loss
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def alembic_config(connection: Connection | None = None) -> Config:
    """The Alembic configuration, built in code (``script_location`` inside the package)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run the migrations up to ``revision`` in one write transaction.

    Two processes opening a new database at once serialise on the transaction; the second
    finds the schema already there.
    """
    with engine.execution_options(**{WRITE_OPTION: True}).begin() as conn:
        current = _check_known_revision(conn)
        if revision == "head" and current is not None and current in _heads():
            return  # at the latest schema already (every open of a running game): no migration run
        command.upgrade(alembic_config(conn), revision)


@functools.cache
def _heads() -> tuple[str, ...]:
    """The latest schema revisions this shenshi knows (read once per process)."""
    return tuple(ScriptDirectory.from_config(alembic_config()).get_heads())


def current_revision(engine: Engine) -> str | None:
    """The schema revision of the database (``None`` for an empty one)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def _check_known_revision(conn: Connection) -> str | None:
    """The database's schema revision, refused if this shenshi does not know it (a newer one)."""
    current = MigrationContext.configure(conn).get_current_revision()
    if current is None:
        return None
    known = _known()
    if current not in known:
        raise SchemaTooNew(
            f"the database is at schema revision {current!r}, unknown to this shenshi "
            f"(known: {', '.join(sorted(known))}): upgrade shenshi"
        )
    return current


@functools.cache
def _known() -> frozenset[str]:
    """Every schema revision this shenshi knows (read once per process)."""
    return frozenset(rev.revision for rev in ScriptDirectory.from_config(alembic_config()).walk_revisions())


def _has_schema(conn: Connection) -> bool:
    return inspect(conn).has_table("alembic_version")


def _safe(url: URL) -> str:
    return url.render_as_string(hide_password=True)
