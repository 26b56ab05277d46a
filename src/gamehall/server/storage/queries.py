"""Reads and writes beyond a room's own row: whose token it is, the archive of finished games,
profiles and leaderboards, and what the commit that ends a game records (players, ratings)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from gamehall.core.phrases import beside
from gamehall.server.ratings import model as rating_model
from gamehall.server.storage.interface import TokenOwner, UnknownPlayer
from gamehall.server.storage.rows import now_stamp, outcome_of
from gamehall.server.storage.schema import (
    actions,
    game_players,
    players,
    ratings,
    rooms,
    tokens,
)
from gamehall.server.table.clocks import seconds
from gamehall.server.table.room import FINISHED, Occupant, Room

TOKEN_OWNER = (sa.select(players.c.id, players.c.nickname, players.c.password_hash,
                         tokens.c.last_used_at)
               .join(tokens, tokens.c.player_id == players.c.id)
               .where(tokens.c.token_hash == sa.bindparam("token_hash")))
"""Whose token it is: built once (every player's token is read again each `RECHECK_SECONDS`,
and building the statement cost as much as running it)."""


def token_owner_from(row: Sequence[Any] | None) -> TokenOwner | None:
    """A row of `TOKEN_OWNER` (from SQLAlchemy or straight from the driver) as a TokenOwner."""
    if row is None:
        return None
    pid, nickname, password_hash, last_used = row
    return TokenOwner(int(pid), str(nickname), password_hash is not None, seconds(last_used))


def archive_cursor(text: str | None) -> tuple[str, str] | None:
    """An archive cursor (`ended_at~room`) read back; a malformed one starts from the top."""
    if not text or "~" not in text or not searchable(text):
        return None
    ended, _, room = text.rpartition("~")
    return ended, room


def searchable(text: str) -> bool:
    """Whether a client's text can be looked up at all (PostgreSQL refuses NUL characters in
    text, so such a nickname matches nobody rather than failing the query)."""
    return "\x00" not in text


def rating_of(row: Any) -> rating_model.Rating:
    """A `ratings` row (or one that selects its columns) as a Rating."""
    return rating_model.Rating(float(row.mu), float(row.sigma), int(row.games))


def games_of(conn: Connection, player_ids: list[int] | None, game: str | None,
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
            "bot_accounts": [bool(o and o.bot_account) for o in occupants],
            "scores": json.loads(row.result) if row.result else None,
            **beside("outcome", outcome_of(row)), "ended_by": row.ended_by,
            "ended_at": row.ended_at,
            "rated": bool(row.rated), "player_ids": {i: int(g.player_id) for i, g in mine.items()},
            "ratings": {i: (g.rating_before, g.rating_after) for i, g in mine.items()
                        if g.rating_before is not None},
        })
    return out


def for_player(game: dict[str, Any], player_id: int) -> dict[str, Any]:
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


def profile_of(conn: Connection, nickname: str, recent: int) -> dict[str, Any] | None:
    """A player's ratings per game and their latest `recent` finished games (`Storage.profile`),
    or None for a nickname nobody has."""
    who = conn.execute(sa.select(players).where(
        players.c.nickname_key == nickname.lower())).first()
    if who is None:
        return None
    rows = conn.execute(sa.select(ratings).where(ratings.c.player_id == who.id)
                        .where(ratings.c.games > 0).order_by(ratings.c.game)).all()
    games = games_of(conn, [who.id], None, None, recent)
    return {
        "nickname": who.nickname,
        "account": who.password_hash is not None,
        "bot": who.bot,
        "since": who.created_at,
        "ratings": {r.game: rating_of(r).to_json() for r in rows},
        "recent": [for_player(g, who.id) for g in games],
    }


def leaderboard_of(conn: Connection, game: str, limit: int, offset: int) -> list[dict[str, Any]]:
    """Rated players of a game, best first by the conservative estimate (`Storage.leaderboard`)."""
    order = (ratings.c.mu - 3 * ratings.c.sigma).desc()
    q = (sa.select(players.c.nickname, players.c.bot, ratings)
         .join(players, players.c.id == ratings.c.player_id)
         .where(ratings.c.game == game).where(ratings.c.games > 0)
         .order_by(order, ratings.c.mu.desc(), players.c.nickname_key)
         .limit(limit).offset(offset))
    return [{"rank": offset + i + 1, "nickname": r.nickname, "bot": r.bot,
             **rating_of(r).to_json()} for i, r in enumerate(conn.execute(q))]


def archive_page(conn: Connection, game: str | None, player: str | None, before: str | None,
                 limit: int) -> tuple[list[dict[str, Any]], str | None]:
    """One page of finished games with the cursor of the next (`Storage.finished_games`);
    UnknownPlayer for a nickname nobody has."""
    ids: list[int] | None = None
    if player is not None:
        if not searchable(player):
            raise UnknownPlayer(player)
        pid = conn.execute(sa.select(players.c.id).where(
            players.c.nickname_key == player.lower())).scalar()
        if pid is None:
            raise UnknownPlayer(player)
        ids = [int(pid)]
    found = games_of(conn, ids, game, archive_cursor(before), limit + 1)
    more = len(found) > limit
    found = found[:limit]
    page = [{k: v for k, v in g.items() if k != "player_ids"} for g in found]
    last = found[-1] if more else None
    return page, f"{last['ended_at']}~{last['room']}" if last else None


def opening_games(conn: Connection, game: str, limit: int,
                  depth: int) -> list[dict[str, Any]]:
    """The newest `limit` finished games of `game` that have a result, each with its options,
    seats, result and its first `depth` actions as ``[action, notation]`` (`Storage.openings`:
    what the opening explorer counts)."""
    found = conn.execute(
        sa.select(rooms.c.id, rooms.c.options, rooms.c.seats, rooms.c.result)
        .where(rooms.c.game == game).where(rooms.c.status == FINISHED)
        .where(rooms.c.ended_at.is_not(None)).where(rooms.c.result.is_not(None))
        .order_by(rooms.c.ended_at.desc(), rooms.c.id.desc()).limit(limit)).all()
    played: dict[str, list[list[Any]]] = {row.id: [] for row in found}
    ids = list(played)
    for start in range(0, len(ids), 500):  # a bounded IN list per query
        q = (sa.select(actions.c.room_id, actions.c.action, actions.c.move)
             .where(actions.c.room_id.in_(ids[start:start + 500])).where(actions.c.idx < depth)
             .order_by(actions.c.room_id, actions.c.idx))
        for a in conn.execute(q):
            played[a.room_id].append([int(a.action), a.move])
    return [{"room": row.id, "options": json.loads(row.options), "seats": json.loads(row.seats),
             "result": json.loads(row.result), "actions": played[row.id]} for row in found]


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


def rating_changes_of(conn: Connection,
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
class Ending:
    """What the commit that ends a game records besides the room row."""

    room_id: str
    game: str
    ended_at: str
    seats: list[Occupant | None]
    result: list[float] | None
    rated: bool

    @classmethod
    def of(cls, room: Room, clock: Callable[[], float]) -> Ending:
        people = [o for o in room.seats if o is not None and o.bot is None]
        rated = bool(room.rated) and room.ended_by in rating_model.RATED_ENDINGS \
            and room.result is not None and bool(people) and None not in room.seats
        return cls(room.id, room.game_name, room.ended_at or now_stamp(clock), list(room.seats),
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
            before = {int(r.player_id): rating_of(r) for r in conn.execute(q)}
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
