"""Look-ups of one kind coalesced into one query per batch (room loads, fences)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Coalescer(Generic[K, V]):
    """Look-ups of one kind asked for at about the same time, answered by one query each batch:
    at most `parallel` queries run at once, and keys asked for meanwhile wait for the next one.
    A lone look-up costs what it did; a burst (a node taking a dead node's rooms, a crowd
    opening rooms) costs a few queries instead of one (or three) per key."""

    def __init__(self, fetch: Callable[[list[K]], Awaitable[dict[K, V]]], parallel: int = 2,
                 most: int = 500) -> None:
        self._fetch, self._parallel, self._most = fetch, parallel, most
        self._waiting: dict[K, list[asyncio.Future[V | None]]] = {}
        self._running = 0

    async def get(self, key: K) -> V | None:
        """The value for `key` (None: there is none)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[V | None] = loop.create_future()
        self._waiting.setdefault(key, []).append(fut)
        if self._running < self._parallel:
            self._running += 1
            loop.create_task(self._run())
        return await fut

    async def _run(self) -> None:
        try:
            while self._waiting:
                keys = list(itertools.islice(self._waiting, self._most))
                batch = {k: self._waiting.pop(k) for k in keys}
                try:
                    found = await self._fetch(keys)
                except Exception as exc:
                    for futs in batch.values():
                        for f in futs:
                            if not f.done():
                                f.set_exception(exc)
                    continue
                for k, futs in batch.items():
                    for f in futs:
                        if not f.done():
                            f.set_result(found.get(k))
        finally:
            self._running -= 1
