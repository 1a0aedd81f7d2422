"""Alembic migrations of the store (run by :func:`shenshi.store.engine.upgrade`)."""
