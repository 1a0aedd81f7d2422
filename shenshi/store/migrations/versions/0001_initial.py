"""Initial schema: every table of the store.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Self-contained on purpose (plain ``sa`` types, no import of the models): a revision must keep
describing the schema of its day after the models move on. Aware datetimes are
``DateTime(timezone=True)``; the models' ``UTCDateTime`` only converts values in Python.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _when(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _game_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["game_id"], ["games.id"], name=op.f(f"fk_{table}_game_id_games"), ondelete="CASCADE"
    )


def _evidence_fk(table: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["evidence_id"],
        ["evidence.id"],
        name=op.f(f"fk_{table}_evidence_id_evidence"),
        ondelete=ondelete,
    )


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("ruleset", sa.String(length=40), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        _when("created_at"),
        sa.Column("deal_seed", sa.String(length=200), nullable=True),
        sa.Column("deal_result", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("name", name=op.f("uq_games_name")),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=40), nullable=True),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=60), nullable=False),
        sa.Column("team", sa.String(length=60), nullable=False),
        sa.Column("alive", sa.Boolean(), nullable=False),
        sa.Column("addons", sa.JSON(), nullable=False),
        _when("joined_at"),
        _when("left_at", nullable=True),
        sa.Column("replaced_by", sa.Integer(), nullable=True),
        _game_fk("players"),
        sa.ForeignKeyConstraint(
            ["replaced_by"],
            ["players.id"],
            name=op.f("fk_players_replaced_by_players"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("game_id", "name", name=op.f("uq_players_game_id_name")),
    )
    op.create_index("ix_players_game_seat", "players", ["game_id", "seat"])
    op.create_table(
        "evidence",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("source", sa.String(length=40), nullable=False),
        sa.Column("forum_id", sa.String(length=40), nullable=False),
        sa.Column("floor", sa.Integer(), nullable=True),
        sa.Column("author", sa.String(length=200), nullable=False),
        sa.Column("author_uid", sa.String(length=40), nullable=False),
        sa.Column("recipient", sa.String(length=200), nullable=True),
        sa.Column("recipient_uid", sa.String(length=40), nullable=True),
        _when("posted_at"),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("quotes", sa.JSON(), nullable=False),
        sa.Column("edited", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("url", sa.Text(), nullable=True),
        _when("first_seen_at"),
        _when("deleted_at", nullable=True),
        _when("processed_at", nullable=True),
        sa.Column("revisions", sa.Integer(), nullable=False),
        _game_fk("evidence"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evidence")),
        sa.UniqueConstraint(
            "game_id",
            "kind",
            "source",
            "forum_id",
            name=op.f("uq_evidence_game_id_kind_source_forum_id"),
        ),
    )
    op.create_index("ix_evidence_game_author", "evidence", ["game_id", "author_uid"])
    op.create_index("ix_evidence_game_posted", "evidence", ["game_id", "kind", "posted_at"])
    op.create_table(
        "evidence_revisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evidence_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("quotes", sa.JSON(), nullable=False),
        sa.Column("edited", sa.JSON(none_as_null=True), nullable=True),
        _when("seen_at"),
        _evidence_fk("evidence_revisions", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evidence_revisions")),
        sa.UniqueConstraint(
            "evidence_id", "number", name=op.f("uq_evidence_revisions_evidence_id_number")
        ),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=80), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("evidence_id", sa.Integer(), nullable=True),
        sa.Column("batch_key", sa.String(length=200), nullable=True),
        sa.Column("batch_index", sa.Integer(), nullable=True),
        _when("recorded_at"),
        _evidence_fk("events", "SET NULL"),
        _game_fk("events"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        sa.UniqueConstraint(
            "game_id",
            "batch_key",
            "batch_index",
            name=op.f("uq_events_game_id_batch_key_batch_index"),
        ),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_events_game_id_seq")),
    )
    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=60), nullable=False),
        sa.Column("destination_kind", sa.String(length=8), nullable=False),
        sa.Column("destination", sa.String(length=200), nullable=False),
        sa.Column("destination_uid", sa.String(length=40), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("evidence_ids", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("forum_id", sa.String(length=40), nullable=True),
        _when("created_at"),
        _when("approved_at", nullable=True),
        _when("edited_at", nullable=True),
        _when("sent_at", nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        _when("rejected_at", nullable=True),
        _when("published_at", nullable=True),
        _game_fk("announcements"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_announcements")),
        sa.UniqueConstraint("game_id", "key", name=op.f("uq_announcements_game_id_key")),
    )
    op.create_index("ix_announcements_game_state", "announcements", ["game_id", "state"])
    op.create_table(
        "alerts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=60), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("subject", sa.String(length=200), nullable=True),
        sa.Column("evidence_id", sa.Integer(), nullable=True),
        _when("created_at"),
        _when("resolved_at", nullable=True),
        _evidence_fk("alerts", "SET NULL"),
        _game_fk("alerts"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alerts")),
        sa.UniqueConstraint("game_id", "key", name=op.f("uq_alerts_game_id_key")),
    )
    op.create_table(
        "cursors",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=200), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        _when("updated_at"),
        _game_fk("cursors"),
        sa.PrimaryKeyConstraint("game_id", "source", name=op.f("pk_cursors")),
    )


def downgrade() -> None:
    for table in (
        "cursors",
        "alerts",
        "announcements",
        "events",
        "evidence_revisions",
        "evidence",
        "players",
        "games",
    ):
        op.drop_table(table)
