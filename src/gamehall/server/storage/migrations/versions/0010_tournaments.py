"""Tournaments: the tournament, its players, the rounds paired (one row each, so a round is
paired once) and its games (a room each, or a bye). See server/tournaments/store.py.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"  # after the pairing's tables
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.String(16)),
        sa.Column("system", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer),
        sa.Column("minutes", sa.Integer),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("password_hash", sa.String(200)),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Float),
        sa.Column("ended_at", sa.Float),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_tournaments_created_by", "tournaments", ["created_by"])
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("nickname", sa.String(40), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False),
        sa.Column("no_shows", sa.Integer, nullable=False),
        sa.Column("bot_account", sa.Boolean, nullable=False),
        sa.Column("place", sa.Integer),
    )
    op.create_index("ix_tournament_players_player_id", "tournament_players", ["player_id"])
    op.create_table(
        "tournament_rounds",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("paired_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("bye", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.Text),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Float),
        sa.Column("ended_at", sa.Float),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games", ["tournament_id"])


def downgrade() -> None:
    for table in ("tournament_games", "tournament_rounds", "tournament_players", "tournaments"):
        op.drop_table(table)
