"""Who holds an identified lobby socket, on this node and on any node of a cluster. A player's
pool entry is cancelled when their last lobby socket closes (lichess takes a player who left
out of its pools), so "last" must mean the last anywhere: with two tabs behind a load balancer,
closing the one on node 1 while node 2 still holds the other leaves the player waiting.

Each node counts its own sockets per player; in a cluster it also writes that count in a Redis
hash per player (``lobby:present:{nickname}``, holder -> count). When a player's count on this
node falls to nothing, the other holders of the hash that are alive (`Cluster.live`) say whether
the player is still in the lobby elsewhere; a dead node's stale part is ignored. Two nodes whose
last sockets close at the same moment may each see the other and keep the entry: it then waits
until the pools' away time (presence through polls and sockets, pairing/presence.py) ends it."""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from typing import TYPE_CHECKING

from redis.exceptions import RedisError

from gamehall.server.accounts.identity import Player

if TYPE_CHECKING:
    from gamehall.server.hall.hall import Hall

log = logging.getLogger(__name__)

KEEP_SECONDS = 86_400
"""How long a player's hash stays in Redis without a write (a node that died with sockets open
leaves its part behind; the hash then goes on its own)."""


def present_key(prefix: str, nickname: str) -> str:
    """The Redis hash of a player's lobby sockets by node."""
    return f"{prefix}lobby:present:{nickname}"


class LobbyPresence:
    """The identified lobby sockets of each player: this node's count, and the cluster's."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self._here: Counter[int] = Counter()

    async def arrived(self, player: Player) -> None:
        """A lobby socket identified as `player` on this node."""
        self._here[player.id] += 1
        await self._write(player, self._here[player.id])

    async def left(self, player: Player) -> bool:
        """A socket of `player` closed on this node: True when it was their last one anywhere
        (their pool entry may go). Decided before this node's part is deleted, so that once
        the part is gone from Redis the decision has been acted on."""
        self._here[player.id] -= 1
        if self._here[player.id] > 0:
            await self._write(player, self._here[player.id])
            return False
        del self._here[player.id]
        if await self._elsewhere(player):
            await self._write(player, 0)  # nothing to act on: this node's part goes at once
            return False
        return True

    async def forget(self, player: Player) -> None:
        """This node's part of `player`'s hash deleted (after `left` said they were gone, and
        after the caller acted on it)."""
        if player.id not in self._here:
            await self._write(player, 0)

    async def _elsewhere(self, player: Player) -> bool:
        cluster = self.hall.cluster
        if cluster is None:
            return False
        try:
            holders = await cluster.pubsub.redis.hkeys(present_key(cluster.pubsub.prefix,
                                                                   player.nickname))
        except (RedisError, OSError):
            log.warning("could not read where a player holds lobby sockets")
            return False
        others = {h.decode() if isinstance(h, bytes) else str(h) for h in holders}
        return bool((others - {cluster.holder}) & cluster.live)

    async def _write(self, player: Player, count: int) -> None:
        cluster = self.hall.cluster
        if cluster is None:
            return
        key = present_key(cluster.pubsub.prefix, player.nickname)
        with contextlib.suppress(RedisError, OSError):
            if count > 0:  # one round trip for both, on every identify
                async with cluster.pubsub.redis.pipeline(transaction=False) as pipe:
                    pipe.hset(key, cluster.holder, count)
                    pipe.expire(key, KEEP_SECONDS)
                    await pipe.execute()
            else:
                await cluster.pubsub.redis.hdel(key, cluster.holder)
