"""Whose pool entries are still wanted: a waiting entry is kept while its player is seen —
they polled it (``GET /api/pools/entries/{id}``), or they hold a socket to some node: a room's
WebSocket, or a lobby socket (or bot event stream) listening on their own channel. Every node
marks its connected players' entries seen a few times a minute (`Presence.mark`); the node
running a pool cancels the entries not seen for ``pairing_away_seconds`` before each look, so a
script that joined over HTTP and went away is not paired into a game nobody plays (lichess
drops a pool member whose connection is gone)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from gamehall.server.botapi.service import player_channel
from gamehall.server.pairing.store import WAITING, Entry, PoolStore

if TYPE_CHECKING:
    from gamehall.server.hall.hall import Hall

MARK_EVERY = 5.0
"""Hall seconds between a node's marks (at most; a quarter of the away time if shorter)."""
PREFIX = player_channel(0).removesuffix("0")
"""The start of every player's own channel (``player:``)."""


def connected_here(hall: Hall) -> set[int]:
    """The players holding a room socket or listening on their own channel through this node."""
    listening: set[int] = set()
    for channel in hall.pubsub.channels(PREFIX):
        with contextlib.suppress(ValueError):
            listening.add(int(channel.removeprefix(PREFIX)))
    return hall.watchers.players_here() | listening


class Presence:
    """This node's marks of its connected players' waiting entries."""

    def __init__(self, hall: Hall, store: PoolStore, away: float) -> None:
        self.hall, self.store, self.away = hall, store, away
        self.every = min(MARK_EVERY, away / 4)
        self._marked: float | None = None

    async def mark(self) -> None:
        """Mark the waiting entries of the players connected here seen now (when due)."""
        now = self.hall.clock()
        if self._marked is not None and now - self._marked < self.every:
            return
        self._marked = now
        await self.store.seen_players(sorted(connected_here(self.hall)), now)

    async def polled(self, entry: Entry) -> None:
        """Its player polled `entry`: a waiting entry is seen now, written at most every
        `every` seconds (a script polling ten times a second costs a write every few seconds,
        not ten a second; the away time is far longer)."""
        now = self.hall.clock()
        if entry.status == WAITING and now - entry.seen_at >= self.every:
            await self.store.seen(entry.id, now)
