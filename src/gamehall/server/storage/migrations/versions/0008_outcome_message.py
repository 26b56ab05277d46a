"""A finished room's outcome as a message (``{"key", "args"}`` as JSON) beside its English text,
so that a stored game's end is said in each reader's language after a restart too. Rows stored
before keep their English text, shown as it is (see storage/rows.py `outcome_of`).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("outcome_message", sa.Text))


def downgrade() -> None:
    # plain ALTER TABLE … DROP COLUMN: a batch would rebuild `rooms`, which SQLite refuses while
    # `actions` and `chat` refer to it
    op.drop_column("rooms", "outcome_message")
