"""Quick pairing and open challenges: players waiting in pools (one active entry a player),
each pool's lease number, players held back after a no-show, and seeks. See
server/pairing/store.py.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

ACTIVE = sa.text("status IN ('waiting', 'pairing')")


def upgrade() -> None:
    op.create_table(
        "pool_entries",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("nickname", sa.String(40), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("range_lo", sa.Float),
        sa.Column("range_hi", sa.Float),
        sa.Column("bot_after", sa.Float),
        sa.Column("last", sa.Text, nullable=False),
        sa.Column("waves", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("room", sa.String(32)),
        sa.Column("seat", sa.Integer),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_pool_entries_pool_status", "pool_entries", ["pool", "status"])
    op.create_index("ix_pool_entries_player", "pool_entries", ["player_id", "status"])
    op.create_index("ix_pool_entries_room", "pool_entries", ["room"])
    op.create_index("uq_pool_entries_active", "pool_entries", ["player_id"], unique=True,
                    sqlite_where=ACTIVE, postgresql_where=ACTIVE)
    op.create_table(
        "pool_fences",
        sa.Column("pool", sa.String(64), primary_key=True),
        sa.Column("fence", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "pool_holds",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("nickname", sa.String(40), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.String(16)),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean),
        sa.Column("range_lo", sa.Float),
        sa.Column("range_hi", sa.Float),
        sa.Column("repeat", sa.Integer, nullable=False),
        sa.Column("takers", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("room", sa.String(32)),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_seeks_status", "seeks", ["status"])
    op.create_index("ix_seeks_player", "seeks", ["player_id", "status"])
    op.create_index("ix_seeks_room", "seeks", ["room"])


def downgrade() -> None:
    for table in ("seeks", "pool_holds", "pool_fences", "pool_entries"):
        op.drop_table(table)
