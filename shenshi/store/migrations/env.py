"""Alembic environment of the store: the package's metadata, a connection passed in by code.

:func:`shenshi.store.engine.upgrade` passes its open connection in ``config.attributes``; the
``alembic`` command line (for writing a new revision) may instead set ``sqlalchemy.url``, e.g.
``alembic -x url=sqlite:///dev.db revision --autogenerate -m "…"`` with a small ini of its own.
SQLite gets batch mode, so later revisions can alter tables.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from shenshi.store.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("give the database: alembic -x url=sqlite:///path/to/game.db …")
    return url


def run_offline() -> None:
    """Print the SQL instead of running it (``alembic upgrade head --sql``)."""
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Migrate through the connection given by code, or one made from the URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        return
    from shenshi.store.engine import make_engine
    from shenshi.store.unit_of_work import WRITE_OPTION

    engine = make_engine(_url())
    try:
        with engine.execution_options(**{WRITE_OPTION: True}).begin() as conn:
            _configure(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
