"""A cluster node's side of `cluster.Host`: rooms gained and lost, requests other nodes pass
on, and copies of other nodes' rooms that follow their commits."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from gamehall.core.messages import msg
from gamehall.server.accounts.identity import Player
from gamehall.server.cluster.host import Answer, PlayerRef
from gamehall.server.cluster.node import Cluster
from gamehall.server.hall.engine_turns import EngineTurns
from gamehall.server.hall.keeper import RoomKeeper
from gamehall.server.hall.timekeeper import Timekeeper
from gamehall.server.hall.watchers import Watchers
from gamehall.server.hall.write_path import WritePath, log
from gamehall.server.pubsub.in_process import Event, PubSub
from gamehall.server.storage import ChatLine, Storage, room_from_values
from gamehall.server.table import protocol as proto
from gamehall.server.table.protocol import ProtocolError, Request
from gamehall.server.table.room import Room


class Following:
    """The hall as the cluster's `Host`: what the node does when rooms change hands, and the
    copies it keeps of rooms other nodes own."""

    def __init__(self, keeper: RoomKeeper, writes: WritePath, watchers: Watchers,
                 timekeeper: Timekeeper, turns: EngineTurns, storage: Storage, pubsub: PubSub,
                 cluster: Cluster, resume: Callable[[Room], Awaitable[None]]) -> None:
        self.keeper, self.writes, self.watchers, self.timekeeper = (
            keeper, writes, watchers, timekeeper)
        self.turns, self.storage, self.pubsub, self.cluster = turns, storage, pubsub, cluster
        self.resume = resume
        self._reloads: dict[str, asyncio.Task[None]] = {}
        keeper.follow = self.follow

    async def room_gained(self, room_id: str, fence: int, keep: bool) -> bool:
        """This node now owns the room: load it as stored (or keep the copy in memory when
        nothing was committed since), tell the other nodes its revision, and go on with it as
        after a restart: pending chance is drawn, the clocks and deadlines run, the bot whose
        turn it is plays."""
        async with self.keeper.lock(room_id):
            await self.keeper.watch(room_id)
            if not keep or room_id not in self.keeper.rooms:
                room = await self.storage.load_room(room_id)
                if room is None:
                    return False
                await self.resume(room)
            else:
                self.timekeeper.plan(self.keeper.rooms[room_id])
            await self.cluster.pubsub.publish_remote(room_id,
                                                     self.writes.resync_event(room_id))
        self.pubsub.deliver_local(room_id, {"event": "state"})
        live = self.keeper.rooms.get(room_id)
        if live is not None:
            self.turns.schedule(live)
        return True

    def room_lost(self, room_id: str) -> None:
        """Another node has the room: stop its bot; keep following it if it is watched here."""
        self.turns.stop_room(room_id)
        if self.keeper.attached(room_id):
            self._reload_soon(room_id)
        else:
            self.keeper.forget(room_id)

    async def serve_forwarded(self, room_id: str, player: PlayerRef, req: Request,
                              answer: Answer | None = None) -> list[dict[str, Any]]:
        if player is None:
            raise ProtocolError(proto.NOT_IDENTIFIED, msg("error.not_identified"), req.ref)
        done = await self.writes.execute_here(room_id, Player(*player), req, answer)
        return done.replies  # a change: the caller learns it from the commit

    def presence_changed(self, room_id: str, players: set[int]) -> None:
        """Someone connected to or left the room on another node (or that node died)."""
        self.watchers.remote_change(room_id, players)

    async def resync(self) -> None:
        """Events may have been lost: reload every copy of another node's room that is behind
        the database (owned rooms are the database's truth already)."""
        others = [r for r in self.keeper.rooms if r not in self.cluster.owned]
        for room_id in others:
            self._reload_soon(room_id)

    def remote_event(self, room_id: str, event: Event) -> list[Event]:
        """An event another node published on a room this node holds: update the copy, then
        say what this node's connections must be sent."""
        kind = event.get("event")
        if kind == "message":
            message = event.get("message") or {}
            if message.get("type") == "chat":
                self.keeper.chat_seen(room_id, ChatLine(str(message.get("from")),
                                                        str(message.get("text")),
                                                        str(message.get("at"))))
            return [{"event": "message", "message": message}]
        if kind == "player" or ":" in room_id:
            return [event]  # a channel that is no room's (a player's own, the lobby's, names
            # holding a ':'): the features' events, passed on as they are
        if kind == "presence":
            changed = self.cluster.presence.note_presence(room_id, str(event.get("node")),
                                                 str(event.get("data")))
            if changed is not None and room_id in self.keeper.rooms:
                self.presence_changed(room_id, changed)
            return []
        if kind == "state":
            if room_id in self.cluster.owned:
                return []  # a late event of the room's previous owner
            if "resync" in event:  # a new owner says so, or the owner reloaded the room
                self.cluster.forget_owner(room_id)
                room = self.keeper.rooms.get(room_id)
                if room is not None and room.revision != event["resync"]:
                    self._reload_soon(room_id)
                return []
            return [{"event": "state"}] if self.follow(room_id, event) else []
        return []

    def follow(self, room_id: str, event: Event) -> bool:
        """Apply the owner's commit to this node's copy; True when the copy changed. A missed
        commit (a gap in the revisions) reloads the copy from the database instead."""
        pending = self.keeper.pending_events(room_id)
        if pending is not None:
            pending.append(event)
            return False
        room = self.keeper.rooms.get(room_id)
        if room is None or room_id in self.cluster.owned:
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
        self.keeper.install(following)
        self.timekeeper.plan(following)
        return True

    def _reload_soon(self, room_id: str) -> None:
        if room_id not in self._reloads:
            task = asyncio.get_running_loop().create_task(self._reload(room_id))
            self._reloads[room_id] = task
            task.add_done_callback(lambda _t: self._reloads.pop(room_id, None))

    async def _reload(self, room_id: str) -> None:
        """Bring the copy of another node's room up to the database."""
        try:
            fresh, pending = await self.keeper.load_holding(room_id)
        except Exception:
            log.exception("could not reload room %s", room_id)
            return
        owned = room_id in self.cluster.owned
        room = self.keeper.rooms.get(room_id)
        if fresh is None or owned or room is None or fresh.revision < room.revision:
            return
        self.keeper.install(fresh)
        self.timekeeper.plan(fresh)
        for event in pending:
            self.follow(room_id, event)
        self.pubsub.deliver_local(room_id, {"event": "state"})
