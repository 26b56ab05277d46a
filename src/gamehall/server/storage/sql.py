"""`SqlStorage`: the `Storage` interface on SQLAlchemy (SQLite by default, PostgreSQL by URL).

It owns the connections and the threads: one writer thread that commits whatever has queued up
in one transaction (group commit, `batch`), reader threads with a connection each, and on
PostgreSQL two connections the event loop drives itself (`loopdb`) for the commonest commit and
look-up. What a batch does on a connection is in `batch`, the tables in `schema`, the room's row
in `rows`, the archive, profiles and ratings in `queries`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from gamehall.core import GamehallError
from gamehall.server.storage.batch import (
    NotOnlyUpdates,
    Write,
    commit_general,
    commit_updates,
    compile_once,
    compiled_room_and_moves,
    latest_rows,
    room_params,
    updates_only,
)
from gamehall.server.storage.coalescer import Coalescer
from gamehall.server.storage.interface import (
    AccountRow,
    ChatLine,
    NicknameTaken,
    Storage,
    TokenOwner,
)
from gamehall.server.storage.loopdb import LoopConnection
from gamehall.server.storage.queries import (
    TOKEN_OWNER,
    Ending,
    archive_page,
    leaderboard_of,
    opening_games,
    profile_of,
    rating_changes_of,
    searchable,
    token_owner_from,
)
from gamehall.server.storage.rows import action_rows, now_stamp, room_from_row, room_values
from gamehall.server.storage.schema import (
    ALIVE,
    actions,
    chat,
    hall_state,
    make_engine,
    players,
    rooms,
    tokens,
    upgrade_schema,
)
from gamehall.server.table.clocks import wall_time
from gamehall.server.table.room import FINISHED, Move, Room

log = logging.getLogger("gamehall.server")
T = TypeVar("T")


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
        self._queue: asyncio.Queue[Write]
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
        on the event loop (`_commit_in_one`), the others by `commit_updates`."""

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
    async def _write(self, op: Write) -> None:
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

    def _commit(self, batch: list[Write], general: bool = False) -> list[BaseException | None]:
        """One transaction for the whole batch, with one statement per kind of row: few round
        trips through the driver, so the writer thread needs the GIL rarely. Returns each write's
        failure (a `Fenced` refusal) or None; the others commit. `general`: straight to the
        general path (the batch's rooms are known not to match as they are)."""
        start = time.perf_counter()
        conn = self._writing()
        try:
            results: list[BaseException | None] | None = None
            if not general and updates_only(batch):
                try:
                    with conn.begin():
                        results = commit_updates(conn, batch)
                except NotOnlyUpdates:
                    results = None
                self.stats["updates_only"] += results is not None
            if results is None:
                with conn.begin():
                    results = commit_general(conn, batch)
        except BaseException:
            self._drop_writer()
            raise
        self._count(batch, start)
        return results

    def _count(self, batch: list[Write], start: float) -> None:
        """Add a committed batch, begun at `start`, to the figures (`stats`)."""
        took = time.perf_counter() - start
        st = self.stats
        st["batches"] += 1
        st["writes"] += len(batch)
        st["commit_seconds"] += took
        st["max_commit_seconds"] = max(st["max_commit_seconds"], took)

    ONE_STATEMENT_MOVES = 8
    """The most moves a batch may carry to be committed in one statement (each count of moves
    is a statement of its own, compiled once)."""

    async def _commit_in_one(self, batch: list[Write]
                            ) -> list[BaseException | None] | bool | None:
        """PostgreSQL, a batch of `updates_only` changing one room (a move, almost always): the
        room's fenced update and the insert of its moves in one statement
        (`compiled_room_and_moves`), sent by the event loop itself on a connection of its own
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
        if self._here is None or not updates_only(batch):
            return None
        latest = latest_rows(batch)
        moves = [row for op in batch for row in op.actions]
        if (len(latest) != 1 or len(moves) > self.ONE_STATEMENT_MOVES
                or any(op.chat is not None for op in batch)):
            return None
        start = time.perf_counter()
        [(key, (values, fence))] = latest.items()
        room = room_params(key, values, fence)
        stmt = compiled_room_and_moves(self.engine.dialect, list(room), fence is not None,
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
        when = at or now_stamp(self.clock)

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

        await self._write(Write(fn=insert))
        return out[0]

    async def token_owner(self, token_hash: str) -> TokenOwner | None:
        """On PostgreSQL sent by the event loop itself (`loopdb`), as a move's commit is: a
        player's token is read again every `RECHECK_SECONDS`, before that player's next move
        or message is taken. If that fails, a reader thread reads it."""
        if self._reads_here is not None:
            assert self.engine is not None
            stmt = compile_once(self.engine.dialect, ("token owner",), lambda: TOKEN_OWNER)
            try:
                cur = await self._reads_here.execute(stmt.text,
                                                     stmt.bind({"token_hash": token_hash}))
                found = await cur.fetchone()
            except Exception:
                log.warning("a token look-up on the event loop failed; a reader thread makes it",
                            exc_info=True)
            else:
                return token_owner_from(found)

        def select(conn: Connection) -> TokenOwner | None:
            return token_owner_from(conn.execute(TOKEN_OWNER, {"token_hash": token_hash}).first())

        return await self._read(select)

    async def add_token(self, player_id: int, token_hash: str, at: str) -> None:
        def insert(conn: Connection) -> None:
            conn.execute(tokens.insert().values(token_hash=token_hash, player_id=player_id,
                                                created_at=at, last_used_at=at))

        await self._write(Write(fn=insert))

    async def touch_token(self, token_hash: str, at: str) -> None:
        def update(conn: Connection) -> None:
            conn.execute(tokens.update().where(tokens.c.token_hash == token_hash)
                         .values(last_used_at=at))

        await self._write(Write(fn=update))

    async def revoke_token(self, token_hash: str) -> None:
        def delete(conn: Connection) -> None:
            conn.execute(tokens.delete().where(tokens.c.token_hash == token_hash))

        await self._write(Write(fn=delete))

    async def revoke_tokens(self, player_id: int, keep: str | None = None) -> None:
        def delete(conn: Connection) -> None:
            q = tokens.delete().where(tokens.c.player_id == player_id)
            if keep is not None:
                q = q.where(tokens.c.token_hash != keep)
            conn.execute(q)

        await self._write(Write(fn=delete))

    async def account(self, nickname: str) -> AccountRow | None:
        if not searchable(nickname):
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

        await self._write(Write(fn=update))

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
        values = room_values(room, self.clock)
        rows = action_rows(room, new_moves)
        if not finished or room.status != FINISHED:
            await self._write(Write(room=values, actions=rows, fence=fence))
            return None
        ending = Ending.of(room, self.clock)
        changes: list[list[dict[str, Any]] | None] = [None]

        def record(conn: Connection) -> None:
            changes[0] = ending.record(conn)

        await self._write(Write(room=values, actions=rows, after=record, fence=fence))
        return changes[0]

    async def claim_room(self, room_id: str, fence: int) -> int | None:
        op = Write(claim=(room_id, fence))
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
        await self._write(Write(more_rooms=[room_values(r, self.clock) for r, _ in rooms],
                                more_fences=list(fences) or [None] * len(rooms),
                                actions=[a for r, m in rooms for a in action_rows(r, m)]))

    async def mark_alive(self, at: float) -> None:
        def upsert(conn: Connection) -> None:
            done = conn.execute(hall_state.update().where(hall_state.c.key == ALIVE)
                                .values(value=repr(at)))
            if not done.rowcount:
                conn.execute(hall_state.insert().values(key=ALIVE, value=repr(at)))

        await self._write(Write(fn=upsert))

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

        await self._write(Write(chat={"room_id": room_id, "sender": line.sender,
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
            return rows, moves, rating_changes_of(conn, ended)

        rows, moves, changes = await self._read(select)
        out: dict[str, Room] = {}
        for row in rows:
            try:
                room = room_from_row(row)
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

        await self._write(Write(fn=delete))
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
                out.append(room_from_row(row))
            except GamehallError:
                continue  # a game no longer installed: not listed
        return out

    # --- profiles, leaderboards, the archive (their statements: `queries`) --------------------
    async def profile(self, nickname: str, recent: int) -> dict[str, Any] | None:
        if not searchable(nickname):
            return None
        return await self._read(lambda conn: profile_of(conn, nickname, recent))

    async def leaderboard(self, game: str, limit: int, offset: int) -> list[dict[str, Any]]:
        return await self._read(lambda conn: leaderboard_of(conn, game, limit, offset))

    async def openings(self, game: str, limit: int, depth: int) -> list[dict[str, Any]]:
        return await self._read(lambda conn: opening_games(conn, game, limit, depth))

    async def finished_games(self, game: str | None, player: str | None, before: str | None,
                             limit: int) -> tuple[list[dict[str, Any]], str | None]:
        return await self._read(lambda conn: archive_page(conn, game, player, before, limit))
