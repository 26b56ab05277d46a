"""Storage: what the hall stores, and its SQLAlchemy implementation (SQLite, PostgreSQL).

Durability rule: `save_room` returns only once the room and its new moves are committed, so the
hall can broadcast afterwards and a crash loses nothing a client has seen. Fencing (the cluster):
a write carrying a fencing number behind the room's stored one is refused (`Fenced`).

Where each part lives (import from the package; the modules' other names are theirs):

- `interface`  the `Storage` interface, its errors (`Fenced`, `NicknameTaken`, `UnknownPlayer`)
               and `ChatLine`
- `sql`        `SqlStorage`: connections, threads, the write queue, each method's statements
- `batch`      group commit: the queued `Write`, what one batch does in one transaction, and the
               statements compiled once that the short paths run on the driver's cursor
- `coalescer`  `Coalescer`: look-ups of one kind batched into one query
- `schema`     the tables, `make_engine`, the Alembic migrations (`gamehall/server/migrations`)
- `rows`       a room as a stored row and back (`room_row`, `room_from_values`)
- `queries`    tokens, the archive, profiles, leaderboards, what a game's end records
- `extension`  `SqlExtension`: a concern's own tables on this storage's writer and readers
               (the bot API's `bot_store`, the reviews' `review_store`)
"""

from gamehall.server.storage.coalescer import Coalescer
from gamehall.server.storage.interface import (
    ChatLine,
    Fenced,
    NicknameTaken,
    Storage,
    UnknownPlayer,
)
from gamehall.server.storage.queries import bot_player
from gamehall.server.storage.rows import room_from_values, room_row
from gamehall.server.storage.schema import (
    MIGRATIONS,
    SQLITE_SYNC,
    alembic_config,
    make_engine,
    metadata,
    sqlite_url,
    upgrade_schema,
)
from gamehall.server.storage.sql import SqlStorage

__all__ = [
    "MIGRATIONS", "SQLITE_SYNC", "ChatLine", "Coalescer", "Fenced", "NicknameTaken",
    "SqlStorage", "Storage", "UnknownPlayer", "alembic_config", "bot_player", "make_engine",
    "metadata", "room_from_values", "room_row", "sqlite_url", "upgrade_schema",
]
