"""Storage: the interface the hall needs, and its SQLAlchemy implementation (SQLite, PostgreSQL).

Durability rule: `save_room` returns only once the room and its new moves are committed, so the
hall can broadcast afterwards and a crash loses nothing a client has seen. Writes from every room
go through one writer that commits whatever has queued up in a single transaction (group commit),
so durable writes stay cheap under load.

Fencing (the cluster): a node that owns a room passes its lease's fencing number with every write
of it; the row keeps the largest number that claimed or wrote it, and a write carrying a smaller
one is refused (`Fenced`), so a node that lost its lease can never commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Generic, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Dialect, Engine

from gamehall.core import GamehallError
from gamehall.server import ratings as rating_model
from gamehall.server.accounts import AccountRow, TokenOwner, seconds, stamp
from gamehall.server.clocks import Clock, ClockError, parse_control, wall_time
from gamehall.server.loopdb import LoopConnection
from gamehall.server.rooms import FINISHED, Move, Occupant, Room

log = logging.getLogger("gamehall.server")
T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


class Coalescer(Generic[K, V]):
    """Look-ups of one kind asked for at about the same time, answered by one query each batch:
    at most `parallel` queries run at once, and keys asked for meanwhile wait for the next one.
    A lone look-up costs what it did; a burst (a node taking a dead node's rooms, a crowd
    opening rooms) costs a few queries instead of one (or three) per key."""

    def __init__(self, fetch: Callable[[list[K]], Awaitable[dict[K, V]]], parallel: int = 2,
                 most: int = 500) -> None:
        self._fetch, self._parallel, self._most = fetch, parallel, most
        self._waiting: dict[K, list[asyncio.Future[V | None]]] = {}
        self._running = 0

    async def get(self, key: K) -> V | None:
        """The value for `key` (None: there is none)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[V | None] = loop.create_future()
        self._waiting.setdefault(key, []).append(fut)
        if self._running < self._parallel:
            self._running += 1
            loop.create_task(self._run())
        return await fut

    async def _run(self) -> None:
        try:
            while self._waiting:
                keys = list(itertools.islice(self._waiting, self._most))
                batch = {k: self._waiting.pop(k) for k in keys}
                try:
                    found = await self._fetch(keys)
                except Exception as exc:
                    for futs in batch.values():
                        for f in futs:
                            if not f.done():
                                f.set_exception(exc)
                    continue
                for k, futs in batch.items():
                    for f in futs:
                        if not f.done():
                            f.set_result(found.get(k))
        finally:
            self._running -= 1


class NicknameTaken(Exception):
    """The nickname belongs to another visitor."""


class Fenced(Exception):
    """A write refused because another node has claimed the room with a larger fencing number."""

    def __init__(self, room_id: str, mine: int, stored: int) -> None:
        super().__init__(f"room {room_id}: fence {mine} is behind the stored fence {stored}")
        self.room_id, self.mine, self.stored = room_id, mine, stored


class UnknownPlayer(Exception):
    """No player has that nickname."""


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
    more_fences: list[int | None] = field(default_factory=list)
    """The fencing number for each of `more_rooms` (empty: none)."""
    actions: list[dict[str, Any]] = field(default_factory=list)
    chat: dict[str, Any] | None = None
    fn: Callable[[Connection], None] | None = None
    after: Callable[[Connection], None] | None = None
    """Runs in the same transaction once the room rows are written (a game's end)."""
    fence: int | None = None
    """The writer's fencing number for `room` (None: a single node, no fencing)."""
    claim: tuple[str, int] | None = None
    """(room id, fence): raise the room's stored fence to this one (see `claim_room`)."""
    claimed: int | None = None
    """After a claim: the fence it replaced (None: refused)."""
    done: asyncio.Future[None] | None = None


def _rows(op: _Write) -> list[tuple[dict[str, Any], int | None]]:
    """The room rows a write carries, each with its fence."""
    out = [(op.room, op.fence)] if op.room is not None else []
    return out + list(zip(op.more_rooms, op.more_fences or [None] * len(op.more_rooms),
                          strict=True))


class _NotOnlyUpdates(Exception):
    """`SqlStorage._commit_updates` met a room it cannot update as it is: take the general path."""


def _updates_only(batch: list[_Write]) -> bool:
    """Whether every write of the batch only changes rooms (and adds their moves and chat):
    nothing to claim, no function to run, nothing to do after the rows are written, and each
    room written under one fence (the short paths check the fence of a room's last row only)."""
    fences: dict[str, int | None] = {}
    return all(op.fn is None and op.claim is None and op.after is None
               and (op.room is not None or op.more_rooms) for op in batch) \
        and all(fences.setdefault(row["id"], fence) == fence
                for op in batch for row, fence in _rows(op))


@dataclass(frozen=True)
class _Statement:
    """A statement compiled once for a dialect, run straight on the driver's cursor."""

    text: str
    order: tuple[str, ...] | None
    """The parameters' names in order, for a driver with positional parameters (SQLite)."""

    def bind(self, params: dict[str, Any]) -> dict[str, Any] | tuple[Any, ...]:
        """The parameters as the driver takes them."""
        return params if self.order is None else tuple(params[n] for n in self.order)

    def run(self, cursor: Any, rows: list[dict[str, Any]]) -> int:
        """Run it once per row (one `executemany`); the rows it changed."""
        cursor.executemany(self.text, [self.bind(row) for row in rows])
        return int(cursor.rowcount)

    def run_once(self, cursor: Any, params: dict[str, Any]) -> int:
        """Run it once (`execute`: no pipeline to enter and leave); the rows it changed."""
        cursor.execute(self.text, self.bind(params))
        return int(cursor.rowcount)


_COMPILED: dict[tuple[Any, ...], _Statement] = {}


def _room_update(names: Sequence[str], fenced: bool) -> Any:
    """The update of one stored room's row to values named `names` (its id is `room_key`);
    fenced: only where the stored fence is at most `fence_max`, checked in the statement."""
    cols: dict[str, Any] = {n: sa.bindparam(n) for n in names
                            if n not in ("room_key", "fence_max")}
    stmt = rooms.update().where(rooms.c.id == sa.bindparam("room_key")).values(cols)
    return stmt.where(rooms.c.fence <= sa.bindparam("fence_max")) if fenced else stmt


def _compile(dialect: Dialect, key: tuple[Any, ...], build: Callable[[], Any]) -> _Statement:
    """`build()`'s statement compiled for `dialect`, once per `key`."""
    key = (dialect.name, *key)
    found = _COMPILED.get(key)
    if found is None:
        done = build().compile(dialect=dialect)
        found = _COMPILED[key] = _Statement(
            str(done), tuple(done.positiontup or ()) if done.positional else None)
    return found


def _compiled(conn: Connection, kind: str, names: Sequence[str]) -> _Statement:
    """`kind` ("actions", "plain" or "fenced" room update) for rows with these keys, compiled
    from the tables above by SQLAlchemy (once per dialect and set of keys)."""
    def build() -> Any:
        if kind == "actions":
            return actions.insert().values({n: sa.bindparam(n) for n in names})
        return _room_update(names, kind == "fenced")
    return _compile(conn.dialect, (kind, tuple(names)), build)


def _compiled_room_and_moves(dialect: Dialect, room_names: Sequence[str], fenced: bool,
                             move_names: Sequence[str], count: int) -> _Statement:
    """PostgreSQL: one room's update and the insert of its `count` moves as one statement,
    the moves inserted only if the room's row matched (a data-modifying WITH whose RETURNING
    gives the one row each move is selected from). Move i's values are named ``m<i>_<column>``.
    Its row count is `count` when the room matched, else 0; with no moves it is the update."""
    def build() -> Any:
        update = _room_update(room_names, fenced)
        if not count:
            return update
        room = update.returning(rooms.c.id).cte("room")
        rows = [sa.select(*[sa.bindparam(f"m{i}_{n}", type_=actions.c[n].type)
                            for n in move_names]).select_from(room) for i in range(count)]
        return actions.insert().from_select(
            list(move_names), rows[0] if count == 1 else sa.union_all(*rows)).add_cte(room)
    return _compile(dialect, ("room+moves", tuple(room_names), fenced, tuple(move_names), count),
                    build)


def _latest_rows(batch: Sequence[_Write]) -> dict[str, tuple[dict[str, Any], int | None]]:
    """Each room's row as the batch leaves it (a later snapshot of a room wins), with the fence
    it is written under."""
    return {values["id"]: (values, fence) for op in batch for values, fence in _rows(op)}


def _driver_cursor(conn: Connection) -> contextlib.closing[Any]:
    driver = conn.connection.driver_connection
    assert driver is not None
    return contextlib.closing(driver.cursor())


def _room_params(key: str, values: dict[str, Any], fence: int | None) -> dict[str, Any]:
    """The parameters of `_room_update` that write `values` to room `key` under `fence`."""
    row = {**{c: x for c, x in values.items() if c != "id"}, "room_key": key}
    return row if fence is None else {**row, "fence": fence, "fence_max": fence}


def _update_rooms(conn: Connection, latest: dict[str, tuple[dict[str, Any], int | None]],
                  keys: Sequence[str]) -> bool:
    """Update the stored rows of rooms `keys` (in that order) to `latest`: a fenced row only
    where the stored fence is at most its own, in the statement. True when every row matched."""
    plain: list[dict[str, Any]] = []
    fenced: list[dict[str, Any]] = []
    for k in keys:
        values, fence = latest[k]
        (plain if fence is None else fenced).append(_room_params(k, values, fence))
    with _driver_cursor(conn) as cur:
        return all(not rows or _compiled(conn, kind, list(rows[0])).run(cur, rows) == len(rows)
                   for kind, rows in (("plain", plain), ("fenced", fenced)))


def _add_moves_and_chat(conn: Connection, batch: Sequence[_Write]) -> None:
    """Insert the batch's action rows and chat lines."""
    moves = [row for op in batch for row in op.actions]
    if moves:
        with _driver_cursor(conn) as cur:
            _compiled(conn, "actions", list(moves[0])).run(cur, moves)
    lines = [op.chat for op in batch if op.chat is not None]
    if lines:
        conn.execute(chat.insert(), lines)


class Storage(ABC):
    """What the hall stores: visitors, rooms with their moves, chat."""

    @abstractmethod
    async def open(self) -> None:
        """Connect, and create or upgrade the schema."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def add_player(self, nickname: str, token_hash: str, at: str | None = None) -> int:
        """Store a new visitor with a first token; NicknameTaken if another has that nickname
        (any case)."""

    async def player_by_token(self, token_hash: str) -> tuple[int, str] | None:
        """(player id, nickname) for a token's hash."""
        owner = await self.token_owner(token_hash)
        return (owner.player_id, owner.nickname) if owner is not None else None

    @abstractmethod
    async def token_owner(self, token_hash: str) -> TokenOwner | None:
        """Whose token it is and when it was last used."""

    @abstractmethod
    async def add_token(self, player_id: int, token_hash: str, at: str) -> None: ...

    @abstractmethod
    async def touch_token(self, token_hash: str, at: str) -> None:
        """Note that the token was used at `at` (it lives on)."""

    @abstractmethod
    async def revoke_token(self, token_hash: str) -> None: ...

    @abstractmethod
    async def revoke_tokens(self, player_id: int, keep: str | None = None) -> None:
        """End every token of the player except `keep`."""

    @abstractmethod
    async def account(self, nickname: str) -> AccountRow | None:
        """The player with this nickname (any case), with their password hash."""

    @abstractmethod
    async def set_password(self, player_id: int, password_hash: str) -> None: ...

    @abstractmethod
    async def accounts_among(self, player_ids: Sequence[int]) -> set[int]:
        """Those of `player_ids` whose nickname has a password."""

    @abstractmethod
    async def save_room(self, room: Room, new_moves: Sequence[Move] = (),
                        finished: bool = False,
                        fence: int | None = None) -> list[dict[str, Any]] | None:
        """Commit the room's current metadata and append `new_moves` to its move list.

        With `finished` (the commit that ends the game) the same transaction records who played
        it and, for a rated game, every seat's new rating; the rating changes are returned
        (None for a casual game).

        With a `fence`, the write is refused (`Fenced`) when the stored fence is larger, and
        the stored fence becomes `fence` otherwise."""

    @abstractmethod
    async def claim_room(self, room_id: str, fence: int) -> int | None:
        """Raise the room's stored fence to `fence`: from then on no write with a smaller one
        commits. Returns the fence it replaced (whoever wrote last), or None when the room is
        unknown or already claimed with `fence` or more."""

    @abstractmethod
    async def room_fence(self, room_id: str) -> int | None:
        """The room's stored fence (None: no such room)."""

    async def save_rooms(self, rooms: Sequence[tuple[Room, Sequence[Move]]],
                         fences: Sequence[int | None] = ()) -> None:
        """Commit several rooms with their new moves together (a rematch: the new room and the
        old one that now points to it), each with its fence (as `save_room`). Storages that can
        should do it in one transaction."""
        for (room, moves), fence in zip(rooms, list(fences) or [None] * len(rooms), strict=True):
            await self.save_room(room, moves, fence=fence)

    async def mark_alive(self, at: float) -> None:  # noqa: B027 - optional for test storages
        """Note that the hall was running at hall time `at` (its clocks' last sign of life)."""

    async def last_alive(self) -> float | None:
        """The latest `mark_alive` time, or None (then a restart charges no running clock)."""
        return None

    @abstractmethod
    async def add_chat(self, room_id: str, line: ChatLine, keep: int | None = None) -> None:
        """Store a chat line; with `keep`, only the room's newest `keep` lines stay stored."""

    @abstractmethod
    async def recent_chat(self, room_id: str, limit: int) -> list[ChatLine]: ...

    @abstractmethod
    async def load_room(self, room_id: str) -> Room | None:
        """The room rebuilt from storage (its game replayed move by move), or None."""

    @abstractmethod
    async def active_room_ids(self, include_waiting: bool = True) -> list[str]:
        """Rooms playing (and waiting, unless told not to), to load at start-up."""

    @abstractmethod
    async def idle_waiting(self, before: str, limit: int) -> list[str]:
        """Waiting rooms last changed before the time stamp `before` (oldest first)."""

    @abstractmethod
    async def drop_waiting(self, room_id: str, before: str, fence: int | None = None) -> bool:
        """Delete the room (and its chat) if it is still waiting and unchanged since before
        `before` (and, with a `fence`, its stored fence is at most that); True if deleted."""

    @abstractmethod
    async def count_waiting(self, created_by: str) -> int:
        """How many rooms `created_by` created are waiting for players."""

    @abstractmethod
    async def list_rooms(self, status: str | None, limit: int) -> list[Room]:
        """The most recently changed rooms, without their moves (for the lobby)."""

    @abstractmethod
    async def profile(self, nickname: str, recent: int) -> dict[str, Any] | None:
        """A player's ratings per game and their latest finished games, or None."""

    @abstractmethod
    async def leaderboard(self, game: str, limit: int, offset: int) -> list[dict[str, Any]]:
        """Rated players of a game, best first (by the conservative estimate)."""

    @abstractmethod
    async def finished_games(self, game: str | None, player: str | None, before: str | None,
                             limit: int) -> tuple[list[dict[str, Any]], str | None]:
        """Finished games, newest first, of one game and/or one player (by nickname), from the
        cursor `before` on; with the cursor of the next page (None on the last). Raises
        UnknownPlayer for a nickname nobody has."""


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


_TOKEN_OWNER = (sa.select(players.c.id, players.c.nickname, players.c.password_hash,
                          tokens.c.last_used_at)
                .join(tokens, tokens.c.player_id == players.c.id)
                .where(tokens.c.token_hash == sa.bindparam("token_hash")))
"""Whose token it is: built once (every player's token is read again each `RECHECK_SECONDS`,
and building the statement cost as much as running it)."""


def _token_owner(row: Sequence[Any] | None) -> TokenOwner | None:
    """A row of `_TOKEN_OWNER` (from SQLAlchemy or straight from the driver) as a TokenOwner."""
    if row is None:
        return None
    pid, nickname, password_hash, last_used = row
    return TokenOwner(int(pid), str(nickname), password_hash is not None, seconds(last_used))


def _stamp(clock: Callable[[], float] = wall_time) -> str:
    """Now, as stored, by `clock` (the storage's: the hall's time source, so a waiting room's
    `updated_at` and the hall's idle cut-off in `Hall.expire_idle_rooms` read one clock)."""
    return stamp(clock())


def _room_values(room: Room, clock: Callable[[], float] = wall_time) -> dict[str, Any]:
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
        "updated_at": _stamp(clock),
        "revision": room.revision,
        "clock": room.time_control.text if room.time_control else None,
        "clock_state": json.dumps(room.clock.to_json()) if room.clock else None,
        "rematch_of": room.rematch_of,
        "rematch": room.rematch,
        "rated": room.rated,
        "ended_at": room.ended_at,
    }


def room_row(room: Room) -> dict[str, Any]:
    """The room's stored row (column values, JSON-ready): what the owner of a room sends the
    other nodes of a cluster with each commit."""
    return _room_values(room)


def room_from_values(values: dict[str, Any]) -> Room:
    """A room without its moves from `room_row` values."""
    return _room_from_row(SimpleNamespace(**values))


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
                rematch_of=row.rematch_of, rematch=row.rematch, rated=row.rated,
                ended_at=row.ended_at)
    room.stored_version = int(row.version)
    room.revision = int(row.revision)
    try:
        room.time_control = parse_control(row.clock)
    except ClockError:
        log.error("room %s has an unknown clock %r: untimed", row.id, row.clock)
    if room.time_control is not None and row.clock_state:
        room.clock = Clock.from_json(room.time_control, json.loads(row.clock_state))
    return room


class SqlStorage(Storage):
    """SQLAlchemy storage: ``sqlite:///file.db`` (default) or ``postgresql+psycopg://…``."""

    def __init__(self, url: str, batch: int = 512, sqlite_sync: str = "normal",
                 clock: Callable[[], float] = wall_time) -> None:
        self.url = url
        self.clock = clock
        """The hall's time source (`create_app` passes the hall's): every stamp stored reads it."""
        self.sqlite_sync = sqlite_sync
        self.batch = batch
        self.engine: Engine | None = None
        self._writer_pool = ThreadPoolExecutor(1, thread_name_prefix="gamehall-db-write")
        self._reader_pool = ThreadPoolExecutor(2, thread_name_prefix="gamehall-db-read")
        self._room_loads: Coalescer[str, Room] = Coalescer(self._load_rooms)
        self._fences: Coalescer[str, int] = Coalescer(self._room_fences)
        self._queue: asyncio.Queue[_Write]
        self._task: asyncio.Task[None] | None = None
        self._writer: Connection | None = None
        """The writer thread's connection, kept between commits (`_writing`)."""
        self._here: LoopConnection | None = None
        """On PostgreSQL (psycopg), the event loop's own connection for `_commit_in_one`."""
        self._reads_here: LoopConnection | None = None
        """And another for `token_owner` (a look-up waits for no commit)."""
        self._busy = False
        """Whether the write loop is committing a batch (`close` waits for it)."""
        self._readers = threading.local()
        """Each reader thread's connection (`_reading`)."""
        self._reader_conns: list[Connection] = []
        """Every reader thread's connection, closed with the storage."""
        self._readers_lock = threading.Lock()
        self.stats: dict[str, float] = {"batches": 0, "writes": 0, "commit_seconds": 0.0,
                                        "max_commit_seconds": 0.0, "updates_only": 0,
                                        "one_statement": 0}
        """Group-commit figures since start (GET /api/health shows them); `updates_only`: the
        batches committed without the general path, `one_statement` of them in one statement
        on the event loop (`_commit_in_one`), the others by `_commit_updates`."""

    # --- lifecycle -----------------------------------------------------------------------------
    async def open(self) -> None:
        self.engine = make_engine(self.url, self.sqlite_sync)
        if self.engine.dialect.driver == "psycopg":  # its casts type every parameter (a column
            self._here = LoopConnection(self.engine)  # of NULLs in UNION ALL too)
            self._reads_here = LoopConnection(self.engine)
        await asyncio.get_running_loop().run_in_executor(
            self._writer_pool, upgrade_schema, self.engine)
        self._queue = asyncio.Queue()
        self._task = asyncio.create_task(self._write_loop(), name="gamehall-db-writer")

    async def close(self) -> None:
        if self._task is not None:
            while not self._queue.empty() or self._busy:  # the batch on its way lands too
                await asyncio.sleep(0.01)
            self._task.cancel()
        for here in (self._here, self._reads_here):
            if here is not None:
                await here.close()
        await asyncio.get_running_loop().run_in_executor(self._writer_pool, self._drop_writer)
        self._writer_pool.shutdown(wait=True)
        self._reader_pool.shutdown(wait=True)
        for conn in self._reader_conns:  # the reader threads have ended
            with contextlib.suppress(Exception):
                conn.close()
        self._reader_conns.clear()
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
            self._busy = True
            while not self._queue.empty() and len(batch) < self.batch:
                batch.append(self._queue.get_nowait())
            try:
                results = await self._commit_in_one(batch)
                if not isinstance(results, list):  # unmatched (False): the general path
                    results = await loop.run_in_executor(self._writer_pool, self._commit, batch,
                                                         results is False)
            except Exception:  # one bad write must not fail the others: retry each alone
                results = []
                for op in batch:
                    try:
                        results += await loop.run_in_executor(self._writer_pool, self._commit,
                                                              [op])
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
            self._busy = False

    def _writing(self) -> Connection:
        """The writer thread's own connection, kept open between commits: a commit pays no pool
        checkout and no liveness ping (on PostgreSQL a round trip, a sixth of a move's commit).
        One that failed is dropped (`_commit`), and the write loop's retry checks out a new one
        (pinged, as every checkout is)."""
        assert self.engine is not None
        if self._writer is None:
            self._writer = self.engine.connect()
        return self._writer

    def _drop_writer(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        self._writer = None

    def _commit(self, batch: list[_Write], general: bool = False) -> list[BaseException | None]:
        """One transaction for the whole batch, with one statement per kind of row: few round
        trips through the driver, so the writer thread needs the GIL rarely. Returns each write's
        failure (a `Fenced` refusal) or None; the others commit. `general`: straight to the
        general path (the batch's rooms are known not to match as they are)."""
        start = time.perf_counter()
        conn = self._writing()
        try:
            results: list[BaseException | None] | None = None
            if not general and _updates_only(batch):
                try:
                    with conn.begin():
                        results = self._commit_updates(conn, batch)
                except _NotOnlyUpdates:
                    results = None
                self.stats["updates_only"] += results is not None
            if results is None:
                with conn.begin():
                    results = self._commit_on(conn, batch)
        except BaseException:
            self._drop_writer()
            raise
        self._count(batch, start)
        return results

    def _count(self, batch: list[_Write], start: float) -> None:
        """Add a committed batch, begun at `start`, to the figures (`stats`)."""
        took = time.perf_counter() - start
        st = self.stats
        st["batches"] += 1
        st["writes"] += len(batch)
        st["commit_seconds"] += took
        st["max_commit_seconds"] = max(st["max_commit_seconds"], took)

    def _commit_on(self, conn: Connection, batch: list[_Write]) -> list[BaseException | None]:
        """The batch's statements, inside `_commit`'s transaction."""
        for op in batch:
            if op.fn is not None:
                op.fn(conn)
        ids = sorted({row["id"] for op in batch for row, _ in _rows(op)}
                     | {op.claim[0] for op in batch if op.claim is not None})
        stored: dict[str, int] = {}
        if ids:  # locked (in one order on every node) until the commit
            stored = {r.id: int(r.fence) for r in conn.execute(
                sa.select(rooms.c.id, rooms.c.fence).where(rooms.c.id.in_(ids))
                .order_by(rooms.c.id).with_for_update())}
        self._claim(conn, batch, stored)
        results: list[BaseException | None] = []
        accepted: list[_Write] = []
        for op in batch:
            behind = [Fenced(row["id"], fence, stored[row["id"]]) for row, fence in _rows(op)
                      if fence is not None and stored.get(row["id"], -1) > fence]
            results.append(behind[0] if behind else None)  # all of a write, or none of it
            if not behind:
                accepted.append(op)
        self._write_rooms(conn, accepted, stored)
        _add_moves_and_chat(conn, accepted)
        for op in accepted:
            if op.after is not None:
                op.after(conn)
        return results

    ONE_STATEMENT_MOVES = 8
    """The most moves a batch may carry to be committed in one statement (each count of moves
    is a statement of its own, compiled once)."""

    async def _commit_in_one(self, batch: list[_Write]
                             ) -> list[BaseException | None] | bool | None:
        """PostgreSQL, a batch of `_updates_only` changing one room (a move, almost always): the
        room's fenced update and the insert of its moves in one statement
        (`_compiled_room_and_moves`), sent by the event loop itself on a connection of its own
        in autocommit: the commit is one round trip, with no thread to wake and no GIL to wait
        for on either side of it (`loopdb`). Each write's result (all None) once committed.
        False when the room's row did not match (a room not stored yet, or a fence passed: the
        statement then changed nothing): the writer thread's general path then takes the batch
        and says which write failed. None where this does not apply (another database or
        driver, several rooms, chat, many moves) or when the statement failed (its connection
        is dropped): the writer thread then takes the batch as it would any other (`_commit`).
        Taken apart, the same commit is BEGIN, the update, the insert and COMMIT: four round
        trips."""
        assert self.engine is not None
        if self._here is None or not _updates_only(batch):
            return None
        latest = _latest_rows(batch)
        moves = [row for op in batch for row in op.actions]
        if (len(latest) != 1 or len(moves) > self.ONE_STATEMENT_MOVES
                or any(op.chat is not None for op in batch)):
            return None
        start = time.perf_counter()
        [(key, (values, fence))] = latest.items()
        room = _room_params(key, values, fence)
        stmt = _compiled_room_and_moves(self.engine.dialect, list(room), fence is not None,
                                        list(moves[0]) if moves else [], len(moves))
        params = dict(room)
        for i, move in enumerate(moves):
            params.update({f"m{i}_{n}": x for n, x in move.items()})
        try:
            matched = (await self._here.execute(stmt.text, stmt.bind(params))).rowcount \
                == max(1, len(moves))
        except Exception:
            log.warning("a one-statement commit failed; the writer thread takes it",
                        exc_info=True)
            return None
        if not matched:
            return False
        self.stats["updates_only"] += 1
        self.stats["one_statement"] += 1
        self._count(batch, start)
        return [None] * len(batch)

    @staticmethod
    def _commit_updates(conn: Connection, batch: list[_Write]) -> list[BaseException | None]:
        """A batch of changes to stored rooms (`_updates_only`: a move, almost always), in two
        statements and no lock taken first: each room's update locks its row and checks its
        fence itself. When a row does not match (a room not stored yet, or a fence passed),
        `_NotOnlyUpdates` rolls the batch back for `_commit_on`, which says which write failed.

        Its statements, like the general path's, are compiled by SQLAlchemy once (`_compiled`)
        and run on the driver's cursor: on PostgreSQL a one-move commit took 2.3 ms of the
        node's CPU and 0.8 ms of the database's locked first and through SQLAlchemy's execution,
        and takes 0.8 and 0.4 ms so (benchmarks/README.md)."""
        latest = _latest_rows(batch)
        if not _update_rooms(conn, latest, sorted(latest)):  # sorted: one order on every node,
            raise _NotOnlyUpdates                            # no deadlock between two batches
        _add_moves_and_chat(conn, batch)
        return [None] * len(batch)

    @staticmethod
    def _claim(conn: Connection, batch: list[_Write], stored: dict[str, int]) -> None:
        """Carry out the batch's claims on the locked rows (`stored` follows them)."""
        raised: list[dict[str, Any]] = []
        for op in batch:
            if op.claim is None:
                continue
            room_id, fence = op.claim
            op.claimed = stored[room_id] if stored.get(room_id, fence) < fence else None
            if op.claimed is not None:
                stored[room_id] = fence
                raised.append({"room_key": room_id, "fence": fence})
        if raised:
            conn.execute(rooms.update().where(rooms.c.id == sa.bindparam("room_key"))
                         .values(fence=sa.bindparam("fence")), raised)

    @staticmethod
    def _write_rooms(conn: Connection, batch: list[_Write], stored: dict[str, int]) -> None:
        """Insert new room rows and update the others (a later snapshot of a room wins); a
        fenced update also requires the stored fence to be at most its own, in the statement."""
        latest = _latest_rows(batch)
        new = [{**values, "fence": fence or 0} for k, (values, fence) in latest.items()
               if k not in stored]
        if new:
            conn.execute(rooms.insert(), new)
        if not _update_rooms(conn, latest, [k for k in latest if k in stored]):
            raise RuntimeError("a room update matched no row")  # impossible under the locks

    async def _read(self, fn: Callable[[Connection], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._reader_pool, self._run_read,
                                                                fn)

    def _run_read(self, fn: Callable[[Connection], T]) -> T:
        """On a reader thread: `fn` on the thread's own connection (`_reading`). A connection
        that fails is dropped and the read, which changes nothing, is tried once more on a new
        one (checked out and pinged, as every checkout is)."""
        try:
            return fn(self._reading())
        except sa.exc.DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            self._drop_reader()
            return fn(self._reading())

    def _reading(self) -> Connection:
        """The reader thread's own connection, in autocommit: a read is its statements alone,
        with no pool checkout, no liveness ping and no rollback on return (on PostgreSQL two
        round trips more per read, and as much CPU as the read itself)."""
        assert self.engine is not None
        conn: Connection | None = getattr(self._readers, "conn", None)
        if conn is None or conn.closed:
            conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            self._readers.conn = conn
            with self._readers_lock:
                self._reader_conns.append(conn)
        return conn

    def _drop_reader(self) -> None:
        conn: Connection | None = getattr(self._readers, "conn", None)
        self._readers.conn = None
        if conn is not None:
            with self._readers_lock:
                if conn in self._reader_conns:
                    self._reader_conns.remove(conn)
            with contextlib.suppress(Exception):
                conn.close()

    # --- players -------------------------------------------------------------------------------
    async def add_player(self, nickname: str, token_hash: str, at: str | None = None) -> int:
        out: list[int] = []
        when = at or _stamp(self.clock)

        def insert(conn: Connection) -> None:
            key = nickname.lower()
            if conn.execute(sa.select(players.c.id).where(players.c.nickname_key == key)).first():
                raise NicknameTaken(nickname)
            res = conn.execute(players.insert().values(
                nickname=nickname, nickname_key=key, created_at=when))
            key_row = res.inserted_primary_key
            assert key_row is not None
            pid = int(key_row[0])
            conn.execute(tokens.insert().values(token_hash=token_hash, player_id=pid,
                                                created_at=when, last_used_at=when))
            out[:] = [pid]

        await self._write(_Write(fn=insert))
        return out[0]

    async def token_owner(self, token_hash: str) -> TokenOwner | None:
        """On PostgreSQL sent by the event loop itself (`loopdb`), as a move's commit is: a
        player's token is read again every `RECHECK_SECONDS`, before that player's next move
        or message is taken. If that fails, a reader thread reads it."""
        if self._reads_here is not None:
            assert self.engine is not None
            stmt = _compile(self.engine.dialect, ("token owner",), lambda: _TOKEN_OWNER)
            try:
                cur = await self._reads_here.execute(stmt.text,
                                                     stmt.bind({"token_hash": token_hash}))
                found = await cur.fetchone()
            except Exception:
                log.warning("a token look-up on the event loop failed; a reader thread makes it",
                            exc_info=True)
            else:
                return _token_owner(found)

        def select(conn: Connection) -> TokenOwner | None:
            return _token_owner(conn.execute(_TOKEN_OWNER, {"token_hash": token_hash}).first())

        return await self._read(select)

    async def add_token(self, player_id: int, token_hash: str, at: str) -> None:
        def insert(conn: Connection) -> None:
            conn.execute(tokens.insert().values(token_hash=token_hash, player_id=player_id,
                                                created_at=at, last_used_at=at))

        await self._write(_Write(fn=insert))

    async def touch_token(self, token_hash: str, at: str) -> None:
        def update(conn: Connection) -> None:
            conn.execute(tokens.update().where(tokens.c.token_hash == token_hash)
                         .values(last_used_at=at))

        await self._write(_Write(fn=update))

    async def revoke_token(self, token_hash: str) -> None:
        def delete(conn: Connection) -> None:
            conn.execute(tokens.delete().where(tokens.c.token_hash == token_hash))

        await self._write(_Write(fn=delete))

    async def revoke_tokens(self, player_id: int, keep: str | None = None) -> None:
        def delete(conn: Connection) -> None:
            q = tokens.delete().where(tokens.c.player_id == player_id)
            if keep is not None:
                q = q.where(tokens.c.token_hash != keep)
            conn.execute(q)

        await self._write(_Write(fn=delete))

    async def account(self, nickname: str) -> AccountRow | None:
        if not _searchable(nickname):
            return None

        def select(conn: Connection) -> AccountRow | None:
            row = conn.execute(sa.select(players.c.id, players.c.nickname,
                                         players.c.password_hash, players.c.bot)
                               .where(players.c.nickname_key == nickname.lower())).first()
            if row is None:
                return None
            return AccountRow(int(row.id), str(row.nickname), row.password_hash, row.bot)

        return await self._read(select)

    async def set_password(self, player_id: int, password_hash: str) -> None:
        def update(conn: Connection) -> None:
            conn.execute(players.update().where(players.c.id == player_id)
                         .where(players.c.bot.is_(None)).values(password_hash=password_hash))

        await self._write(_Write(fn=update))

    async def accounts_among(self, player_ids: Sequence[int]) -> set[int]:
        ids = list(player_ids)
        if not ids:
            return set()

        def select(conn: Connection) -> set[int]:
            q = sa.select(players.c.id).where(players.c.id.in_(ids)) \
                .where(players.c.password_hash.is_not(None))
            return {int(r.id) for r in conn.execute(q)}

        return await self._read(select)

    # --- rooms ---------------------------------------------------------------------------------
    async def save_room(self, room: Room, new_moves: Sequence[Move] = (),
                        finished: bool = False,
                        fence: int | None = None) -> list[dict[str, Any]] | None:
        values = _room_values(room, self.clock)
        rows = _action_rows(room, new_moves)
        if not finished or room.status != FINISHED:
            await self._write(_Write(room=values, actions=rows, fence=fence))
            return None
        ending = _Ending.of(room, self.clock)
        changes: list[list[dict[str, Any]] | None] = [None]

        def record(conn: Connection) -> None:
            changes[0] = ending.record(conn)

        await self._write(_Write(room=values, actions=rows, after=record, fence=fence))
        return changes[0]

    async def claim_room(self, room_id: str, fence: int) -> int | None:
        op = _Write(claim=(room_id, fence))
        await self._write(op)
        return op.claimed

    async def room_fence(self, room_id: str) -> int | None:
        return await self._fences.get(room_id)

    async def _room_fences(self, room_ids: list[str]) -> dict[str, int]:
        def select(conn: Connection) -> dict[str, int]:
            q = sa.select(rooms.c.id, rooms.c.fence).where(rooms.c.id.in_(room_ids))
            return {r.id: int(r.fence) for r in conn.execute(q)}

        return await self._read(select)

    async def save_rooms(self, rooms: Sequence[tuple[Room, Sequence[Move]]],
                         fences: Sequence[int | None] = ()) -> None:
        await self._write(_Write(more_rooms=[_room_values(r, self.clock) for r, _ in rooms],
                                 more_fences=list(fences) or [None] * len(rooms),
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

    async def add_chat(self, room_id: str, line: ChatLine, keep: int | None = None) -> None:
        def prune(conn: Connection) -> None:
            assert keep is not None
            oldest_kept = (sa.select(chat.c.id).where(chat.c.room_id == room_id)
                           .order_by(chat.c.id.desc()).limit(1).offset(keep - 1)
                           .scalar_subquery())
            conn.execute(chat.delete().where(chat.c.room_id == room_id,
                                             chat.c.id < oldest_kept))

        await self._write(_Write(chat={"room_id": room_id, "sender": line.sender,
                                       "text": line.text, "at": line.at},
                                 after=prune if keep is not None else None))

    async def recent_chat(self, room_id: str, limit: int) -> list[ChatLine]:
        def select(conn: Connection) -> list[ChatLine]:
            rows = conn.execute(sa.select(chat).where(chat.c.room_id == room_id)
                                .order_by(chat.c.id.desc()).limit(limit)).all()
            return [ChatLine(r.sender, r.text, r.at) for r in reversed(rows)]

        return await self._read(select)

    async def load_room(self, room_id: str) -> Room | None:
        return await self._room_loads.get(room_id)

    async def _load_rooms(self, room_ids: list[str]) -> dict[str, Room]:
        """Rooms as stored, rebuilt (a room that cannot be is logged and left out): three
        queries whatever their number."""
        Found = tuple[list[Any], dict[str, list[Any]], dict[str, list[dict[str, Any]]]]

        def select(conn: Connection) -> Found:
            rows = list(conn.execute(sa.select(rooms).where(rooms.c.id.in_(room_ids))))
            moves: dict[str, list[Any]] = {r.id: [] for r in rows}
            if rows:
                for m in conn.execute(sa.select(actions)
                                      .where(actions.c.room_id.in_(list(moves)))
                                      .order_by(actions.c.room_id, actions.c.idx)):
                    moves[m.room_id].append(m)
            ended = [r.id for r in rows if r.status == FINISHED]
            return rows, moves, _rating_changes_of(conn, ended)

        rows, moves, changes = await self._read(select)
        out: dict[str, Room] = {}
        for row in rows:
            try:
                room = _room_from_row(row)
                room.rating_changes = changes.get(row.id)
                room.replay([Move(m.seat, m.action, m.move) for m in moves[row.id]])
            except GamehallError as exc:
                log.error("room %s cannot be rebuilt: %s", row.id, exc)
                continue
            out[row.id] = room
        return out

    async def active_room_ids(self, include_waiting: bool = True) -> list[str]:
        def select(conn: Connection) -> list[str]:
            q = sa.select(rooms.c.id).where(rooms.c.status != "finished")
            if not include_waiting:
                q = q.where(rooms.c.status != "waiting")
            return [r.id for r in conn.execute(q)]

        return await self._read(select)

    async def idle_waiting(self, before: str, limit: int) -> list[str]:
        def select(conn: Connection) -> list[str]:
            q = (sa.select(rooms.c.id).where(rooms.c.status == "waiting",
                                             rooms.c.updated_at < before)
                 .order_by(rooms.c.updated_at).limit(limit))
            return [r.id for r in conn.execute(q)]

        return await self._read(select)

    async def drop_waiting(self, room_id: str, before: str, fence: int | None = None) -> bool:
        dropped: list[bool] = []

        def delete(conn: Connection) -> None:
            q = sa.select(rooms.c.id).where(rooms.c.id == room_id, rooms.c.status == "waiting",
                                            rooms.c.updated_at < before)
            if fence is not None:
                q = q.where(rooms.c.fence <= fence)
            idle = conn.execute(q.with_for_update()).first()
            if idle is not None:
                conn.execute(chat.delete().where(chat.c.room_id == room_id))
                conn.execute(rooms.delete().where(rooms.c.id == room_id))
            dropped.append(idle is not None)

        await self._write(_Write(fn=delete))
        return dropped[-1]  # the attempt that committed (a failed batch is retried)

    async def count_waiting(self, created_by: str) -> int:
        def select(conn: Connection) -> int:
            q = sa.select(sa.func.count()).select_from(rooms).where(
                rooms.c.status == "waiting", rooms.c.created_by == created_by)
            return int(conn.execute(q).scalar_one())

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

    # --- profiles, leaderboards, the archive ----------------------------------------------------
    async def profile(self, nickname: str, recent: int) -> dict[str, Any] | None:
        if not _searchable(nickname):
            return None

        def select(conn: Connection) -> dict[str, Any] | None:
            who = conn.execute(sa.select(players).where(
                players.c.nickname_key == nickname.lower())).first()
            if who is None:
                return None
            rows = conn.execute(sa.select(ratings).where(ratings.c.player_id == who.id)
                                .where(ratings.c.games > 0).order_by(ratings.c.game)).all()
            games = _games_of(conn, [who.id], None, None, recent)
            return {
                "nickname": who.nickname,
                "account": who.password_hash is not None,
                "bot": who.bot,
                "since": who.created_at,
                "ratings": {r.game: _rating(r).to_json() for r in rows},
                "recent": [_for_player(g, who.id) for g in games],
            }

        return await self._read(select)

    async def leaderboard(self, game: str, limit: int, offset: int) -> list[dict[str, Any]]:
        def select(conn: Connection) -> list[dict[str, Any]]:
            order = (ratings.c.mu - 3 * ratings.c.sigma).desc()
            q = (sa.select(players.c.nickname, players.c.bot, ratings)
                 .join(players, players.c.id == ratings.c.player_id)
                 .where(ratings.c.game == game).where(ratings.c.games > 0)
                 .order_by(order, ratings.c.mu.desc(), players.c.nickname_key)
                 .limit(limit).offset(offset))
            return [{"rank": offset + i + 1, "nickname": r.nickname, "bot": r.bot,
                     **_rating(r).to_json()} for i, r in enumerate(conn.execute(q))]

        return await self._read(select)

    async def finished_games(self, game: str | None, player: str | None, before: str | None,
                             limit: int) -> tuple[list[dict[str, Any]], str | None]:
        def select(conn: Connection) -> tuple[list[dict[str, Any]], str | None]:
            ids: list[int] | None = None
            if player is not None:
                if not _searchable(player):
                    raise UnknownPlayer(player)
                pid = conn.execute(sa.select(players.c.id).where(
                    players.c.nickname_key == player.lower())).scalar()
                if pid is None:
                    raise UnknownPlayer(player)
                ids = [int(pid)]
            found = _games_of(conn, ids, game, _cursor(before), limit + 1)
            more = len(found) > limit
            found = found[:limit]
            page = [{k: v for k, v in g.items() if k != "player_ids"} for g in found]
            last = found[-1] if more else None
            return page, f"{last['ended_at']}~{last['room']}" if last else None

        return await self._read(select)


def _cursor(text: str | None) -> tuple[str, str] | None:
    """An archive cursor (`ended_at~room`) read back; a malformed one starts from the top."""
    if not text or "~" not in text or not _searchable(text):
        return None
    ended, _, room = text.rpartition("~")
    return ended, room


def _searchable(text: str) -> bool:
    """Whether a client's text can be looked up at all (PostgreSQL refuses NUL characters in
    text, so such a nickname matches nobody rather than failing the query)."""
    return "\x00" not in text


def _rating(row: Any) -> rating_model.Rating:
    return rating_model.Rating(float(row.mu), float(row.sigma), int(row.games))


def _games_of(conn: Connection, player_ids: list[int] | None, game: str | None,
              before: tuple[str, str] | None, limit: int) -> list[dict[str, Any]]:
    """Finished games newest first (of some players, of one game), each with its seats."""
    q = sa.select(rooms).where(rooms.c.status == FINISHED).where(rooms.c.ended_at.is_not(None))
    if player_ids is not None:
        q = q.where(rooms.c.id.in_(sa.select(game_players.c.room_id)
                                   .where(game_players.c.player_id.in_(player_ids))))
    if game is not None:
        q = q.where(rooms.c.game == game)
    if before is not None:
        q = q.where(sa.or_(rooms.c.ended_at < before[0],
                           sa.and_(rooms.c.ended_at == before[0], rooms.c.id < before[1])))
    found = conn.execute(q.order_by(rooms.c.ended_at.desc(), rooms.c.id.desc())
                         .limit(limit)).all()
    seats: dict[str, dict[int, Any]] = {}
    if found:
        for r in conn.execute(sa.select(game_players).where(
                game_players.c.room_id.in_([f.id for f in found]))):
            seats.setdefault(r.room_id, {})[int(r.seat)] = r
    out = []
    for row in found:
        occupants = [Occupant.from_json(o) if o else None for o in json.loads(row.seats)]
        mine = seats.get(row.id, {})
        out.append({
            "room": row.id, "game": row.game, "players": [o.nickname if o else None
                                                          for o in occupants],
            "scores": json.loads(row.result) if row.result else None,
            "outcome": row.outcome, "ended_by": row.ended_by, "ended_at": row.ended_at,
            "rated": bool(row.rated), "player_ids": {i: int(g.player_id) for i, g in mine.items()},
            "ratings": {i: (g.rating_before, g.rating_after) for i, g in mine.items()
                        if g.rating_before is not None},
        })
    return out


def _for_player(game: dict[str, Any], player_id: int) -> dict[str, Any]:
    """An archive line as one player's profile shows it: their seat, result, rating change."""
    seat = next((i for i, p in game["player_ids"].items() if p == player_id), None)
    scores = game["scores"]
    change = game["ratings"].get(seat) if seat is not None else None
    return {
        **{k: v for k, v in game.items() if k not in ("player_ids", "ratings")},
        "seat": seat,
        "result": rating_model.outcome_word(scores, seat) if scores and seat is not None
        else None,
        "rating": {"before": round(change[0]), "after": round(change[1])} if change else None,
    }


def _rating_changes(conn: Connection, room_id: str) -> list[dict[str, Any]] | None:
    """The rating changes recorded with a room's end, seat by seat (None: not rated)."""
    q = (sa.select(game_players.c.seat, game_players.c.rating_before,
                   game_players.c.rating_after, players.c.nickname)
         .join(players, players.c.id == game_players.c.player_id)
         .where(game_players.c.room_id == room_id)
         .where(game_players.c.rating_before.is_not(None))
         .order_by(game_players.c.seat))
    rows = conn.execute(q).all()
    if not rows:
        return None
    return [{"seat": int(r.seat), "player": r.nickname, "before": round(r.rating_before),
             "after": round(r.rating_after)} for r in rows]


def _rating_changes_of(conn: Connection,
                       room_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """`_rating_changes` of several rooms in one query (a room not rated is left out)."""
    if not room_ids:
        return {}
    q = (sa.select(game_players.c.room_id, game_players.c.seat, game_players.c.rating_before,
                   game_players.c.rating_after, players.c.nickname)
         .join(players, players.c.id == game_players.c.player_id)
         .where(game_players.c.room_id.in_(room_ids))
         .where(game_players.c.rating_before.is_not(None))
         .order_by(game_players.c.room_id, game_players.c.seat))
    out: dict[str, list[dict[str, Any]]] = {}
    for r in conn.execute(q):
        out.setdefault(r.room_id, []).append(
            {"seat": int(r.seat), "player": r.nickname, "before": round(r.rating_before),
             "after": round(r.rating_after)})
    return out


def bot_player(conn: Connection, spec: str, at: str) -> int:
    """The reserved player row of a bot level (made on first use): bots are rated like people,
    per game and level. Its nickname is the bot's seat name (`mcts:hard bot`), which no person
    can register, and it has no password, so nobody signs in as it."""
    found = conn.execute(sa.select(players.c.id).where(players.c.bot == spec)).scalar()
    if found is not None:
        return int(found)
    name = f"{spec} bot"
    res = conn.execute(players.insert().values(nickname=name[:40], nickname_key=name[:40].lower(),
                                               created_at=at, bot=spec))
    key = res.inserted_primary_key
    assert key is not None
    return int(key[0])


@dataclass(frozen=True)
class _Ending:
    """What the commit that ends a game records besides the room row."""

    room_id: str
    game: str
    ended_at: str
    seats: list[Occupant | None]
    result: list[float] | None
    rated: bool

    @classmethod
    def of(cls, room: Room, clock: Callable[[], float]) -> _Ending:
        people = [o for o in room.seats if o is not None and o.bot is None]
        rated = bool(room.rated) and room.ended_by in rating_model.RATED_ENDINGS \
            and room.result is not None and bool(people) and None not in room.seats
        return cls(room.id, room.game_name, room.ended_at or _stamp(clock), list(room.seats),
                   list(room.result) if room.result is not None else None, rated)

    def record(self, conn: Connection) -> list[dict[str, Any]] | None:
        """Who played, and the new ratings of a rated game; the rating changes, seat by seat.
        Run twice for one room (a retried write), it records once."""
        if conn.execute(sa.select(game_players.c.room_id)
                        .where(game_players.c.room_id == self.room_id).limit(1)).first():
            return _rating_changes(conn, self.room_id)
        ids: dict[int, int] = {}
        for i, o in enumerate(self.seats):
            if o is None:
                continue
            pid = o.player_id if o.bot is None else bot_player(conn, o.bot, self.ended_at)
            if pid is not None:
                ids[i] = pid
        pids = set(ids.values())
        before: dict[int, rating_model.Rating] = {}
        after: dict[int, rating_model.Rating] = {}
        if self.rated and self.result is not None:
            q = sa.select(ratings).where(ratings.c.game == self.game) \
                .where(ratings.c.player_id.in_(pids)).with_for_update()
            before = {int(r.player_id): _rating(r) for r in conn.execute(q)}
            known = set(before)
            for pid in pids:
                before.setdefault(pid, rating_model.Rating())
            table = [(ids[i], before[ids[i]]) for i in range(len(self.seats))]
            after = rating_model.rate(table, self.result)
            for pid, new in after.items():
                values = {"mu": new.mu, "sigma": new.sigma, "games": new.games,
                          "updated_at": self.ended_at}
                if pid in known:
                    conn.execute(ratings.update().where(ratings.c.player_id == pid)
                                 .where(ratings.c.game == self.game).values(**values))
                else:
                    conn.execute(ratings.insert().values(player_id=pid, game=self.game,
                                                         **values))
        rows = [{"room_id": self.room_id, "seat": i, "player_id": pid, "game": self.game,
                 "ended_at": self.ended_at,
                 "score": self.result[i] if self.result is not None else None,
                 "rating_before": before[pid].mu if pid in after else None,
                 "rating_after": after[pid].mu if pid in after else None}
                for i, pid in ids.items()]
        if rows:
            conn.execute(game_players.insert(), rows)
        return _rating_changes(conn, self.room_id) if after else None


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
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    return cfg


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
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"),
                         {"key": int.from_bytes(b"gamehall", "big")})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path.resolve()}"


# The bot API's tables (bot accounts, API tokens' scopes, challenges) are part of the schema:
# defined in their own module, over this metadata, and registered here with the rest.
from gamehall.server import bot_store as _bot_store  # noqa: E402,F401
