"""Leases and send claims: one daemon per game, one claimant per send.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-20

``leases`` holds one row per game: the daemon that runs it (``owner``), renewed each cycle,
free for another once ``expires_at`` has passed. ``announcements`` gains who marked it
``sending`` (a second claimant is refused), when the last attempt began, and when a failed
one is tried again. Self-contained, as every revision (plain ``sa`` types).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NEW_COLUMNS = ("sending_owner", "attempted_at", "retry_at")


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=200), nullable=False),
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("renewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_leases_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_leases")),
    )
    with op.batch_alter_table("announcements") as batch:
        batch.add_column(sa.Column("sending_owner", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("attempted_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("retry_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("announcements") as batch:
        for name in reversed(NEW_COLUMNS):
            batch.drop_column(name)
    op.drop_table("leases")
