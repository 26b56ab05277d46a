"""The hall: the service every request reaches — rooms and the one path every change takes —
assembled from parts, each an object with a small interface, handed what it needs here:

- `RoomKeeper` (keeper.py): the rooms in memory, their locks and chat, reading a room;
- `Watchers` (watchers.py): who is connected to each room;
- `Timekeeper` (timekeeper.py): deadlines, last-seen times, absence;
- `StateRenderer` (rendering.py): the state message per seat, cached per revision;
- `WritePath` (write_path.py): check, apply to a draft, commit, make it the room, publish;
- `EngineTurns` (engine_turns.py): the house bots' turns;
- `Following` (following.py): the cluster's `Host` — rooms changing hands, copies that follow;
- `HallEvents` (events.py): what features (bot API, reviews, pairing, tournaments) subscribe to.

`Hall` itself keeps the life cycle, identities, and creating and listing rooms; it imports no
feature. Every read (HTTP, a connection's states, presence, replay, the lobby) renders the room,
which therefore only ever holds what is stored. In a cluster (cluster/node.py) only the node that
owns a room changes it, with its lease's fencing number on every commit; the other nodes pass their
requests for the room to the owner and keep a copy of the rooms their connections watch.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import re
import secrets
from collections import deque
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from gamehall.core import GamehallError, game_class
from gamehall.core.messages import msg
from gamehall.server.accounts.identity import (
    Accounts,
    Passwords,
    Player,
    SignInLimiter,
    TokenPolicy,
    token_hash,
)
from gamehall.server.cluster.node import Cluster
from gamehall.server.engines.pool import BotPool
from gamehall.server.hall.engine_turns import EngineTurns
from gamehall.server.hall.events import HallEvents
from gamehall.server.hall.following import Following
from gamehall.server.hall.keeper import RoomKeeper
from gamehall.server.hall.rendering import StateRenderer
from gamehall.server.hall.timekeeper import Timekeeper
from gamehall.server.hall.watchers import Watchers
from gamehall.server.hall.write_path import SYSTEM_RANDOM, Outcome, WritePath, log
from gamehall.server.ops.gc import collect_young
from gamehall.server.ops.limiter import Limiter, SignInLimits
from gamehall.server.ops.metrics import Metrics
from gamehall.server.ops.settings import Settings
from gamehall.server.pubsub.in_process import PubSub
from gamehall.server.storage import NicknameTaken, Storage
from gamehall.server.table.clocks import ClockError, parse_control, wall_time
from gamehall.server.table.errors import RoomError
from gamehall.server.table.options import Boards
from gamehall.server.table.protocol import Request
from gamehall.server.table.room import PLAYING, WAITING, Move, Room
from gamehall.server.table.sentences import reason_of

NICKNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,19}")
"""ASCII only, as the large game servers do: no lookalikes (``ａｎｎ``, Cyrillic ``аnn``)."""

TICK = 0.1
"""Seconds between the hall's looks at its deadlines (flags falling, absent players)."""
HEARTBEAT = 2.0
"""Seconds between the hall's stored signs of life: after a crash, running clocks are charged
up to the last one and not for the downtime (so a crash may give a player back up to this much,
and never costs them anything)."""


__all__ = ["Hall", "Outcome", "Player", "Settings", "token_hash"]


class Hall:
    """Everything the HTTP and WebSocket layers ask for: the parts assembled, with the hall's
    life cycle, identities and the rooms' creation and listing."""

    def __init__(self, storage: Storage, pubsub: PubSub, bots: BotPool,
                 settings: Settings, clock: Callable[[], float] = wall_time,
                 sign_ins: SignInLimiter | None = None, cluster: Cluster | None = None,
                 metrics: Metrics | None = None, limiter: Limiter | None = None) -> None:
        self.storage, self.pubsub, self.bots, self.settings = storage, pubsub, bots, settings
        self.cluster = cluster
        self.metrics = metrics or Metrics()
        self.clock = clock
        """The hall's one time source (seconds since the epoch): clocks, absence, signs of life
        and token life read it; tests pass their own (or install one, see `clocks.wall_time`)."""
        self.limiter = limiter or Limiter()
        """The hall's rate limits (the `limits` library; a cluster's nodes share Redis's)."""
        self.accounts = Accounts(
            storage, clock, TokenPolicy(settings.token_idle_days),
            Passwords(settings.argon2_time_cost, settings.argon2_memory_kib),
            sign_ins or SignInLimits(self.limiter))
        self.boards = Boards.load(settings.boards_dir or None, settings.max_board_bytes)
        self.events = HallEvents()
        self.keeper = RoomKeeper(storage, pubsub, cluster, settings)
        self.watchers = Watchers(self.keeper, pubsub, cluster)
        self.timekeeper = Timekeeper(self.keeper, self.watchers, cluster, settings, clock)
        self.renderer = StateRenderer(self.keeper, self.watchers, self.timekeeper, clock)
        self.writes = WritePath(self.keeper, self.watchers, self.timekeeper, self.events,
                                storage, pubsub, cluster, bots, self.limiter, settings,
                                self.boards, self.metrics, clock)
        self.turns = EngineTurns(self.keeper, self.writes, bots, settings, cluster)
        self.following = None if cluster is None else Following(
            self.keeper, self.writes, self.watchers, self.timekeeper, self.turns, storage,
            pubsub, cluster, self._resume)
        self.keeper.resume = self._resume
        self.watchers.seated_changed = self._seated_changed
        self._alive_before: float | None = None
        self._alive_at: float | None = None
        """The last sign of life stored (GET /api/health shows it)."""
        self._ticker: asyncio.Task[None] | None = None
        self._visitor_locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}
        self._lags: deque[float] = deque(maxlen=1200)
        self._watcher: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None
        self._expirer: asyncio.Task[None] | None = None
        self.metrics.gauges(
            rooms_owned=lambda: len(self.rooms) if cluster is None else
            sum(1 for r in self.rooms if r in cluster.owned),
            rooms_other=lambda: 0 if cluster is None else
            sum(1 for r in self.rooms if r not in cluster.owned),
            connections=self.watchers.connections,
            bot_queue=lambda: len(self.turns.tasks))

    # --- what the API reads and asks, passed to the part that does it -------------------------
    @property
    def rooms(self) -> dict[str, Room]:
        """The rooms this node keeps in memory."""
        return self.keeper.rooms

    async def execute(self, room: Room, player: Player | None, req: Request) -> Outcome:
        """Carry out one request (`WritePath.execute`)."""
        return await self.writes.execute(room, player, req)

    async def get_room(self, room_id: str) -> Room:
        return await self.keeper.get_room(room_id)

    async def attach(self, room_id: str) -> Room:
        return await self.keeper.attach(room_id)

    def detach(self, room_id: str) -> None:
        self.keeper.detach(room_id)

    def render(self, room: Room, seat: int | None, moves_from: int = 0) -> str:
        return self.renderer.render(room, seat, moves_from)

    async def connected(self, room: Room, player: Player | None) -> None:
        await self.watchers.connected(room, player)

    async def disconnected(self, room: Room, player: Player | None) -> None:
        await self.watchers.disconnected(room, player)

    async def chat_history(self, room_id: str) -> list[dict[str, Any]]:
        return await self.keeper.chat_history(room_id)

    def seat_for(self, room: Room, player: Player | None) -> int | None:
        return room.seat_of(player.id) if player is not None else None

    def _seated_changed(self, room_id: str, players: set[int]) -> None:
        """Seated people came or went: they were seen now, and the room's absence (and so its
        deadline) may have changed; its states are rendered anew."""
        for player_id in players:
            self.timekeeper.seen(room_id, player_id)
        self.keeper.touch(room_id)
        live = self.keeper.rooms.get(room_id)
        if live is not None:
            self.timekeeper.plan(live)

    # --- life cycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Load every game being played and let bots whose turn it is play on; running clocks
        resume, charged for the time before the last sign of life and not for the downtime.
        Waiting rooms are loaded when someone asks for one, and dropped once idle
        (`expire_idle_rooms`)."""
        self._watcher = asyncio.create_task(self._watch_loop(), name="gamehall-loop-lag")
        self._collector = asyncio.create_task(collect_young(), name="gamehall-young-gc")
        self.timekeeper.restart()
        self._alive_before = await self.storage.last_alive()
        if self.cluster is not None:  # the node takes its share of the rooms nobody holds
            assert self.following is not None
            self.cluster.pubsub.receiver = self.following.remote_event
            self.cluster.on_change = lambda kind: self.metrics.lease_changes.labels(kind).inc()
            await self.cluster.start(self.following)
            await self._mark_alive()
            self._ticker = asyncio.create_task(self._tick_loop(), name="gamehall-deadlines")
            self._expirer = asyncio.create_task(self._expire_loop(), name="gamehall-expire")
            gc.freeze()  # the modules and the app: out of every later collection
            return
        for room_id in await self.storage.active_room_ids(include_waiting=False):
            room = await self.storage.load_room(room_id)
            if room is None:
                continue
            await self._resume(room)
            self.turns.schedule(self.rooms[room.id])
        await self._mark_alive()
        self._ticker = asyncio.create_task(self._tick_loop(), name="gamehall-deadlines")
        self._expirer = asyncio.create_task(self._expire_loop(), name="gamehall-expire")
        gc.freeze()  # what start-up loaded stays: keep it out of every later collection

    async def _resume(self, room: Room) -> None:
        """Make a room just loaded from storage live, before anyone can reach it (so without its
        lock): draw a pending chance outcome and resume a clock the previous server left
        running (each a committed change), and note its deadlines."""
        pending = room.status == PLAYING and room.state is not None \
            and room.state.is_chance_node()
        clock = room.clock
        stale = clock is not None and clock.since is not None \
            and clock.since < self.timekeeper.last_seen.since
        if not (pending or stale):
            self.keeper.install(room)
        else:
            draft = room.draft()
            if draft.clock is not None and stale:
                draft.clock.resume(self.clock(), self._alive_before)
            await self.writes.commit(room, draft, draft.resolve_chance(SYSTEM_RANDOM))
        self.timekeeper.plan(self.rooms[room.id])

    async def stop(self) -> None:
        self.turns.closing = True
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._ticker
            with contextlib.suppress(Exception):
                await self._mark_alive()
        for task in (self._watcher, self._collector, self._expirer):
            if task is not None:
                task.cancel()
        if self.cluster is not None:
            await self.cluster.stop()
        await self.turns.stop()

    async def _tick_loop(self) -> None:
        """Act on deadlines as they come (a flag falls, an absent player becomes claimable) and
        store a sign of life every `HEARTBEAT` seconds."""
        beat = self.clock()
        while True:
            await asyncio.sleep(TICK)
            t = self.clock()
            for room_id in self.timekeeper.deadlines.due(t):
                try:
                    await self._on_deadline(room_id)
                except Exception:
                    log.exception("deadline of room %s failed", room_id)
            if t - beat >= HEARTBEAT or t < beat:
                beat = t
                try:
                    await self._mark_alive()
                except Exception:
                    log.exception("could not store the hall's sign of life")

    async def _mark_alive(self) -> None:
        t = self.clock()
        await self.storage.mark_alive(t)
        self._alive_at = t

    async def _on_deadline(self, room_id: str) -> None:
        async with self.keeper.lock(room_id):
            live = self.rooms.get(room_id)
            if live is None or not self.keeper.owns(room_id):
                return
            if await self.writes.settle_time(live) is live:
                self.keeper.touch(room_id)  # an absent player became claimable: everyone sees it
                await self.pubsub.publish(room_id, self.writes.resync_event(room_id))
                self.timekeeper.plan(live)
        now_live = self.rooms.get(room_id)
        if now_live is not None:
            self.turns.schedule(now_live)

    async def _watch_loop(self) -> None:
        """Measure how late the event loop wakes up (its lag): the hall's own responsiveness."""
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(0.05)
            self._lags.append(loop.time() - t - 0.05)

    def health(self) -> dict[str, Any]:
        """Figures for operators: rooms in memory, connections, bots thinking, storage, the
        event loop's lag over the last minute or so (p50, p99, max, in ms), and the cycle
        collector (its collections per generation: a full one stalls the loop)."""
        lags = sorted(self._lags)

        def ms(q: float) -> float:
            return round(1000 * lags[min(len(lags) - 1, int(q * len(lags)))], 1) if lags else 0.0

        return {
            "loop_lag_ms": {"p50": ms(0.5), "p99": ms(0.99), "max": ms(1.0)},
            "rooms_in_memory": len(self.rooms),
            "connections": self.watchers.connections(),
            "bots_thinking": len(self.turns.tasks),
            "bot_jobs": {"queued": self.bots.queued, "run": self.bots.stats.jobs,
                         "timeouts": self.bots.stats.timeouts,
                         "worker_restarts": self.bots.stats.restarts},
            "storage": dict(getattr(self.storage, "stats", {})),
            "clocks": {"time": self.clock(), "alive_at": self._alive_at,
                       "deadlines": len(self.timekeeper.deadlines)},
            "gc": {"thresholds": list(gc.get_threshold()), "frozen": gc.get_freeze_count(),
                   "collections": [g["collections"] for g in gc.get_stats()]},
            **({"cluster": self.cluster.health()} if self.cluster is not None else {}),
        }

    async def register(self, nickname: str) -> tuple[Player, str]:
        """A new visitor: (player, token). The token is shown once; only its hash is stored."""
        nickname = nickname.strip()
        if not NICKNAME.fullmatch(nickname):
            raise RoomError("bad_nickname", msg("error.nickname.form"))
        if nickname.lower() in ("chance", "server") or nickname.lower().endswith("bot"):
            raise RoomError("bad_nickname", msg("error.nickname.reserved", nickname=nickname))
        try:
            return await self.accounts.new_guest(nickname)
        except NicknameTaken:
            raise RoomError("nickname_taken", msg("error.nickname.taken",
                                                  nickname=nickname)) from None

    async def identify(self, token: str | None) -> Player | None:
        return await self.accounts.identify(token)

    async def set_password(self, player: Player, token: str, password: str,
                           old_password: str | None, address: str = "unknown") -> Player:
        """Protect (or change) the player's password (a try of the old one counts as a
        sign-in's, from `address`); the tables they sit at before the start learn that they
        now have an account (a game of accounts is rated by default)."""
        updated = await self.accounts.set_password(player, token, password, old_password,
                                                   address)
        if not player.account:
            for room_id in [r.id for r in self.rooms.values() if r.status == WAITING
                            and r.seat_of(player.id) is not None
                            and (self.cluster is None or r.id in self.cluster.owned)]:
                async with self.keeper.lock(room_id):
                    live = self.rooms.get(room_id)
                    draft = live.draft() if live is not None else None
                    if live is not None and draft is not None and draft.note_account(player.id):
                        await self.writes.commit(live, draft, [])
        return updated

    async def create_room(self, player: Player, game: str, options: dict[str, Any],
                          rated: bool | None = None, clock: str | None = None) -> Room:
        """A new waiting room. One visitor's creations happen one at a time, so the count of
        their waiting rooms and the new room's commit cannot interleave (the limit holds)."""
        async with self._one_at_a_time(player.id):
            waiting = await self.storage.count_waiting(player.nickname)
            if waiting >= self.settings.max_waiting_rooms:
                raise RoomError("too_many_rooms", msg("error.room.too_many", count=waiting))
            return await self._new_room(player, game, options, rated, clock)

    @contextlib.asynccontextmanager
    async def _one_at_a_time(self, player_id: int) -> AsyncIterator[None]:
        """A lock per visitor, forgotten once nobody holds or waits for it."""
        entry = self._visitor_locks.get(player_id)
        if entry is None:
            entry = self._visitor_locks[player_id] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._visitor_locks[player_id]

    async def _new_room(self, player: Player, game: str, options: dict[str, Any],
                        rated: bool | None, clock: str | None) -> Room:
        room = self.build_room(player.nickname, game, options, rated, clock)
        await self._store_new_room(room)
        return room

    def build_room(self, created_by: str, game: str, options: dict[str, Any],
                    rated: bool | None, clock: str | None) -> Room:
        """A new waiting room, checked (game, options, clock) and not stored yet."""
        try:
            cls = game_class(game)
        except GamehallError as exc:
            raise RoomError("bad_game", msg("error.game.unknown", reason=reason_of(exc))) \
                from None
        checked = self.boards.check(cls, options)
        try:
            control = parse_control(clock)
        except ClockError as exc:
            raise RoomError("bad_clock", exc.said) from None
        try:
            return Room(id=secrets.token_urlsafe(6), game_name=cls.name, options=checked,
                        created_by=created_by, seed=secrets.randbits(63), rated=rated,
                        time_control=control)
        except GamehallError as exc:
            raise RoomError("bad_option", msg("error.option.bad", reason=reason_of(exc))) \
                from None

    async def _store_new_room(self, room: Room, moves: list[Move] | None = None) -> None:
        """Store a room nobody has seen yet (with the moves of its start, if it started), then
        make it live: the creating node owns it in a cluster."""
        if self.cluster is None:
            await self.storage.save_room(room, moves or [])
        else:
            fence = await self.cluster.create(room.id)  # the creating node owns the room
            await self.keeper.watch(room.id)
            await self.storage.save_room(room, moves or [], fence=fence)
        self.keeper.install(room)
        self.events.room_changed(room)

    async def open_room(self, room: Room, moves: list[Move]) -> Room:
        """A room a feature made with its players seated (a challenge accepted, a pairing):
        stored before anyone sees it, then live like any other, its deadlines noted. Once the
        feature has said what it says first, `play_on` starts its life."""
        await self._store_new_room(room, moves)
        live = self.rooms[room.id]
        self.timekeeper.plan(live)
        return live

    async def play_on(self, live: Room) -> None:
        """A room opened by a feature goes on: when its game started, the players' streams are
        told and its house bot plays."""
        if live.status == PLAYING:
            await self.events.game_changed(live)
            self.turns.schedule(live)

    async def list_rooms(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Lobby lines, newest first; rooms in memory are fresher than their stored row."""
        out = []
        for stored in await self.storage.list_rooms(status, limit):
            live = self.rooms.get(stored.id)
            if live is not None and (status is None or live.status == status):
                out.append(live.summary(self.watchers.online_ids(live.id), self.clock()))
            else:
                out.append(stored.summary(None, self.clock()))
        return out

    async def _expire_loop(self) -> None:
        """Drop idle waiting rooms and cancel unanswered challenges now and then (a quarter of
        the shorter lifetime, at most a minute apart)."""
        life = min(self.settings.waiting_room_seconds, self.settings.challenge_seconds)
        pause = max(0.5, min(60.0, life / 4))
        while True:
            for sweep in (self.expire_idle_rooms, *self.events.sweeps):
                try:
                    await sweep()
                except Exception:
                    log.exception("%s failed", sweep.__name__)
            await asyncio.sleep(pause)

    async def expire_idle_rooms(self, at: float | None = None) -> list[str]:
        """Drop every waiting room that nobody changed for `waiting_room_seconds` (by the hall's
        clock, or `at`) and nobody watches now; return their ids. Storage drops a room only if
        it is still idle, and a room's change holds its lock, so a room in use is never dropped.
        In a cluster each node drops the rooms it owns, with the lease's fencing number (a node
        that lost the lease cannot drop the room), counting the watchers of every node."""
        moment = datetime.fromtimestamp(self.clock() if at is None else at, UTC)
        before = (moment - timedelta(seconds=self.settings.waiting_room_seconds)).isoformat(
            timespec="milliseconds")
        dropped = []
        for room_id in await self.storage.idle_waiting(before, 1000):
            if self.watchers.watched_anywhere(room_id):
                continue
            async with self.keeper.lock(room_id):
                fence = self.cluster.fence(room_id) if self.cluster is not None else None
                if self.watchers.watched_anywhere(room_id) \
                        or (self.cluster is not None and fence is None):
                    continue
                if await self.storage.drop_waiting(room_id, before, fence=fence):
                    dropped.append(room_id)
                    self.events.room_gone(room_id)
            if room_id in dropped and self.cluster is not None:
                await self.cluster.release(room_id)
            if room_id in dropped or (room_id not in self.rooms and self.cluster is None):
                self.keeper.forget(room_id)
        if dropped:
            log.info("dropped %d idle waiting rooms", len(dropped))
        return dropped
