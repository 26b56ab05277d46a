"""Open challenges (seeks): a player posts a game, its options and clock, rated or casual, for
anyone (or anyone whose rating is in a range) to accept; the table full, its room is made with
everyone seated and started. A standing seek (``repeat``: N) opens again after each of its games,
N times. People post and accept with their session token; bot accounts with a ``bot:play``
token (they are seated as bot accounts, and their event stream shows the ``gameStart``).

Limits: open seeks per player (``--max-seeks``), seeks and pool entries per address
(``--pairing-per-address``), and the pairing rates for posting and accepting. A seek nobody
took for ``--seek-seconds`` is cancelled by the hall's sweeps.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gamehall.core import GamehallError, game_class
from gamehall.core.messages import msg
from gamehall.server.accounts.identity import Player
from gamehall.server.botapi.service import BotApi
from gamehall.server.hall.write_path import SYSTEM_RANDOM
from gamehall.server.pairing.announce import tell_lobby
from gamehall.server.pairing.rates import PairingRates
from gamehall.server.pairing.seek_store import (
    ACCEPTED,
    OPEN,
    PLAYING,
    Seek,
    SeekLimits,
    SeekStore,
    Taker,
    Terms,
)
from gamehall.server.pairing.service import check_range
from gamehall.server.table.errors import RoomError
from gamehall.server.table.room import FINISHED, Move, Room

if TYPE_CHECKING:
    from gamehall.server.hall.hall import Hall

log = logging.getLogger("gamehall.server")

MAX_REPEAT = 20
LIST_LIMIT = 200

STATUS = {"unknown_seek": 404, "not_your_seek": 403, "own_seek": 409, "seek_taken": 409,
          "out_of_range": 403, "too_many_seeks": 429, "bad_seats": 400, "bad_repeat": 400,
          "seek_closed": 409}
"""HTTP statuses of the seeks' refusals (app.py's table takes them)."""


class Seeks:
    """The hall's open challenges (see the module's docstring)."""

    def __init__(self, hall: Hall, botapi: BotApi) -> None:
        self.hall, self.botapi = hall, botapi
        s = hall.settings
        self.store = SeekStore(hall.storage)
        self.rates = PairingRates(hall.limiter, s.pairing_rate, s.pairing_address_rate)
        self.limits = SeekLimits(s.max_seeks, s.pairing_per_address)
        hall.events.on_game_changed(self._game_changed)
        hall.events.add_sweep(self.expire)

    def _check_available(self) -> None:
        if not self.store.available:
            raise RoomError("pairing_unavailable", msg("error.pairing.unavailable"))

    def terms(self, player: Player, game: str, options: dict[str, Any], clock: str | None,
              seats: int | None, rated: bool | None, span: Sequence[float] | None,
              repeat: int | None) -> Terms:
        """A seek's terms, checked as a room's would be (the game, its options, the clock);
        `seats` sets a game's ``players`` option where it has one (Hau La)."""
        wanted = dict(options)
        if seats is not None and "players" not in wanted and _has_players(game):
            wanted["players"] = seats
        room = self.hall.build_room(player.nickname, game, wanted, rated, clock)
        n = room.game.num_players
        if seats is not None and seats != n:
            raise RoomError("bad_seats", msg("error.pairing.seats", game=room.game.title,
                                             seats=n))
        if repeat is not None and not 0 <= repeat <= MAX_REPEAT:
            raise RoomError("bad_repeat", msg("error.pairing.repeat", most=MAX_REPEAT))
        return Terms(room.game_name, dict(room.options),
                     room.time_control.text if room.time_control else None, n, rated,
                     check_range(span), repeat or 0)

    async def post(self, player: Player, address: str, terms: Terms) -> Seek:
        self._check_available()
        await self.rates.count(player.id, address)
        got = await self.store.post(player.id, player.nickname, address, terms,
                                    self.hall.clock(), self.limits)
        if got.refused == "too_many_seeks":
            raise RoomError("too_many_seeks", msg("error.pairing.too_many_seeks",
                                                  most=self.limits.per_player))
        if got.refused is not None:
            raise RoomError("address_full", msg("error.pairing.address_full",
                                                most=self.limits.per_address))
        assert got.seek is not None
        await self._tell(got.seek)
        return got.seek

    async def open_seeks(self, game: str | None) -> list[Seek]:
        if not self.store.available:
            return []
        return await self.store.open_seeks(game, LIST_LIMIT)

    async def _find(self, seek_id: str) -> Seek:
        self._check_available()
        found = await self.store.get(seek_id[:32])
        if found is None:
            raise RoomError("unknown_seek", msg("error.pairing.unknown_seek"))
        return found

    async def accept(self, player: Player, address: str, seek_id: str) -> tuple[Seek, Room | None]:
        """Take a seat of the seek; the table full, its room is made, seated and started.
        Returns the seek as it now is and the room (None while seats are left)."""
        found = await self._find(seek_id)
        counted = False
        for _ in range(found.terms.seats):  # each retry: another player took a seat meanwhile
            self._check_open(found, player)
            if not counted:
                await self.rates.count(player.id, address)
                counted = True
            rating = await self.store.rating(player.id, found.terms.game)
            if not found.accepts(rating):
                assert found.terms.range is not None
                raise RoomError("out_of_range", msg("error.pairing.out_of_range",
                                                    rating=round(rating),
                                                    lo=round(found.terms.range[0]),
                                                    hi=round(found.terms.range[1])))
            takers = (*found.takers, Taker(player.id, player.nickname))
            full = len(takers) + 1 >= found.terms.seats
            room = self._room(found, takers) if full else None
            if await self.store.take(found, takers, room.id if room else None,
                                     self.hall.clock()):
                break
            if found.terms.seats <= 2:  # the one seat went to someone else
                raise RoomError("seek_taken", msg("error.pairing.seek_taken"))
            found = await self._find(seek_id)  # a seat of a bigger table: try the next one
        else:
            raise RoomError("seek_taken", msg("error.pairing.seek_taken"))
        status = OPEN if room is None else (PLAYING if found.terms.repeat > 0 else ACCEPTED)
        taken = replace(found, takers=takers, status=status, room=room.id if room else None)
        if room is None:
            await self._tell(taken)
            return taken, None
        try:
            live = await self._open(found, takers, room)
        except Exception:
            await self.store.reopen(taken, self.hall.clock(), played=False)  # it stands again
            raise
        await self._tell(taken)
        await self.hall.play_on(live)
        return taken, live

    @staticmethod
    def _check_open(found: Seek, player: Player) -> None:
        """Refuse a seek that is no longer open, or one the player is already at."""
        if found.status != OPEN:
            raise RoomError("seek_closed", msg("error.pairing.seek_closed", status=found.status))
        if found.player_id == player.id or any(t.player_id == player.id
                                               for t in found.takers):
            raise RoomError("own_seek", msg("error.pairing.own_seek"))

    def _room(self, seek: Seek, takers: tuple[Taker, ...]) -> Room:
        t = seek.terms
        return self.hall.build_room(seek.nickname, t.game, t.options, t.rated, t.clock)

    async def _open(self, seek: Seek, takers: tuple[Taker, ...], room: Room) -> Room:
        """Seat everyone (at random), start, store the room; the live room. A bot account
        with `--max-bot-games` open is refused (`too_many_games`; the seek stands again)."""
        people = [(seek.player_id, seek.nickname), *((t.player_id, t.nickname) for t in takers)]
        SYSTEM_RANDOM.shuffle(people)
        ids = [pid for pid, _ in people]
        accounts = await self.hall.storage.accounts_among(ids)
        for seat, (pid, nickname) in enumerate(people):
            room.join(pid, nickname, seat, account=pid in accounts,
                      bot_account=await self.botapi.is_bot_account(pid))
        room.start()
        moves: list[Move] = room.resolve_chance(SYSTEM_RANDOM)
        room.settle_clock(self.hall.clock())
        async with self.botapi.bots_opening(ids):  # a bot's open games stay within its cap
            return await self.hall.open_room(room, moves)

    async def cancel(self, player: Player, seek_id: str) -> Seek:
        found = await self._find(seek_id)
        if found.player_id != player.id:
            raise RoomError("not_your_seek", msg("error.pairing.not_your_seek"))
        if not await self.store.cancel(found, self.hall.clock()):
            raise RoomError("seek_closed", msg("error.pairing.seek_closed", status=found.status))
        gone = replace(found, status="cancelled")
        await self._tell(gone)
        return gone

    async def expire(self, at: float | None = None) -> list[str]:
        """Cancel every seek left open for `--seek-seconds` (by the hall's clock, or `at`), so
        nobody accepts a game against a player long gone; the lobbies are told. Run with the
        hall's sweeps."""
        if not self.store.available:
            return []
        now = self.hall.clock() if at is None else at
        gone = await self.store.expire(now - self.hall.settings.seek_seconds, now)
        for seek in gone:
            await self._tell(replace(seek, status="cancelled"))
        return [s.id for s in gone]

    async def _game_changed(self, room: Room) -> None:
        """A standing seek's game ended: it opens again (one re-issue fewer)."""
        if room.status != FINISHED or not self.store.available:
            return
        for seek in await self.store.playing_in(room.id):
            if await self.store.reopen(seek, self.hall.clock(), played=True):
                terms = replace(seek.terms, repeat=seek.terms.repeat - 1)
                await self._tell(replace(seek, status=OPEN, room=None, takers=(), terms=terms))

    async def _tell(self, seek: Seek) -> None:
        await tell_lobby(self.hall.pubsub, {"type": "seek", "seek": seek.to_json()})


def _has_players(game: str) -> bool:
    """Whether the game's table size is an option (``players``: Hau La)."""
    try:
        return any(o.name == "players" for o in game_class(game).OPTIONS)
    except GamehallError:
        return False  # build_room says why
