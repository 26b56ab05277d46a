"""The hall's shared core: the rooms this node keeps, their locks and render cache, the
deadlines and absence, and reading rooms (kept, followed, or read from storage for one answer).

The hall is one class composed of concerns, each a mixin over this core in a module of its own:
who is connected (`hall_presence`), the write path (`hall_writes`), the bots' turns
(`hall_bots`) and following the rooms other nodes own (`hall_following`); `hall.Hall` composes
them with the hall's life cycle, identities and room creation. The core declares what each
concern offers the others, so every call across concerns is typed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from collections import Counter, deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from gamehall.core.messages import Message, msg
from gamehall.server.accounts.identity import (
    Accounts,
    Passwords,
    Player,
    SignInLimiter,
    TokenPolicy,
)
from gamehall.server.cluster.node import Answer, Cluster
from gamehall.server.engines.pool import BotPool
from gamehall.server.ops.limiter import Limiter, SignInLimits
from gamehall.server.ops.metrics import Metrics
from gamehall.server.ops.settings import Settings
from gamehall.server.pubsub.in_process import Event, PubSub
from gamehall.server.storage import ChatLine, Storage
from gamehall.server.table import protocol as proto
from gamehall.server.table.clocks import wall_time
from gamehall.server.table.deadlines import Deadlines, Presence, absence, next_deadline
from gamehall.server.table.errors import RoomError
from gamehall.server.table.options import Boards
from gamehall.server.table.protocol import Request
from gamehall.server.table.room import FINISHED, PLAYING, Move, Room

log = logging.getLogger("gamehall.server")

SYSTEM_RANDOM = random.SystemRandom()
"""Chance is drawn from the operating system's generator: nothing a client saw predicts it."""


class HallCore:
    """State every concern of the hall shares, and the primitives over it."""

    if TYPE_CHECKING:  # what each concern offers the others (defined in the mixins below)
        async def _resume(self, room: Room) -> None: ...
        async def _commit(self, live: Room, draft: Room, moves: list[Move],
                          also: tuple[Room, list[Move]] | None = None,
                          answer: Answer | None = None) -> None: ...
        async def _execute_here(self, room_id: str, player: Player, req: Request,
                                answer: Answer | None = None) -> list[dict[str, Any]]: ...
        def _resync_event(self, room_id: str) -> Event: ...
        def _schedule_bot(self, room: Room) -> None: ...
        def _who(self, room: Room) -> Message: ...
        def presence_changed(self, room_id: str, players: set[int]) -> None: ...
        def _follow(self, room_id: str, event: Event) -> bool: ...
        async def _announce_game(self, room: Room) -> None: ...
        async def is_bot_account(self, player_id: int) -> bool: ...

    def __init__(self, storage: Storage, pubsub: PubSub, bots: BotPool,
                 settings: Settings, clock: Callable[[], float] = wall_time,
                 sign_ins: SignInLimiter | None = None, cluster: Cluster | None = None,
                 metrics: Metrics | None = None, limiter: Limiter | None = None) -> None:
        self.storage, self.pubsub, self.bots, self.settings = storage, pubsub, bots, settings
        self.cluster = cluster
        self.metrics = metrics or Metrics()
        self._attached: Counter[str] = Counter()
        """Connections of this node per room (a cluster keeps copies of those rooms)."""
        self._watched: set[str] = set()
        self._loading: dict[str, list[Event]] = {}
        self._attach_locks: dict[str, asyncio.Lock] = {}
        self._reloads: dict[str, asyncio.Task[None]] = {}
        self.clock = clock
        """The hall's one time source (seconds since the epoch): clocks, absence, signs of life
        and token life read it; tests pass their own (or install one, see `clocks.wall_time`)."""
        self.limiter = limiter or Limiter()
        """The hall's rate limits (the `limits` library; a cluster's nodes share Redis's)."""
        self.accounts = Accounts(
            storage, clock, TokenPolicy(settings.token_idle_days),
            Passwords(settings.argon2_time_cost, settings.argon2_memory_kib),
            sign_ins or SignInLimits(self.limiter))
        self._deadlines = Deadlines()
        self._presence = Presence(clock())
        self._alive_before: float | None = None
        self._alive_at: float | None = None
        """The last sign of life stored (GET /api/health shows it)."""
        self._ticker: asyncio.Task[None] | None = None
        self.boards = Boards.load(settings.boards_dir or None, settings.max_board_bytes)
        self.rooms: dict[str, Room] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._load_lock = asyncio.Lock()
        self._online: dict[str, Counter[int]] = {}
        self._watchers: dict[str, Counter[str]] = {}
        self._chat: dict[str, deque[ChatLine]] = {}
        self._render: dict[str, tuple[int, dict[int | None, str]]] = {}
        self._absence_out: dict[str, dict[str, Any] | None] = {}
        """Owned rooms (cluster) -> the absence object last shared (`_share_absence`)."""
        self._absence_writers: dict[str, asyncio.Task[None]] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._visitor_locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}
        self._revs = itertools.count(1)
        """Render-cache keys: every room made live and every presence change takes the next."""
        self._closing = False
        self._lags: deque[float] = deque(maxlen=1200)
        self._watcher: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None
        self._expirer: asyncio.Task[None] | None = None
        self.metrics.gauges(
            rooms_owned=lambda: len(self.rooms) if self.cluster is None else
            sum(1 for r in self.rooms if r in self.cluster.owned),
            rooms_other=lambda: 0 if self.cluster is None else
            sum(1 for r in self.rooms if r not in self.cluster.owned),
            connections=lambda: sum(sum(c.values()) for c in self._watchers.values()),
            bot_queue=lambda: len(self._bot_tasks))

    def _install(self, room: Room) -> None:
        """Make `room` the one every read sees (it holds only what storage holds)."""
        room.rev = next(self._revs)
        self.rooms[room.id] = room

    def _touch(self, room_id: str) -> None:
        """Something a state shows besides the room changed (presence): render it anew."""
        live = self.rooms.get(room_id)
        if live is not None:
            live.rev = next(self._revs)

    def _lock(self, room_id: str) -> asyncio.Lock:
        lock = self._locks.get(room_id)
        if lock is None:
            lock = self._locks[room_id] = asyncio.Lock()
        return lock

    def _plan(self, room: Room) -> None:
        """Note the room's next deadline (after every change and every presence change); in a
        cluster only the owner acts on deadlines, the others note the turns only."""
        online = self._online_ids(room.id)
        self._presence.turn(room.id, room.to_move(), self.clock())
        if self.cluster is not None and room.id not in self.cluster.owned:
            self._deadlines.set(room.id, None)
            return
        self._deadlines.set(room.id, next_deadline(room, online, self._presence,
                                                   self.settings.absent_seconds, self.clock()))
        if self.cluster is not None:
            self._share_absence(room, online)

    def _share_absence(self, room: Room, online: set[int]) -> None:
        """An owner writes the room's absence (who may be claimed against, from when) where
        the nodes that read the room without keeping it find it (`Cluster.read_presence`):
        their own presence counts know nothing of the room. Written by one task per room,
        the latest value last."""
        assert self.cluster is not None
        away = absence(room, online, self._presence, self.settings.absent_seconds, self.clock())
        occ = room.person_to_move()
        shared = None if away is None or occ is None or occ.player_id is None else {
            "seat": away["seat"], "player": away["player"],
            "claim_at": round(self._presence.absent_from(room.id, occ.player_id)
                              + self.settings.absent_seconds, 3)}
        if room.id in self._absence_out and self._absence_out[room.id] == shared:
            return
        self._absence_out[room.id] = shared
        if room.id not in self._absence_writers:
            task = asyncio.get_running_loop().create_task(self._write_absence(room.id))
            self._absence_writers[room.id] = task

    async def _write_absence(self, room_id: str) -> None:
        assert self.cluster is not None
        written: object = ()
        try:
            while room_id in self._absence_out and self._absence_out[room_id] != written:
                value = self._absence_out[room_id]
                try:
                    await self.cluster.share_absence(room_id, value)
                except (RedisError, OSError) as exc:
                    log.warning("could not share the absence of room %s: %s", room_id, exc)
                    return
                written = value
        finally:
            self._absence_writers.pop(room_id, None)

    def absence(self, room: Room) -> dict[str, Any] | None:
        """The state's ``absent`` object for the room now."""
        return absence(room, self._online_ids(room.id), self._presence,
                       self.settings.absent_seconds, self.clock())

    async def get_room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if len(room_id) > 32:
            raise RoomError("unknown_room", msg("error.room.none"))
        if self.cluster is not None:  # another node's room, as stored now (not kept)
            room = await self.storage.load_room(room_id)
            if room is None:
                raise RoomError("unknown_room", msg("error.room.unknown", room=room_id[:32]))
            if room_id in self.rooms:
                return self.rooms[room_id]
            with contextlib.suppress(RedisError, OSError):
                room.shared = await self.cluster.read_presence(room_id)
            return room
        async with self._load_lock:
            room = self.rooms.get(room_id) or await self.storage.load_room(room_id)
            if room is not None and room.id not in self.rooms:
                await self._resume(room)
        if room is None:
            raise RoomError("unknown_room", msg("error.room.unknown", room=room_id[:32]))
        return self.rooms[room.id]

    async def attach(self, room_id: str) -> Room:
        """A connection starts watching the room: in a cluster this node then keeps a copy of
        it that follows the owner's commits (subscribed before it is loaded, so that nothing
        committed in between is missed). Undo with `detach`."""
        if self.cluster is None:
            return await self.get_room(room_id)
        self._attached[room_id] += 1
        try:
            lock = self._attach_locks.setdefault(room_id, asyncio.Lock())
            async with lock:
                if room_id not in self.rooms:
                    await self._watch(room_id)
                    await self._load_copy(room_id)
            return self.rooms[room_id]
        except BaseException:
            self.detach(room_id)
            raise

    def detach(self, room_id: str) -> None:
        if self.cluster is None:
            return
        self._attached[room_id] -= 1
        if self._attached[room_id] <= 0:
            del self._attached[room_id]
            self._attach_locks.pop(room_id, None)
        self._maybe_evict(room_id)

    async def _watch(self, room_id: str) -> None:
        if self.cluster is not None and room_id not in self._watched:
            self._watched.add(room_id)
            self.cluster.expect_presence(room_id)
            await self.pubsub.watch(room_id)
            await self.cluster.load_presence(room_id)

    async def _load_copy(self, room_id: str) -> None:
        """Load a room owned elsewhere; events that arrive meanwhile are applied after."""
        self._loading.setdefault(room_id, [])
        try:
            room = await self.storage.load_room(room_id)
        finally:
            pending = self._loading.pop(room_id, [])
        if room is None:
            raise RoomError("unknown_room", msg("error.room.unknown", room=room_id[:32]))
        if room_id not in self.rooms:
            self._install(room)
            for event in pending:
                self._follow(room_id, event)

    def render(self, room: Room, seat: int | None, moves_from: int = 0) -> str:
        """The `state` message for `seat` as JSON text, with the moves from `moves_from` on.

        Everything but the move list is rendered once per change of the room and seat, for the
        rooms this node keeps. A room read from storage and not kept (another node's, watched
        by no connection here) is rendered afresh: its `rev` is its own object's count, not one
        of this node's, so a cached head of an earlier reading would match it and be stale."""
        if self.rooms.get(room.id) is not room:
            online, away = self._shared_view(room)
            return room.render(seat, online, moves_from, None, self.clock(), away)
        online = self._online_ids(room.id)
        cached = self._render.get(room.id)
        if cached is None or cached[0] != room.rev:
            cached = (room.rev, {})
            self._render[room.id] = cached
        head = cached[1].get(seat)
        if head is None:
            head = cached[1][seat] = room.render_head(seat, online)
        return room.render(seat, online, moves_from, head, self.clock(), self.absence(room))

    def _shared_view(self, room: Room) -> tuple[set[int], dict[str, Any] | None]:
        """Who is connected and who is absent, for a room this node does not keep: as the
        nodes holding connections and the owner wrote them in Redis (this node's own counts
        know nothing of the room). Without them (no Redis), nobody is shown absent."""
        if room.shared is None:
            return self._online_ids(room.id), None
        online, shared = room.shared
        occ = room.person_to_move() if room.status == PLAYING else None
        if shared is None or occ is None or occ.player_id in online \
                or shared.get("seat") != room.to_move():
            return online, None
        claim_at = float(shared.get("claim_at", 0.0))
        return online, {"seat": shared["seat"], "player": shared.get("player"),
                        "claim_in_ms": max(0, round((claim_at - self.clock()) * 1000))}

    def _online_ids(self, room_id: str) -> set[int]:
        """The players connected to the room, on this node and (in a cluster) the others."""
        here = set(self._online.get(room_id, ()))
        return here if self.cluster is None else here | self.cluster.remote_players(room_id)

    def seat_for(self, room: Room, player: Player | None) -> int | None:
        return room.seat_of(player.id) if player is not None else None

    async def chat_history(self, room_id: str) -> list[dict[str, Any]]:
        lines = self._chat.get(room_id)
        if lines is None:
            shown = min(self.settings.chat_history, self.settings.chat_keep)
            stored = await self.storage.recent_chat(room_id, shown)
            lines = self._chat.setdefault(room_id, deque(stored, maxlen=shown))
        return [proto.chat(c.sender, c.text, c.at) for c in lines]

    def _maybe_evict(self, room_id: str) -> None:
        """Forget a finished room nobody watches (storage still has it); in a cluster also a
        copy of another node's room that no connection here watches any more."""
        room = self.rooms.get(room_id)
        if room is None or room.id in self._bot_tasks:
            return
        if self.cluster is not None:
            owned = room_id in self.cluster.owned
            if self._attached.get(room_id) or (owned and room.status != FINISHED):
                return
            if owned:
                asyncio.get_running_loop().create_task(self.cluster.release(room_id))
            self._forget(room_id)
            return
        if room.status == FINISHED and not self._watchers.get(room.id):
            self._forget(room_id)

    def _forget(self, room_id: str) -> None:
        self.rooms.pop(room_id, None)
        self._locks.pop(room_id, None)
        self._online.pop(room_id, None)
        self._watchers.pop(room_id, None)
        self._chat.pop(room_id, None)
        self._render.pop(room_id, None)
        self._absence_out.pop(room_id, None)
        self._presence.forget(room_id)
        self._deadlines.set(room_id, None)
        if self.cluster is not None:
            self.cluster.forget_owner(room_id)
        if self.cluster is not None and room_id in self._watched:
            self._watched.discard(room_id)
            self.pubsub.unwatch(room_id)
            self.cluster.forget_presence(room_id)

    def _watched_anywhere(self, room_id: str) -> bool:
        """Someone is connected to the room: here, or (in a cluster) on another node."""
        if self._watchers.get(room_id) or self._attached.get(room_id):
            return True
        return self.cluster is not None and bool(+self.cluster.remote_watchers(room_id))
