"""Clocks and rematches: a room's time control and clock state, the rooms a rematch links, and
the hall's last sign of life (so a restart charges no clock for the downtime).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("clock", sa.String(16)))
        batch.add_column(sa.Column("clock_state", sa.Text))
        batch.add_column(sa.Column("rematch_of", sa.String(32)))
        batch.add_column(sa.Column("rematch", sa.String(32)))
    op.create_table(
        "hall_state",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hall_state")
    # plain ALTER TABLE … DROP COLUMN: a batch would rebuild `rooms`, which SQLite refuses while
    # `actions` and `chat` refer to it
    for column in ("rematch", "rematch_of", "clock_state", "clock"):
        op.drop_column("rooms", column)
