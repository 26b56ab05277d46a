"""Room leases in Redis: at most one node holds a room at a time, and each acquisition gets a
fencing number larger than every earlier one for that room.

A lease is ``SET lease:<room> <holder> NX PX <ttl>``, renewed by its holder while it lives; the
fencing number comes from ``INCR fence:<room>``. Redis may forget both (a restart): the number
is then raised to at least the one stored with the room in PostgreSQL (`floor`), so numbers only
ever grow. The database refuses a write whose number is behind the stored one
(`storage.Fenced`), which is what makes a lease that ran out harmless: a paused node may still
believe it holds the room, but it can no longer commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis import Redis as SyncRedis
from redis.asyncio import Redis

PREFIX = "gamehall:"

_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local n = tonumber(redis.call('GET', KEYS[2]) or '0')
  local floor = tonumber(ARGV[3])
  if n < floor then redis.call('SET', KEYS[2], floor) end
  return redis.call('INCR', KEYS[2])
end
return false
"""
"""Take a free lease and draw its fencing number, atomically."""

_RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
"""Extend every lease in KEYS still held by ARGV[1]; 0 for the ones it no longer holds."""

_RELEASE = """
local n = 0
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('DEL', key)
    n = n + 1
  end
end
return n
"""


class Leases:
    """One node's view of the room leases: `holder` names this node (unique per process)."""

    def __init__(self, redis: Redis, holder: str, ttl_ms: int, prefix: str = PREFIX) -> None:
        self.redis, self.holder, self.ttl_ms, self.prefix = redis, holder, ttl_ms, prefix
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def key(self, room_id: str) -> str:
        return f"{self.prefix}lease:{room_id}"

    def fence_key(self, room_id: str) -> str:
        return f"{self.prefix}fence:{room_id}"

    async def acquire(self, room_id: str, floor: int = 0) -> int | None:
        """The fencing number of a newly taken lease, or None when another node holds it.
        `floor`: the fence stored with the room (the number returned is larger)."""
        got: Any = await self._acquire(keys=[self.key(room_id), self.fence_key(room_id)],
                                       args=[self.holder, self.ttl_ms, floor])
        return int(got) if got is not None else None

    async def renew(self, room_ids: Sequence[str]) -> list[bool]:
        """Extend this node's leases on `room_ids` (one round trip); False where it lost one."""
        if not room_ids:
            return []
        got: Any = await self._renew(keys=[self.key(r) for r in room_ids],
                                     args=[self.holder, self.ttl_ms])
        return [bool(x) for x in got]

    async def release(self, room_ids: Sequence[str]) -> int:
        """Give up this node's leases on `room_ids` (others' are left alone)."""
        if not room_ids:
            return 0
        got: Any = await self._release(keys=[self.key(r) for r in room_ids],
                                       args=[self.holder])
        return int(got)

    async def release_of(self, holder: str, room_ids: Sequence[str]) -> int:
        """Free the leases another holder has on `room_ids`: it has ended (see Cluster)."""
        if not room_ids:
            return 0
        got: Any = await self._release(keys=[self.key(r) for r in room_ids], args=[holder])
        return int(got)

    async def holders(self, room_ids: Sequence[str]) -> list[str | None]:
        """Who holds each room's lease now (None: nobody)."""
        if not room_ids:
            return []
        got = await self.redis.mget([self.key(r) for r in room_ids])
        return [x.decode() if isinstance(x, bytes) else x for x in got]


class Renewer:
    """The renewing half of `Leases` on a synchronous connection of its own, for a thread of
    its own: a node whose event loop is busy (or blocked for a while) keeps its leases and its
    heartbeat all the same, and no command queue or pool of the loop's client delays them."""

    def __init__(self, url: str, holder: str, ttl_ms: int, prefix: str = PREFIX) -> None:
        self.holder, self.ttl_ms, self.prefix = holder, ttl_ms, prefix
        self.redis = SyncRedis.from_url(url, decode_responses=True, socket_connect_timeout=2,
                                        socket_timeout=2)
        self._renew = self.redis.register_script(_RENEW)

    def beat_and_renew(self, node: str, room_ids: Sequence[str]) -> list[bool]:
        """Write the node's heartbeat and extend its leases on `room_ids`, in one round trip;
        False where it no longer holds a lease."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(f"{self.prefix}alive:{self.holder}", node, px=self.ttl_ms)
        pipe.sadd(f"{self.prefix}nodes", self.holder)
        if room_ids:
            self._renew(keys=[f"{self.prefix}lease:{r}" for r in room_ids],
                        args=[self.holder, self.ttl_ms], client=pipe)
        got: Any = pipe.execute()
        return [bool(x) for x in got[2]] if room_ids else []

    def close(self) -> None:
        self.redis.close()
