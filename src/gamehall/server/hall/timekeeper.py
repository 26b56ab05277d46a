"""The hall's watch over time for the rooms it keeps: each room's next deadline (a clock running
out, an absent player becoming claimable), when each seated person was last seen, and (in a
cluster) the absence an owner shares with the nodes that read its room without keeping it.

The arithmetic is pure (`table.deadlines`); this part keeps its tables and acts on them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from gamehall.core.messages import Message, msg
from gamehall.server.cluster.node import Cluster
from gamehall.server.hall.keeper import RoomKeeper
from gamehall.server.hall.watchers import Watchers
from gamehall.server.ops.settings import Settings
from gamehall.server.table.deadlines import Deadlines, LastSeen, absence, next_deadline
from gamehall.server.table.room import Room

log = logging.getLogger("gamehall.server")


class Timekeeper:
    """Deadlines, last-seen times and absence, per room."""

    def __init__(self, keeper: RoomKeeper, watchers: Watchers, cluster: Cluster | None,
                 settings: Settings, clock: Callable[[], float]) -> None:
        self.keeper, self.watchers, self.cluster = keeper, watchers, cluster
        self.settings, self.clock = settings, clock
        self.deadlines = Deadlines()
        self.last_seen = LastSeen(clock())
        self._absence_out: dict[str, dict[str, Any] | None] = {}
        """Owned rooms (cluster) -> the absence object last shared (`_share_absence`)."""
        self._absence_writers: dict[str, asyncio.Task[None]] = {}
        keeper.forgotten.append(self.forget)

    def restart(self) -> None:
        """The hall starts: nobody has been seen yet."""
        self.last_seen = LastSeen(self.clock())

    def seen(self, room_id: str, player_id: int) -> None:
        self.last_seen.seen(room_id, player_id, self.clock())

    def plan(self, room: Room) -> None:
        """Note the room's next deadline (after every change and every presence change); in a
        cluster only the owner acts on deadlines, the others note the turns only."""
        online = self.watchers.online_ids(room.id)
        self.last_seen.turn(room.id, room.to_move(), self.clock())
        if self.cluster is not None and room.id not in self.cluster.owned:
            self.deadlines.set(room.id, None)
            return
        self.deadlines.set(room.id, next_deadline(room, online, self.last_seen,
                                                  self.settings.absent_seconds, self.clock()))
        if self.cluster is not None:
            self._share_absence(room, online)

    def _share_absence(self, room: Room, online: set[int]) -> None:
        """An owner writes the room's absence (who may be claimed against, from when) where
        the nodes that read the room without keeping it find it
        (`PresenceAcrossNodes.read_presence`): their own presence counts know nothing of the
        room. Written by one task per room, the latest value last."""
        assert self.cluster is not None
        away = absence(room, online, self.last_seen, self.settings.absent_seconds, self.clock())
        occ = room.person_to_move()
        shared = None if away is None or occ is None or occ.player_id is None else {
            "seat": away["seat"], "player": away["player"],
            "claim_at": round(self.last_seen.absent_from(room.id, occ.player_id)
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
                    await self.cluster.presence.share_absence(room_id, value)
                except (RedisError, OSError) as exc:
                    log.warning("could not share the absence of room %s: %s", room_id, exc)
                    return
                written = value
        finally:
            self._absence_writers.pop(room_id, None)

    def absence(self, room: Room) -> dict[str, Any] | None:
        """The state's ``absent`` object for the room now."""
        return absence(room, self.watchers.online_ids(room.id), self.last_seen,
                       self.settings.absent_seconds, self.clock())

    def claimable(self, room: Room) -> int | None:
        """The seat of the absent person to move, once the others may claim against it."""
        away = self.absence(room)
        return away["seat"] if away is not None and away["claim_in_ms"] == 0 else None

    def not_absent(self, room: Room) -> Message:
        """Why nobody may be claimed against yet."""
        away = self.absence(room)
        if away is None:
            return msg("error.claim.nobody_absent")
        wait = -(-away["claim_in_ms"] // 1000)
        return msg("error.claim.wait", player=away["player"], seconds=wait)

    def forget(self, room_id: str) -> None:
        self._absence_out.pop(room_id, None)
        self.last_seen.forget(room_id)
        self.deadlines.set(room_id, None)
