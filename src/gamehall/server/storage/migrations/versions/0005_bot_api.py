"""The bot API's tables: bot accounts (the games each plays), API tokens' scopes (a token of
`tokens` with a row here is an API token), and challenges (pending ones survive restarts and are
seen by every node of a cluster). See server/botapi/store.py.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_accounts",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("games", sa.Text, nullable=False),
        sa.Column("upgraded_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("description", sa.String(100), nullable=False),
        sa.Column("scopes", sa.String(100), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_api_tokens_player_id", "api_tokens", ["player_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("challenger_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("dest_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.String(16)),
        sa.Column("rated", sa.Boolean),
        sa.Column("seat", sa.Integer),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(16)),
        sa.Column("room", sa.String(32)),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    for col in ("challenger_id", "dest_id", "status"):
        op.create_index(f"ix_challenges_{col}", "challenges", [col])


def downgrade() -> None:
    op.drop_table("challenges")
    op.drop_table("api_tokens")
    op.drop_table("bot_accounts")
