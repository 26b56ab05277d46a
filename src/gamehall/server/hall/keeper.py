"""The rooms this node keeps in memory: each the one object every read sees (it holds only what
storage holds), with its lock, its recent chat, and how it is read — kept, loaded on demand, or
(in a cluster) a copy of another node's room that follows its owner's commits.

A room is kept while it is played, watched or thought about, and forgotten after: the parts that
keep something per room (who watches it, its deadlines, its rendered states) subscribe to
`forgotten` and drop theirs with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from typing import Any

from redis.exceptions import RedisError

from gamehall.core.messages import msg
from gamehall.server.cluster.node import Cluster
from gamehall.server.ops.settings import Settings
from gamehall.server.pubsub.in_process import Event, PubSub
from gamehall.server.storage import ChatLine, Storage
from gamehall.server.table import protocol as proto
from gamehall.server.table.errors import RoomError
from gamehall.server.table.room import FINISHED, Room


async def _no_resume(room: Room) -> None:
    raise RuntimeError("the hall was not assembled: RoomKeeper.resume is not set")


class RoomKeeper:
    """The rooms in memory, their locks and chat, and reading a room by its id."""

    def __init__(self, storage: Storage, pubsub: PubSub, cluster: Cluster | None,
                 settings: Settings) -> None:
        self.storage, self.pubsub, self.cluster, self.settings = storage, pubsub, cluster, settings
        self.rooms: dict[str, Room] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._load_lock = asyncio.Lock()
        self._revs = itertools.count(1)
        """Render-cache keys: every room made live and every presence change takes the next."""
        self._chat: dict[str, deque[ChatLine]] = {}
        self._attached: Counter[str] = Counter()
        """Connections of this node per room (a cluster keeps copies of those rooms)."""
        self._watched: set[str] = set()
        self._loading: dict[str, list[Event]] = {}
        self._attach_locks: dict[str, asyncio.Lock] = {}
        # Handed over when the hall is assembled (hall.py):
        self.resume: Callable[[Room], Awaitable[None]] = _no_resume
        """Makes a room just loaded from storage live (pending chance, a stale clock)."""
        self.follow: Callable[[str, Event], bool] = lambda _room_id, _event: False
        """Applies an owner's commit to this node's copy (`Following.follow`)."""
        self.busy: Callable[[str], bool] = lambda _room_id: False
        """Whether a bot is thinking in the room (then it stays in memory)."""
        self.watched_here: Callable[[str], bool] = lambda _room_id: False
        """Whether a connection of this node watches the room."""
        self.forgotten: list[Callable[[str], None]] = []
        """Told when a room leaves memory, to drop what they keep for it."""

    def owns(self, room_id: str) -> bool:
        """Whether this node changes the room (every room, on a single node)."""
        return self.cluster is None or room_id in self.cluster.owned

    def install(self, room: Room) -> None:
        """Make `room` the one every read sees (it holds only what storage holds)."""
        room.rev = next(self._revs)
        self.rooms[room.id] = room

    def touch(self, room_id: str) -> None:
        """Something a state shows besides the room changed (presence): render it anew."""
        live = self.rooms.get(room_id)
        if live is not None:
            live.rev = next(self._revs)

    def lock(self, room_id: str) -> asyncio.Lock:
        lock = self._locks.get(room_id)
        if lock is None:
            lock = self._locks[room_id] = asyncio.Lock()
        return lock

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
                room.shared = await self.cluster.presence.read_presence(room_id)
            return room
        async with self._load_lock:
            room = self.rooms.get(room_id) or await self.storage.load_room(room_id)
            if room is not None and room.id not in self.rooms:
                await self.resume(room)
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
                    await self.watch(room_id)
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
        self.maybe_evict(room_id)

    def attached(self, room_id: str) -> bool:
        """Whether a connection of this node keeps a copy of the room (cluster)."""
        return bool(self._attached.get(room_id))

    async def watch(self, room_id: str) -> None:
        """Subscribe to the room's events and presence from the other nodes (cluster)."""
        if self.cluster is not None and room_id not in self._watched:
            self._watched.add(room_id)
            self.cluster.presence.expect_presence(room_id)
            await self.pubsub.watch(room_id)
            await self.cluster.presence.load_presence(room_id)

    async def _load_copy(self, room_id: str) -> None:
        """Load a room owned elsewhere; events that arrive meanwhile are applied after."""
        room, pending = await self.load_holding(room_id)
        if room is None:
            raise RoomError("unknown_room", msg("error.room.unknown", room=room_id[:32]))
        if room_id not in self.rooms:
            self.install(room)
            for event in pending:
                self.follow(room_id, event)

    async def load_holding(self, room_id: str) -> tuple[Room | None, list[Event]]:
        """The room as stored now, and the events that came for it while it was read (held
        back meanwhile: `pending_events`), for the caller to apply after it."""
        self._loading.setdefault(room_id, [])
        try:
            room = await self.storage.load_room(room_id)
        finally:
            pending = self._loading.pop(room_id, [])
        return room, pending

    def pending_events(self, room_id: str) -> list[Event] | None:
        """The events held back while the room loads (None: it is not loading)."""
        return self._loading.get(room_id)

    async def chat_history(self, room_id: str) -> list[dict[str, Any]]:
        lines = await self._chat_lines(room_id)
        return [proto.chat(c.sender, c.text, c.at) for c in lines]

    async def _chat_lines(self, room_id: str) -> deque[ChatLine]:
        lines = self._chat.get(room_id)
        if lines is None:
            shown = min(self.settings.chat_history, self.settings.chat_keep)
            stored = await self.storage.recent_chat(room_id, shown)
            lines = self._chat.setdefault(room_id, deque(stored, maxlen=shown))
        return lines

    async def add_chat(self, room: Room, line: ChatLine) -> None:
        """Store a chat line, and keep it with the room's recent chat when the room is kept."""
        kept = self.cluster is None or room.id in self.rooms
        if kept:
            await self._chat_lines(room.id)  # before the line is stored: it is added once
        await self.storage.add_chat(room.id, line, keep=self.settings.chat_keep)
        if kept:
            self._chat[room.id].append(line)

    def chat_seen(self, room_id: str, line: ChatLine) -> None:
        """A chat line another node stored: add it to the recent chat if it is kept here."""
        lines = self._chat.get(room_id)
        if lines is not None:
            lines.append(line)

    def maybe_evict(self, room_id: str) -> None:
        """Forget a finished room nobody watches (storage still has it); in a cluster also a
        copy of another node's room that no connection here watches any more."""
        room = self.rooms.get(room_id)
        if room is None or self.busy(room.id):
            return
        if self.cluster is not None:
            owned = room_id in self.cluster.owned
            if self._attached.get(room_id) or (owned and room.status != FINISHED):
                return
            if owned:
                asyncio.get_running_loop().create_task(self.cluster.release(room_id))
            self.forget(room_id)
            return
        if room.status == FINISHED and not self.watched_here(room.id):
            self.forget(room_id)

    def forget(self, room_id: str) -> None:
        self.rooms.pop(room_id, None)
        self._locks.pop(room_id, None)
        self._chat.pop(room_id, None)
        for part in self.forgotten:
            part(room_id)
        if self.cluster is not None:
            self.cluster.forget_owner(room_id)
        if self.cluster is not None and room_id in self._watched:
            self._watched.discard(room_id)
            self.pubsub.unwatch(room_id)
            self.cluster.presence.forget_presence(room_id)
