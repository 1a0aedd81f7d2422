"""Proposals follow the state: an announcement remembers what superseded it, and its GM notes.

Revision ID: 0004_i20_state
Revises: 0004_i20_hints
Create Date: 2026-12-21

``announcements`` gains, for one that a later event made moot (state ``superseded``, issue 20),
when (``superseded_at``), the announcement that replaces it (``superseded_by``: its id, none
when it was withdrawn) and that event in the GM's words (``superseded_because``); and
``notes``, what the GM reads beside the text and the players never do (ballots the GM
recorded, ballots not counted with the reason, what an unconfirmed proposal waits for), as
JSON. The new states (``unconfirmed``, ``superseded``) fit the ``state`` column as it is.
Self-contained, as every revision (plain ``sa`` types).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_i20_state"
down_revision: str | Sequence[str] | None = "0004_i20_hints"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NEW_COLUMNS = ("superseded_at", "superseded_by", "superseded_because", "notes")


def upgrade() -> None:
    with op.batch_alter_table("announcements") as batch:
        batch.add_column(sa.Column("superseded_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("superseded_by", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("superseded_because", sa.Text(), nullable=True))
        batch.add_column(sa.Column("notes", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("announcements") as batch:
        for name in reversed(NEW_COLUMNS):
            batch.drop_column(name)
