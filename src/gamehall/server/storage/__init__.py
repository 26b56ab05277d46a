"""Storage: the interface the hall needs, and its SQLAlchemy implementation (SQLite, PostgreSQL).

Moved from `storage.py` to `storage/sql.py` (history follows it); the package re-exports its
public names while the module is split."""

from gamehall.server.storage.sql import (
    ALIVE,
    SQLITE_SYNC,
    ChatLine,
    Coalescer,
    Fenced,
    NicknameTaken,
    SqlStorage,
    Storage,
    UnknownPlayer,
    actions,
    alembic_config,
    bot_player,
    chat,
    game_players,
    hall_state,
    make_engine,
    metadata,
    players,
    ratings,
    room_from_values,
    room_row,
    rooms,
    sqlite_url,
    tokens,
    upgrade_schema,
)

__all__ = [
    "ALIVE", "SQLITE_SYNC", "ChatLine", "Coalescer", "Fenced", "NicknameTaken", "SqlStorage",
    "Storage", "UnknownPlayer", "actions", "alembic_config", "bot_player", "chat",
    "game_players", "hall_state", "make_engine", "metadata", "players", "ratings",
    "room_from_values", "room_row", "rooms", "sqlite_url", "tokens", "upgrade_schema",
]
