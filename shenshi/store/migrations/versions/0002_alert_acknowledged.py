"""Alerts the GM has acknowledged (``shenshi ack ID…``): ``alerts.acknowledged_at``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

``shenshi status`` shows the alerts raised since the GM last looked: the ones without an
acknowledgement. Existing alerts stay unacknowledged.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("alerts") as batch:
        batch.add_column(sa.Column("acknowledged_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("alerts") as batch:
        batch.drop_column("acknowledged_at")
