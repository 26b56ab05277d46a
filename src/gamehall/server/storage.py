"""Storage: the interface the hall needs, and its SQLAlchemy implementation (SQLite, PostgreSQL).

Durability rule: `save_room` returns only once the room and its new moves are committed, so the
hall can broadcast afterwards and a crash loses nothing a client has seen. Writes from every room
go through one writer that commits whatever has queued up in a single transaction (group commit),
so durable writes stay cheap under load.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from gamehall.core import GamehallError
from gamehall.server.clocks import Clock, ClockError, parse_control
from gamehall.server.rooms import Move, Occupant, Room

log = logging.getLogger("gamehall.server")
T = TypeVar("T")


class NicknameTaken(Exception):
    """The nickname belongs to another visitor."""


@dataclass(frozen=True)
class ChatLine:
    sender: str
    text: str
    at: str


@dataclass
class _Write:
    """One queued write: a room row (whole), its new action rows, a chat row, or a function."""

    room: dict[str, Any] | None = None
    more_rooms: list[dict[str, Any]] = field(default_factory=list)
    """Further room rows committed in the same transaction (a rematch links two rooms)."""
    actions: list[dict[str, Any]] = field(default_factory=list)
    chat: dict[str, Any] | None = None
    fn: Callable[[Connection], None] | None = None
    done: asyncio.Future[None] | None = None


class Storage(ABC):
    """What the hall stores: visitors, rooms with their moves, chat."""

    @abstractmethod
    async def open(self) -> None:
        """Connect, and create or upgrade the schema."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def add_player(self, nickname: str, token_hash: str) -> int:
        """Store a new visitor; NicknameTaken if another has that nickname (any case)."""

    @abstractmethod
    async def player_by_token(self, token_hash: str) -> tuple[int, str] | None:
        """(player id, nickname) for a token's hash."""

    @abstractmethod
    async def save_room(self, room: Room, new_moves: Sequence[Move] = ()) -> None:
        """Commit the room's current metadata and append `new_moves` to its move list."""

    async def save_rooms(self, rooms: Sequence[tuple[Room, Sequence[Move]]]) -> None:
        """Commit several rooms with their new moves together (a rematch: the new room and the
        old one that now points to it). Storages that can should do it in one transaction."""
        for room, moves in rooms:
            await self.save_room(room, moves)

    async def mark_alive(self, at: float) -> None:  # noqa: B027 - optional for test storages
        """Note that the hall was running at hall time `at` (its clocks' last sign of life)."""

    async def last_alive(self) -> float | None:
        """The latest `mark_alive` time, or None (then a restart charges no running clock)."""
        return None

    @abstractmethod
    async def add_chat(self, room_id: str, line: ChatLine) -> None: ...

    @abstractmethod
    async def recent_chat(self, room_id: str, limit: int) -> list[ChatLine]: ...

    @abstractmethod
    async def load_room(self, room_id: str) -> Room | None:
        """The room rebuilt from storage (its game replayed move by move), or None."""

    @abstractmethod
    async def active_room_ids(self) -> list[str]:
        """Rooms waiting or playing, to load at start-up."""

    @abstractmethod
    async def list_rooms(self, status: str | None, limit: int) -> list[Room]:
        """The most recently changed rooms, without their moves (for the lobby)."""


metadata = sa.MetaData()
players = sa.Table(
    "players", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("nickname", sa.String(40), nullable=False),
    sa.Column("nickname_key", sa.String(40), nullable=False, unique=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.String(40), nullable=False),
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
    sa.Column("ended_by", sa.String(16)),
    sa.Column("created_by", sa.String(40), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False, index=True),
    sa.Column("clock", sa.String(16)),
    sa.Column("clock_state", sa.Text),
    sa.Column("rematch_of", sa.String(32)),
    sa.Column("rematch", sa.String(32)),
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


def _stamp() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _room_values(room: Room) -> dict[str, Any]:
    """The room's row, serialised now (the commit happens later, on the writer thread)."""
    return {
        "id": room.id,
        "game": room.game_name,
        "options": json.dumps(room.options),
        "status": room.status,
        "seed": room.seed,
        "seats": json.dumps([o.to_json() if o else None for o in room.seats]),
        "version": room.version,
        "result": json.dumps(room.result) if room.result is not None else None,
        "outcome": room.outcome,
        "ended_by": room.ended_by,
        "created_by": room.created_by,
        "created_at": room.created_at,
        "updated_at": _stamp(),
        "clock": room.time_control.text if room.time_control else None,
        "clock_state": json.dumps(room.clock.to_json()) if room.clock else None,
        "rematch_of": room.rematch_of,
        "rematch": room.rematch,
    }


def _action_rows(room: Room, new_moves: Sequence[Move]) -> list[dict[str, Any]]:
    """The action rows of the room's last `len(new_moves)` moves."""
    first = room.version - len(new_moves)
    return [{"room_id": room.id, "idx": first + i, "seat": m.seat, "action": m.action,
             "move": m.move} for i, m in enumerate(new_moves)]


def _room_from_row(row: Any) -> Room:
    seats = [Occupant.from_json(s) if s else None for s in json.loads(row.seats)]
    room = Room(id=row.id, game_name=row.game, options=json.loads(row.options),
                created_by=row.created_by, seed=int(row.seed), seats=seats, status=row.status,
                result=json.loads(row.result) if row.result else None, outcome=row.outcome,
                ended_by=row.ended_by, created_at=row.created_at,
                rematch_of=row.rematch_of, rematch=row.rematch)
    room.stored_version = int(row.version)
    try:
        room.time_control = parse_control(row.clock)
    except ClockError:
        log.error("room %s has an unknown clock %r: untimed", row.id, row.clock)
    if room.time_control is not None and row.clock_state:
        room.clock = Clock.from_json(room.time_control, json.loads(row.clock_state))
    return room


class SqlStorage(Storage):
    """SQLAlchemy storage: ``sqlite:///file.db`` (default) or ``postgresql+psycopg://…``."""

    def __init__(self, url: str, batch: int = 512, sqlite_sync: str = "normal") -> None:
        self.url = url
        self.sqlite_sync = sqlite_sync
        self.batch = batch
        self.engine: Engine | None = None
        self._writer_pool = ThreadPoolExecutor(1, thread_name_prefix="gamehall-db-write")
        self._reader_pool = ThreadPoolExecutor(2, thread_name_prefix="gamehall-db-read")
        self._queue: asyncio.Queue[_Write]
        self._task: asyncio.Task[None] | None = None
        self.stats: dict[str, float] = {"batches": 0, "writes": 0, "commit_seconds": 0.0,
                                        "max_commit_seconds": 0.0}
        """Group-commit figures since start (GET /api/health shows them)."""

    # --- lifecycle -----------------------------------------------------------------------------
    async def open(self) -> None:
        self.engine = make_engine(self.url, self.sqlite_sync)
        await asyncio.get_running_loop().run_in_executor(
            self._writer_pool, upgrade_schema, self.engine)
        self._queue = asyncio.Queue()
        self._task = asyncio.create_task(self._write_loop(), name="gamehall-db-writer")

    async def close(self) -> None:
        if self._task is not None:
            while not self._queue.empty():
                await asyncio.sleep(0.01)
            self._task.cancel()
        self._writer_pool.shutdown(wait=True)
        self._reader_pool.shutdown(wait=True)
        if self.engine is not None:
            self.engine.dispose()

    # --- writing -------------------------------------------------------------------------------
    async def _write(self, op: _Write) -> None:
        op.done = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(op)
        await op.done

    async def _write_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < self.batch:
                batch.append(self._queue.get_nowait())
            try:
                await loop.run_in_executor(self._writer_pool, self._commit, batch)
                results: list[BaseException | None] = [None] * len(batch)
            except Exception:  # one bad write must not fail the others: retry each alone
                results = []
                for op in batch:
                    try:
                        await loop.run_in_executor(self._writer_pool, self._commit, [op])
                        results.append(None)
                    except NicknameTaken as exc:
                        results.append(exc)
                    except Exception as exc:
                        log.exception("storage write failed")
                        results.append(exc)
            for op, failure in zip(batch, results, strict=True):
                if op.done is None or op.done.done():
                    continue
                if failure is None:
                    op.done.set_result(None)
                else:
                    op.done.set_exception(failure)

    def _commit(self, batch: list[_Write]) -> None:
        """One transaction for the whole batch, with one statement per kind of row: few round
        trips through the driver, so the writer thread needs the GIL rarely."""
        assert self.engine is not None
        start = time.perf_counter()
        room_rows: dict[str, dict[str, Any]] = {}
        for op in batch:
            for row in ([op.room] if op.room is not None else []) + op.more_rooms:
                room_rows[row["id"]] = row  # a later snapshot of a room wins
        with self.engine.begin() as conn:
            for op in batch:
                if op.fn is not None:
                    op.fn(conn)
            if room_rows:
                found = {r.id for r in conn.execute(
                    sa.select(rooms.c.id).where(rooms.c.id.in_(list(room_rows))))}
                new = [v for k, v in room_rows.items() if k not in found]
                old = [{**{c: x for c, x in v.items() if c != "id"}, "room_key": k}
                       for k, v in room_rows.items() if k in found]
                if new:
                    conn.execute(rooms.insert(), new)
                if old:
                    conn.execute(rooms.update().where(rooms.c.id == sa.bindparam("room_key")),
                                 old)
            moves = [row for op in batch for row in op.actions]
            if moves:
                conn.execute(actions.insert(), moves)
            lines = [op.chat for op in batch if op.chat is not None]
            if lines:
                conn.execute(chat.insert(), lines)
        took = time.perf_counter() - start
        st = self.stats
        st["batches"] += 1
        st["writes"] += len(batch)
        st["commit_seconds"] += took
        st["max_commit_seconds"] = max(st["max_commit_seconds"], took)

    async def _read(self, fn: Callable[[Connection], T]) -> T:
        engine = self.engine
        assert engine is not None

        def run() -> T:
            with engine.connect() as conn:
                return fn(conn)

        return await asyncio.get_running_loop().run_in_executor(self._reader_pool, run)

    # --- players -------------------------------------------------------------------------------
    async def add_player(self, nickname: str, token_hash: str) -> int:
        out: list[int] = []

        def insert(conn: Connection) -> None:
            key = nickname.lower()
            if conn.execute(sa.select(players.c.id).where(players.c.nickname_key == key)).first():
                raise NicknameTaken(nickname)
            res = conn.execute(players.insert().values(
                nickname=nickname, nickname_key=key, token_hash=token_hash,
                created_at=_stamp()))
            key_row = res.inserted_primary_key
            assert key_row is not None
            out.append(int(key_row[0]))

        await self._write(_Write(fn=insert))
        return out[0]

    async def player_by_token(self, token_hash: str) -> tuple[int, str] | None:
        def select(conn: Connection) -> tuple[int, str] | None:
            row = conn.execute(sa.select(players.c.id, players.c.nickname)
                               .where(players.c.token_hash == token_hash)).first()
            return (int(row.id), str(row.nickname)) if row else None

        return await self._read(select)

    # --- rooms ---------------------------------------------------------------------------------
    async def save_room(self, room: Room, new_moves: Sequence[Move] = ()) -> None:
        await self._write(_Write(room=_room_values(room), actions=_action_rows(room, new_moves)))

    async def save_rooms(self, rooms: Sequence[tuple[Room, Sequence[Move]]]) -> None:
        await self._write(_Write(more_rooms=[_room_values(r) for r, _ in rooms],
                                 actions=[a for r, m in rooms for a in _action_rows(r, m)]))

    async def mark_alive(self, at: float) -> None:
        def upsert(conn: Connection) -> None:
            done = conn.execute(hall_state.update().where(hall_state.c.key == ALIVE)
                                .values(value=repr(at)))
            if not done.rowcount:
                conn.execute(hall_state.insert().values(key=ALIVE, value=repr(at)))

        await self._write(_Write(fn=upsert))

    async def last_alive(self) -> float | None:
        def select(conn: Connection) -> float | None:
            value = conn.execute(sa.select(hall_state.c.value)
                                 .where(hall_state.c.key == ALIVE)).scalar()
            try:
                return float(value) if value is not None else None
            except ValueError:
                return None

        return await self._read(select)

    async def add_chat(self, room_id: str, line: ChatLine) -> None:
        await self._write(_Write(chat={"room_id": room_id, "sender": line.sender,
                                       "text": line.text, "at": line.at}))

    async def recent_chat(self, room_id: str, limit: int) -> list[ChatLine]:
        def select(conn: Connection) -> list[ChatLine]:
            rows = conn.execute(sa.select(chat).where(chat.c.room_id == room_id)
                                .order_by(chat.c.id.desc()).limit(limit)).all()
            return [ChatLine(r.sender, r.text, r.at) for r in reversed(rows)]

        return await self._read(select)

    async def load_room(self, room_id: str) -> Room | None:
        def select(conn: Connection) -> tuple[Any, list[Any]] | None:
            row = conn.execute(sa.select(rooms).where(rooms.c.id == room_id)).first()
            if row is None:
                return None
            moves = conn.execute(sa.select(actions).where(actions.c.room_id == room_id)
                                 .order_by(actions.c.idx)).all()
            return row, list(moves)

        found = await self._read(select)
        if found is None:
            return None
        row, moves = found
        try:
            room = _room_from_row(row)
            room.replay([Move(m.seat, m.action, m.move) for m in moves])
        except GamehallError as exc:
            log.error("room %s cannot be rebuilt: %s", room_id, exc)
            return None
        return room

    async def active_room_ids(self) -> list[str]:
        def select(conn: Connection) -> list[str]:
            q = sa.select(rooms.c.id).where(rooms.c.status != "finished")
            return [r.id for r in conn.execute(q)]

        return await self._read(select)

    async def list_rooms(self, status: str | None, limit: int) -> list[Room]:
        def select(conn: Connection) -> list[Any]:
            q = sa.select(rooms).order_by(rooms.c.updated_at.desc()).limit(limit)
            if status is not None:
                q = q.where(rooms.c.status == status)
            return list(conn.execute(q))

        out = []
        for row in await self._read(select):
            try:
                out.append(_room_from_row(row))
            except GamehallError:
                continue  # a game no longer installed: not listed
        return out


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


def upgrade_schema(engine: Engine) -> None:
    """Create or upgrade the schema by running the Alembic migrations shipped in the package."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path.resolve()}"
