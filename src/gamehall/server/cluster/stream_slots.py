"""A token's open streams counted for the whole cluster, so that `--max-streams-per-token` is one
cap, not one per node.

Each open stream holds a slot: a member of the token's sorted set in Redis, scored with the time
(Redis's own clock, so the nodes' clocks need not agree) its lease runs out. A node renews its
streams' leases while they run and removes them when they end; a node that dies stops renewing,
and its slots lapse after `LEASE_SECONDS`, counted out by the next stream asked for. Taking a slot
is one Lua script — drop the lapsed, count, add — so streams raced at once through every node are
each counted, and no more than the cap are ever held.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger("gamehall.server")

LEASE_SECONDS = 30
"""How long a slot outlives its node's last renewal (its stream's node died)."""
RENEW_SECONDS = 10.0
"""How often a node renews the slots of its running streams."""
PREFIX = "gamehall:streams:"

_TAKE = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], t + tonumber(ARGV[2]), ARGV[3])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]) + 1)
return 1
"""
_RENEW = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
redis.call('ZADD', KEYS[1], 'XX', t + tonumber(ARGV[1]), ARGV[2])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]) + 1)
return 1
"""


class SharedStreamSlots:
    """The slots of every token's streams, in the cluster's Redis."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._take = redis.register_script(_TAKE)
        self._renew = redis.register_script(_RENEW)

    async def take(self, token_key: str, cap: int) -> SharedSlot | None:
        """A slot for one more stream of the token, or None when `cap` are held. Should Redis be
        down, the stream is let through on this node's own count alone (logged): a stream
        refused for Redis's sake would be an outage, one too many is not."""
        member = uuid.uuid4().hex
        try:
            taken = await self._take(keys=[PREFIX + token_key],
                                     args=[cap, LEASE_SECONDS, member])
        except RedisError as e:
            log.warning("streams per token counted on this node only (Redis: %s)", e)
            return SharedSlot(self, token_key, None)
        return SharedSlot(self, token_key, member) if taken else None


class SharedSlot:
    """One stream's slot, renewed while the stream runs; `release` gives it back."""

    def __init__(self, slots: SharedStreamSlots, token_key: str, member: str | None) -> None:
        self.slots, self.key, self.member = slots, PREFIX + token_key, member
        self._renewing = asyncio.create_task(self._renew(member)) if member else None

    async def _renew(self, member: str) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            with contextlib.suppress(RedisError):  # a lapse shows as one slot less, no more
                await self.slots._renew(keys=[self.key], args=[LEASE_SECONDS, member])

    async def release(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
            self._renewing = None
            try:
                await self.slots.redis.zrem(self.key, str(self.member))
            except RedisError as e:  # it lapses by itself
                log.warning("a stream's slot left to lapse (Redis: %s)", e)
