"""The cluster's columns on rooms: `fence` (the fencing number of the last node that claimed or
committed the room; a commit carrying a smaller one is refused) and `revision` (how many changes
have been committed: replicas on other nodes apply the changes in this order).

Existing rooms start at fence 0 and revision 0: the first node to claim one takes fence 1.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE: a batch would rebuild `rooms`, which SQLite refuses while `actions`
    # and `chat` refer to it
    op.add_column("rooms", sa.Column("fence", sa.BigInteger, nullable=False, server_default="0"))
    op.add_column("rooms", sa.Column("revision", sa.BigInteger, nullable=False,
                                     server_default="0"))


def downgrade() -> None:
    op.drop_column("rooms", "revision")
    op.drop_column("rooms", "fence")
