"""Accounts, ratings and the archive: passwords, several tokens per player, ratings per game,
rated rooms, and who played each finished game.

Existing data: every player's one token moves to `tokens` (its idle time starts at the
upgrade, so nobody is signed out by it); finished rooms get `ended_at` (their last change) and
their players in `game_players` (bots get their reserved player rows), so the archive finds old
games by player too; games already started stay casual (they began under the old rules).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    conn = op.get_bind()
    # SQLite rebuilds `players` to drop a column, which it refuses while another table refers to
    # it: so the tokens are read first and the table that refers to players is made afterwards.
    old_tokens = [{"token_hash": h, "player_id": i, "created_at": c, "last_used_at": now}
                  for i, h, c in conn.execute(sa.text(
                      "SELECT id, token_hash, created_at FROM players"))]
    with op.batch_alter_table("players") as batch:
        batch.drop_column("token_hash")
        batch.add_column(sa.Column("password_hash", sa.String(200)))
        batch.add_column(sa.Column("bot", sa.String(64)))
        batch.create_unique_constraint("uq_players_bot", ["bot"])
    tokens = op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("last_used_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_tokens_player_id", "tokens", ["player_id"])
    if old_tokens:
        op.bulk_insert(tokens, old_tokens)
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.add_column("rooms", sa.Column("rated", sa.Boolean))
    op.add_column("rooms", sa.Column("ended_at", sa.String(40)))
    op.create_index("ix_rooms_ended_at", "rooms", ["ended_at"])
    op.create_index("ix_rooms_game_ended_at", "rooms", ["game", "ended_at"])
    op.create_table(
        "game_players",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("ended_at", sa.String(40), nullable=False),
        sa.Column("score", sa.Float),
        sa.Column("rating_before", sa.Float),
        sa.Column("rating_after", sa.Float),
    )
    op.create_index("ix_game_players_player_ended", "game_players", ["player_id", "ended_at"])
    _backfill(now)


def _backfill(now: str) -> None:
    """Old rooms under the new rules: started games casual, finished ones in the archive."""
    conn = op.get_bind()
    conn.execute(sa.text("UPDATE rooms SET rated = :no WHERE status <> 'waiting'")
                 .bindparams(no=False))
    conn.execute(sa.text("UPDATE rooms SET ended_at = updated_at WHERE status = 'finished'"))
    known = {int(r[0]) for r in conn.execute(sa.text("SELECT id FROM players"))}
    bots: dict[str, int] = {}
    rows: list[dict[str, Any]] = []
    finished = conn.execute(sa.text(
        "SELECT id, game, seats, result, ended_at FROM rooms WHERE status = 'finished'")).all()
    for room_id, game, seats, result, ended_at in finished:
        scores = json.loads(result) if result else None
        for seat, occ in enumerate(json.loads(seats)):
            if not occ:
                continue
            if occ.get("bot"):
                pid = bots.get(occ["bot"])
                if pid is None:
                    pid = bots[occ["bot"]] = _bot_row(conn, str(occ["bot"]), now)
            elif occ.get("player_id") in known:
                pid = int(occ["player_id"])
            else:
                continue
            rows.append({"room_id": room_id, "seat": seat, "player_id": pid, "game": game,
                         "ended_at": ended_at,
                         "score": scores[seat] if scores and seat < len(scores) else None})
    if rows:
        conn.execute(sa.text("INSERT INTO game_players (room_id, seat, player_id, game, ended_at,"
                             " score) VALUES (:room_id, :seat, :player_id, :game, :ended_at,"
                             " :score)"), rows)


def _bot_row(conn: sa.Connection, spec: str, now: str) -> int:
    name = f"{spec} bot"[:40]
    found = conn.execute(sa.text("SELECT id FROM players WHERE nickname_key = :k"),
                         {"k": name.lower()}).scalar()
    if found is not None:
        conn.execute(sa.text("UPDATE players SET bot = :b WHERE id = :i"),
                     {"b": spec, "i": found})
        return int(found)
    conn.execute(sa.text("INSERT INTO players (nickname, nickname_key, created_at, bot) "
                         "VALUES (:n, :k, :c, :b)"),
                 {"n": name, "k": name.lower(), "c": now, "b": spec})
    return int(conn.execute(sa.text("SELECT id FROM players WHERE bot = :b"),
                            {"b": spec}).scalar_one())


def downgrade() -> None:
    conn = op.get_bind()
    # each player keeps their most recently used token; one without any gets a dead hash
    kept: dict[int, str] = {}
    for pid, token in conn.execute(sa.text(
            "SELECT player_id, token_hash FROM tokens ORDER BY last_used_at")):
        kept[int(pid)] = str(token)
    op.drop_table("game_players")
    op.drop_table("ratings")
    op.drop_table("tokens")
    op.drop_index("ix_rooms_game_ended_at", "rooms")
    op.drop_index("ix_rooms_ended_at", "rooms")
    op.drop_column("rooms", "ended_at")  # plain ALTER TABLE: actions and chat refer to rooms
    op.drop_column("rooms", "rated")
    op.execute(sa.text("DELETE FROM players WHERE bot IS NOT NULL"))
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_bot", type_="unique")
        batch.drop_column("bot")
        batch.drop_column("password_hash")
        batch.add_column(sa.Column("token_hash", sa.String(64)))
    ids = [int(r[0]) for r in conn.execute(sa.text("SELECT id FROM players"))]
    for pid in ids:
        conn.execute(sa.text("UPDATE players SET token_hash = :t WHERE id = :i"),
                     {"t": kept.get(pid, f"revoked-{pid}"), "i": pid})
    with op.batch_alter_table("players") as batch:
        batch.alter_column("token_hash", existing_type=sa.String(64), nullable=False)
        batch.create_unique_constraint("uq_players_token_hash", ["token_hash"])
