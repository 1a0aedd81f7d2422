"""Test-wide settings: a fast hypothesis profile for CI, ERROR logs fail a test, and a
throw-away PostgreSQL server for the tests that ask for one (:mod:`tests.postgresql`)."""

from __future__ import annotations

import logging
import os

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
