"""Fixtures of the store tests: a store on a real SQLite file and on a real PostgreSQL server
(:mod:`tests.postgresql`; those tests skip where PostgreSQL is absent), and a clock the test
moves (builders: store_helpers.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.engine import make_url
from store_helpers import Clock

from shenshi.store import Game, Store, open_store

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'game.db'}"


@pytest.fixture(scope="session")
def migrated_postgresql_db(new_postgresql_db: Callable[..., str]) -> str:
    """The name of a PostgreSQL database the migrations ran on, copied for each test."""
    url = new_postgresql_db()
    open_store(url).close()
    return make_url(url).database


@pytest.fixture(params=BACKENDS)
def empty_store_url(request, tmp_path) -> str:
    """A URL for an empty database on each backend (the migrations have not run)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'game.db'}"
    return request.getfixturevalue("new_postgresql_db")()


@pytest.fixture(params=BACKENDS)
def store_url(request, tmp_path) -> str:
    """A URL for a database of each backend of its own (PostgreSQL: a copy of one the
    migrations ran on, which is faster than migrating each)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'game.db'}"
    template = request.getfixturevalue("migrated_postgresql_db")
    return request.getfixturevalue("new_postgresql_db")(template=template)


@pytest.fixture
def store(store_url, clock) -> Iterator[Store]:
    s = open_store(store_url, clock=clock)
    yield s
    s.close()


@pytest.fixture
def game(store) -> Game:
    with store.transaction() as uow:
        return uow.games.create("游戏五 第1期", "game5", {"threads": {"vote": "100"}})
