"""The database of the daemon and end-to-end tests: a SQLite file by default, or a new database
on the throw-away PostgreSQL server (:mod:`tests.postgresql`) when
``SHENSHI_TEST_DATABASE=postgresql`` (``.ci/run`` runs those tests both ways)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

ENV = "SHENSHI_TEST_DATABASE"

# Set by the session fixture in tests/conftest.py when the tests run on PostgreSQL.
new_postgresql: Callable[[], str] | None = None
_made: dict[Path, str] = {}  # one PostgreSQL database per would-be SQLite file


def on_postgresql() -> bool:
    """Whether this test run asked for PostgreSQL."""
    return os.environ.get(ENV, "sqlite").strip().lower() in ("postgresql", "postgres", "pg")


def database_url(folder: Path, name: str = "game.sqlite3") -> str:
    """The database of one test: ``sqlite:///folder/name``, or a PostgreSQL one (the same one
    each time the same file is named: a restarted daemon finds its game)."""
    if new_postgresql is None:
        return f"sqlite:///{folder / name}"
    path = Path(folder) / name
    if path not in _made:
        _made[path] = new_postgresql()
    return _made[path]
