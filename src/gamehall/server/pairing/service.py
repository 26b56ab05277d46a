"""The pools of the hall: joining, leaving, reading one's entry, and the waves.

- A player joins one pool at a time (`PoolStore.join` refuses a second entry, one while seated
  in a running game, one while held back after a no-show, and past the address's cap); joins
  count against the pairing rates (`PairingRates`).
- Each pool fires a wave every `pairing_wave_seconds` of hall time, or as soon as
  `pairing_wave_players` wait in it; a wave pairs those waiting (`wave.pair_wave`), writes its
  choice (`PoolStore.choose`, under the pool's lease number), then stores each table's room,
  seated and started, and tells the players. A player who asked (``bot_after_s``) and still
  waits after that long plays a house bot of their level.
- The node holding a pool's lease (`PoolLeases`) runs it; every node's loop looks at each pool
  twice a second, and the holder first finishes the tables a wave chose but whose room was not
  stored (its node died between the two): the room is stored under the id the wave gave it, so
  it is stored once, and no entry is lost or paired twice.
- A player who leaves a paired game before their first move (a no-show) is held back from
  the pools for `no_show_seconds`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gamehall.core.messages import msg
from gamehall.server.accounts.identity import Player
from gamehall.server.cluster.leases import Leases
from gamehall.server.engines.pool import bot_spec
from gamehall.server.hall.write_path import SYSTEM_RANDOM
from gamehall.server.pairing.announce import tell_lobby, tell_paired
from gamehall.server.pairing.lease import PoolLeases
from gamehall.server.pairing.pools import CATALOGUE, Pool, pool_named
from gamehall.server.pairing.presence import Presence
from gamehall.server.pairing.rates import PairingRates
from gamehall.server.pairing.store import (
    PAIRING,
    WAITING,
    Entry,
    JoinLimits,
    PoolStore,
    Seat,
)
from gamehall.server.pairing.wave import Candidate, pair_wave
from gamehall.server.table.errors import RoomError
from gamehall.server.table.room import FINISHED, Move, Room

if TYPE_CHECKING:
    from gamehall.server.hall.hall import Hall

log = logging.getLogger("gamehall.server")

LOOK = 0.5
"""Seconds (real time) between a node's looks at its pools."""
RATING_BOUNDS = (0.0, 5000.0)
BOT_LEVELS = ((1350.0, "easy"), (1650.0, "medium"))
"""A player's house bot: easy below 1350, medium below 1650, hard above."""

STATUS = {"unknown_pool": 404, "unknown_entry": 404, "not_your_entry": 403,
          "already_waiting": 409, "other_pool": 409, "in_game": 409, "held_back": 409,
          "address_full": 429, "bad_range": 400, "bad_wait": 400, "pairing_unavailable": 503}
"""HTTP statuses of the pools' refusals (app.py's table takes them)."""


def bot_level(rating: float) -> str:
    """The house bot of a player's level (`BOT_LEVELS`)."""
    for bound, level in BOT_LEVELS:
        if rating < bound:
            return level
    return "hard"


def check_range(span: Sequence[float] | None) -> tuple[float, float] | None:
    """A rating range as a client sent it (``[lo, hi]``), checked."""
    if span is None:
        return None
    if len(span) != 2 or not RATING_BOUNDS[0] <= span[0] <= span[1] <= RATING_BOUNDS[1]:
        raise RoomError("bad_range", msg("error.pairing.range", lo=int(RATING_BOUNDS[0]),
                                         hi=int(RATING_BOUNDS[1])))
    return float(span[0]), float(span[1])


class Pools:
    """The hall's pools (see the module's docstring); `start` and `stop` with the hall."""

    def __init__(self, hall: Hall, leases: Leases | None = None) -> None:
        self.hall = hall
        s = hall.settings
        self.settings = s
        self.store = PoolStore(hall.storage)
        self.rates = PairingRates(hall.limiter, s.pairing_rate, s.pairing_address_rate)
        self.limits = JoinLimits(s.pairing_per_address)
        self.leases = PoolLeases(leases)
        self.presence = Presence(hall, self.store, s.pairing_away_seconds)
        self._next_wave: dict[str, float] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._counts: dict[str, int] = {}
        hall.events.on_game_changed(self._game_changed)

    # --- what the routes ask -------------------------------------------------------------------
    def _check_available(self) -> None:
        if not self.store.available:
            raise RoomError("pairing_unavailable", msg("error.pairing.unavailable"))

    async def pools(self) -> list[dict[str, Any]]:
        """Every pool, with how many wait in it."""
        counts = await self.store.counts() if self.store.available else {}
        return [p.to_json(counts.get(p.id, 0)) for p in CATALOGUE]

    async def join(self, player: Player, address: str, pool_id: str,
                   span: Sequence[float] | None, bot_after: float | None) -> Entry:
        """Put the player in the pool (refusals: see the module's docstring)."""
        self._check_available()
        pool = pool_named(pool_id)
        if pool is None:
            raise RoomError("unknown_pool", msg("error.pairing.unknown_pool",
                                                pool=pool_id[:64]))
        checked = check_range(span)
        await self.hall.events.joining(player)  # a bot account takes no seat by hand
        await self.rates.count(player.id, address)
        now = self.hall.clock()
        got = await self.store.join(pool.id, pool.game, player.id, player.nickname, address,
                                    checked, bot_after, now, self.limits)
        if got.refused is not None:
            raise self._refusal(got.refused, got.entry, got.until, now)
        assert got.entry is not None
        self._wake.set()
        await self._tell_counts()
        return got.entry

    def _refusal(self, code: str, entry: Entry | None, until: float | None,
                 now: float) -> RoomError:
        if code in ("already_waiting", "other_pool"):
            assert entry is not None
            return RoomError(code, msg(f"error.pairing.{code}", pool=entry.pool,
                                       entry=entry.id))
        if code == "held_back":
            return RoomError(code, msg("error.pairing.held_back",
                                       seconds=max(1, round((until or now) - now))))
        if code == "address_full":
            return RoomError(code, msg("error.pairing.address_full",
                                       most=self.limits.per_address))
        return RoomError(code, msg("error.pairing.in_game"))

    async def entry(self, player: Player, entry_id: str) -> Entry:
        """The player's own entry (another's: 403; none: 404)."""
        self._check_available()
        found = await self.store.entry(entry_id[:32])
        if found is None:
            raise RoomError("unknown_entry", msg("error.pairing.unknown_entry"))
        if found.player_id != player.id:
            raise RoomError("not_your_entry", msg("error.pairing.not_yours"))
        await self.presence.polled(found)  # its player is still there
        return found

    async def leave(self, player: Player, entry_id: str) -> Entry:
        """Leave the pool: a waiting entry is cancelled; one already paired stays so (its
        answer says where to play)."""
        found = await self.entry(player, entry_id)
        if found.status == WAITING and await self.store.cancel(found.id, self.hall.clock()):
            await self._tell_counts()
        return await self.entry(player, entry_id)

    async def gone(self, player: Player) -> bool:
        """The player went away (their last lobby connection closed, as lichess takes a
        player out of its pools): their waiting entry is cancelled, so no wave pairs them into
        a game nobody will play. True if one was."""
        if not self.store.available:
            return False
        if await self.store.cancel_player(player.id, self.hall.clock()):
            await self._tell_counts()
            return True
        return False

    # --- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        if self.store.available:
            self._task = asyncio.create_task(self._loop(), name="gamehall-pools")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self.leases.release()

    async def _loop(self) -> None:
        while True:
            try:
                await self.presence.mark()
            except Exception:
                log.exception("could not mark the connected players' entries")
            for pool in CATALOGUE:
                try:
                    await self.look(pool)
                except Exception:
                    log.exception("pool %s failed", pool.id)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), LOOK)

    async def look(self, pool: Pool) -> None:
        """One look at a pool: if this node runs it, cancel the entries whose player went away
        (presence.py), finish the tables chosen but not stored, pair those who asked for a bot
        and waited enough, and fire a wave when it is due."""
        held, fence = await self.leases.hold(pool.id)
        if not held:
            self._next_wave.pop(pool.id, None)
            return
        now = self.hall.clock()
        due_at = self._next_wave.setdefault(pool.id, now + self.settings.pairing_wave_seconds)
        active = await self.store.active(pool.id)
        seen_after = now - self.settings.pairing_away_seconds
        if any(e.status == WAITING and e.seen_at < seen_after for e in active):
            await self.store.expire(pool.id, seen_after, now)  # their players went away
            active = await self.store.active(pool.id)
        chosen: dict[str, list[Entry]] = defaultdict(list)
        for e in active:
            if e.status == PAIRING and e.room is not None:
                chosen[e.room].append(e)
        for room_id, entries in chosen.items():
            await self._open(pool, room_id, entries)
        waiting = [e for e in active if e.status == WAITING]
        bots = [e for e in waiting if e.bot_after is not None
                and now - e.joined_at >= e.bot_after]
        paired = len(chosen)
        if bots:
            paired += await self._wave(pool, fence, [[e] for e in bots], [], now)
            waiting = [e for e in waiting if e not in bots]
        if now >= due_at or len(waiting) >= self.settings.pairing_wave_players:
            self._next_wave[pool.id] = now + self.settings.pairing_wave_seconds
            tables = pair_wave([_candidate(e) for e in waiting], pool.seats)
            by_id = {e.id: e for e in waiting}
            picked = [[by_id[c.entry] for c in t] for t in tables]
            taken = {e.id for t in picked for e in t}
            paired += await self._wave(pool, fence, picked,
                                       [e.id for e in waiting if e.id not in taken], now)
        if paired or self._counts.get(pool.id) != len(active):
            await self._tell_counts()  # the lobbies see the pool's count change

    async def _wave(self, pool: Pool, fence: int | None, tables: list[list[Entry]],
                    missed: list[str], now: float) -> int:
        """Write the wave's choice (each table's room id and seats), then open the rooms;
        the tables opened."""
        seats: list[list[Seat]] = []
        for table in tables:
            room_id = self._new_room(pool, table[0].nickname).id
            order = list(range(pool.seats))
            SYSTEM_RANDOM.shuffle(order)
            seats.append([Seat(e.id, room_id, order[i]) for i, e in enumerate(table)])
        written = await self.store.choose(pool.id, fence, seats, missed, now)
        if written is None:  # another node runs the pool now
            self.leases.held.pop(pool.id, None)
            return 0
        by_id = {e.id: e for t in tables for e in t}
        for table_seats in written:
            entries = [_seated(by_id[s.entry], s) for s in table_seats]
            await self._open(pool, table_seats[0].room, entries)
        return len(written)

    def _new_room(self, pool: Pool, created_by: str, room_id: str | None = None) -> Room:
        room = self.hall.build_room(created_by, pool.game, dict(pool.options), pool.rated,
                                    pool.clock)
        if room_id is not None:
            room.id = room_id
        return room

    async def _open(self, pool: Pool, room_id: str, entries: list[Entry]) -> None:
        """Store the room a wave chose for `entries` (seated, house bots in the seats nobody
        holds, started), mark them paired and tell them. A room stored already (by a node that
        died before marking them) is only marked."""
        if not await self.store.room_stored(room_id):
            room = self._new_room(pool, entries[0].nickname, room_id)
            accounts = await self.hall.storage.accounts_among([e.player_id for e in entries])
            for e in sorted(entries, key=lambda e: e.seat or 0):
                room.join(e.player_id, e.nickname, e.seat, account=e.player_id in accounts)
            if len(entries) < pool.seats:
                spec = bot_spec(bot_level(entries[0].rating), self.hall.bots.limits)
                for seat, occ in enumerate(room.seats):
                    if occ is None:
                        room.set_bot(spec, f"{spec} bot", seat)
            room.start()
            moves: list[Move] = room.resolve_chance(SYSTEM_RANDOM)
            room.settle_clock(self.hall.clock())
            try:
                live = await self.hall.open_room(room, moves)
            except Exception:
                if not await self.store.room_stored(room_id):
                    raise
                live = None  # another node stored it first
            if live is not None:
                await self._mark(pool, room_id)
                await self.hall.play_on(live)
                return
        await self._mark(pool, room_id)

    async def _mark(self, pool: Pool, room_id: str) -> None:
        for e in await self.store.paired(room_id, self.hall.clock()):
            await tell_paired(self.hall.pubsub, e.player_id,
                              {"type": "paired", "entry": e.id, "pool": pool.id,
                               "room": room_id})

    async def _tell_counts(self) -> None:
        pools = await self.pools()
        self._counts = {p["id"]: p["waiting"] for p in pools}
        await tell_lobby(self.hall.pubsub, {"type": "pools", "pools": pools})

    # --- no-shows --------------------------------------------------------------------------------
    async def _game_changed(self, room: Room) -> None:
        """A paired game ended before a player's first move, by their leaving (not the
        rules): they are held back from the pools for a while."""
        if room.status != FINISHED or room.ended_by == "rules" or not room.result:
            return
        entries = await self.store.in_room(room.id) if self.store.available else []
        if not entries:
            return
        moved = {m.seat for m in room.moves}
        worst = min(room.result)
        gone = [e.player_id for e in entries if e.seat is not None and e.seat not in moved
                and room.result[e.seat] == worst and max(room.result) > worst]
        await self.store.hold(gone, self.hall.clock() + self.settings.no_show_seconds)


def _candidate(e: Entry) -> Candidate:
    return Candidate(e.id, e.player_id, e.rating, e.range, e.waves, e.last)


def _seated(e: Entry, seat: Seat) -> Entry:
    return replace(e, status=PAIRING, room=seat.room, seat=seat.seat)
