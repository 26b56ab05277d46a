"""The tournaments' feature: creating one, joining and withdrawing, starting it early, and what
its page and the API show (settings, status, standings with their tiebreaks, games).

Checked as a room would be (the game, its options and clock through `Hall.build_room`), kept in
storage (`store.py`), run by a director (`director.py`) on one node at a time. A tournament's
games are ordinary rooms: play, clocks, ratings, replays and the bot API need nothing new.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from gamehall.core.messages import msg
from gamehall.server.accounts.identity import Player
from gamehall.server.hall.hall import Hall
from gamehall.server.ops.settings import Settings
from gamehall.server.table.clocks import stamp
from gamehall.server.table.errors import RoomError
from gamehall.server.table.room import Room
from gamehall.server.tournaments.director import Director, arena_queue
from gamehall.server.tournaments.scoreboard import scored
from gamehall.server.tournaments.standings import (
    ARENA,
    ORDER,
    ROUND_ROBIN,
    SWISS,
    SYSTEMS,
    TIEBREAKS,
    number,
)
from gamehall.server.tournaments.store import (
    CREATED,
    FINISHED,
    PLAYING,
    RUNNING,
    Entry,
    TGame,
    Tournament,
    TournamentStore,
)

STATUS = {
    "unknown_tournament": 404,
    "bad_tournament": 400,
    "not_creator": 403,
    "account_needed": 403,
    "wrong_password": 403,
    "no_bots": 403,
    "tournament_full": 409,
    "tournament_closed": 409,
    "too_many_tournaments": 429,
}
"""The HTTP status of each refusal (errors.py)."""

MAX_ROUNDS = 30
MAX_MINUTES = 7 * 24 * 60
MAX_AHEAD_SECONDS = 90 * 86_400
"""How far ahead a tournament may be scheduled."""


def iso(t: float | None) -> str | None:
    return None if t is None else stamp(t).replace("+00:00", "Z")


def parse_time(text: str) -> float:
    try:
        at = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()
    except (ValueError, OverflowError):
        raise RoomError("bad_tournament", msg("error.tournament.starts_at")) from None


def game_lines(t: Tournament, games: list[TGame], names: dict[int, str]) -> list[dict[str, Any]]:
    """The tournament's games, one line each (``GET /api/tournaments/{id}/games``)."""
    return [
        {
            "room": None if g.bye else g.room_id,
            "round": g.round,
            "table": g.table_no,
            "bye": g.bye,
            "players": [names.get(p, "?") for p in g.players],
            "status": g.status,
            "result": list(g.result) if g.result else None,
            "tournament": t.id,
        }
        for g in games
    ]


class Tournaments:
    """Tournaments for the API, and their director."""

    def __init__(self, hall: Hall, settings: Settings) -> None:
        self.hall, self.settings = hall, settings
        self.store = TournamentStore(hall.storage)
        self.director = Director(hall, self.store, settings)
        hall.events.on_game_changed(self.director.game_changed)

    async def start(self) -> None:
        if self.store.available:
            self.director.start()

    async def stop(self) -> None:
        await self.director.stop()

    async def _get(self, tid: str) -> Tournament:
        found = await self.store.get(tid[:16])
        if found is None:
            raise RoomError("unknown_tournament", msg("error.tournament.unknown", id=tid[:16]))
        return found

    # --- creating ----------------------------------------------------------------------------
    async def create(self, player: Player, body: dict[str, Any]) -> Tournament:
        """A new tournament by `player` (an account), checked as its rooms will be."""
        if not self.store.available:
            raise RoomError("storage_error", msg("error.bot_api.unavailable"))
        if not player.account:
            raise RoomError("account_needed", msg("error.tournament.account"))
        room = self._check_room(player, body)
        t = await self._build(player, body, room)
        if not await self.store.create(t, self.settings.max_tournaments):
            raise RoomError(
                "too_many_tournaments",
                msg("error.tournament.too_many", count=self.settings.max_tournaments),
            )
        self.director.wake()
        return t

    def _check_room(self, player: Player, body: dict[str, Any]) -> Room:
        if body["clock"] is None:
            raise RoomError("bad_tournament", msg("error.tournament.clock"))
        room = self.hall.build_room(
            player.nickname, body["game"], body["options"], body["rated"], body["clock"]
        )
        seats = body["seats"]
        counts = self.seat_counts(room)
        if seats not in counts:
            raise RoomError(
                "bad_tournament",
                msg(
                    "error.tournament.seats",
                    game=room.game.title,
                    counts=", ".join(map(str, counts)),
                ),
            )
        return room

    @staticmethod
    def seat_counts(room: Room) -> list[int]:
        """The table sizes a game allows: its `players` option's choices, or its one count."""
        for spec in type(room.game).OPTIONS:
            if spec.name == "players" and spec.choices:
                return sorted(int(c) for c in spec.choices if isinstance(c, int))
        return [room.game.num_players]

    async def _build(self, player: Player, body: dict[str, Any], room: Room) -> Tournament:
        system, seats = body["system"], body["seats"]
        if system not in SYSTEMS:
            raise RoomError(
                "bad_tournament", msg("error.tournament.system", systems=", ".join(SYSTEMS))
            )
        rounds, minutes = body.get("rounds"), body.get("minutes")
        if system == SWISS and not (isinstance(rounds, int) and 1 <= rounds <= MAX_ROUNDS):
            raise RoomError("bad_tournament", msg("error.tournament.rounds", most=MAX_ROUNDS))
        if system == ARENA and not (isinstance(minutes, int) and 1 <= minutes <= MAX_MINUTES):
            raise RoomError("bad_tournament", msg("error.tournament.minutes", most=MAX_MINUTES))
        now = self.hall.clock()
        starts_at = parse_time(body["starts_at"]) if body.get("starts_at") else now + 600
        if not now - 60 <= starts_at <= now + MAX_AHEAD_SECONDS:
            raise RoomError("bad_tournament", msg("error.tournament.starts_at"))
        password = body.get("password") or None
        hashed = await self.hall.accounts.passwords.hash(password) if password else None
        options = dict(room.options)
        return Tournament(
            secrets.token_urlsafe(6),
            body["name"].strip()[:80] or room.game.title,
            player.id,
            room.game_name,
            options,
            room.time_control.text if room.time_control else None,
            system,
            rounds if system == SWISS else None,
            minutes if system == ARENA else None,
            seats,
            starts_at,
            bool(body["rated"]),
            bool(body["bots"]),
            hashed,
            CREATED,
            0,
            None,
            None,
            stamp(now),
        )

    # --- players -----------------------------------------------------------------------------
    def _late_join_open(self, t: Tournament) -> bool:
        """Joining while it runs: an arena until its end, a Swiss until half its rounds are
        paired (lichess), a round robin never (its schedule is made at the start)."""
        if t.status == CREATED:
            return True
        if t.status != RUNNING:
            return False
        if t.system == ARENA:
            return t.ends_at is not None and self.hall.clock() < t.ends_at
        return t.system == SWISS and t.round <= (t.rounds or 0) // 2

    async def join(self, tid: str, player: Player, password: str | None) -> Tournament:
        t = await self._get(tid)
        if not self._late_join_open(t):
            raise RoomError("tournament_closed", msg("error.tournament.closed"))
        if t.password_hash is not None and not (
            password and await self.hall.accounts.passwords.verify(t.password_hash, password)
        ):
            raise RoomError("wrong_password", msg("error.tournament.password"))
        bot = await self.store.is_bot_account(player.id)
        if bot and not t.bots:
            raise RoomError("no_bots", msg("error.tournament.no_bots"))
        rating = await self.store.rating(player.id, t.game)
        entry = Entry(player.id, player.nickname, rating, self.hall.clock(), False, 0, bot, None)
        done = await self.store.join(t.id, entry, self.settings.max_tournament_players)
        if done == "full":
            raise RoomError(
                "tournament_full",
                msg("error.tournament.full", count=self.settings.max_tournament_players),
            )
        self.director.wake()
        return t

    async def withdraw(self, tid: str, player: Player) -> Tournament:
        t = await self._get(tid)
        if t.status == FINISHED:
            raise RoomError("tournament_closed", msg("error.tournament.over"))
        if not await self.store.withdraw(t.id, player.id):
            raise RoomError("tournament_closed", msg("error.tournament.not_in"))
        self.director.wake()
        return t

    async def start_now(self, tid: str, player: Player) -> Tournament:
        """The creator starts the tournament before its time."""
        t = await self._get(tid)
        if t.created_by != player.id:
            raise RoomError("not_creator", msg("error.tournament.not_creator"))
        if t.status != CREATED:
            raise RoomError("tournament_closed", msg("error.tournament.started"))
        await self.director.begin(replace(t, starts_at=self.hall.clock()))
        return await self._get(t.id)

    # --- reading -----------------------------------------------------------------------------
    async def listed(self, limit: int, viewer: Player | None) -> dict[str, Any]:
        """Upcoming (soonest first), running and finished (latest first) tournaments, each
        with its count of players and whether the viewer is in (the page's reminder)."""
        out: dict[str, list[dict[str, Any]]] = {}
        for key, status in (("upcoming", CREATED), ("running", RUNNING), ("finished", FINISHED)):
            lines = []
            for t in await self.store.listed(status, limit):
                entries = [e for e in await self.store.entries(t.id) if not e.withdrawn]
                joined = viewer is not None and any(e.player_id == viewer.id for e in entries)
                lines.append(self._head(t) | {"players": len(entries), "joined": joined})
            out[key] = lines
        return {**out, "now": iso(self.hall.clock())}

    def _head(self, t: Tournament) -> dict[str, Any]:
        return {
            "id": t.id,
            "name": t.name,
            "status": t.status,
            "system": t.system,
            "game": t.game,
            "options": t.options,
            "clock": t.clock,
            "seats": t.seats,
            "rounds": t.rounds,
            "minutes": t.minutes,
            "starts_at": iso(t.starts_at),
            "started_at": iso(t.started_at),
            "ends_at": iso(t.ends_at),
            "ended_at": iso(t.ended_at),
            "rated": t.rated,
            "bots": t.bots,
            "private": t.password_hash is not None,
            "round": t.round,
        }

    async def describe(self, tid: str, viewer: Player | None) -> dict[str, Any]:
        """Everything the page shows: settings, status, standings with the tiebreaks named and
        explained, games in play, whether the viewer is in and may join."""
        t = await self._get(tid)
        entries, games = await self.store.entries(t.id), await self.store.games(t.id)
        names = {e.player_id: e.nickname for e in entries}
        table = scored(t, entries, games)
        mine = next((e for e in entries if viewer and e.player_id == viewer.id), None)
        no_shows = {e.player_id: e.no_shows for e in entries}
        return {
            **self._head(t),
            "now": iso(self.hall.clock()),
            "creator": t.created_by == (viewer.id if viewer else None),
            "joined": mine is not None and not mine.withdrawn,
            "can_join": self._late_join_open(t),
            "players": sum(not e.withdrawn for e in entries),
            "tiebreak_order": [
                {"key": k, "name": TIEBREAKS[k][0], "explain": TIEBREAKS[k][1]}
                for k in ORDER[t.system]
            ],
            "standings": [
                {
                    "rank": s.rank,
                    "player": s.player.name,
                    "rating": s.player.rating,
                    "points": number(s.points),
                    "tiebreaks": {k: number(v) for k, v in s.tiebreaks.items()},
                    "games": s.games,
                    "withdrawn": s.player.withdrawn,
                    "no_shows": no_shows.get(s.player.id, 0),
                    "on_fire": s.on_fire,
                }
                for s in table
            ],
            "winner": table[0].player.name
            if t.status == FINISHED and table and table[0].games
            else None,
            "playing": [line for line in game_lines(t, games, names) if line["status"] == PLAYING],
            **self._queue(t, entries, games),
            "rounds_paired": t.round
            if t.system != ROUND_ROBIN
            else max((g.round for g in games), default=0),
        }

    def _queue(self, t: Tournament, entries: list[Entry], games: list[TGame]) -> dict[str, Any]:
        """A running arena's waiting players and when they are paired next."""
        if t.system != ARENA or t.status != RUNNING:
            return {"waiting": [], "next_pairing": None}
        waiting, at = arena_queue(t, entries, games, self.hall.clock())
        return {
            "waiting": [e.nickname for e in waiting],
            "next_pairing": iso(at) if len(waiting) >= 2 else None,
        }

    async def game_lines(self, tid: str) -> list[dict[str, Any]]:
        t = await self._get(tid)
        names = {e.player_id: e.nickname for e in await self.store.entries(t.id)}
        return game_lines(t, await self.store.games(t.id), names)

    async def of_player(self, nickname: str) -> list[dict[str, Any]]:
        """The tournaments on a player's profile, with their place in each finished one."""
        return await self.store.of_player(nickname, 20) if self.store.available else []
