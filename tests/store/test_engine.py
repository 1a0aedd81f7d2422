"""open_store: migrations from empty, the models matching them, the SQLite file's safety."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from shenshi.store import DatabaseMissing, SchemaTooNew, open_store
from shenshi.store.engine import alembic_config, current_revision, make_engine, upgrade
from shenshi.store.models import Base
from shenshi.store.unit_of_work import WRITE_OPTION

TABLES = {
    "games",
    "players",
    "evidence",
    "evidence_revisions",
    "events",
    "announcements",
    "alerts",
    "cursors",
    "leases",
}
HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_migrations_create_every_table_from_empty(empty_store_url):
    store = open_store(empty_store_url)
    try:
        tables = set(inspect(store.engine).get_table_names())
        assert TABLES | {"alembic_version"} == tables
        assert current_revision(store.engine) == HEAD
    finally:
        store.close()


def test_models_match_the_migrations(empty_store_url):
    """Autogenerate finds nothing to add: the hand-written revision describes the models."""
    store = open_store(empty_store_url)
    try:
        with store.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == []
    finally:
        store.close()


def test_reopening_is_a_no_op_and_keeps_data(sqlite_url):
    with open_store(sqlite_url) as store, store.transaction() as uow:
        uow.games.create("g", "game5")
    with open_store(sqlite_url, create=False) as store, store.snapshot() as uow:
        assert uow.games.find("g").ruleset == "game5"
        assert current_revision(store.engine) == HEAD


def test_downgrade_to_base_and_upgrade_again(sqlite_url):
    engine = make_engine(sqlite_url)
    try:
        upgrade(engine)
        with engine.execution_options(**{WRITE_OPTION: True}).begin() as conn:
            command.downgrade(alembic_config(conn), "base")
        assert set(inspect(engine).get_table_names()) == {"alembic_version"}
        upgrade(engine)
        assert set(inspect(engine).get_table_names()) >= TABLES
    finally:
        engine.dispose()


def test_create_false_refuses_a_missing_file(tmp_path):
    path = tmp_path / "absent.db"
    with pytest.raises(DatabaseMissing, match="absent.db"):
        open_store(f"sqlite:///{path}", create=False)
    assert not path.exists()


def test_create_false_refuses_an_empty_database(tmp_path):
    path = tmp_path / "empty.db"
    sqlite3.connect(path).close()
    with pytest.raises(DatabaseMissing):
        open_store(f"sqlite:///{path}", create=False)


def test_a_newer_schema_is_refused(sqlite_url):
    open_store(sqlite_url).close()
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(SchemaTooNew, match="9999"):
        open_store(sqlite_url)


def test_in_memory_database_works():
    with open_store("sqlite://") as store:
        with store.transaction() as uow:
            game = uow.games.create("g", "game5")
            assert uow.events.append(game.id, [{"type": "x"}]) == [1]
        assert [e.seq for e in store.stream_events(game.id)] == [1]


# -- the SQLite file ---------------------------------------------------------------------------


def test_new_file_is_0600_in_a_0700_directory(tmp_path):
    path = tmp_path / "new" / "dir" / "game.db"
    with open_store(f"sqlite:///{path}") as store:
        with store.transaction() as uow:  # a write: the WAL and shm files appear
            uow.games.create("g", "game5")
        assert _mode(path) == 0o600
        assert _mode(path.parent) == 0o700
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            assert side.exists()
            assert _mode(side) == 0o600


def test_new_file_is_0600_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        path = tmp_path / "game.db"
        open_store(f"sqlite:///{path}").close()
    finally:
        os.umask(old)
    assert _mode(path) == 0o600


def test_existing_file_is_tightened(tmp_path):
    path = tmp_path / "game.db"
    open_store(f"sqlite:///{path}").close()
    os.chmod(path, 0o644)
    open_store(f"sqlite:///{path}", create=False).close()
    assert _mode(path) == 0o600


def test_sqlite_runs_wal_with_foreign_keys(sqlite_url):
    with open_store(sqlite_url) as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_foreign_keys_are_enforced(sqlite_url):
    from sqlalchemy.exc import IntegrityError

    with (
        open_store(sqlite_url) as store,
        store.engine.begin() as conn,
        pytest.raises(IntegrityError),
    ):
        conn.execute(
            text(
                "INSERT INTO cursors (game_id, source, value, updated_at) "
                "VALUES (42, 'inbox', '{}', '2024-01-01 00:00:00')"
            )
        )


def test_ddl_is_transactional(sqlite_url):
    """A failed migration step leaves no half-made schema (the BEGIN is ours, not the driver's)."""
    engine = make_engine(sqlite_url)
    try:
        with pytest.raises(RuntimeError), engine.begin() as conn:
            conn.execute(text("CREATE TABLE scratch (id INTEGER)"))
            raise RuntimeError("boom")
        assert "scratch" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()


def test_processes_opening_a_new_database_at_once(tmp_path):
    """Migrations run in one write transaction: simultaneous first opens all succeed, once."""
    url = f"sqlite:///{tmp_path / 'game.db'}"
    code = "import sys; from shenshi.store import open_store; open_store(sys.argv[1]).close()"
    procs = [
        subprocess.Popen([sys.executable, "-c", code, url], stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    errors = [p.communicate()[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, errors
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).all() == [(HEAD,)]
    finally:
        engine.dispose()
