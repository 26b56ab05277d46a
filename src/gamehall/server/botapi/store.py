"""What the bot API keeps in the database: bot accounts, API tokens' scopes, challenges.

Kept in storage, not in a node's memory, so that every node of a cluster sees the same
challenges and tokens and a restart loses none of them: a challenge made through one node is
accepted through another, and a bot that reconnects after a restart finds its pending
challenges. The tables are part of the hall's schema (`storage.metadata`, migration 0005);
every write goes through the storage's one writer (its commit batching), every read through
its readers.

A bot account is a player row with a row in `bot_accounts` (the games it plays); an API token
is a row of `tokens` (so it identifies its player everywhere, as a browser's does) with a row in
`api_tokens` naming its scopes. A token without that row is a browser's session token.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from gamehall.server.storage.extension import SqlExtension
from gamehall.server.storage.schema import (
    api_tokens,
    bot_accounts,
    challenges,
    game_players,
    players,
    rooms,
    tokens,
)
from gamehall.server.table.room import FINISHED

SCOPES = ("bot:play", "read")
"""What an API token may do: `bot:play` everything a bot does (streams, moves, challenges);
`read` the streams only."""

PENDING = "created"


@dataclass(frozen=True)
class ApiToken:
    id: str
    description: str
    scopes: tuple[str, ...]
    created_at: str
    last_used_at: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "description": self.description, "scopes": list(self.scopes),
                "created_at": self.created_at, "last_used_at": self.last_used_at}


@dataclass(frozen=True)
class Challenge:
    id: str
    challenger_id: int
    challenger: str
    dest_id: int
    dest: str
    game: str
    options: dict[str, Any]
    clock: str | None
    rated: bool | None
    seat: int | None
    status: str
    reason: str | None = None
    room: str | None = None
    created_at: str = ""
    bots: tuple[bool, bool] = field(default=(False, False))
    """Whether the challenger and the challenged are bot accounts."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "game": self.game,
                "options": self.options, "clock": self.clock, "rated": self.rated,
                "seat": self.seat,
                "challenger": {"name": self.challenger, "bot_account": self.bots[0]},
                "dest": {"name": self.dest, "bot_account": self.bots[1]},
                "reason": self.reason, "room": self.room, "created_at": self.created_at}


def _playing_like(player_id: int) -> Any:
    """Rooms' stored seats naming the player (the seats' JSON holds ``"player_id": N,``)."""
    return rooms.c.seats.like(f'%"player_id": {int(player_id)},%')


_challenger = players.alias("challenger")
_dest = players.alias("dest")
_bot_a = bot_accounts.alias("bot_a")
_bot_b = bot_accounts.alias("bot_b")
_CHALLENGE = (sa.select(challenges, _challenger.c.nickname.label("challenger_name"),
                        _dest.c.nickname.label("dest_name"),
                        _bot_a.c.player_id.label("a_bot"), _bot_b.c.player_id.label("b_bot"))
              .join(_challenger, _challenger.c.id == challenges.c.challenger_id)
              .join(_dest, _dest.c.id == challenges.c.dest_id)
              .outerjoin(_bot_a, _bot_a.c.player_id == challenges.c.challenger_id)
              .outerjoin(_bot_b, _bot_b.c.player_id == challenges.c.dest_id))


def _challenge(row: Any) -> Challenge:
    return Challenge(row.id, row.challenger_id, row.challenger_name, row.dest_id, row.dest_name,
                     row.game, json.loads(row.options), row.clock, row.rated, row.seat,
                     row.status, row.reason, row.room, row.created_at,
                     (row.a_bot is not None, row.b_bot is not None))


class BotStore(SqlExtension):
    """The bot API's storage methods, over the hall's SQL storage (its writer and readers)."""

    # --- bot accounts --------------------------------------------------------------------------
    async def bot_games(self, player_id: int) -> list[str] | None:
        """The games a bot account plays, or None for a player who is not one."""
        def select(conn: Connection) -> list[str] | None:
            games = conn.execute(sa.select(bot_accounts.c.games)
                                 .where(bot_accounts.c.player_id == player_id)).scalar()
            return None if games is None else list(json.loads(games))
        return await self._read(select)

    async def bots_among(self, player_ids: Sequence[int]) -> set[int]:
        def select(conn: Connection) -> set[int]:
            return {int(r[0]) for r in conn.execute(
                sa.select(bot_accounts.c.player_id)
                .where(bot_accounts.c.player_id.in_(list(player_ids))))}
        return await self._read(select) if player_ids else set()

    async def bot_names(self, nicknames: Sequence[str]) -> set[str]:
        """Which of the nicknames (as stored) are bot accounts', in one query."""
        def select(conn: Connection) -> set[str]:
            return {str(r[0]) for r in conn.execute(
                sa.select(players.c.nickname).join(
                    bot_accounts, bot_accounts.c.player_id == players.c.id)
                .where(players.c.nickname.in_(list(nicknames))))}
        return await self._read(select) if nicknames and self.available else set()

    async def games_of_name(self, nickname: str) -> list[str] | None:
        """The games the bot account called `nickname` plays (its profile shows them, so that
        a challenge offers only those); None for a nickname that is not a bot account."""
        def select(conn: Connection) -> list[str] | None:
            games = conn.execute(sa.select(bot_accounts.c.games).join(
                players, players.c.id == bot_accounts.c.player_id)
                .where(players.c.nickname_key == nickname.lower())).scalar()
            return None if games is None else list(json.loads(games))
        return await self._read(select) if self.available else None

    async def upgrade(self, player_id: int, games: list[str], at: str) -> str | None:
        """Make the player a bot account, unless it has played or sits at a table: the reason
        it may not be (None: done). Checked and written in one transaction."""
        def write(conn: Connection) -> str | None:
            if conn.execute(sa.select(bot_accounts.c.player_id)
                            .where(bot_accounts.c.player_id == player_id)).first():
                return "already_bot"
            played = conn.execute(sa.select(game_players.c.room_id)
                                  .where(game_players.c.player_id == player_id)
                                  .limit(1)).first()
            seated = conn.execute(sa.select(rooms.c.id).where(_playing_like(player_id))
                                  .limit(1)).first()
            if played or seated:
                return "has_played"
            conn.execute(bot_accounts.insert().values(player_id=player_id,
                                                      games=json.dumps(games), upgraded_at=at))
            return None
        return await self._write(write)

    async def set_games(self, player_id: int, games: list[str]) -> None:
        def write(conn: Connection) -> None:
            conn.execute(bot_accounts.update().where(bot_accounts.c.player_id == player_id)
                         .values(games=json.dumps(games)))
        await self._write(write)

    async def open_rooms(self, player_id: int) -> list[str]:
        """The rooms where the player sits and the game is not over, oldest first."""
        def select(conn: Connection) -> list[str]:
            return [str(r[0]) for r in conn.execute(
                sa.select(rooms.c.id).where(rooms.c.status != FINISHED)
                .where(_playing_like(player_id)).order_by(rooms.c.created_at))]
        return await self._read(select)

    # --- API tokens ----------------------------------------------------------------------------
    async def add_token(self, player_id: int, token_hash: str, description: str,
                        scopes: Sequence[str], at: str, most: int) -> ApiToken | None:
        """A new API token (with its row of `tokens`); None when the player has `most`."""
        token_id = secrets.token_urlsafe(9)

        def write(conn: Connection) -> ApiToken | None:
            have = conn.execute(sa.select(sa.func.count()).select_from(api_tokens)
                                .where(api_tokens.c.player_id == player_id)).scalar_one()
            if have >= most:
                return None
            conn.execute(tokens.insert().values(token_hash=token_hash, player_id=player_id,
                                                created_at=at, last_used_at=at))
            conn.execute(api_tokens.insert().values(
                id=token_id, token_hash=token_hash, player_id=player_id,
                description=description, scopes=" ".join(scopes), created_at=at))
            return ApiToken(token_id, description, tuple(scopes), at, at)
        return await self._write(write)

    async def tokens(self, player_id: int) -> list[ApiToken]:
        """The player's API tokens still alive (a token unused too long was deleted)."""
        def select(conn: Connection) -> list[ApiToken]:
            rows = conn.execute(
                sa.select(api_tokens, tokens.c.last_used_at)
                .join(tokens, tokens.c.token_hash == api_tokens.c.token_hash)
                .where(api_tokens.c.player_id == player_id)
                .order_by(api_tokens.c.created_at)).all()
            return [ApiToken(r.id, r.description, tuple(r.scopes.split()), r.created_at,
                             r.last_used_at) for r in rows]
        return await self._read(select)

    async def token_scopes(self, token_hash: str) -> tuple[str, ...] | None:
        """An API token's scopes; None for a session token (a browser's)."""
        def select(conn: Connection) -> tuple[str, ...] | None:
            found = conn.execute(sa.select(api_tokens.c.scopes)
                                 .where(api_tokens.c.token_hash == token_hash)).scalar()
            return None if found is None else tuple(str(found).split())
        return await self._read(select)

    async def revoke_token(self, player_id: int, token_id: str) -> str | None:
        """Delete the player's API token `token_id`: its hash (None if it has no such token)."""
        def write(conn: Connection) -> str | None:
            found = conn.execute(sa.select(api_tokens.c.token_hash)
                                 .where(api_tokens.c.id == token_id)
                                 .where(api_tokens.c.player_id == player_id)).scalar()
            if found is None:
                return None
            conn.execute(api_tokens.delete().where(api_tokens.c.id == token_id))
            conn.execute(tokens.delete().where(tokens.c.token_hash == found))
            return str(found)
        return await self._write(write)

    # --- challenges ----------------------------------------------------------------------------
    async def add_challenge(self, challenger_id: int, dest_id: int, game: str,
                            options: dict[str, Any], clock: str | None, rated: bool | None,
                            seat: int | None, at: str, most: int,
                            most_received: int | None = None) -> Challenge | str:
        """A new pending challenge; else why not: ``made`` when the challenger has `most`
        pending already, ``received`` when the challenged has `most_received` (a bot account's
        cap; None: no cap). Counted and written in one transaction, the two players' rows
        locked first (PostgreSQL: nodes racing for one player wait their turn; SQLite has one
        writer)."""
        cid = secrets.token_urlsafe(6)

        def count(conn: Connection, column: Any, player_id: int) -> int:
            return int(conn.execute(sa.select(sa.func.count()).select_from(challenges)
                                    .where(column == player_id)
                                    .where(challenges.c.status == PENDING)).scalar_one())

        def write(conn: Connection) -> Challenge | str:
            conn.execute(sa.select(players.c.id)
                         .where(players.c.id.in_(sorted({challenger_id, dest_id})))
                         .order_by(players.c.id).with_for_update()).all()
            if count(conn, challenges.c.challenger_id, challenger_id) >= most:
                return "made"
            if most_received is not None \
                    and count(conn, challenges.c.dest_id, dest_id) >= most_received:
                return "received"
            conn.execute(challenges.insert().values(
                id=cid, challenger_id=challenger_id, dest_id=dest_id, game=game,
                options=json.dumps(options), clock=clock, rated=rated, seat=seat,
                status=PENDING, created_at=at))
            row = conn.execute(_CHALLENGE.where(challenges.c.id == cid)).first()
            return _challenge(row)
        return await self._write(write)

    async def challenge(self, cid: str) -> Challenge | None:
        def select(conn: Connection) -> Challenge | None:
            row = conn.execute(_CHALLENGE.where(challenges.c.id == cid)).first()
            return None if row is None else _challenge(row)
        return await self._read(select) if len(cid) <= 16 else None

    async def pending(self, player_id: int) -> list[Challenge]:
        """Pending challenges the player made or received, oldest first."""
        def select(conn: Connection) -> list[Challenge]:
            rows = conn.execute(_CHALLENGE.where(challenges.c.status == PENDING).where(
                sa.or_(challenges.c.challenger_id == player_id,
                       challenges.c.dest_id == player_id))
                .order_by(challenges.c.created_at)).all()
            return [_challenge(r) for r in rows]
        return await self._read(select)

    async def stale(self, before: str, limit: int) -> list[Challenge]:
        """Pending challenges made before `before` (a stamp), oldest first: those to expire."""
        def select(conn: Connection) -> list[Challenge]:
            rows = conn.execute(_CHALLENGE.where(challenges.c.status == PENDING)
                                .where(challenges.c.created_at < before)
                                .order_by(challenges.c.created_at).limit(limit)).all()
            return [_challenge(r) for r in rows]
        return await self._read(select)

    async def settle(self, cid: str, status: str, reason: str | None = None) -> bool:
        """Move a pending challenge on (accepted, declined, canceled): False if it was not
        pending any more (someone else settled it first: only one settling wins)."""
        def write(conn: Connection) -> bool:
            res = conn.execute(challenges.update().where(challenges.c.id == cid)
                               .where(challenges.c.status == PENDING)
                               .values(status=status, reason=reason))
            return bool(res.rowcount == 1)
        return await self._write(write)

    async def set_room(self, cid: str, room_id: str) -> None:
        def write(conn: Connection) -> None:
            conn.execute(challenges.update().where(challenges.c.id == cid)
                         .values(room=room_id))
        await self._write(write)
