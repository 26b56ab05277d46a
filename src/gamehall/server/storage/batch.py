"""Group commit: the queued write, how a batch of them is committed in one transaction, and the
statements compiled once per dialect that the short paths run straight on the driver's cursor.

Writes from every room go through one writer that commits whatever has queued up in a single
transaction, so durable writes stay cheap under load. `SqlStorage` owns the queue and the
connections; this module says what one batch does on a connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Dialect

from gamehall.server.storage.interface import Fenced
from gamehall.server.storage.schema import actions, chat, rooms


@dataclass
class Write:
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


def room_rows(op: Write) -> list[tuple[dict[str, Any], int | None]]:
    """The room rows a write carries, each with its fence."""
    out = [(op.room, op.fence)] if op.room is not None else []
    return out + list(zip(op.more_rooms, op.more_fences or [None] * len(op.more_rooms),
                          strict=True))


class NotOnlyUpdates(Exception):
    """`commit_updates` met a room it cannot update as it is: take the general path."""


def updates_only(batch: list[Write]) -> bool:
    """Whether every write of the batch only changes rooms (and adds their moves and chat):
    nothing to claim, no function to run, nothing to do after the rows are written, and each
    room written under one fence (the short paths check the fence of a room's last row only)."""
    fences: dict[str, int | None] = {}
    return all(op.fn is None and op.claim is None and op.after is None
               and (op.room is not None or op.more_rooms) for op in batch) \
        and all(fences.setdefault(row["id"], fence) == fence
                for op in batch for row, fence in room_rows(op))


@dataclass(frozen=True)
class Statement:
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


_COMPILED: dict[tuple[Any, ...], Statement] = {}


def _room_update(names: Sequence[str], fenced: bool) -> Any:
    """The update of one stored room's row to values named `names` (its id is `room_key`);
    fenced: only where the stored fence is at most `fence_max`, checked in the statement."""
    cols: dict[str, Any] = {n: sa.bindparam(n) for n in names
                            if n not in ("room_key", "fence_max")}
    stmt = rooms.update().where(rooms.c.id == sa.bindparam("room_key")).values(cols)
    return stmt.where(rooms.c.fence <= sa.bindparam("fence_max")) if fenced else stmt


def compile_once(dialect: Dialect, key: tuple[Any, ...], build: Callable[[], Any]) -> Statement:
    """`build()`'s statement compiled for `dialect`, once per `key`."""
    key = (dialect.name, *key)
    found = _COMPILED.get(key)
    if found is None:
        done = build().compile(dialect=dialect)
        found = _COMPILED[key] = Statement(
            str(done), tuple(done.positiontup or ()) if done.positional else None)
    return found


def compiled(conn: Connection, kind: str, names: Sequence[str]) -> Statement:
    """`kind` ("actions", "plain" or "fenced" room update) for rows with these keys, compiled
    from the tables above by SQLAlchemy (once per dialect and set of keys)."""
    def build() -> Any:
        if kind == "actions":
            return actions.insert().values({n: sa.bindparam(n) for n in names})
        return _room_update(names, kind == "fenced")
    return compile_once(conn.dialect, (kind, tuple(names)), build)


def compiled_room_and_moves(dialect: Dialect, room_names: Sequence[str], fenced: bool,
                            move_names: Sequence[str], count: int) -> Statement:
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
    return compile_once(
        dialect, ("room+moves", tuple(room_names), fenced, tuple(move_names), count), build)


def latest_rows(batch: Sequence[Write]) -> dict[str, tuple[dict[str, Any], int | None]]:
    """Each room's row as the batch leaves it (a later snapshot of a room wins), with the fence
    it is written under."""
    return {values["id"]: (values, fence) for op in batch for values, fence in room_rows(op)}


def _driver_cursor(conn: Connection) -> contextlib.closing[Any]:
    driver = conn.connection.driver_connection
    assert driver is not None
    return contextlib.closing(driver.cursor())


def room_params(key: str, values: dict[str, Any], fence: int | None) -> dict[str, Any]:
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
        (plain if fence is None else fenced).append(room_params(k, values, fence))
    with _driver_cursor(conn) as cur:
        return all(not rows or compiled(conn, kind, list(rows[0])).run(cur, rows) == len(rows)
                   for kind, rows in (("plain", plain), ("fenced", fenced)))


def _add_moves_and_chat(conn: Connection, batch: Sequence[Write]) -> None:
    """Insert the batch's action rows and chat lines."""
    moves = [row for op in batch for row in op.actions]
    if moves:
        with _driver_cursor(conn) as cur:
            compiled(conn, "actions", list(moves[0])).run(cur, moves)
    lines = [op.chat for op in batch if op.chat is not None]
    if lines:
        conn.execute(chat.insert(), lines)


def _claim(conn: Connection, batch: list[Write], stored: dict[str, int]) -> None:
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


def _write_rooms(conn: Connection, batch: list[Write], stored: dict[str, int]) -> None:
    """Insert new room rows and update the others (a later snapshot of a room wins); a
    fenced update also requires the stored fence to be at most its own, in the statement."""
    latest = latest_rows(batch)
    new = [{**values, "fence": fence or 0} for k, (values, fence) in latest.items()
           if k not in stored]
    if new:
        conn.execute(rooms.insert(), new)
    if not _update_rooms(conn, latest, [k for k in latest if k in stored]):
        raise RuntimeError("a room update matched no row")  # impossible under the locks


def commit_updates(conn: Connection, batch: list[Write]) -> list[BaseException | None]:
    """A batch of changes to stored rooms (`updates_only`: a move, almost always), in two
    statements and no lock taken first: each room's update locks its row and checks its
    fence itself. When a row does not match (a room not stored yet, or a fence passed),
    `NotOnlyUpdates` rolls the batch back for `commit_general`, which says which write failed.

    Its statements, like the general path's, are compiled by SQLAlchemy once (`compiled`)
    and run on the driver's cursor: on PostgreSQL a one-move commit took 2.3 ms of the
    node's CPU and 0.8 ms of the database's locked first and through SQLAlchemy's execution,
    and takes 0.8 and 0.4 ms so (benchmarks/README.md)."""
    latest = latest_rows(batch)
    if not _update_rooms(conn, latest, sorted(latest)):  # sorted: one order on every node,
        raise NotOnlyUpdates                             # no deadlock between two batches
    _add_moves_and_chat(conn, batch)
    return [None] * len(batch)


def commit_general(conn: Connection, batch: list[Write]) -> list[BaseException | None]:
    """The batch's statements, inside `SqlStorage._commit`'s transaction: locks the rooms'
    rows, carries out claims, refuses a write behind a room's fence and commits the others."""
    for op in batch:
        if op.fn is not None:
            op.fn(conn)
    ids = sorted({row["id"] for op in batch for row, _ in room_rows(op)}
                 | {op.claim[0] for op in batch if op.claim is not None})
    stored: dict[str, int] = {}
    if ids:  # locked (in one order on every node) until the commit
        stored = {r.id: int(r.fence) for r in conn.execute(
            sa.select(rooms.c.id, rooms.c.fence).where(rooms.c.id.in_(ids))
            .order_by(rooms.c.id).with_for_update())}
    _claim(conn, batch, stored)
    results: list[BaseException | None] = []
    accepted: list[Write] = []
    for op in batch:
        behind = [Fenced(row["id"], fence, stored[row["id"]]) for row, fence in room_rows(op)
                  if fence is not None and stored.get(row["id"], -1) > fence]
        results.append(behind[0] if behind else None)  # all of a write, or none of it
        if not behind:
            accepted.append(op)
    _write_rooms(conn, accepted, stored)
    _add_moves_and_chat(conn, accepted)
    for op in accepted:
        if op.after is not None:
            op.after(conn)
    return results
