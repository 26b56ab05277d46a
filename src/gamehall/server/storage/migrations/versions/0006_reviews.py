"""Reviews of finished games: one row per (room, level) with its progress, the node that runs
it and how long its claim lasts, and once done the review itself (JSON) and each seat's
accuracy (for the archive and profiles). See server/reviews/store.py.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("level", sa.String(32), primary_key=True),
        sa.Column("simulations", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("requested_by", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("node", sa.String(100), nullable=False),
        sa.Column("lease_until", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("result", sa.Text),
        sa.Column("accuracy", sa.Text),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
    )
    for col in ("status", "requested_by"):
        op.create_index(f"ix_reviews_{col}", "reviews", [col])


def downgrade() -> None:
    op.drop_table("reviews")
