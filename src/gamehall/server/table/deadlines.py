"""What the hall watches over time, without I/O: each room's next deadline (a clock running out,
an absent player becoming claimable) and when each seated person was last seen.

Times are the hall's time source (seconds); the hall's tick loop asks `Deadlines.due` a few times
a second, so a changed or injected time source is noticed at the next tick.
"""

from __future__ import annotations

import heapq
from typing import Any

from gamehall.server.table.room import PLAYING, Room


class Deadlines:
    """The next deadline of each room; older entries for a room are dropped when they come up."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, str]] = []
        self._next: dict[str, float] = {}

    def set(self, room_id: str, when: float | None) -> None:
        """The room's next deadline (None: it has none)."""
        if when is None:
            self._next.pop(room_id, None)
            return
        if self._next.get(room_id) == when:
            return
        self._next[room_id] = when
        heapq.heappush(self._heap, (when, room_id))

    def due(self, now: float) -> list[str]:
        """The rooms whose deadline has come (each once), earliest first."""
        out: list[str] = []
        while self._heap and self._heap[0][0] <= now:
            when, room_id = heapq.heappop(self._heap)
            if self._next.get(room_id) == when:
                del self._next[room_id]
                out.append(room_id)
        return out

    def __len__(self) -> int:
        return len(self._next)


class LastSeen:
    """When each person was last seen in each room (a connection closing, a request), and when
    the turn in progress began. A person is absent from the later of the two: a player who left
    while waiting for the other's move still gets the whole allowance once their turn comes."""

    def __init__(self, since: float) -> None:
        self.since = since
        """Before this (the hall's start) nobody is known to be absent: downtime counts for none."""
        self._seen: dict[tuple[str, int], float] = {}
        self._turn: dict[str, tuple[int | None, float]] = {}

    def seen(self, room_id: str, player_id: int, now: float) -> None:
        self._seen[(room_id, player_id)] = now

    def turn(self, room_id: str, seat: int | None, now: float) -> None:
        """Note the seat to move after a change (a new turn starts when the seat changes)."""
        if self._turn.get(room_id, (None, 0.0))[0] != seat or room_id not in self._turn:
            self._turn[room_id] = (seat, now)

    def absent_from(self, room_id: str, player_id: int) -> float:
        seen = self._seen.get((room_id, player_id), self.since)
        turn = self._turn.get(room_id, (None, self.since))[1]
        return max(seen, turn, self.since)

    def forget(self, room_id: str) -> None:
        self._turn.pop(room_id, None)
        for key in [k for k in self._seen if k[0] == room_id]:
            del self._seen[key]


def absence(room: Room, online: set[int], last_seen: LastSeen, limit: float,
            now: float) -> dict[str, Any] | None:
    """The ``absent`` object of the state: the person to move in an untimed running game has no
    connection; `claim_in_ms` is how long until the others may claim or seat a bot (0: now)."""
    if room.status != PLAYING or room.time_control is not None:
        return None
    occ = room.person_to_move()
    if occ is None or occ.player_id is None or occ.player_id in online:
        return None
    claim_at = last_seen.absent_from(room.id, occ.player_id) + limit
    return {"seat": room.to_move(), "player": occ.nickname,
            "claim_in_ms": max(0, round((claim_at - now) * 1000))}


def next_deadline(room: Room, online: set[int], last_seen: LastSeen, limit: float,
                  now: float) -> float | None:
    """When something changes in the room by time alone: a flag falls, or an absent player
    becomes claimable (the hall then publishes the new state)."""
    if room.status != PLAYING:
        return None
    if room.clock is not None:
        return room.clock.deadline()
    away = absence(room, online, last_seen, limit, now)
    if away is None or away["claim_in_ms"] == 0:
        return None
    return now + away["claim_in_ms"] / 1000
