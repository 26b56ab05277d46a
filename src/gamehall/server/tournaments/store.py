"""What the hall keeps of tournaments (migration 0010): the tournament, its players, the rounds
paired and its games, in storage so that every node sees them and a director that takes over
from a dead node finds everything where it was left.

The writes that must not race are single statements or single transactions of the storage's
one writer: a creation counts its creator's open tournaments in the transaction that inserts
it, a join counts the players in the one that adds them (on PostgreSQL under a row lock of the
tournament), and a round is paired by inserting its `tournament_rounds` row together with its
games, so that a second director pairing the same round fails as a whole.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from gamehall.server.storage.extension import SqlExtension
from gamehall.server.storage.schema import (
    bot_accounts,
    ratings,
    rooms,
    tournament_games,
    tournament_players,
    tournament_rounds,
    tournaments,
)

CREATED, RUNNING, FINISHED = "created", "running", "finished"
OPEN, PLAYING, DONE = "open", "playing", "done"
"""A game's life: paired (its room not made yet), playing, done (its result stored)."""


@dataclass(frozen=True)
class Tournament:
    id: str
    name: str
    created_by: int
    game: str
    options: dict[str, Any]
    clock: str | None
    system: str
    rounds: int | None
    minutes: int | None
    seats: int
    starts_at: float
    rated: bool
    bots: bool
    password_hash: str | None
    status: str
    round: int
    started_at: float | None
    ended_at: float | None
    created_at: str

    @property
    def ends_at(self) -> float | None:
        """An arena's end: its start plus its minutes."""
        if self.minutes is None:
            return None
        return (self.started_at or self.starts_at) + 60 * self.minutes


@dataclass(frozen=True)
class Entry:
    player_id: int
    nickname: str
    rating: int
    joined_at: float
    withdrawn: bool
    no_shows: int
    bot_account: bool
    place: int | None


@dataclass(frozen=True)
class TGame:
    room_id: str
    round: int
    table_no: int
    players: tuple[int, ...]
    bye: bool
    status: str
    result: tuple[float, ...] | None
    moves: int
    started_at: float | None
    ended_at: float | None
    berserk: frozenset[int] = frozenset()
    """The seats that went berserk (an arena's), read from the room's stored clock."""


@dataclass(frozen=True)
class RoomEnd:
    """What a tournament reads of a room: its status, result and moves made."""

    status: str
    result: tuple[float, ...] | None
    version: int
    ended_at: float | None = None


def _tournament(row: Any) -> Tournament:
    return Tournament(
        row.id,
        row.name,
        row.created_by,
        row.game,
        json.loads(row.options),
        row.clock,
        row.system,
        row.rounds,
        row.minutes,
        row.seats,
        float(row.starts_at),
        bool(row.rated),
        bool(row.bots),
        row.password_hash,
        row.status,
        row.round,
        row.started_at,
        row.ended_at,
        row.created_at,
    )


def _entry(row: Any) -> Entry:
    return Entry(
        row.player_id,
        row.nickname,
        row.rating,
        row.joined_at,
        bool(row.withdrawn),
        row.no_shows,
        bool(row.bot_account),
        row.place,
    )


def _berserk(clock_state: str | None) -> frozenset[int]:
    """The seats of a room's stored clock that went berserk (the room is the truth of it)."""
    if not clock_state:
        return frozenset()
    return frozenset(int(s) for s in json.loads(clock_state).get("berserk", []))


def _game(row: Any) -> TGame:
    return TGame(
        row.room_id,
        row.round,
        row.table_no,
        tuple(json.loads(row.players)),
        bool(row.bye),
        row.status,
        tuple(json.loads(row.result)) if row.result else None,
        row.moves,
        row.started_at,
        row.ended_at,
        _berserk(row.clock_state),
    )


class TournamentStore(SqlExtension):
    """The tournaments' storage methods, over the hall's SQL storage."""

    async def create(self, t: Tournament, most: int) -> bool:
        """Insert `t` unless its creator already has `most` tournaments not finished."""

        def write(conn: Connection) -> bool:
            open_now = conn.execute(
                sa.select(sa.func.count())
                .select_from(tournaments)
                .where(tournaments.c.created_by == t.created_by, tournaments.c.status != FINISHED)
            ).scalar_one()
            if open_now >= most:
                return False
            conn.execute(
                tournaments.insert().values(
                    id=t.id,
                    name=t.name,
                    created_by=t.created_by,
                    game=t.game,
                    options=json.dumps(t.options),
                    clock=t.clock,
                    system=t.system,
                    rounds=t.rounds,
                    minutes=t.minutes,
                    seats=t.seats,
                    starts_at=t.starts_at,
                    rated=t.rated,
                    bots=t.bots,
                    password_hash=t.password_hash,
                    status=t.status,
                    round=t.round,
                    started_at=None,
                    ended_at=None,
                    created_at=t.created_at,
                )
            )
            return True

        return await self._write(write)

    async def get(self, tid: str) -> Tournament | None:
        def read(conn: Connection) -> Tournament | None:
            row = conn.execute(sa.select(tournaments).where(tournaments.c.id == tid)).first()
            return _tournament(row) if row else None

        return await self._read(read)

    async def listed(self, status: str | None, limit: int) -> list[Tournament]:
        """Tournaments, the soonest to start first (of one status, or all)."""

        def read(conn: Connection) -> list[Tournament]:
            q = sa.select(tournaments)
            if status is not None:
                q = q.where(tournaments.c.status == status)
            q = q.order_by(
                tournaments.c.starts_at.desc() if status == FINISHED else tournaments.c.starts_at
            ).limit(limit)
            return [_tournament(r) for r in conn.execute(q)]

        return await self._read(read)

    async def unfinished(self) -> list[Tournament]:
        return [t for s in (CREATED, RUNNING) for t in await self.listed(s, 10_000)]

    async def set_status(self, tid: str, was: str, status: str, **values: Any) -> bool:
        """Move a tournament from `was` to `status` (with other columns); False if it was no
        longer `was` (another director got there first)."""

        def write(conn: Connection) -> bool:
            done = conn.execute(
                tournaments.update()
                .where(tournaments.c.id == tid, tournaments.c.status == was)
                .values(status=status, **values)
            )
            return bool(done.rowcount)

        return await self._write(write)

    async def set_round(self, tid: str, round_no: int) -> None:
        def write(conn: Connection) -> None:
            conn.execute(tournaments.update().where(tournaments.c.id == tid).values(round=round_no))

        await self._write(write)

    # --- players -----------------------------------------------------------------------------
    async def entries(self, tid: str) -> list[Entry]:
        def read(conn: Connection) -> list[Entry]:
            q = (
                sa.select(tournament_players)
                .where(tournament_players.c.tournament_id == tid)
                .order_by(tournament_players.c.joined_at, tournament_players.c.player_id)
            )
            return [_entry(r) for r in conn.execute(q)]

        return await self._read(read)

    async def rating(self, player_id: int, game: str) -> int:
        def read(conn: Connection) -> int:
            mu = conn.execute(
                sa.select(ratings.c.mu).where(
                    ratings.c.player_id == player_id, ratings.c.game == game
                )
            ).scalar()
            return round(mu) if mu is not None else 1500

        return await self._read(read)

    async def is_bot_account(self, player_id: int) -> bool:
        def read(conn: Connection) -> bool:
            return (
                conn.execute(
                    sa.select(bot_accounts.c.player_id).where(bot_accounts.c.player_id == player_id)
                ).first()
                is not None
            )

        return await self._read(read)

    async def join(self, tid: str, entry: Entry, most: int) -> str:
        """Add (or bring back) a player: ``joined``, ``already`` (in and not withdrawn) or
        ``full`` (`most` players in already)."""

        def write(conn: Connection) -> str:
            conn.execute(
                sa.select(tournaments.c.id).where(tournaments.c.id == tid).with_for_update()
            )
            found = conn.execute(
                sa.select(tournament_players.c.withdrawn).where(
                    tournament_players.c.tournament_id == tid,
                    tournament_players.c.player_id == entry.player_id,
                )
            ).first()
            if found is not None and not found.withdrawn:
                return "already"
            count = conn.execute(
                sa.select(sa.func.count())
                .select_from(tournament_players)
                .where(
                    tournament_players.c.tournament_id == tid,
                    tournament_players.c.withdrawn.is_(False),
                )
            ).scalar_one()
            if count >= most:
                return "full"
            if found is not None:
                conn.execute(
                    tournament_players.update()
                    .where(
                        tournament_players.c.tournament_id == tid,
                        tournament_players.c.player_id == entry.player_id,
                    )
                    .values(withdrawn=False)
                )
                return "joined"
            conn.execute(
                tournament_players.insert().values(
                    tournament_id=tid,
                    player_id=entry.player_id,
                    nickname=entry.nickname,
                    rating=entry.rating,
                    joined_at=entry.joined_at,
                    withdrawn=False,
                    no_shows=0,
                    bot_account=entry.bot_account,
                    place=None,
                )
            )
            return "joined"

        return await self._write(write)

    async def withdraw(self, tid: str, player_id: int) -> bool:
        def write(conn: Connection) -> bool:
            done = conn.execute(
                tournament_players.update()
                .where(
                    tournament_players.c.tournament_id == tid,
                    tournament_players.c.player_id == player_id,
                    tournament_players.c.withdrawn.is_(False),
                )
                .values(withdrawn=True)
            )
            return bool(done.rowcount)

        return await self._write(write)

    async def no_show(self, tid: str, player_id: int, most: int) -> int:
        """Count a no-show; the player is withdrawn at `most`. Returns the count."""

        def write(conn: Connection) -> int:
            where = (
                tournament_players.c.tournament_id == tid,
                tournament_players.c.player_id == player_id,
            )
            conn.execute(
                tournament_players.update()
                .where(*where)
                .values(no_shows=tournament_players.c.no_shows + 1)
            )
            count = int(
                conn.execute(sa.select(tournament_players.c.no_shows).where(*where)).scalar_one()
            )
            if count >= most:
                conn.execute(tournament_players.update().where(*where).values(withdrawn=True))
            return count

        return await self._write(write)

    async def set_places(self, tid: str, places: dict[int, int]) -> None:
        def write(conn: Connection) -> None:
            for pid, place in places.items():
                conn.execute(
                    tournament_players.update()
                    .where(
                        tournament_players.c.tournament_id == tid,
                        tournament_players.c.player_id == pid,
                    )
                    .values(place=place)
                )

        await self._write(write)

    async def of_player(self, nickname: str, limit: int) -> list[dict[str, Any]]:
        """A player's tournaments, newest first, with their place once finished (profiles)."""

        def read(conn: Connection) -> list[dict[str, Any]]:
            q = (
                sa.select(
                    tournaments.c.id,
                    tournaments.c.name,
                    tournaments.c.game,
                    tournaments.c.system,
                    tournaments.c.status,
                    tournament_players.c.place,
                    tournament_players.c.withdrawn,
                )
                .join(tournament_players, tournament_players.c.tournament_id == tournaments.c.id)
                .where(tournament_players.c.nickname == nickname)
                .order_by(tournaments.c.starts_at.desc())
                .limit(limit)
            )
            return [dict(r._mapping) for r in conn.execute(q)]

        return await self._read(read)

    # --- rounds and games --------------------------------------------------------------------
    async def pair(self, tid: str, round_no: int, games: Sequence[TGame], at: float) -> bool:
        """Store round `round_no`'s games, once: False (nothing written) when that round was
        paired already (its row is inserted first, ON CONFLICT DO NOTHING: no error aborts
        the writer's batch)."""

        def write(conn: Connection) -> bool:
            insert = (pg_insert if conn.dialect.name == "postgresql" else sqlite_insert)(
                tournament_rounds
            )
            claimed = conn.execute(
                insert.values(
                    tournament_id=tid, round=round_no, paired_at=at
                ).on_conflict_do_nothing()
            )
            if not claimed.rowcount:
                return False
            for g in games:
                conn.execute(
                    tournament_games.insert().values(
                        room_id=g.room_id,
                        tournament_id=tid,
                        round=g.round,
                        table_no=g.table_no,
                        players=json.dumps(list(g.players)),
                        bye=g.bye,
                        status=g.status,
                        result=json.dumps(list(g.result)) if g.result else None,
                        moves=g.moves,
                        started_at=g.started_at,
                        ended_at=g.ended_at,
                    )
                )
            conn.execute(
                tournaments.update()
                .where(tournaments.c.id == tid, tournaments.c.round < round_no)
                .values(round=round_no)
            )
            return True

        return await self._write(write)

    async def games(self, tid: str) -> list[TGame]:
        def read(conn: Connection) -> list[TGame]:
            q = (
                sa.select(tournament_games, rooms.c.clock_state)
                .outerjoin(rooms, rooms.c.id == tournament_games.c.room_id)
                .where(tournament_games.c.tournament_id == tid)
                .order_by(tournament_games.c.round, tournament_games.c.table_no)
            )
            return [_game(r) for r in conn.execute(q)]

        return await self._read(read)

    async def set_game(self, room_id: str, was: str, status: str, **values: Any) -> bool:
        def write(conn: Connection) -> bool:
            if "result" in values and values["result"] is not None:
                values["result"] = json.dumps(list(values["result"]))
            done = conn.execute(
                tournament_games.update()
                .where(tournament_games.c.room_id == room_id, tournament_games.c.status == was)
                .values(status=status, **values)
            )
            return bool(done.rowcount)

        return await self._write(write)

    async def room_ends(self, room_ids: Sequence[str]) -> dict[str, RoomEnd]:
        """The stored status, result and version of rooms (the truth a director reads)."""

        def read(conn: Connection) -> dict[str, RoomEnd]:
            q = sa.select(
                rooms.c.id, rooms.c.status, rooms.c.result, rooms.c.version, rooms.c.ended_at
            ).where(rooms.c.id.in_(list(room_ids)))
            return {
                r.id: RoomEnd(
                    r.status,
                    tuple(json.loads(r.result)) if r.result else None,
                    int(r.version),
                    datetime.fromisoformat(r.ended_at).timestamp() if r.ended_at else None,
                )
                for r in conn.execute(q)
            }

        if not room_ids:
            return {}
        return await self._read(read)
