"""Fixtures of the store tests: a store on a real SQLite file and on a real PostgreSQL server
(:mod:`tests.postgresql`; those tests skip where PostgreSQL is absent), and a clock the test
moves (builders: store_helpers.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool
from store_helpers import Clock

from shenshi.store import Game, Store, open_store
from shenshi.store.models import Base

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'game.db'}"


@pytest.fixture(scope="session")
def migrated_postgresql_url(new_postgresql_db: Callable[..., str]) -> str:
    """A PostgreSQL database the migrations ran on, shared by the tests of a worker (each
    empties it first: much faster than a database each)."""
    url = new_postgresql_db()
    open_store(url).close()
    return url


def _emptied(url: str) -> str:
    """``url``'s database with every table empty and the ids restarted. Connections a failed
    test may have left open are ended first, so that none holds a lock."""
    engine = create_engine(url, poolclass=NullPool)
    tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
            conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    finally:
        engine.dispose()
    return url


@pytest.fixture(params=BACKENDS)
def empty_store_url(request, tmp_path) -> str:
    """A URL for an empty database on each backend (the migrations have not run)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'game.db'}"
    return request.getfixturevalue("new_postgresql_db")()


@pytest.fixture(params=BACKENDS)
def store_url(request, tmp_path) -> str:
    """A URL for a migrated database of each backend, empty, for this test alone."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'game.db'}"
    return _emptied(request.getfixturevalue("migrated_postgresql_url"))


@pytest.fixture
def store(store_url, clock) -> Iterator[Store]:
    s = open_store(store_url, clock=clock)
    yield s
    s.close()


@pytest.fixture
def game(store) -> Game:
    with store.transaction() as uow:
        return uow.games.create("游戏五 第1期", "game5", {"threads": {"vote": "100"}})
