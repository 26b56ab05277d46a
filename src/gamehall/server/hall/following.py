"""A cluster node's side of `cluster.Host`: rooms gained and lost, requests other nodes pass
on, and copies of other nodes' rooms that follow their commits."""

from __future__ import annotations

import asyncio
from typing import Any

from gamehall.core.messages import msg
from gamehall.server.accounts.identity import Player
from gamehall.server.cluster.node import Answer, PlayerRef
from gamehall.server.hall.core import HallCore, log
from gamehall.server.hall.write_path import CHANGED
from gamehall.server.pubsub.in_process import Event
from gamehall.server.storage import ChatLine, room_from_values
from gamehall.server.table import protocol as proto
from gamehall.server.table.protocol import ProtocolError, Request


class Following(HallCore):
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
            raise ProtocolError(proto.NOT_IDENTIFIED, msg("error.not_identified"), req.ref)
        replies = await self._execute_here(room_id, Player(*player), req, answer)
        return [r for r in replies if r is not CHANGED]  # the caller learns it from the commit

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
        if kind == "player":  # a player's own channel (the bot API's event stream)
            return [event]
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
