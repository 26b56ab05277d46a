"""Which node runs a pool's waves: the one holding the pool's lease (the rooms' leases,
cluster/leases.py, under the key ``pool:<id>``: a room id never holds a ':'). A single hall
holds every pool, with no lease number.

The holder renews the lease at each look (`PoolLeases.hold`); a node that dies or freezes
loses it after the lease's life and another node takes the pool over. Its lease number goes
with every write of a wave (`PoolStore.choose`), and the database refuses a number behind the
stored one, so a frozen node that wakes up believing it still runs the pool writes nothing.
"""

from __future__ import annotations

import contextlib
import logging

from redis.exceptions import RedisError

from gamehall.server.cluster.leases import Leases

log = logging.getLogger("gamehall.server")


def lease_key(pool: str) -> str:
    return f"pool:{pool}"


class PoolLeases:
    """This node's hold on the pools: `hold` says whether it runs a pool now, and under which
    lease number (None: a single hall, no number needed)."""

    def __init__(self, leases: Leases | None) -> None:
        self.leases = leases
        self.held: dict[str, int] = {}

    async def hold(self, pool: str) -> tuple[bool, int | None]:
        """(whether this node runs `pool` now, its lease number): renew the lease it holds,
        or take the lease when nobody does."""
        if self.leases is None:
            return True, None
        key = lease_key(pool)
        try:
            if pool in self.held:
                [kept] = await self.leases.renew([key])
                if kept:
                    return True, self.held[pool]
                del self.held[pool]
            fence = await self.leases.acquire(key)
        except (RedisError, OSError):
            log.warning("could not reach Redis for the lease of pool %s", pool)
            self.held.pop(pool, None)
            return False, None
        if fence is None:
            return False, None
        self.held[pool] = fence
        return True, fence

    async def release(self) -> None:
        """Give every pool up (the node stops): another node takes them at once."""
        if self.leases is not None and self.held:
            with contextlib.suppress(RedisError, OSError):
                await self.leases.release([lease_key(p) for p in self.held])
            self.held.clear()
