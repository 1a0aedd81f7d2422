"""What an alert is about and what resolved it: ``alerts.cause`` and ``alerts.resolution``.

Revision ID: 0004_i20_hints
Revises: 0003
Create Date: 2026-12-21

An alert knows what resolves it (issue 20): ``cause`` holds it as JSON (a ballot of a player
in a round, a night action, a kill declaration, a send, a seat; the channel it came by), and
the daemon closes the alert (``resolved_at``) when that happens, keeping in ``resolution``
what did (a corrected ballot, a delivered send…). Older alerts have no cause: they are closed
by nothing and read as before.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_i20_hints"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("alerts") as batch:
        batch.add_column(sa.Column("cause", sa.JSON(none_as_null=True), nullable=True))
        batch.add_column(sa.Column("resolution", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("alerts") as batch:
        batch.drop_column("resolution")
        batch.drop_column("cause")
