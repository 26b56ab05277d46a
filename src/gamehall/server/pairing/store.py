"""What the hall keeps of its pools (migration 0009): the players waiting, each pool's lease
number, the players held back. In storage, so that a player who joined through any node is
paired by whichever node runs the pool's waves, and a node that dies loses no entry.

An entry is `waiting`, then `pairing` once a wave chose its table (its `room` and `seat`,
written before the room is stored), then `paired` once the room is; or `cancelled`. Every
write of a wave carries the pool's lease number and is refused behind a newer one, so a node
that lost the pool while paused writes nothing. A `pairing` entry is never put back to
waiting: the node that next runs the pool stores its room (the same id; a second store of it
fails), so nobody is paired twice.

A player holds one active entry (waiting or pairing) at a time, whatever the pool: checked in
the join's transaction, with the player's row locked (PostgreSQL), and by a unique partial
index besides.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from gamehall.server.ratings.model import MU
from gamehall.server.storage.extension import SqlExtension
from gamehall.server.storage.schema import (
    players,
    pool_entries,
    pool_fences,
    pool_holds,
    ratings,
    rooms,
    seeks,
)
from gamehall.server.table.statuses import PLAYING

WAITING, PAIRING, PAIRED, CANCELLED = "waiting", "pairing", "paired", "cancelled"
ACTIVE = (WAITING, PAIRING)
OPEN_SEEK = "open"
SEEN_CHUNK = 500
"""Players marked seen in one statement (an IN list no database refuses)."""
ADDRESS_LOCK = "gamehall:pairing-address:"
"""What an address's advisory lock is keyed on, before the address (`lock_address`)."""
"""Players marked seen in one statement (an IN list no database refuses)."""


@dataclass(frozen=True)
class Entry:
    """One player in a pool, as its row says."""

    id: str
    pool: str
    player_id: int
    nickname: str
    address: str
    rating: float
    range: tuple[float, float] | None
    bot_after: float | None
    last: frozenset[int]
    waves: int
    status: str
    room: str | None
    seat: int | None
    joined_at: float
    seen_at: float = 0.0
    """When its player was last seen, while it waits (the row's `updated_at`)."""

    def to_json(self) -> dict[str, Any]:
        """The answer of ``GET /api/pools/entries/{id}`` (a `pairing` entry shows as waiting:
        its room is not stored yet)."""
        status = WAITING if self.status == PAIRING else self.status
        return {"id": self.id, "pool": self.pool, "status": status,
                "room": self.room if status == PAIRED else None,
                "rating": round(self.rating), "waves": self.waves,
                "rating_range": [round(r) for r in self.range] if self.range else None,
                "bot_after_s": round(self.bot_after) if self.bot_after is not None else None}


def _entry(row: Any) -> Entry:
    span = (float(row.range_lo), float(row.range_hi)) if row.range_lo is not None else None
    return Entry(row.id, row.pool, int(row.player_id), row.nickname, row.address,
                 float(row.rating), span,
                 float(row.bot_after) if row.bot_after is not None else None,
                 frozenset(json.loads(row.last)), int(row.waves), row.status, row.room,
                 None if row.seat is None else int(row.seat), float(row.joined_at),
                 float(row.updated_at))


@dataclass(frozen=True)
class JoinLimits:
    """What one player and one address may hold (settings.py)."""

    per_address: int


@dataclass(frozen=True)
class Seat:
    """A wave's choice for one entry: its room and seat."""

    entry: str
    room: str
    seat: int


def rating_in(conn: Connection, player_id: int, game: str) -> float:
    """The player's rating in `game` (the model's mean; a newcomer's is `MU`)."""
    found = conn.execute(sa.select(ratings.c.mu).where(ratings.c.player_id == player_id)
                         .where(ratings.c.game == game)).scalar()
    return float(found) if found is not None else MU


def lock_player(conn: Connection, player_id: int) -> None:
    """Lock the player's row until the transaction ends (PostgreSQL; SQLite has one writer):
    two joins of one player through two nodes are checked one after the other."""
    conn.execute(sa.select(players.c.id).where(players.c.id == player_id).with_for_update())


def seated_in_game(conn: Connection, player_id: int) -> bool:
    """Whether the player holds a seat in a game being played (rooms' stored seats JSON holds
    ``"player_id": N,``)."""
    return conn.execute(sa.select(rooms.c.id).where(rooms.c.status == PLAYING)
                        .where(rooms.c.seats.like(f'%"player_id": {int(player_id)},%'))
                        .limit(1)).first() is not None


def held_until(conn: Connection, player_id: int, now: float) -> float | None:
    """Until when the player is held back from pairing (a no-show), or None."""
    until = conn.execute(sa.select(pool_holds.c.until)
                         .where(pool_holds.c.player_id == player_id)).scalar()
    return float(until) if until is not None and until > now else None


def lock_address(conn: Connection, address: str) -> None:
    """Hold the address until the transaction ends (a PostgreSQL advisory lock on the address's
    hash; SQLite has one writer): joins and seeks of one address through any node count its
    load one after the other, so its cap holds however they race. Taken after the player's
    row, always, so two transactions never wait on each other in a circle."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(
            sa.func.hashtext(f"{ADDRESS_LOCK}{address}"))))


def address_load(conn: Connection, address: str) -> int:
    """The active entries and open seeks of one address (hold `lock_address` first)."""
    entries = conn.execute(sa.select(sa.func.count()).select_from(pool_entries)
                           .where(pool_entries.c.address == address)
                           .where(pool_entries.c.status.in_(ACTIVE))).scalar_one()
    open_seeks = conn.execute(sa.select(sa.func.count()).select_from(seeks)
                              .where(seeks.c.address == address)
                              .where(seeks.c.status == OPEN_SEEK)).scalar_one()
    return int(entries) + int(open_seeks)


def _last_opponents(conn: Connection, player_id: int, pool: str) -> list[int]:
    """Whom the player was paired with last in `pool` (player ids)."""
    room = conn.execute(sa.select(pool_entries.c.room).where(pool_entries.c.pool == pool)
                        .where(pool_entries.c.player_id == player_id)
                        .where(pool_entries.c.status == PAIRED)
                        .order_by(pool_entries.c.updated_at.desc()).limit(1)).scalar()
    if room is None:
        return []
    return sorted(int(r[0]) for r in conn.execute(
        sa.select(pool_entries.c.player_id).where(pool_entries.c.room == room)
        .where(pool_entries.c.player_id != player_id)))


@dataclass(frozen=True)
class Joined:
    """A join's outcome: the new entry, or a refusal's code (and the entry in the way)."""

    entry: Entry | None
    refused: str | None = None
    until: float | None = None


class PoolStore(SqlExtension):
    """The pools' storage methods, over the hall's SQL storage."""

    async def join(self, pool: str, game: str, player_id: int, nickname: str, address: str,
                   span: tuple[float, float] | None, bot_after: float | None, now: float,
                   limits: JoinLimits) -> Joined:
        """A new waiting entry, unless the player is held back, seated in a running game,
        already waiting (in this pool or another), or their address holds its most."""
        entry_id = secrets.token_urlsafe(9)

        def write(conn: Connection) -> Joined:
            lock_player(conn, player_id)
            until = held_until(conn, player_id, now)
            if until is not None:
                return Joined(None, "held_back", until)
            active = conn.execute(sa.select(pool_entries)
                                  .where(pool_entries.c.player_id == player_id)
                                  .where(pool_entries.c.status.in_(ACTIVE))).first()
            if active is not None:
                return Joined(_entry(active),
                              "already_waiting" if active.pool == pool else "other_pool")
            if seated_in_game(conn, player_id):
                return Joined(None, "in_game")
            lock_address(conn, address)
            if address_load(conn, address) >= limits.per_address:
                return Joined(None, "address_full")
            conn.execute(pool_entries.insert().values(
                id=entry_id, pool=pool, player_id=player_id, nickname=nickname,
                address=address, rating=rating_in(conn, player_id, game),
                range_lo=span[0] if span else None, range_hi=span[1] if span else None,
                bot_after=bot_after, last=json.dumps(_last_opponents(conn, player_id, pool)),
                waves=0, status=WAITING, room=None, seat=None, joined_at=now, updated_at=now))
            return Joined(_entry(conn.execute(sa.select(pool_entries)
                                              .where(pool_entries.c.id == entry_id)).one()))
        return await self._write(write)

    async def entry(self, entry_id: str) -> Entry | None:
        def select(conn: Connection) -> Entry | None:
            row = conn.execute(sa.select(pool_entries)
                               .where(pool_entries.c.id == entry_id)).first()
            return _entry(row) if row is not None else None
        return await self._read(select)

    async def cancel(self, entry_id: str, now: float) -> bool:
        """Cancel a waiting entry; False when a wave has chosen its table meanwhile."""
        def write(conn: Connection) -> bool:
            res = conn.execute(pool_entries.update().where(pool_entries.c.id == entry_id)
                               .where(pool_entries.c.status == WAITING)
                               .values(status=CANCELLED, updated_at=now))
            return bool(res.rowcount == 1)
        return await self._write(write)

    async def seen(self, entry_id: str, now: float) -> None:
        """The entry's player polled it: a waiting entry's `updated_at` is when its player was
        last seen (joined, polled, or connected to a lobby or room)."""
        def write(conn: Connection) -> None:
            conn.execute(pool_entries.update().where(pool_entries.c.id == entry_id)
                         .where(pool_entries.c.status == WAITING)
                         .where(pool_entries.c.updated_at < now).values(updated_at=now))
        await self._write(write)

    async def seen_players(self, player_ids: Sequence[int], now: float) -> None:
        """These players hold a socket to a node: their waiting entries are seen now."""
        ids = sorted(set(player_ids))

        def write(conn: Connection) -> None:
            for at in range(0, len(ids), SEEN_CHUNK):
                conn.execute(pool_entries.update()
                             .where(pool_entries.c.player_id.in_(ids[at:at + SEEN_CHUNK]))
                             .where(pool_entries.c.status == WAITING)
                             .where(pool_entries.c.updated_at < now).values(updated_at=now))
        if ids:
            await self._write(write)

    async def expire(self, pool: str, before: float, now: float) -> list[Entry]:
        """Cancel the pool's waiting entries whose player was last seen before `before` (they
        went away without leaving); the entries cancelled."""
        def write(conn: Connection) -> list[Entry]:
            away = (sa.and_(pool_entries.c.pool == pool, pool_entries.c.status == WAITING,
                            pool_entries.c.updated_at < before))
            rows = conn.execute(sa.select(pool_entries).where(away).with_for_update()).all()
            if rows:
                conn.execute(pool_entries.update().where(away)
                             .values(status=CANCELLED, updated_at=now))
            return [_entry(r) for r in rows]
        return await self._write(write)

    async def cancel_player(self, player_id: int, now: float) -> list[Entry]:
        """Cancel the player's waiting entry, if any; the entries cancelled."""
        def write(conn: Connection) -> list[Entry]:
            rows = conn.execute(sa.select(pool_entries)
                                .where(pool_entries.c.player_id == player_id)
                                .where(pool_entries.c.status == WAITING)).all()
            conn.execute(pool_entries.update().where(pool_entries.c.player_id == player_id)
                         .where(pool_entries.c.status == WAITING)
                         .values(status=CANCELLED, updated_at=now))
            return [_entry(r) for r in rows]
        return await self._write(write)

    async def active(self, pool: str) -> list[Entry]:
        """The pool's entries waiting or being paired, oldest first."""
        def select(conn: Connection) -> list[Entry]:
            return [_entry(r) for r in conn.execute(
                sa.select(pool_entries).where(pool_entries.c.pool == pool)
                .where(pool_entries.c.status.in_(ACTIVE))
                .order_by(pool_entries.c.joined_at, pool_entries.c.id))]
        return await self._read(select)

    async def counts(self) -> dict[str, int]:
        """How many wait in each pool (pools nobody waits in are left out)."""
        def select(conn: Connection) -> dict[str, int]:
            return {r.pool: int(r.n) for r in conn.execute(
                sa.select(pool_entries.c.pool, sa.func.count().label("n"))
                .where(pool_entries.c.status.in_(ACTIVE)).group_by(pool_entries.c.pool))}
        return await self._read(select)

    async def choose(self, pool: str, fence: int | None, tables: Sequence[Sequence[Seat]],
                     missed: Sequence[str], now: float) -> list[list[Seat]] | None:
        """Write a wave's choice: each table whose entries all still wait becomes `pairing`
        (its room and seats), the others' entries keep waiting; `missed` waited one wave
        more. Returns the tables written, or None when the pool's lease number is behind
        (another node runs the pool now: nothing is written)."""
        def write(conn: Connection) -> list[list[Seat]] | None:
            if fence is not None and not _fenced(conn, pool, fence):
                return None
            written: list[list[Seat]] = []
            for table in tables:
                ids = [s.entry for s in table]
                still = conn.execute(sa.select(sa.func.count()).select_from(pool_entries)
                                     .where(pool_entries.c.id.in_(ids))
                                     .where(pool_entries.c.status == WAITING)).scalar_one()
                if still != len(ids):
                    continue  # one of them left meanwhile: the others wait on
                for s in table:
                    conn.execute(pool_entries.update().where(pool_entries.c.id == s.entry)
                                 .values(status=PAIRING, room=s.room, seat=s.seat,
                                         updated_at=now))
                written.append(list(table))
            if missed:
                conn.execute(pool_entries.update().where(pool_entries.c.id.in_(list(missed)))
                             .where(pool_entries.c.status == WAITING)
                             .values(waves=pool_entries.c.waves + 1))
            return written
        return await self._write(write)

    async def paired(self, room: str, now: float) -> list[Entry]:
        """The room of `pairing` entries is stored: they are paired. Returns them."""
        def write(conn: Connection) -> list[Entry]:
            conn.execute(pool_entries.update().where(pool_entries.c.room == room)
                         .where(pool_entries.c.status == PAIRING)
                         .values(status=PAIRED, updated_at=now))
            return [_entry(r) for r in conn.execute(
                sa.select(pool_entries).where(pool_entries.c.room == room)
                .order_by(pool_entries.c.seat))]
        return await self._write(write)

    async def in_room(self, room: str) -> list[Entry]:
        """The entries a room was made for (none: it is no pool's)."""
        def select(conn: Connection) -> list[Entry]:
            return [_entry(r) for r in conn.execute(
                sa.select(pool_entries).where(pool_entries.c.room == room)
                .order_by(pool_entries.c.seat))]
        return await self._read(select)

    async def room_stored(self, room: str) -> bool:
        def select(conn: Connection) -> bool:
            return conn.execute(sa.select(rooms.c.id).where(rooms.c.id == room)).first() \
                is not None
        return await self._read(select)

    async def hold(self, player_ids: Sequence[int], until: float) -> None:
        """Hold players back from the pools until `until` (no-shows)."""
        def write(conn: Connection) -> None:
            for pid in player_ids:
                done = conn.execute(pool_holds.update().where(pool_holds.c.player_id == pid)
                                    .values(until=until))
                if not done.rowcount:
                    conn.execute(pool_holds.insert().values(player_id=pid, until=until))
        if player_ids:
            await self._write(write)


def _fenced(conn: Connection, pool: str, fence: int) -> bool:
    """Raise the pool's stored lease number to `fence`; False if it is past it already."""
    stored = conn.execute(sa.select(pool_fences.c.fence).where(pool_fences.c.pool == pool)
                          .with_for_update()).scalar()
    if stored is None:
        conn.execute(pool_fences.insert().values(pool=pool, fence=fence))
        return True
    if int(stored) > fence:
        return False
    if int(stored) < fence:
        conn.execute(pool_fences.update().where(pool_fences.c.pool == pool)
                     .values(fence=fence))
    return True
