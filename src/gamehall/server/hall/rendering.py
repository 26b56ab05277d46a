"""The `state` message of a room for a seat, as JSON text: everything but the move list rendered
once per change of the room and seat (for the rooms this node keeps), the moves appended."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamehall.server.hall.keeper import RoomKeeper
from gamehall.server.hall.timekeeper import Timekeeper
from gamehall.server.hall.watchers import Watchers
from gamehall.server.table.room import PLAYING, Room


class StateRenderer:
    """Renders states, with a cache of their heads per room revision and seat."""

    def __init__(self, keeper: RoomKeeper, watchers: Watchers, timekeeper: Timekeeper,
                 clock: Callable[[], float]) -> None:
        self.keeper, self.watchers, self.timekeeper = keeper, watchers, timekeeper
        self.clock = clock
        self._heads: dict[str, tuple[int, dict[int | None, str]]] = {}
        keeper.forgotten.append(self.forget)

    def render(self, room: Room, seat: int | None, moves_from: int = 0) -> str:
        """The `state` message for `seat` as JSON text, with the moves from `moves_from` on.

        A room read from storage and not kept (another node's, watched by no connection here)
        is rendered afresh: its `rev` is its own object's count, not one of this node's, so a
        cached head of an earlier reading would match it and be stale."""
        if self.keeper.rooms.get(room.id) is not room:
            online, away = self._shared_view(room)
            return room.render(seat, online, moves_from, None, self.clock(), away)
        online = self.watchers.online_ids(room.id)
        cached = self._heads.get(room.id)
        if cached is None or cached[0] != room.rev:
            cached = (room.rev, {})
            self._heads[room.id] = cached
        head = cached[1].get(seat)
        if head is None:
            head = cached[1][seat] = room.render_head(seat, online)
        return room.render(seat, online, moves_from, head, self.clock(),
                           self.timekeeper.absence(room))

    def _shared_view(self, room: Room) -> tuple[set[int], dict[str, Any] | None]:
        """Who is connected and who is absent, for a room this node does not keep: as the
        nodes holding connections and the owner wrote them in Redis (this node's own counts
        know nothing of the room). Without them (no Redis), nobody is shown absent."""
        if room.shared is None:
            return self.watchers.online_ids(room.id), None
        online, shared = room.shared
        occ = room.person_to_move() if room.status == PLAYING else None
        if shared is None or occ is None or occ.player_id in online \
                or shared.get("seat") != room.to_move():
            return online, None
        claim_at = float(shared.get("claim_at", 0.0))
        return online, {"seat": shared["seat"], "player": shared.get("player"),
                        "claim_in_ms": max(0, round((claim_at - self.clock()) * 1000))}

    def forget(self, room_id: str) -> None:
        self._heads.pop(room_id, None)
