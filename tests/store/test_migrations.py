"""The leases revision from the one before, with data in it, on SQLite and PostgreSQL (leases;
who is sending an announcement, when it was tried, when it is retried), and back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from shenshi.store import AnnouncementState, open_store
from shenshi.store.engine import alembic_config, current_revision, make_engine, upgrade
from shenshi.store.unit_of_work import WRITE_OPTION, Store

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SCRIPTS = ScriptDirectory.from_config(alembic_config())
LEASES = next(r for r in SCRIPTS.walk_revisions() if (r.doc or "").startswith("Leases"))
BEFORE, HEAD = LEASES.down_revision, SCRIPTS.get_current_head()


def _at(engine, revision: str, verb=command.upgrade) -> None:
    with engine.execution_options(**{WRITE_OPTION: True}).begin() as conn:
        verb(alembic_config(conn), revision)


def test_leases_from_the_revision_before_keep_the_outbox(empty_store_url):
    engine = make_engine(empty_store_url)
    try:
        _at(engine, BEFORE)
        assert "leases" not in inspect(engine).get_table_names()
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO games (id, name, ruleset, config, created_at, last_seq) "
                "VALUES (1, 'g', 'game5', '{}', '2026-12-01 12:00:00', 0)"
            )
            conn.exec_driver_sql(
                "INSERT INTO announcements (id, game_id, key, kind, destination_kind, destination, "
                "text, evidence_ids, state, created_at, attempts) VALUES (1, 1, 'g1:night1:public', "
                "'night', 'thread', '2', '【第1夜结果】', '[]', 'sending', '2026-12-01 12:00:00', 1)"
            )
        upgrade(engine)
        assert current_revision(engine) == HEAD
        store = Store(engine, clock=lambda: T0)
        with store.transaction() as uow:
            a = uow.outbox.get(1)
            assert (
                a.state is AnnouncementState.SENDING and a.sending_owner is None and a.attempts == 1
            )
            lease = uow.leases.take(1, "daemon-a", ttl=timedelta(minutes=10))
        assert lease.expires_at == T0 + timedelta(minutes=10)
        with store.transaction() as uow:  # the sending found by the migration: marked, retried
            uow.outbox.mark_failed(1, "sending interrupted; not on the forum")
            assert uow.outbox.mark_sending(1, owner="daemon-a").sending_owner == "daemon-a"
    finally:
        engine.dispose()


def test_leases_downgrade_to_the_revision_before(sqlite_url):
    engine = make_engine(sqlite_url)
    try:
        upgrade(engine)
        _at(engine, BEFORE, command.downgrade)
        assert "leases" not in inspect(engine).get_table_names()
        columns = {c["name"] for c in inspect(engine).get_columns("announcements")}
        assert not columns & {"sending_owner", "attempted_at", "retry_at"}
        upgrade(engine)
        assert current_revision(engine) == HEAD
    finally:
        engine.dispose()


def test_a_new_database_is_at_the_head(store_url):
    store = open_store(store_url)
    try:
        assert current_revision(store.engine) == HEAD
    finally:
        store.close()


SUPERSEDED = next(r for r in SCRIPTS.walk_revisions() if (r.doc or "").startswith("Proposals follow the state"))


def test_superseded_from_the_revision_before_keeps_the_outbox(sqlite_url):
    """The superseded-state revision (issue 20) on a database with a pending announcement: it
    reads as before (nothing superseded, no notes) and can then be superseded; and back."""
    engine = make_engine(sqlite_url)
    try:
        _at(engine, SUPERSEDED.down_revision)
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO games (id, name, ruleset, config, created_at, last_seq) "
                "VALUES (1, 'g', 'game6-10', '{}', '2026-12-01 12:00:00', 0)"
            )
            conn.exec_driver_sql(
                "INSERT INTO announcements (id, game_id, key, kind, destination_kind, destination, "
                "text, evidence_ids, state, created_at, attempts) VALUES (1, 1, 'g1:signin:kk:1', "
                "'signin', 'thread', '2', 'kk 未签到', '[]', 'proposed', '2026-12-01 12:00:00', 0)"
            )
        _at(engine, SUPERSEDED.revision)
        store = Store(engine, clock=lambda: T0)
        with store.transaction() as uow:
            a = uow.outbox.get(1)
            assert (a.superseded_at, a.superseded_by, a.superseded_because, a.notes) == (None, None, None, None)
            moot = uow.outbox.supersede(1, "路人甲 接替 kk")
        assert moot.state is AnnouncementState.SUPERSEDED and moot.key == "g1:signin:kk:1~1"
        _at(engine, SUPERSEDED.down_revision, command.downgrade)
        columns = {c["name"] for c in inspect(engine).get_columns("announcements")}
        assert not columns & {"superseded_at", "superseded_by", "superseded_because", "notes"}
        upgrade(engine)
        assert current_revision(engine) == HEAD
    finally:
        engine.dispose()
