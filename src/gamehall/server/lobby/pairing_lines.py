"""The pairing's lines in the lobby: each pool with how many wait in it, and the open challenges
(seeks). The pairing tells its news on its own channel (pairing/announce.py, every node hears
it); here each message becomes a change of the lobby, and the pools and seeks as they are now are
read when the feed starts."""

from __future__ import annotations

from typing import Any

from gamehall.server.lobby.feed import LobbyFeed
from gamehall.server.lobby.index import Change, Gone, Put
from gamehall.server.pairing.announce import LOBBY
from gamehall.server.pairing.seeks import Seeks
from gamehall.server.pairing.service import Pools

OPEN = "open"


def pairing_change(event: dict[str, Any], at: float) -> Change:
    """A message of the pairing's channel as a change: every pool's count, or one seek (open or
    taken: its line; cancelled or spent: gone)."""
    message = event.get("message") or {}
    kind = message.get("type")
    if kind == "pools":
        return Change([Put("pools", str(p["id"]), None, at, p) for p in message["pools"]], [])
    if kind == "seek":
        seek = message["seek"]
        if seek.get("status") == OPEN or seek.get("room"):
            return Change([Put("seeks", str(seek["id"]), None, at, seek)], [])
        return Change([], [Gone("seeks", str(seek["id"]))])
    return Change([], [])


def follow_pairing(feed: LobbyFeed, pools: Pools, seeks: Seeks) -> None:
    """Put the pools and the open seeks in the lobby, and keep them as the pairing tells."""

    async def lines() -> list[Put]:
        at = feed.hall.clock()
        puts = [Put("pools", str(p["id"]), None, at, p) for p in await pools.pools()]
        open_seeks = await seeks.open_seeks(None)
        puts.extend(Put("seeks", s.id, None, at, s.to_json()) for s in reversed(open_seeks))
        return puts

    feed.follow(LOBBY, pairing_change, lines)
    feed.on_left.append(pools.gone)  # a player who left the lobby waits in no pool
