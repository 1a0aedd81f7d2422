"""Test-wide settings: a fast hypothesis profile for CI, ERROR logs fail a test, a throw-away
PostgreSQL server for the tests that ask for one (:mod:`tests.postgresql`), new SQLite
databases copied from one migrated once, and which tests are the long runs (``make e2e``)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests import databases
from tests.postgresql import new_postgresql_db, postgresql_url  # noqa: F401  (fixtures)

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _fail_on_unexpected_error_logs(caplog: pytest.LogCaptureFixture):
    """A test run that logs an ERROR it did not expect has found a bug (STYLE.md).

    Tests that expect an ERROR mark themselves with ``@pytest.mark.allow_error_logs``.
    """
    caplog.set_level(logging.WARNING)
    yield
    marker = os.environ.get("SHENSHI_ALLOW_ERROR_LOGS")
    if marker:
        return
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    node = caplog._item  # type: ignore[attr-defined]
    if errors and not node.get_closest_marker("allow_error_logs"):
        pytest.fail("unexpected ERROR log: " + "; ".join(r.getMessage() for r in errors))


@pytest.fixture(scope="session", autouse=True)
def _test_database(request: pytest.FixtureRequest):
    """``SHENSHI_TEST_DATABASE=postgresql``: the daemon and end-to-end tests get a new
    PostgreSQL database each (:func:`tests.databases.database_url`) instead of a SQLite file."""
    if databases.on_postgresql():
        databases.new_postgresql = request.getfixturevalue("new_postgresql_db")
    yield
    databases.new_postgresql = None


# -- new SQLite databases -------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def _migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A SQLite database migrated to the latest schema, once per worker: every new test
    database outside ``tests/store`` starts as a copy (running every migration on each of
    thousands of new databases was a tenth of ``make test``)."""
    import sqlite3

    from shenshi.store import open_store

    path = tmp_path_factory.mktemp("migrated") / "template.sqlite3"
    open_store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.read_bytes()


@pytest.fixture(autouse=True)
def _new_sqlite_from_the_template(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new SQLite file is the migrated template's copy (mode 0600, as the store makes it);
    the store's own tests (``tests/store``: migrations, frozen databases) make theirs."""
    if ROOT / "store" in Path(str(request.node.path)).parents:
        return
    from shenshi.store import engine

    template: bytes = request.getfixturevalue("_migrated_sqlite")
    prepare = engine.prepare_sqlite_file

    def from_template(path: Path, *, create: bool) -> None:
        if create and not path.exists() and str(path) not in ("", ":memory:"):
            path.parent.mkdir(parents=True, exist_ok=True, mode=engine.DIR_MODE)
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, engine.FILE_MODE)
            try:
                os.write(fd, template)
            finally:
                os.close(fd)
        prepare(path, create=create)

    monkeypatch.setattr(engine, "prepare_sqlite_file", from_template)
