"""Who is connected to each room and watching it, on this node and (through Redis) the
others: a seated person's coming and going starts or stops their absence."""

from __future__ import annotations

from collections import Counter

from gamehall.core.messages import Arg, Message, msg
from gamehall.server.accounts.identity import Player
from gamehall.server.hall.core import HallCore
from gamehall.server.pubsub.in_process import Event
from gamehall.server.table.room import Room
from gamehall.server.table.sentences import joined, seat_arg


class RoomPresence(HallCore):
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

    def _who(self, room: Room) -> Message:
        """The answer to ``/who``: each seat's player (and whether a person is here), then the
        watchers."""
        online = self._online_ids(room.id)
        parts: list[Arg] = []
        for i in range(len(room.game.seat_names)):
            occ, seat = room.seats[i], seat_arg(room.game, i)
            if occ is None:
                parts.append(msg("info.who.free", seat=seat))
            elif occ.bot is not None:
                parts.append(msg("info.who.bot", seat=seat, player=occ.nickname))
            else:
                parts.append(msg("info.who.person", seat=seat, player=occ.nickname,
                                 online="yes" if occ.player_id in online else "no"))
        seated = {o.nickname for o in room.seats if o is not None}
        watchers = Counter(self._watchers.get(room.id, Counter()))
        if self.cluster is not None:
            watchers.update(self.cluster.remote_watchers(room.id))
        names: list[Arg] = [n for n in sorted(watchers) if n != "?" and n not in seated]
        if watchers.get("?"):
            names.append(msg("info.who.anonymous", count=watchers["?"]))
        parts.append(msg("info.who.watching", watchers=joined(names)) if names
                     else msg("info.who.nobody_watching"))
        return msg("info.who", parts=joined(parts, "semicolon"))

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
