"""Fixtures of the store tests: a store on a real SQLite file (and on PostgreSQL when
``SHENSHI_TEST_PG_URL`` names a server, e.g. ``postgresql+psycopg://postgres@127.0.0.1/postgres``:
each test then gets a database of its own), and a clock the test moves (builders: store_helpers.py)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from store_helpers import Clock

from shenshi.store import Game, Store, open_store

PG_URL = os.environ.get("SHENSHI_TEST_PG_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'game.db'}"


@pytest.fixture(params=BACKENDS)
def store_url(request, tmp_path) -> Iterator[str]:
    """A URL for an empty database on each backend under test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'game.db'}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    name = f"shenshi_t_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def store(store_url, clock) -> Iterator[Store]:
    s = open_store(store_url, clock=clock)
    yield s
    s.close()


@pytest.fixture
def game(store) -> Game:
    return store.create_game("游戏五 第1期", "game5", {"threads": {"vote": "100"}})
