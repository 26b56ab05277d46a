"""The lobby feed of one node: it follows the hall's rooms (and what features put in the lobby),
keeps the lines in a `LobbyIndex`, and pushes changes to this node's lobby sockets.

Every change goes one way, on every node alike: the node where it happened (the room's owner)
gathers its changes for a moment and publishes them on the lobby's channel; every node (that one
too) reads the channel, applies the change to its index, and hands what really changed to its
own sockets, as one text encoded once. A socket is sent the whole index when it opens, then only
changes: at 10,000 waiting rooms a new room costs each socket one line, not the list.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from gamehall.server.accounts.identity import Player
from gamehall.server.hall.hall import Hall
from gamehall.server.lobby.index import Change, Gone, Line, LobbyIndex, Put, client_change
from gamehall.server.lobby.presence import LobbyPresence
from gamehall.server.pubsub.in_process import Subscription
from gamehall.server.table.room import FINISHED, PLAYING, WAITING, Room

log = logging.getLogger("gamehall.server")

CHANNEL = "lobby:rooms"
"""The channel every node's feed reads (through Redis in a cluster; a ':' marks it as no
room's, so every node passes its events on)."""
SOCKETS = "lobby:sockets"
"""This node's lobby sockets' channel (delivered locally only)."""
BATCH_SECONDS = 0.05
"""How long a node gathers its rooms' changes before publishing them as one change (a busy
hall's many moves cost the sockets one message a batch, not one a move)."""
MAX_ROOMS = 100_000
"""The most rooms of one status the feed loads when it starts."""
SOCKET_QUEUE = 256
"""Changes a lobby socket may fall behind before it is closed (it reconnects for a snapshot)."""

Source = Callable[[], Awaitable[list[Put]]]
"""A feature's lines of its section as they are now (read when the feed starts)."""
Left = Callable[[Player], Awaitable[object]]
"""A feature told that a player's last lobby socket on this node closed."""
Convert = Callable[[dict[str, Any], float], Change]
"""A feature's event on its own channel, as a change of the lobby (made at the given time)."""


class LobbyFeed:
    """The lobby's lines on this node and the way their changes travel (see the module)."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.index = LobbyIndex()
        self.sources: list[Source] = []
        self.channels: dict[str, Convert] = {CHANNEL: lambda event, _at: Change.from_wire(event)}
        """The channels the feed reads (every node hears each event): its own, and those of
        the features that tell the lobby of their lines (`follow`)."""
        self._subs: list[Subscription] = []
        self._readers: list[asyncio.Task[None]] = []
        self._rooms: dict[str, Room] = {}
        self._gone: list[Gone] = []
        self._puts: list[Put] = []
        self.on_left: list[Left] = []
        """Told when a player's last identified lobby socket on this node closes (the pools
        then take them out: nobody is paired into a game after leaving the lobby)."""
        self.presence = LobbyPresence(hall)
        self._flusher: asyncio.Task[None] | None = None
        self._meanwhile: list[Change] | None = None
        """While `reload` reads the lines, the changes that come meanwhile."""
        self.changes_sent = 0
        hall.events.on_room_changed(self._room_changed, self._room_gone)
        if hall.cluster is not None:  # Redis back after a break: events may have been lost
            hall.cluster.after_reconnect.append(self.reload)

    # --- life cycle ----------------------------------------------------------------------------
    def follow(self, channel: str, convert: Convert, source: Source) -> None:
        """A feature's lines: read as they are by `source` when the feed starts, then changed by
        the events on `channel` (published by the feature, heard on every node)."""
        self.channels[channel] = convert
        self.sources.append(source)

    async def start(self) -> None:
        """Read the lines as stored, then follow every node's changes (those that come while
        loading wait in the channels' queues and are applied after, by revision)."""
        for channel in self.channels:
            sub = self.hall.pubsub.subscribe(channel, limit=100_000)
            self._subs.append(sub)
            await self.hall.pubsub.watch(channel)
        self.index.apply(Change(await self._stored_lines(), []))
        for sub, convert in zip(self._subs, self.channels.values(), strict=True):
            self._readers.append(
                asyncio.create_task(self._read(sub, convert), name=f"gamehall-lobby-{sub.channel}")
            )

    async def stop(self) -> None:
        for task in (self._flusher, *self._readers):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for sub in self._subs:
            sub.close()
            self.hall.pubsub.unwatch(sub.channel)

    async def _stored_lines(self) -> list[Put]:
        now = self.hall.clock()
        puts: list[Put] = []
        for status, limit in (
            (FINISHED, self.index.finished_kept),
            (PLAYING, MAX_ROOMS),
            (WAITING, MAX_ROOMS),
        ):
            rooms = await self.hall.storage.list_rooms(status, limit)
            puts.extend(room_put(r, now) for r in reversed(rooms))
        for source in self.sources:
            puts.extend(await source())
        return puts

    # --- changes made on this node -------------------------------------------------------------
    def _room_changed(self, room: Room) -> None:
        self._rooms[room.id] = room
        self._soon()

    def _room_gone(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)
        self._gone.append(Gone("rooms", room_id))
        self._soon()

    def put(self, section: str, key: str, line: Line | None, rev: int | None = None) -> None:
        """A feature's line as it is now (None: gone), published with this node's next batch."""
        if line is None:
            self._gone.append(Gone(section, key, rev))
        else:
            self._puts.append(Put(section, key, rev, self.hall.clock(), line))
        self._soon()

    def _soon(self) -> None:
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush_later())

    async def _flush_later(self) -> None:
        await asyncio.sleep(BATCH_SECONDS)
        await self.flush()

    async def flush(self) -> None:
        """Publish what changed on this node since the last batch, to every node."""
        now = self.hall.clock()
        rooms, self._rooms = self._rooms, {}
        gone, self._gone = self._gone, []
        puts, self._puts = self._puts, []
        change = Change(puts + [room_put(r, now) for r in rooms.values()], gone)
        if change:
            await self.hall.pubsub.publish(CHANNEL, {"event": "lobby", **change.wire()})

    # --- every node's changes ------------------------------------------------------------------
    async def _read(self, sub: Subscription, convert: Convert) -> None:
        while True:
            event = await sub.get()
            try:
                if event.get("event") == "overflow":  # fell behind: read it all again
                    sub.overflowed = False  # it goes on from here; the lines are read again
                    await self.reload()
                    continue
                self._apply(convert(event, self.hall.clock()))
            except Exception:
                log.exception("a lobby change failed")

    def _apply(self, change: Change) -> None:
        if self._meanwhile is not None:
            self._meanwhile.append(change)
        done = self.index.apply(change)
        if done:
            self.changes_sent += 1
            text = json.dumps(client_change(done, self.hall.clock()), separators=(",", ":"))
            self.hall.pubsub.deliver_local(SOCKETS, {"event": "lobby", "text": text})

    async def reload(self) -> None:
        """Read every line again, as stored (changes may have been lost: this node fell behind,
        or its link to Redis broke), and send every socket the new snapshot. The changes that
        arrive while reading are applied to the new lines too (their revisions sort them)."""
        self._meanwhile = []
        try:
            fresh = LobbyIndex(self.index.finished_kept)
            fresh.apply(Change(await self._stored_lines(), []))
            for change in self._meanwhile:
                fresh.apply(change)
        finally:
            self._meanwhile = None
        self.index = fresh
        text = self.index.snapshot_text(self.hall.clock())
        self.hall.pubsub.deliver_local(SOCKETS, {"event": "lobby", "text": text})

    # --- sockets -------------------------------------------------------------------------------
    async def arrived(self, player: Player) -> None:
        """A lobby socket identified as `player`."""
        await self.presence.arrived(player)

    async def left(self, player: Player) -> None:
        """A lobby socket of `player` closed (or identified as someone else): after their last
        one on any node (presence.py), the features are told."""
        if not await self.presence.left(player):
            return
        for told in self.on_left:
            try:
                await told(player)
            except Exception:
                log.exception("a feature failed on a player leaving the lobby")
        await self.presence.forget(player)

    def open_socket(self) -> tuple[str, Subscription]:
        """A new lobby socket's first message (every line) and its queue of changes, taken at
        one moment (no await between), so that no change is missed or sent twice."""
        sub = self.hall.pubsub.subscribe(SOCKETS, limit=SOCKET_QUEUE)
        return self.index.snapshot_text(self.hall.clock()), sub


def room_put(room: Room, now: float) -> Put:
    """A room's lobby line (no presence: who is connected is the room's own business)."""
    return Put("rooms", room.id, room.revision, now, room.summary(None, now))
