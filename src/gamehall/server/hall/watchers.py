"""Who is connected to each room and watching it, on this node and (through Redis) the others.

A seated person's coming and going is handed to `seated_changed` (the hall notes when they were
last seen, which starts or stops their absence, and renders the room anew)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from gamehall.core.messages import Arg, Message, msg
from gamehall.server.accounts.identity import Player
from gamehall.server.cluster.node import Cluster
from gamehall.server.hall.keeper import RoomKeeper
from gamehall.server.pubsub.in_process import Event, PubSub
from gamehall.server.table.room import Room
from gamehall.server.table.sentences import joined, seat_arg


class Watchers:
    """The connections of each room: the players among them, and everyone by name."""

    def __init__(self, keeper: RoomKeeper, pubsub: PubSub, cluster: Cluster | None) -> None:
        self.keeper, self.pubsub, self.cluster = keeper, pubsub, cluster
        self._online: dict[str, Counter[int]] = {}
        self._watchers: dict[str, Counter[str]] = {}
        self.seated_changed: Callable[[str, set[int]], None] = lambda _room_id, _players: None
        """Handed over at assembly: a seated person came or went (here or on another node)."""
        keeper.forgotten.append(self.forget)
        keeper.watched_here = lambda room_id: bool(self._watchers.get(room_id))

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
            self.seated_changed(room.id, {player.id})
            await self._tell_here(room.id, {"event": "state"})

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
                    self.seated_changed(room.id, {player.id})
                    await self._tell_here(room.id, {"event": "state"})
        await self._presence_out(room.id)
        self.keeper.maybe_evict(room.id)

    async def _tell_here(self, room_id: str, event: Event) -> None:
        """An event only this node's connections need (presence: the others learn it from
        `PresenceAcrossNodes.set_presence`)."""
        if self.cluster is None:
            await self.pubsub.publish(room_id, event)
        else:
            self.pubsub.deliver_local(room_id, event)

    async def _presence_out(self, room_id: str) -> None:
        if self.cluster is not None:
            await self.cluster.presence.set_presence(room_id, set(self._online.get(room_id, ())),
                                            self._watchers.get(room_id, Counter()))

    def who(self, room: Room) -> Message:
        """The answer to ``/who``: each seat's player (and whether a person is here), then the
        watchers."""
        online = self.online_ids(room.id)
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
            watchers.update(self.cluster.presence.remote_watchers(room.id))
        names: list[Arg] = [n for n in sorted(watchers) if n != "?" and n not in seated]
        if watchers.get("?"):
            names.append(msg("info.who.anonymous", count=watchers["?"]))
        parts.append(msg("info.who.watching", watchers=joined(names)) if names
                     else msg("info.who.nobody_watching"))
        return msg("info.who", parts=joined(parts, "semicolon"))

    def remote_change(self, room_id: str, players: set[int]) -> None:
        """Someone connected to or left the room on another node (or that node died)."""
        room = self.keeper.rooms.get(room_id)
        if room is None:
            return
        self.seated_changed(room_id, {p for p in players if room.seat_of(p) is not None})
        self.pubsub.deliver_local(room_id, {"event": "state"})

    def online_ids(self, room_id: str) -> set[int]:
        """The players connected to the room, on this node and (in a cluster) the others."""
        here = set(self._online.get(room_id, ()))
        if self.cluster is None:
            return here
        return here | self.cluster.presence.remote_players(room_id)

    def watched_anywhere(self, room_id: str) -> bool:
        """Someone is connected to the room: here, or (in a cluster) on another node."""
        if self._watchers.get(room_id) or self.keeper.attached(room_id):
            return True
        return self.cluster is not None and bool(+self.cluster.presence.remote_watchers(room_id))

    def players_here(self) -> set[int]:
        """The players connected to some room through this node."""
        return {p for online in self._online.values() for p in online}

    def connections(self) -> int:
        """Every connection of this node, to any room."""
        return sum(sum(c.values()) for c in self._watchers.values())

    def forget(self, room_id: str) -> None:
        self._online.pop(room_id, None)
        self._watchers.pop(room_id, None)
