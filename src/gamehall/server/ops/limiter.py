"""Rate limits on what clients repeat, kept by the `limits` library (moving windows): in this
process's memory (`Limiter`), or, for the nodes of a cluster, in their Redis (`SharedLimiter`),
so that a visitor whose requests reach several nodes has one allowance, not one per node.

One `Limiter` per hall; each kind of limited thing is a set of named rules over some keys. The
first user is signing in: tries of a password are counted per nickname and address, per
nickname, and per address, so guessing one account's password, spraying one password over many
accounts, and locking an account from far away are all slow.

The methods are coroutines: a shared count is a Redis round trip, which must not hold up the
event loop (every WebSocket message is counted).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from limits import RateLimitItem, parse, storage, strategies
from limits.aio import storage as aio_storage
from limits.aio import strategies as aio_strategies
from limits.errors import StorageError
from redis.asyncio import ConnectionPool
from redis.exceptions import RedisError

log = logging.getLogger("gamehall.server")


@dataclass(frozen=True)
class Rule:
    """At most `limit` (limits' notation, e.g. ``5/minute``) per value of the keys it names."""

    name: str
    limit: str
    keys: tuple[str, ...]

    @cached_property
    def item(self) -> RateLimitItem:
        """The parsed limit (parsed once: some rules are checked on every message)."""
        return parse(self.limit)


class SweptMemoryStorage(storage.MemoryStorage):
    """limits' memory storage, its old entries swept once a second rather than 10 ms after
    every hit. The library's sweep walks every key (one per visitor) in a thread of its own;
    after every hit, with a thousand visitors, that cost the hall more CPU per move than the
    move itself. Sweeping is only clean-up: a moving window reads the entries' times, so the
    limits are the same."""

    SWEEP_SECONDS = 1.0

    def _MemoryStorage__schedule_expiry(self) -> None:  # noqa: N802 - the library's hook
        """Replaces the library's private scheduler (name-mangled: called from its methods)."""
        if not self.timer.is_alive():
            sweep = self._MemoryStorage__expire_events  # type: ignore[attr-defined]
            self.timer = threading.Timer(self.SWEEP_SECONDS, sweep)
            self.timer.daemon = True
            self.timer.start()


class Limiter:
    """Counts hits per rule and keys in this process's memory; tells how long until a rule
    allows another one."""

    def __init__(self) -> None:
        self._storage = SweptMemoryStorage()
        self._window = strategies.MovingWindowRateLimiter(self._storage)

    async def blocked(self, rules: Sequence[Rule], values: dict[str, str]) -> float | None:
        """Seconds until every rule allows one more hit for these values, or None if all do."""
        return self._blocked_here(rules, values)

    async def hit(self, rules: Sequence[Rule], values: dict[str, str]) -> None:
        self._hit_here(rules, values)

    async def allow(self, rules: Sequence[Rule], values: dict[str, str]) -> bool:
        """Count one hit under every rule that still allows one (`blocked` and `hit` in one
        step, for what is limited on every try rather than on failures); True if all did."""
        return self._allow_here(rules, values)

    def _blocked_here(self, rules: Sequence[Rule], values: dict[str, str]) -> float | None:
        waits = []
        for rule in rules:
            ids = [values[k] for k in rule.keys]
            if not self._window.test(rule.item, rule.name, *ids):
                stats = self._window.get_window_stats(rule.item, rule.name, *ids)
                waits.append(max(1.0, stats.reset_time - time.time()))
        return max(waits) if waits else None

    def _hit_here(self, rules: Sequence[Rule], values: dict[str, str]) -> None:
        for rule in rules:
            self._window.hit(rule.item, rule.name, *[values[k] for k in rule.keys])

    def _allow_here(self, rules: Sequence[Rule], values: dict[str, str]) -> bool:
        ok = True
        for rule in rules:
            ok = self._window.hit(rule.item, rule.name, *[values[k] for k in rule.keys]) and ok
        return ok

    async def close(self) -> None:
        """Let go of what the limiter holds outside the process (nothing, in memory)."""


STORE_FAILURES = (StorageError, RedisError, OSError, TimeoutError)
"""What a Redis that is down, unreachable or too slow raises through the `limits` library."""


class SharedLimiter(Limiter):
    """The counts of every node of a cluster, kept in its Redis (limits' asyncio Redis storage on
    redis-py, moving windows: a Lua script per rule and hit, one round trip each).

    When Redis fails (down, unreachable, or slower than `TIMEOUT`) a limit is never an error for
    the client: the node counts in its own memory for `RETRY_SECONDS` (each node's allowance,
    as without a cluster), says so once in its log, and then tries Redis again. The windows
    read the nodes' clocks (``time.time()``): keep them synchronised, as for the leases."""

    TIMEOUT = 1.0
    """Seconds a count may take in Redis before the node counts in memory instead."""
    RETRY_SECONDS = 5.0
    POOL_SIZE = 1024
    """Redis connections for counts, at most (one per count in flight)."""

    def __init__(self, url: str, prefix: str = "gamehall:limits") -> None:
        super().__init__()
        self._pool = ConnectionPool.from_url(url, max_connections=self.POOL_SIZE,
                                             socket_timeout=self.TIMEOUT,
                                             socket_connect_timeout=self.TIMEOUT)
        pool: dict[str, Any] = {"connection_pool": self._pool}  # limits passes it to redis-py
        self._redis = aio_storage.RedisStorage(url, wrap_exceptions=True,
                                               implementation="redispy", key_prefix=prefix,
                                               **pool)
        self._shared = aio_strategies.MovingWindowRateLimiter(self._redis)
        self._local_until = 0.0
        """Until when (monotonic) the node counts in memory, Redis having failed."""
        self.failures = 0
        """Counts that Redis failed (each then made in memory)."""

    def _shared_now(self) -> bool:
        if not self._local_until:
            return True
        if time.monotonic() < self._local_until:
            return False
        self._local_until = 0.0
        return True

    def _failed(self, exc: BaseException) -> None:
        self.failures += 1
        if not self._local_until:
            log.warning("rate limits: Redis failed (%s: %s); each node counts its own for "
                        "%.0f s, then tries again", type(exc).__name__, exc,
                        self.RETRY_SECONDS)
        self._local_until = time.monotonic() + self.RETRY_SECONDS

    async def blocked(self, rules: Sequence[Rule], values: dict[str, str]) -> float | None:
        if self._shared_now():
            try:
                waits = []
                for rule in rules:
                    ids = [values[k] for k in rule.keys]
                    stats = await self._shared.get_window_stats(rule.item, rule.name, *ids)
                    if stats.remaining < 1:
                        waits.append(max(1.0, stats.reset_time - time.time()))
                return max(waits) if waits else None
            except STORE_FAILURES as exc:
                self._failed(exc)
        return self._blocked_here(rules, values)

    async def hit(self, rules: Sequence[Rule], values: dict[str, str]) -> None:
        await self.allow(rules, values)

    async def allow(self, rules: Sequence[Rule], values: dict[str, str]) -> bool:
        if self._shared_now():
            try:
                ok = True
                for rule in rules:
                    ids = [values[k] for k in rule.keys]
                    ok = await self._shared.hit(rule.item, rule.name, *ids) and ok
                return ok
            except STORE_FAILURES as exc:
                self._failed(exc)
        return self._allow_here(rules, values)

    async def close(self) -> None:
        await self._pool.disconnect()


SIGN_IN_RULES = (
    Rule("sign-in:pair:minute", "5/minute", ("nickname", "address")),
    Rule("sign-in:pair:hour", "20/hour", ("nickname", "address")),
    Rule("sign-in:nickname", "100/hour", ("nickname",)),
    Rule("sign-in:address", "50/hour", ("address",)),
)
"""Tries of a password allowed before every try waits (see protocol.md, sign-in tries)."""


class SignInLimits:
    """The hall's `SignInLimiter`: tries of a password under `SIGN_IN_RULES`."""

    def __init__(self, limiter: Limiter, rules: Sequence[Rule] = SIGN_IN_RULES) -> None:
        self.limiter, self.rules = limiter, tuple(rules)

    async def sign_in_try(self, nickname_key: str, address: str) -> float | None:
        """Count one try (`Limiter.allow`: each rule's check and count are one step, in Redis
        too, so that tries raced at once are each counted); the wait past the limit."""
        values = {"nickname": nickname_key, "address": address}
        if await self.limiter.allow(self.rules, values):
            return None
        return await self.limiter.blocked(self.rules, values) or 1.0

    async def sign_in_blocked(self, nickname_key: str, address: str) -> float | None:
        return await self.limiter.blocked(self.rules,
                                          {"nickname": nickname_key, "address": address})

    async def sign_in_failed(self, nickname_key: str, address: str) -> None:
        await self.limiter.hit(self.rules, {"nickname": nickname_key, "address": address})
