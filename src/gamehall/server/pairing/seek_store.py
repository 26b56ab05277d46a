"""What the hall keeps of open challenges (seeks, migration 0009), in storage so that a seek
posted through one node is accepted through any other.

A seek is `open` (for a table of more than two, with the players who took a seat so far,
`takers`), then `playing` once its table is full and its room made (it opens again after the
game while `repeat` lasts: a standing challenge), `accepted` for good, or `cancelled`. Taking
a seat is one conditional write (the seek still open, its takers as read), so of two players
who take the last seat at once through any nodes, one gets it.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from gamehall.server.pairing.store import address_load, lock_address, lock_player, rating_in
from gamehall.server.storage.extension import SqlExtension
from gamehall.server.storage.schema import seeks

OPEN, PLAYING, ACCEPTED, CANCELLED = "open", "playing", "accepted", "cancelled"


@dataclass(frozen=True)
class Taker:
    """A player who took a seat of a seek."""

    player_id: int
    nickname: str

    def to_json(self) -> list[Any]:
        return [self.player_id, self.nickname]


@dataclass(frozen=True)
class Terms:
    """What a seek offers: a checked game, its options and clock, its seats, rated or not."""

    game: str
    options: dict[str, Any]
    clock: str | None
    seats: int
    rated: bool | None
    range: tuple[float, float] | None
    repeat: int


@dataclass(frozen=True)
class Seek:
    """One open challenge, as its row says: who offers what (`terms`), and how far it got."""

    id: str
    player_id: int
    nickname: str
    rating: float
    terms: Terms
    takers: tuple[Taker, ...]
    status: str
    room: str | None
    created_at: float

    def accepts(self, rating: float) -> bool:
        span = self.terms.range
        return span is None or span[0] <= rating <= span[1]

    def to_json(self) -> dict[str, Any]:
        """A seek as ``GET /api/seeks`` lists it (protocol.md, "Pairing")."""
        t = self.terms
        return {"id": self.id, "player": self.nickname, "rating": round(self.rating),
                "game": t.game, "options": t.options, "clock": t.clock,
                "seats": t.seats, "rated": t.rated,
                "rating_range": [round(r) for r in t.range] if t.range else None,
                "repeat": t.repeat, "takers": [k.nickname for k in self.takers],
                "status": self.status, "room": self.room}


def _seek(row: Any) -> Seek:
    span = (float(row.range_lo), float(row.range_hi)) if row.range_lo is not None else None
    terms = Terms(row.game, json.loads(row.options), row.clock, int(row.seats), row.rated, span,
                  int(row.repeat))
    return Seek(row.id, int(row.player_id), row.nickname, float(row.rating), terms,
                tuple(Taker(int(p), str(n)) for p, n in json.loads(row.takers)),
                row.status, row.room, float(row.created_at))


@dataclass(frozen=True)
class SeekLimits:
    per_player: int
    per_address: int


@dataclass(frozen=True)
class Posted:
    seek: Seek | None
    refused: str | None = None


class SeekStore(SqlExtension):
    """The seeks' storage methods, over the hall's SQL storage."""

    async def post(self, player_id: int, nickname: str, address: str, terms: Terms,
                   now: float, limits: SeekLimits) -> Posted:
        """A new open seek, within the player's and the address's caps (checked with the
        player's row locked, in the insert's transaction)."""
        seek_id = secrets.token_urlsafe(9)

        def write(conn: Connection) -> Posted:
            lock_player(conn, player_id)
            mine = conn.execute(sa.select(sa.func.count()).select_from(seeks)
                                .where(seeks.c.player_id == player_id)
                                .where(seeks.c.status.in_((OPEN, PLAYING)))).scalar_one()
            if mine >= limits.per_player:
                return Posted(None, "too_many_seeks")
            lock_address(conn, address)
            if address_load(conn, address) >= limits.per_address:
                return Posted(None, "address_full")
            span = terms.range
            conn.execute(seeks.insert().values(
                id=seek_id, player_id=player_id, nickname=nickname, address=address,
                rating=rating_in(conn, player_id, terms.game), game=terms.game,
                options=json.dumps(terms.options), clock=terms.clock, seats=terms.seats,
                rated=terms.rated, range_lo=span[0] if span else None,
                range_hi=span[1] if span else None, repeat=terms.repeat, takers="[]",
                status=OPEN, room=None, created_at=now, updated_at=now))
            return Posted(_seek(conn.execute(sa.select(seeks)
                                             .where(seeks.c.id == seek_id)).one()))
        return await self._write(write)

    async def get(self, seek_id: str) -> Seek | None:
        def select(conn: Connection) -> Seek | None:
            row = conn.execute(sa.select(seeks).where(seeks.c.id == seek_id)).first()
            return _seek(row) if row is not None else None
        return await self._read(select)

    async def rating(self, player_id: int, game: str) -> float:
        def select(conn: Connection) -> float:
            return rating_in(conn, player_id, game)
        return await self._read(select)

    async def open_seeks(self, game: str | None, limit: int) -> list[Seek]:
        """Open seeks, newest first."""
        def select(conn: Connection) -> list[Seek]:
            q = sa.select(seeks).where(seeks.c.status == OPEN)
            if game is not None:
                q = q.where(seeks.c.game == game)
            return [_seek(r) for r in conn.execute(
                q.order_by(seeks.c.created_at.desc(), seeks.c.id).limit(limit))]
        return await self._read(select)

    async def take(self, seek: Seek, takers: tuple[Taker, ...], room: str | None,
                   now: float) -> bool:
        """Write the seek's new takers (and, its table full, its room: `playing` while it will
        be re-issued, else `accepted`), if nobody changed it since `seek` was read."""
        status = OPEN if room is None else (PLAYING if seek.terms.repeat > 0 else ACCEPTED)

        def write(conn: Connection) -> bool:
            res = conn.execute(seeks.update().where(seeks.c.id == seek.id)
                               .where(seeks.c.status == OPEN)
                               .where(seeks.c.takers == _takers(seek.takers))
                               .values(takers=_takers(takers), status=status, room=room,
                                       updated_at=now))
            return bool(res.rowcount == 1)
        return await self._write(write)

    async def reopen(self, seek: Seek, now: float, played: bool) -> bool:
        """Open a seek again: `played`, its game ended (one re-issue fewer left); else its
        room could not be stored (nothing used up)."""
        def write(conn: Connection) -> bool:
            res = conn.execute(seeks.update().where(seeks.c.id == seek.id)
                               .where(seeks.c.status == seek.status)
                               .where(seeks.c.room == seek.room)
                               .values(status=OPEN, room=None, takers="[]",
                                       repeat=seek.terms.repeat - int(played),
                                       updated_at=now))
            return bool(res.rowcount == 1)
        return await self._write(write)

    async def playing_in(self, room: str) -> list[Seek]:
        """The seeks whose game is the room's and that open again after it."""
        def select(conn: Connection) -> list[Seek]:
            return [_seek(r) for r in conn.execute(
                sa.select(seeks).where(seeks.c.room == room)
                .where(seeks.c.status == PLAYING))]
        return await self._read(select)

    async def cancel(self, seek: Seek, now: float) -> bool:
        """Cancel a seek open or playing (its game goes on; it is not re-issued)."""
        def write(conn: Connection) -> bool:
            res = conn.execute(seeks.update().where(seeks.c.id == seek.id)
                               .where(seeks.c.status.in_((OPEN, PLAYING)))
                               .values(status=CANCELLED, updated_at=now))
            return bool(res.rowcount == 1)
        return await self._write(write)

    async def expire(self, before: float, now: float, limit: int = 1000) -> list[Seek]:
        """Cancel the seeks left open (nobody took a seat, it was not re-opened) since
        `before`; the ones this call cancelled (each one conditional write: when every node
        sweeps, one of them cancels each seek)."""
        def write(conn: Connection) -> list[Seek]:
            found = [_seek(r) for r in conn.execute(
                sa.select(seeks).where(seeks.c.status == OPEN)
                .where(seeks.c.updated_at < before).limit(limit))]
            gone = []
            for seek in found:
                res = conn.execute(seeks.update().where(seeks.c.id == seek.id)
                                   .where(seeks.c.status == OPEN)
                                   .where(seeks.c.updated_at < before)
                                   .values(status=CANCELLED, updated_at=now))
                if res.rowcount == 1:
                    gone.append(seek)
            return gone
        return await self._write(write)


def _takers(takers: tuple[Taker, ...]) -> str:
    return json.dumps([t.to_json() for t in takers])
