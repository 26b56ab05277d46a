"""The hall: rooms in memory, the one path every request takes, identities, presence, and the
bots' turns.

Order of every change, under the room's lock: check, apply to a copy of the room (a draft),
commit the draft, then make it the room, then publish. Every read (HTTP, a connection's states,
presence, replay, the lobby) renders the room, which therefore only ever holds what is stored.
If the commit fails the room is reloaded from storage and sent to every watcher again.

In a cluster (cluster.py) only the node that owns a room changes it, with its lease's fencing
number on every commit; the other nodes pass their requests for the room to the owner and keep
a copy of the rooms their connections watch, which follows the owner's commits in `revision`
order (or is reloaded from the database when one is missed).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import logging
import random
import re
import secrets
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from redis.exceptions import RedisError

from gamehall.core import GamehallError, game_class
from gamehall.server import protocol as proto
from gamehall.server.accounts import (
    Accounts,
    Passwords,
    Player,
    SignInLimiter,
    TokenPolicy,
    stamp,
    token_hash,
)
from gamehall.server.boards import Boards
from gamehall.server.bots import BotPool, bot_spec
from gamehall.server.clocks import ClockError, parse_control, wall_time
from gamehall.server.cluster import Answer, Cluster, NotOwner, PlayerRef, Unreachable
from gamehall.server.collector import collect_young
from gamehall.server.commands import help_text, parse_command
from gamehall.server.limiter import Limiter, SignInLimits
from gamehall.server.metrics import Metrics
from gamehall.server.protocol import ProtocolError, Request
from gamehall.server.pubsub import Event, PubSub
from gamehall.server.rooms import FINISHED, PLAYING, WAITING, Move, Room, RoomError, now
from gamehall.server.settings import Settings
from gamehall.server.storage import (
    ChatLine,
    Fenced,
    NicknameTaken,
    Storage,
    room_from_values,
    room_row,
)
from gamehall.server.timers import Deadlines, Presence, absence, next_deadline

log = logging.getLogger("gamehall.server")

MANAGING = {"option", "bot", "start", "rated", "clock"}
"""Requests that set up the table (see `Hall._check_may_manage`)."""

SYSTEM_RANDOM = random.SystemRandom()
"""Chance is drawn from the operating system's generator: nothing a client saw predicts it."""

NICKNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,19}")
"""ASCII only, as the large game servers do: no lookalikes (``ａｎｎ``, Cyrillic ``аnn``)."""

TICK = 0.1
"""Seconds between the hall's looks at its deadlines (flags falling, absent players)."""
HEARTBEAT = 2.0
"""Seconds between the hall's stored signs of life: after a crash, running clocks are charged
up to the last one and not for the downtime (so a crash may give a player back up to this much,
and never costs them anything)."""


__all__ = ["Hall", "Player", "Settings", "token_hash"]


class Hall:
    """Everything the HTTP and WebSocket layers ask for."""

    def __init__(self, storage: Storage, pubsub: PubSub, bots: BotPool,
                 settings: Settings, clock: Callable[[], float] = wall_time,
                 sign_ins: SignInLimiter | None = None, cluster: Cluster | None = None,
                 metrics: Metrics | None = None) -> None:
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
        self.limiter = Limiter()
        """The hall's rate limits (the `limits` library)."""
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

    # --- lifecycle -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Load every game being played and let bots whose turn it is play on; running clocks
        resume, charged for the time before the last sign of life and not for the downtime.
        Waiting rooms are loaded when someone asks for one, and dropped once idle
        (`expire_idle_rooms`)."""
        self._watcher = asyncio.create_task(self._watch_loop(), name="gamehall-loop-lag")
        self._collector = asyncio.create_task(collect_young(), name="gamehall-young-gc")
        self._presence = Presence(self.clock())
        self._alive_before = await self.storage.last_alive()
        if self.cluster is not None:  # the node takes its share of the rooms nobody holds
            self.cluster.pubsub.receiver = self._remote_event
            self.cluster.on_change = lambda kind: self.metrics.lease_changes.labels(kind).inc()
            await self.cluster.start(self)
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
            self._schedule_bot(self.rooms[room.id])
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
        stale = clock is not None and clock.since is not None and clock.since < self._presence.since
        if not (pending or stale):
            self._install(room)
        else:
            draft = room.draft()
            if draft.clock is not None and stale:
                draft.clock.resume(self.clock(), self._alive_before)
            await self._commit(room, draft, draft.resolve_chance(SYSTEM_RANDOM))
        self._plan(self.rooms[room.id])

    async def stop(self) -> None:
        self._closing = True
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
        for task in list(self._bot_tasks.values()):
            task.cancel()
        for task in list(self._bot_tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.bots.close()

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

    async def _tick_loop(self) -> None:
        """Act on deadlines as they come (a flag falls, an absent player becomes claimable) and
        store a sign of life every `HEARTBEAT` seconds."""
        beat = self.clock()
        while True:
            await asyncio.sleep(TICK)
            t = self.clock()
            for room_id in self._deadlines.due(t):
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
        async with self._lock(room_id):
            live = self.rooms.get(room_id)
            if live is None or (self.cluster is not None and room_id not in self.cluster.owned):
                return
            if await self._settle_time(live) is live:
                self._touch(room_id)  # an absent player became claimable: everyone sees it
                await self.pubsub.publish(room_id, self._resync_event(room_id))
                self._plan(live)
        now_live = self.rooms.get(room_id)
        if now_live is not None:
            self._schedule_bot(now_live)

    async def _settle_time(self, live: Room) -> Room:
        """If the running seat's time is up, it drops out now, a change committed like any other
        (under the room's lock, before every change): the room as it is then."""
        t = self.clock()
        if not live.time_is_up(t):
            return live
        draft = live.draft()
        seat = draft.time_out(t)
        await self._commit(live, draft, [])
        text = draft.outcome if draft.status == FINISHED else \
            f"{draft.game.seat_names[seat]} ran out of time: a bot plays the seat on, and it " \
            "ranks last"
        await self.pubsub.publish(live.id, {"event": "message",
                                            "message": proto.info(text or "time is up")})
        return self.rooms.get(live.id, draft)

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
            "connections": sum(sum(c.values()) for c in self._watchers.values()),
            "bots_thinking": len(self._bot_tasks),
            "bot_jobs": {"queued": self.bots.queued, "run": self.bots.stats.jobs,
                         "timeouts": self.bots.stats.timeouts,
                         "worker_restarts": self.bots.stats.restarts},
            "storage": dict(getattr(self.storage, "stats", {})),
            "clocks": {"time": self.clock(), "alive_at": self._alive_at,
                       "deadlines": len(self._deadlines)},
            "gc": {"thresholds": list(gc.get_threshold()), "frozen": gc.get_freeze_count(),
                   "collections": [g["collections"] for g in gc.get_stats()]},
            **({"cluster": self.cluster.health()} if self.cluster is not None else {}),
        }

    # --- identity --------------------------------------------------------------------------------
    async def register(self, nickname: str) -> tuple[Player, str]:
        """A new visitor: (player, token). The token is shown once; only its hash is stored."""
        nickname = nickname.strip()
        if not NICKNAME.fullmatch(nickname):
            raise RoomError("bad_nickname", "a nickname is 1 to 20 ASCII letters, digits, '_' or "
                                            "'-', starting with a letter or digit")
        if nickname.lower() in ("chance", "server") or nickname.lower().endswith("bot"):
            raise RoomError("bad_nickname", f"{nickname!r} is reserved")
        try:
            return await self.accounts.new_guest(nickname)
        except NicknameTaken:
            raise RoomError("nickname_taken", f"the nickname {nickname} is taken (if it is "
                                              "yours, sign in)") from None

    async def identify(self, token: str | None) -> Player | None:
        return await self.accounts.identify(token)

    async def set_password(self, player: Player, token: str, password: str,
                           old_password: str | None) -> Player:
        """Protect (or change) the player's password; the tables they sit at before the start
        learn that they now have an account (a game of accounts is rated by default)."""
        updated = await self.accounts.set_password(player, token, password, old_password)
        if not player.account:
            for room_id in [r.id for r in self.rooms.values() if r.status == WAITING
                            and r.seat_of(player.id) is not None
                            and (self.cluster is None or r.id in self.cluster.owned)]:
                async with self._lock(room_id):
                    live = self.rooms.get(room_id)
                    draft = live.draft() if live is not None else None
                    if live is not None and draft is not None and draft.note_account(player.id):
                        await self._commit(live, draft, [])
        return updated

    # --- rooms -----------------------------------------------------------------------------------
    async def create_room(self, player: Player, game: str, options: dict[str, Any],
                          rated: bool | None = None, clock: str | None = None) -> Room:
        """A new waiting room. One visitor's creations happen one at a time, so the count of
        their waiting rooms and the new room's commit cannot interleave (the limit holds)."""
        async with self._one_at_a_time(player.id):
            waiting = await self.storage.count_waiting(player.nickname)
            if waiting >= self.settings.max_waiting_rooms:
                raise RoomError("too_many_rooms", f"you already have {waiting} rooms waiting "
                                                  "for players; start or use one of them")
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
        try:
            cls = game_class(game)
        except GamehallError as exc:
            raise RoomError("bad_game", str(exc)) from None
        checked = self.boards.check(cls, options)
        try:
            control = parse_control(clock)
        except ClockError as exc:
            raise RoomError("bad_clock", str(exc)) from None
        try:
            room = Room(id=secrets.token_urlsafe(6), game_name=cls.name, options=checked,
                        created_by=player.nickname, seed=secrets.randbits(63), rated=rated,
                        time_control=control)
        except GamehallError as exc:
            raise RoomError("bad_option", str(exc)) from None
        if self.cluster is None:
            await self.storage.save_room(room)
            self._install(room)
            return room
        fence = await self.cluster.create(room.id)  # the creating node owns the room
        await self._watch(room.id)
        await self.storage.save_room(room, fence=fence)
        self._install(room)
        return room

    async def get_room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if len(room_id) > 32:
            raise RoomError("unknown_room", "no such room")
        if self.cluster is not None:  # another node's room, as stored now (not kept)
            room = await self.storage.load_room(room_id)
            if room is None:
                raise RoomError("unknown_room", f"no room {room_id[:32]!r}")
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
            raise RoomError("unknown_room", f"no room {room_id[:32]!r}")
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
            raise RoomError("unknown_room", f"no room {room_id[:32]!r}")
        if room_id not in self.rooms:
            self._install(room)
            for event in pending:
                self._follow(room_id, event)

    async def list_rooms(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Lobby lines, newest first; rooms in memory are fresher than their stored row."""
        out = []
        for stored in await self.storage.list_rooms(status, limit):
            live = self.rooms.get(stored.id)
            if live is not None and (status is None or live.status == status):
                out.append(live.summary(self._online_ids(live.id), self.clock()))
            else:
                out.append(stored.summary(None, self.clock()))
        return out

    # --- rendering -------------------------------------------------------------------------------
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

    # --- presence --------------------------------------------------------------------------------
    async def connected(self, room: Room, player: Player | None) -> None:
        if player is None:
            self._watchers.setdefault(room.id, Counter())["?"] += 1
            await self._presence_out(room.id)
            return
        online = self._online.setdefault(room.id, Counter())
        online[player.id] += 1
        self._watchers.setdefault(room.id, Counter())[player.nickname] += 1
        await self._presence_out(room.id)
        if online[player.id] == 1 and room.seat_of(player.id) is not None:
            self._presence_changed(room.id, player.id)
            await self._tell_here(room.id, {"event": "state"})

    def _presence_changed(self, room_id: str, player_id: int) -> None:
        """A seated person came or went: they were seen now, and the room's absence (and so
        its deadline) may have changed."""
        self._presence.seen(room_id, player_id, self.clock())
        self._touch(room_id)
        live = self.rooms.get(room_id)
        if live is not None:
            self._plan(live)

    async def disconnected(self, room: Room, player: Player | None) -> None:
        watchers = self._watchers.get(room.id, Counter())
        watchers[player.nickname if player else "?"] -= 1
        watchers += Counter()  # drop zero counts
        self._watchers[room.id] = watchers
        if player is not None:
            online = self._online.get(room.id, Counter())
            online[player.id] -= 1
            if online[player.id] <= 0:
                del online[player.id]
                if room.seat_of(player.id) is not None:
                    self._presence_changed(room.id, player.id)
                    await self._tell_here(room.id, {"event": "state"})
        await self._presence_out(room.id)
        self._maybe_evict(room.id)

    async def _tell_here(self, room_id: str, event: Event) -> None:
        """An event only this node's connections need (presence: the others learn it from
        `Cluster.set_presence`)."""
        if self.cluster is None:
            await self.pubsub.publish(room_id, event)
        else:
            self.pubsub.deliver_local(room_id, event)

    async def _presence_out(self, room_id: str) -> None:
        if self.cluster is not None:
            await self.cluster.set_presence(room_id, set(self._online.get(room_id, ())),
                                            self._watchers.get(room_id, Counter()))

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

    async def _expire_loop(self) -> None:
        """Drop idle waiting rooms now and then (a quarter of their lifetime, at most a minute
        apart)."""
        pause = max(0.5, min(60.0, self.settings.waiting_room_seconds / 4))
        while True:
            try:
                await self.expire_idle_rooms()
            except Exception:
                log.exception("could not drop idle waiting rooms")
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
            if self._watched_anywhere(room_id):
                continue
            async with self._lock(room_id):
                fence = self.cluster.fence(room_id) if self.cluster is not None else None
                if self._watched_anywhere(room_id) or (self.cluster is not None and fence is None):
                    continue
                if await self.storage.drop_waiting(room_id, before, fence=fence):
                    dropped.append(room_id)
            if room_id in dropped and self.cluster is not None:
                await self.cluster.release(room_id)
            if room_id in dropped or (room_id not in self.rooms and self.cluster is None):
                self._forget(room_id)
        if dropped:
            log.info("dropped %d idle waiting rooms", len(dropped))
        return dropped

    def _watched_anywhere(self, room_id: str) -> bool:
        """Someone is connected to the room: here, or (in a cluster) on another node."""
        if self._watchers.get(room_id) or self._attached.get(room_id):
            return True
        return self.cluster is not None and bool(+self.cluster.remote_watchers(room_id))

    # --- requests --------------------------------------------------------------------------------
    async def execute(self, room: Room, player: Player | None,
                      req: Request) -> list[dict[str, Any]]:
        """Carry out one request; return the replies for the requester (broadcasts go out too).

        Raises ProtocolError or RoomError for a refused request, which then changed nothing.
        """
        if req.kind == "chat" and req.args["text"].lstrip().startswith("/"):
            req = parse_command(req.args["text"], req.ref)
        if req.kind == "ping":
            return [{"type": "pong", **({"id": req.ref} if req.ref is not None else {})}]
        if req.kind == "help":
            return [proto.info(help_text(), req.ref)]
        if req.kind == "who":
            return [proto.info(self._who(room), req.ref)]
        if req.kind == "options":
            opts = ", ".join(f"{k}={v}" for k, v in room.game.shown_options().items()) or "none"
            return [proto.info(f"options: {opts}", req.ref)]
        if req.kind == "clocks":
            return [proto.info(self._clocks_text(room), req.ref)]
        if req.kind == "sync":
            return [{"type": "sync"}]
        if req.kind == "identify":
            raise ProtocolError(proto.UNKNOWN_TYPE, "identify is for WebSocket connections; over "
                                                    "HTTP the token goes in a header", req.ref)
        if req.kind == "rated" and "value" not in req.args:
            return [proto.info(rated_text(room), req.ref)]
        if player is None:
            raise ProtocolError(proto.NOT_IDENTIFIED,
                                "choose a nickname first (POST /api/session)", req.ref)
        if req.kind == "chat":
            await self._chat_line(room, player, req.args["text"])
            return []
        if self.cluster is not None:
            return await self._execute_at_owner(room.id, player, req)
        return await self._execute_here(room.id, player, req)

    async def _execute_here(self, room_id: str, player: Player, req: Request,
                            answer: Answer | None = None) -> list[dict[str, Any]]:
        """A state-changing request for a room this node owns (every room, on a single node);
        `answer`: another node's request, answered by the state event of its change."""
        async with self._lock(room_id):
            if self.cluster is not None and self.cluster.fence(room_id) is None:
                raise NotOwner(room_id)
            live = self.rooms.get(room_id) or await self.get_room(room_id)
            if live.seat_of(player.id) is not None:
                self._presence.seen(room_id, player.id, self.clock())
            live = await self._settle_time(live)
            draft = live.draft()
            change = self._change(draft, player, req)
            if change is not None:
                rematch = self._rematch_room(draft) if draft.rematch_agreed() else None
                await self._commit(live, draft, change[1], rematch, answer=answer)
        if change is not None and change[0]:
            message = proto.info(change[0])
            await self.pubsub.publish(room_id, {"event": "message", "message": message})
        now = self.rooms.get(room_id)
        for one in (room_id, now.rematch if now is not None else None):
            now_live = self.rooms.get(one) if one is not None else None
            if now_live is not None:
                self._schedule_bot(now_live)
        self._maybe_evict(room_id)
        return []

    async def _execute_at_owner(self, room_id: str, player: Player,
                                req: Request) -> list[dict[str, Any]]:
        """Carry out the request here when this node owns the room, else have the owner do it.
        While the room changes hands (its owner died) the request waits, up to a lease period
        and a forwarding timeout; it is only ever sent again when it certainly did not arrive."""
        assert self.cluster is not None
        cluster = self.cluster
        deadline = time.monotonic() + cluster.lease_ms / 1000 + cluster.handover_wait
        while True:
            try:
                holder = await cluster.owner(room_id)
                if holder == cluster.holder:
                    return await self._execute_here(room_id, player, req)
                if holder is not None:
                    start = time.perf_counter()
                    replies = await cluster.forward(
                        holder, room_id, (player.id, player.nickname, player.account), req)
                    self.metrics.forward_seconds.observe(time.perf_counter() - start)
                    return replies
            except (NotOwner, Unreachable):
                cluster.forget_owner(room_id)
            except RoomError as exc:
                if exc.code == "room_unavailable":
                    cluster.forget_owner(room_id)
                if exc.code != "room_unavailable" or not await self._was_played(room_id, player,
                                                                                req):
                    raise
                return []
            except (RedisError, OSError) as exc:
                log.warning("cannot reach Redis for room %s: %s", room_id, exc)
            if time.monotonic() > deadline:
                raise RoomError("room_unavailable", "this room's server is changing; try again "
                                                    "in a moment")
            await asyncio.sleep(0.1)

    async def _was_played(self, room_id: str, player: Player, req: Request) -> bool:
        """Whether a move whose answer was lost (the owner went silent) is in the stored game:
        then it counts as done, and the player is not told to try it again."""
        if req.kind != "move":
            return False
        stored = await self.storage.load_room(room_id)
        at = req.args["version"]
        if stored is None or stored.version <= at:
            return False
        played = stored.moves[at]
        typed = " ".join(str(req.args["move"]).split()).lower()
        return played.seat == stored.seat_of(player.id) and played.move.lower() == typed

    def _change(self, room: Room, player: Player,
                req: Request) -> tuple[str | None, list[Move]] | None:
        """Apply a state-changing request to `room` (a draft): the notice for everyone and the
        moves played, or None when there is nothing to do. Raises for a refused request."""
        a = req.args
        names = room.game.seat_names
        if req.kind in MANAGING or (req.kind == "leave" and a.get("seat") is not None
                                    and (occ := room.seats[room.seat_index(a["seat"])])
                                    and occ.bot is not None):
            self._check_may_manage(room, player)
        moves: list[Move] = []
        notice: str | None
        if req.kind == "move":
            seat, action = room.check_move(player.id, a["move"], a["version"])
            moves = [room.apply(seat, action), *room.resolve_chance(SYSTEM_RANDOM)]
            notice = None
        elif req.kind == "join":
            seat = room.join(player.id, player.nickname, a.get("seat"), account=player.account)
            notice = f"{player.nickname} sits as {names[seat]}"
        elif req.kind in ("leave", "spectate"):
            if req.kind == "spectate" and room.seat_of(player.id) is None:
                return None
            seat = room.leave(player.id, a.get("seat"))
            notice = f"{player.nickname} freed the seat of {names[seat]}"
        elif req.kind == "bot":
            spec = bot_spec(a.get("level"), self.bots.limits)
            target = self._person_for_bot(room, a.get("seat"))
            if target is not None:
                if target != room.to_move():
                    room.set_bot(spec, f"{spec} bot", target)  # refused: a person holds it
                if target != self._claimable(room):
                    raise RoomError("not_absent", self._not_absent(room))
                room.hand_to_bot(player.id, target, spec, f"{spec} bot")
                notice = f"{player.nickname} handed the absent {names[target]} to a {spec} bot"
            else:
                seat = room.set_bot(spec, f"{spec} bot", a.get("seat"))
                notice = f"{player.nickname} seated a {spec} bot as {names[seat]}"
        elif req.kind == "clock":
            control = room.set_clock(a.get("control"))
            notice = (f"{player.nickname} set the clock to {control.text}" if control
                      else f"{player.nickname} made the game untimed")
        elif req.kind == "claim":
            away = self._claimable(room)
            room.claim(player.id, away, self._not_absent(room) if away is None else "")
            assert away is not None
            notice = (f"{player.nickname} claimed the game: {room.outcome}"
                      if room.status == FINISHED else
                      f"{player.nickname} claimed against the absent {names[away]}: a bot plays "
                      "the seat on, and it ranks last")
        elif req.kind == "rematch":
            notice = (f"{player.nickname} agreed: the rematch starts" if room.ask_rematch(player.id)
                      else f"{player.nickname} asks for a rematch (/rematch or the Rematch "
                           "button)")
        elif req.kind == "option":
            ((key, value),) = self.boards.check(type(room.game), {a["key"]: a["value"]}).items()
            notice = f"{player.nickname} set {key}={room.set_option(key, value)}"
        elif req.kind == "start":
            room.start()
            moves = room.resolve_chance(SYSTEM_RANDOM)
            notice = f"{player.nickname} started the game"
        elif req.kind == "resign":
            notice = f"{player.nickname} resigned as {names[room.resign(player.id)]}"
        elif req.kind == "rated":
            room.set_rated(a["value"])
            notice = f"{player.nickname} made the game {'rated' if a['value'] else 'casual'}"
        else:
            raise ProtocolError(proto.UNKNOWN_TYPE, f"{req.kind} is not a room action", req.ref)
        return notice, moves

    @staticmethod
    def _check_may_manage(room: Room, player: Player) -> None:
        """Options, bots and the start belong to the people at the table: anyone seated, the
        room's creator, or anyone at all while no person sits (an all-bot table)."""
        people = [o for o in room.seats if o is not None and o.player_id is not None]
        if room.seat_of(player.id) is None and player.nickname != room.created_by and people:
            raise RoomError("not_seated", "take a seat first (/join): only the players and the "
                                          "room's creator set up the table")

    def _person_for_bot(self, room: Room, ref: str | int | None) -> int | None:
        """In a running game, the person's seat a ``bot`` request would take: the named one, or
        with none named and no seat free, the seat to move (only an absent player's may be)."""
        if room.status != PLAYING:
            return None
        if ref is not None:
            seat = room.seat_index(ref)
        elif any(occ is None for occ in room.seats):
            return None
        else:
            to_move = room.to_move()
            seat = to_move if to_move is not None else 0
        occ = room.seats[seat]
        return seat if occ is not None and occ.plays() else None

    def _claimable(self, room: Room) -> int | None:
        """The seat of the absent person to move, once the others may claim against it."""
        away = self.absence(room)
        return away["seat"] if away is not None and away["claim_in_ms"] == 0 else None

    def _not_absent(self, room: Room) -> str:
        away = self.absence(room)
        if away is None:
            return "the player to move is here (or it is a bot's turn): nothing to claim"
        wait = -(-away["claim_in_ms"] // 1000)
        return f"{away['player']} may still come back: you may claim in {wait} s"

    def _clocks_text(self, room: Room) -> str:
        clock = room.clock_json(self.clock())
        if clock is None:
            return f"no clock: untimed (an absent player may be claimed against after " \
                   f"{self.settings.absent_seconds:g} s)"
        times = ", ".join(
            f"{name} {_shown(ms)}{' (running)' if clock['running'] == i else ''}"
            for i, (name, ms) in enumerate(zip(room.game.seat_names, clock["remaining_ms"],
                                               strict=True)))
        return f"clock {clock['control']}: {times}"

    @staticmethod
    def _rematch_room(room: Room) -> tuple[Room, list[Move]]:
        """Every person who played asked: the same game with the same players, clock and
        rated-or-casual, seats moved on by one, started; `room` (a draft) now points to it."""
        new = Room(id=secrets.token_urlsafe(6), game_name=room.game_name,
                   options=dict(room.options), created_by=room.created_by,
                   seed=secrets.randbits(63), seats=room.rematch_seats(),
                   rematch_of=room.id, time_control=room.time_control, rated=room.rated)
        moves: list[Move] = []
        if all(occ is not None for occ in new.seats):
            new.start()
            moves = new.resolve_chance(SYSTEM_RANDOM)
        room.rematch = new.id
        return new, moves

    async def _commit(self, live: Room, draft: Room, moves: list[Move],
                      also: tuple[Room, list[Move]] | None = None,
                      answer: Answer | None = None) -> None:
        """Store `draft` (the live room with a change applied) and its new moves, then make it
        the room and tell every connection. `also` is a new room committed in the same
        transaction (a rematch) and made live with it. On failure the room is reloaded from
        storage (the commit may have happened after all) and every connection is sent it again.

        The commit that ends a game also records who played it and, for a rated game, every
        seat's new rating, in the same transaction (so neither exists without the other).

        In a cluster the commit carries this node's fencing number for the room (and a new
        rematch room gets a lease of its own); when the database refuses it, another node has
        taken the room: NotOwner (nothing changed). `answer`: the forwarded request this commit
        carries out, whose caller learns from the state event that it is done."""
        t = self.clock()
        draft.settle_clock(t)
        draft.revision = live.revision + 1
        ending = draft.status == FINISHED and draft.ended_at is None
        if ending:
            draft.ended_at = stamp(t)
        fence = new_fence = None
        if self.cluster is not None:
            fence = self.cluster.fence(live.id)
            if fence is None:
                raise NotOwner(live.id)
            if also is not None:
                new_fence = await self.cluster.create(also[0].id)
                await self._watch(also[0].id)
        start = time.perf_counter()
        try:
            if also is None:
                changes = await self.storage.save_room(draft, moves, finished=ending, fence=fence)
                if ending:
                    draft.rating_changes = changes
            else:  # a rematch: the new room starts, the old one had ended before
                also[0].settle_clock(t)
                await self.storage.save_rooms([also, (draft, moves)], [new_fence, fence])
        except Fenced:
            self.metrics.fenced.inc()
            log.warning("room %s was taken by another node; this node's change is dropped",
                        live.id)
            if self.cluster is not None:
                if also is not None:
                    await self.cluster.release(also[0].id)
                self.cluster.lost(live.id)
            raise NotOwner(live.id) from None
        except Exception:
            log.exception("could not store room %s; reloading it", live.id)
            await self._restore(live)
            raise RoomError("storage_error", "the server could not save that; try again") \
                from None
        self.metrics.commit_seconds.observe(time.perf_counter() - start)
        self.metrics.moves.inc(len(moves))
        for made in ([also[0]] if also is not None else []) + [draft]:
            self._install(made)
            self._plan(made)
        start = time.perf_counter()
        event = self._state_event(live, draft, moves)
        if answer is None or self.cluster is None or answer.room != draft.id:
            await self.pubsub.publish(draft.id, event)
        else:  # the caller's node follows the room: this event answers its request too
            self.pubsub.deliver_local(draft.id, event)
            answer.folded = await self.cluster.pubsub.publish_remote(
                draft.id, {**event, "answered": [answer.id]})
        self.metrics.broadcast_seconds.observe(time.perf_counter() - start)

    def _state_event(self, live: Room, draft: Room, moves: list[Move]) -> Event:
        """What a commit publishes: in a cluster, with what the other nodes need to follow it
        (the row and the actions played since `live`)."""
        if self.cluster is None:
            return {"event": "state"}
        return {"event": "state", "revision": draft.revision, "from": live.version,
                "moves": [[m.seat, m.action] for m in moves], "row": room_row(draft)}

    async def _restore(self, live: Room) -> None:
        try:
            fresh = await self.storage.load_room(live.id)
        except Exception:
            log.exception("could not reload room %s; keeping it as it was", live.id)
            fresh = None
        if self.rooms.get(live.id) is live:
            self._install(fresh if fresh is not None else live)
        await self.pubsub.publish(live.id, self._resync_event(live.id))

    def _resync_event(self, room_id: str) -> Event:
        """Tells this node's connections to render the room, and other nodes to reload their
        copy if it is not at the room's revision."""
        room = self.rooms.get(room_id)
        return {"event": "state", "resync": room.revision if room is not None else -1}

    async def _chat_line(self, room: Room, player: Player, text: str) -> None:
        text = " ".join(text.split())
        if not text:
            raise ProtocolError(proto.BAD_MESSAGE, "say something")
        line = ChatLine(player.nickname, text, now())
        kept = self.cluster is None or room.id in self.rooms
        if kept:
            await self.chat_history(room.id)  # before the line is stored: it is added once
        await self.storage.add_chat(room.id, line, keep=self.settings.chat_keep)
        if kept:
            self._chat[room.id].append(line)
        message = proto.chat(line.sender, line.text, line.at)
        await self.pubsub.publish(room.id, {"event": "message", "message": message})

    def _who(self, room: Room) -> str:
        online = self._online_ids(room.id)
        parts = []
        for i, name in enumerate(room.game.seat_names):
            occ = room.seats[i]
            if occ is None:
                parts.append(f"{name}: free")
            elif occ.bot is not None:
                parts.append(f"{name}: {occ.nickname}")
            else:
                state = "online" if occ.player_id in online else "away"
                parts.append(f"{name}: {occ.nickname} ({state})")
        seated = {o.nickname for o in room.seats if o is not None}
        watchers = Counter(self._watchers.get(room.id, Counter()))
        if self.cluster is not None:
            watchers.update(self.cluster.remote_watchers(room.id))
        names = sorted(n for n in watchers if n != "?" and n not in seated)
        if watchers.get("?"):
            names.append(f"{watchers['?']} anonymous")
        parts.append(f"watching: {', '.join(names) if names else 'nobody'}")
        return "; ".join(parts)

    # --- bots ------------------------------------------------------------------------------------
    def _schedule_bot(self, room: Room) -> None:
        if self.cluster is not None and room.id not in self.cluster.owned:
            return  # the owner plays the bots
        if not self._closing and room.bot_to_move() and room.id not in self._bot_tasks:
            self._bot_tasks[room.id] = asyncio.create_task(self._bot_loop(room.id),
                                                           name=f"bot-{room.id}")

    async def _bot_loop(self, room_id: str) -> None:
        """Play the bots' turns in one room until a person is to move or the game ends."""
        try:
            while True:
                room = self.rooms.get(room_id)
                spec = room.bot_to_move() if room is not None else None
                if room is None or spec is None or room.state is None:
                    return
                await asyncio.sleep(self.settings.bot_delay)
                room = self.rooms.get(room_id)
                if room is None or room.state is None or room.bot_to_move() != spec:
                    continue
                version, seat = room.version, room.to_move()
                chosen = await self.bots.choose(spec, room.state, secrets.randbits(32), room_id)
                async with self._lock(room_id):
                    live = self.rooms.get(room_id)
                    if live is None or live.state is None or live.version != version \
                            or live.to_move() != seat or live.bot_to_move() != spec:
                        continue
                    draft = live.draft()
                    assert draft.state is not None
                    if chosen is None or not draft.state.is_legal(chosen):
                        chosen = SYSTEM_RANDOM.choice(draft.state.legal_actions())
                    moves = [draft.apply(seat, chosen), *draft.resolve_chance(SYSTEM_RANDOM)]
                    try:
                        await self._commit(live, draft, moves)
                    except RoomError:
                        await asyncio.sleep(1.0)  # storage trouble: try the turn again
                    except NotOwner:
                        return  # another node has the room and plays its bots
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot loop of room %s stopped", room_id)
        finally:
            self._bot_tasks.pop(room_id, None)
            self._maybe_evict(room_id)


    # --- the cluster (cluster.Host) ----------------------------------------------------------
    async def room_gained(self, room_id: str, fence: int, keep: bool) -> bool:
        """This node now owns the room: load it as stored (or keep the copy in memory when
        nothing was committed since), tell the other nodes its revision, and go on with it as
        after a restart: pending chance is drawn, the clocks and deadlines run, the bot whose
        turn it is plays."""
        assert self.cluster is not None
        async with self._lock(room_id):
            await self._watch(room_id)
            if not keep or room_id not in self.rooms:
                room = await self.storage.load_room(room_id)
                if room is None:
                    return False
                await self._resume(room)
            else:
                self._plan(self.rooms[room_id])
            await self.cluster.pubsub.publish_remote(room_id, self._resync_event(room_id))
        self.pubsub.deliver_local(room_id, {"event": "state"})
        live = self.rooms.get(room_id)
        if live is not None:
            self._schedule_bot(live)
        return True

    def room_lost(self, room_id: str) -> None:
        """Another node has the room: stop its bot; keep following it if it is watched here."""
        task = self._bot_tasks.pop(room_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if self._attached.get(room_id):
            self._reload_soon(room_id)
        else:
            self._forget(room_id)

    async def serve_forwarded(self, room_id: str, player: PlayerRef, req: Request,
                              answer: Answer | None = None) -> list[dict[str, Any]]:
        if player is None:
            raise ProtocolError(proto.NOT_IDENTIFIED,
                                "choose a nickname first (POST /api/session)", req.ref)
        return await self._execute_here(room_id, Player(*player), req, answer)

    def presence_changed(self, room_id: str, players: set[int]) -> None:
        """Someone connected to or left the room on another node (or that node died)."""
        room = self.rooms.get(room_id)
        if room is None:
            return
        for player_id in players:
            if room.seat_of(player_id) is not None:
                self._presence.seen(room_id, player_id, self.clock())
        self._touch(room_id)
        self._plan(room)
        self.pubsub.deliver_local(room_id, {"event": "state"})

    async def resync(self) -> None:
        """Events may have been lost: reload every copy of another node's room that is behind
        the database (owned rooms are the database's truth already)."""
        assert self.cluster is not None
        others = [r for r in self.rooms if r not in self.cluster.owned]
        for room_id in others:
            self._reload_soon(room_id)

    def _remote_event(self, room_id: str, event: Event) -> list[Event]:
        """An event another node published on a room this node holds: update the copy, then
        say what this node's connections must be sent."""
        assert self.cluster is not None
        kind = event.get("event")
        if kind == "message":
            message = event.get("message") or {}
            lines = self._chat.get(room_id)
            if message.get("type") == "chat" and lines is not None:
                lines.append(ChatLine(str(message.get("from")), str(message.get("text")),
                                      str(message.get("at"))))
            return [{"event": "message", "message": message}]
        if kind == "presence":
            changed = self.cluster.note_presence(room_id, str(event.get("node")),
                                                 str(event.get("data")))
            if changed is not None and room_id in self.rooms:
                self.presence_changed(room_id, changed)
            return []
        if kind == "state":
            if room_id in self.cluster.owned:
                return []  # a late event of the room's previous owner
            if "resync" in event:  # a new owner says so, or the owner reloaded the room
                self.cluster.forget_owner(room_id)
                room = self.rooms.get(room_id)
                if room is not None and room.revision != event["resync"]:
                    self._reload_soon(room_id)
                return []
            return [{"event": "state"}] if self._follow(room_id, event) else []
        return []

    def _follow(self, room_id: str, event: Event) -> bool:
        """Apply the owner's commit to this node's copy; True when the copy changed. A missed
        commit (a gap in the revisions) reloads the copy from the database instead."""
        pending = self._loading.get(room_id)
        if pending is not None:
            pending.append(event)
            return False
        room = self.rooms.get(room_id)
        if room is None or self.cluster is None or room_id in self.cluster.owned:
            return False
        revision = int(event.get("revision", -1))
        if revision <= room.revision:
            return False
        if revision != room.revision + 1 or event.get("from") != room.version:
            self._reload_soon(room_id)
            return False
        try:
            stored = room_from_values(event["row"])
            following = room.continued(stored, [(s, a) for s, a in event["moves"]])
        except Exception:
            log.exception("could not follow room %s; reloading it", room_id)
            self._reload_soon(room_id)
            return False
        self._install(following)
        self._plan(following)
        return True

    def _reload_soon(self, room_id: str) -> None:
        if room_id not in self._reloads:
            task = asyncio.get_running_loop().create_task(self._reload(room_id))
            self._reloads[room_id] = task
            task.add_done_callback(lambda _t: self._reloads.pop(room_id, None))

    async def _reload(self, room_id: str) -> None:
        """Bring the copy of another node's room up to the database."""
        self._loading.setdefault(room_id, [])
        try:
            fresh = await self.storage.load_room(room_id)
        except Exception:
            log.exception("could not reload room %s", room_id)
            fresh = None
        finally:
            pending = self._loading.pop(room_id, [])
        owned = self.cluster is not None and room_id in self.cluster.owned
        room = self.rooms.get(room_id)
        if fresh is None or owned or room is None or fresh.revision < room.revision:
            return
        self._install(fresh)
        self._plan(fresh)
        for event in pending:
            self._follow(room_id, event)
        self.pubsub.deliver_local(room_id, {"event": "state"})


def _shown(ms: int) -> str:
    """Time left as people read it: 4:05, 1:02:03, or 2d 3h."""
    secs = ms // 1000
    if secs >= 86_400:
        return f"{secs // 86_400}d {secs % 86_400 // 3600}h"
    if secs >= 3600:
        return f"{secs // 3600}:{secs % 3600 // 60:02d}:{secs % 60:02d}"
    return f"{secs // 60}:{secs % 60:02d}"


def rated_text(room: Room) -> str:
    """The answer to ``/rated``: whether the game counts, and why."""
    if room.status != WAITING:
        return f"this game is {'rated' if room.rated else 'casual'}"
    if room.rated is not None:
        return f"this game will be {'rated' if room.rated else 'casual'} (/rated on|off)"
    if room.rated_now:
        return "this game will be rated: everyone seated has an account (/rated off for casual)"
    return ("this game will be casual: a guest is seated (/rated on to rate it anyway; a "
            "nickname with a password is an account)")
