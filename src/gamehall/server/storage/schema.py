"""The schema (SQLAlchemy tables, kept equal to the migrations by a test), the engine each
database needs, and the Alembic migrations shipped in `gamehall/server/storage/migrations`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).parent / "migrations"
"""The Alembic script folder (`env.py`, `versions/`), shipped in the package."""


metadata = sa.MetaData()
players = sa.Table(
    "players", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("nickname", sa.String(40), nullable=False),
    sa.Column("nickname_key", sa.String(40), nullable=False, unique=True),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("password_hash", sa.String(200)),
    sa.Column("bot", sa.String(64)),
    sa.UniqueConstraint("bot", name="uq_players_bot"),
)
"""A visitor (a guest, or an account once `password_hash` is set), or a bot level (`bot` is its
spec; such a row never has a password, so nobody can sign in as it)."""
tokens = sa.Table(
    "tokens", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("last_used_at", sa.String(40), nullable=False),
)
ratings = sa.Table(
    "ratings", metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
    sa.Index("ix_ratings_game", "game"),
)
rooms = sa.Table(
    "rooms", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("result", sa.Text),
    sa.Column("outcome", sa.Text),
    sa.Column("outcome_message", sa.Text),
    sa.Column("ended_by", sa.String(16)),
    sa.Column("created_by", sa.String(40), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False, index=True),
    sa.Column("fence", sa.BigInteger, nullable=False, server_default="0"),
    sa.Column("revision", sa.BigInteger, nullable=False, server_default="0"),
    sa.Column("clock", sa.String(16)),
    sa.Column("clock_state", sa.Text),
    sa.Column("rematch_of", sa.String(32)),
    sa.Column("rematch", sa.String(32)),
    sa.Column("rated", sa.Boolean),
    sa.Column("ended_at", sa.String(40), index=True),
    sa.Index("ix_rooms_game_ended_at", "game", "ended_at"),
)
hall_state = sa.Table(
    "hall_state", metadata,
    sa.Column("key", sa.String(40), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
ALIVE = "alive_at"
"""The `hall_state` key of the hall's last sign of life (hall time, seconds, as text)."""
actions = sa.Table(
    "actions", metadata,
    sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer),
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("move", sa.String(200), nullable=False),
)
chat = sa.Table(
    "chat", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), nullable=False, index=True),
    sa.Column("sender", sa.String(40), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.String(40), nullable=False),
)
game_players = sa.Table(
    "game_players", metadata,
    sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("ended_at", sa.String(40), nullable=False),
    sa.Column("score", sa.Float),
    sa.Column("rating_before", sa.Float),
    sa.Column("rating_after", sa.Float),
    sa.Index("ix_game_players_player_ended", "player_id", "ended_at"),
)
"""Who played each finished game (the archive by player, profiles), with the rating change of
a rated game. Written in the same transaction as the room row that records the end."""


# The features' own tables (the bot API's: migration 0005; reviews: 0006; preferences: 0007;
# pairing: 0009), here with the rest of the schema so that storage imports no feature; each
# feature's store (botapi/store.py, reviews/store.py, accounts/preferences.py,
# pairing/store.py) reads and writes them.

bot_accounts = sa.Table(
    "bot_accounts", metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("games", sa.Text, nullable=False),
    sa.Column("upgraded_at", sa.String(40), nullable=False),
)
"""Players made bot accounts (for good): the games each plays (a JSON list of names)."""

api_tokens = sa.Table(
    "api_tokens", metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("description", sa.String(100), nullable=False),
    sa.Column("scopes", sa.String(100), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)
"""API tokens: the scopes of a row of `tokens` (which it is deleted with when revoked)."""

challenges = sa.Table(
    "challenges", metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("challenger_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False,
              index=True),
    sa.Column("dest_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("clock", sa.String(16)),
    sa.Column("rated", sa.Boolean),
    sa.Column("seat", sa.Integer),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("reason", sa.String(16)),
    sa.Column("room", sa.String(32)),
    sa.Column("created_at", sa.String(40), nullable=False),
)
"""Challenges: `created` (pending), then `accepted` (with its room), `declined` (with a
reason) or `canceled` (by the challenger, or reason ``expired``: unanswered too long)."""

reviews = sa.Table(
    "reviews", metadata,
    sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("level", sa.String(32), primary_key=True),
    sa.Column("simulations", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("requested_by", sa.Integer, sa.ForeignKey("players.id"), nullable=False,
              index=True),
    sa.Column("node", sa.String(100), nullable=False),
    sa.Column("lease_until", sa.Float, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("error", sa.Text),
    sa.Column("result", sa.Text),
    sa.Column("accuracy", sa.Text),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
)

preferences = sa.Table(
    "preferences", metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("language", sa.String(8)),
    sa.Column("updated_at", sa.String(40), nullable=False),
)

pool_entries = sa.Table(
    "pool_entries", metadata,
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
    sa.Index("ix_pool_entries_pool_status", "pool", "status"),
    sa.Index("ix_pool_entries_player", "player_id", "status"),
    sa.Index("ix_pool_entries_room", "room"),
    sa.Index("uq_pool_entries_active", "player_id", unique=True,
             sqlite_where=sa.text("status IN ('waiting', 'pairing')"),
             postgresql_where=sa.text("status IN ('waiting', 'pairing')")),
)
"""Players in quick-pairing pools (migration 0009; pairing/store.py): `waiting`, then
`pairing` (a wave chose their table, `room` and `seat`, the room not yet stored), `paired`, or
`cancelled`. One active entry per player, whatever the pool (the unique partial index). A
waiting entry's `updated_at` is when its player was last seen (joined, polled it, or held a
lobby or room socket): one not seen for `pairing_away_seconds` is cancelled."""

pool_fences = sa.Table(
    "pool_fences", metadata,
    sa.Column("pool", sa.String(64), primary_key=True),
    sa.Column("fence", sa.BigInteger, nullable=False),
)
"""Each pool's latest lease number: a wave's writes carry theirs, a stale one is refused."""

pool_holds = sa.Table(
    "pool_holds", metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("until", sa.Float, nullable=False),
)
"""Players held back from the pools until `until` (hall time): they left a paired game
before their first move."""

seeks = sa.Table(
    "seeks", metadata,
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
    sa.Index("ix_seeks_status", "status"),
    sa.Index("ix_seeks_player", "player_id", "status"),
    sa.Index("ix_seeks_room", "room"),
)
"""Open challenges anyone may accept (migration 0009; pairing/seeks.py): `open` (with the
players who took a seat so far, `takers`, for a table of more than two), `playing` (its game
runs; it opens again after it while `repeat` lasts), `accepted` (for good) or `cancelled`."""
# Tournaments (migration 0010; server/tournaments/store.py reads and writes them).
tournaments = sa.Table(
    "tournaments", metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("created_by", sa.Integer, sa.ForeignKey("players.id"), nullable=False,
              index=True),
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
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("started_at", sa.Float),
    sa.Column("ended_at", sa.Float),
    sa.Column("created_at", sa.String(40), nullable=False),
)
"""A tournament: `created` (taking players), `running`, `finished`; `round` the last paired
(an arena's pairings are numbered as rounds too)."""

tournament_players = sa.Table(
    "tournament_players", metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
              primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True,
              index=True),
    sa.Column("nickname", sa.String(40), nullable=False),
    sa.Column("rating", sa.Integer, nullable=False),
    sa.Column("joined_at", sa.Float, nullable=False),
    sa.Column("withdrawn", sa.Boolean, nullable=False),
    sa.Column("no_shows", sa.Integer, nullable=False),
    sa.Column("bot_account", sa.Boolean, nullable=False),
    sa.Column("place", sa.Integer),
)
"""Who joined (their rating in the game when they did), withdrew, failed to show, and their
final place (kept for their profile)."""

tournament_rounds = sa.Table(
    "tournament_rounds", metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
              primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("paired_at", sa.Float, nullable=False),
)
"""One row per round paired: its key is what makes a round paired once, whichever node (or
two, for a moment, in a takeover) pairs it."""

tournament_games = sa.Table(
    "tournament_games", metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False,
              index=True),
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
"""Each game a round paired (its room's id chosen with the pairing, so a room is opened once)
or a bye: `open` (paired, its room not yet made), `playing`, `done` (its result by seat)."""


SQLITE_SYNC = ("normal", "full")


def make_engine(url: str, sqlite_sync: str = "normal") -> Engine:
    """An engine with the settings each database needs.

    SQLite runs in WAL mode. With ``synchronous=NORMAL`` a commit is in the WAL file (the
    operating system's cache) before it returns, so it survives the server process dying in any
    way (kill -9 included); ``full`` also survives the machine losing power, at the price of an
    fsync per commit batch."""
    if sqlite_sync not in SQLITE_SYNC:
        raise ValueError(f"sqlite sync is one of {', '.join(SQLITE_SYNC)}")
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sqlite_sync.upper()}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True)


def alembic_config() -> Any:
    """The Alembic configuration of the migrations shipped in the package."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


UPGRADE_LOCK = int.from_bytes(b"gamehall", "big")
"""The PostgreSQL advisory lock key `upgrade_schema` takes (docs/cluster.md names it)."""


def upgrade_schema(engine: Engine, revision: str = "head") -> None:
    """Create or upgrade the schema by running the Alembic migrations shipped in the package.

    Nodes of a cluster start together and each calls this: on PostgreSQL the first takes an
    advisory lock (the key is b"gamehall" as a 64-bit integer, docs/cluster.md) in the very
    transaction the migrations run in, so the others wait on it until that one commits, then
    find the schema current and change nothing. Without it two nodes created the same tables at
    once and one died of DuplicateTable. The lock ends with the transaction, also when a node
    dies mid-upgrade (its transaction rolls back). SQLite has one writer at a time already."""
    from alembic import command

    cfg = alembic_config()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def sqlite_url(path: Path) -> str:
    """The URL of an SQLite file (absolute: the server may change its working folder)."""
    return f"sqlite:///{path.resolve()}"
