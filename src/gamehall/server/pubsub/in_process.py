"""Pub/sub: how a room's events reach every connection watching it.

The hall publishes small events on the room's channel (``{"event": "state"}`` after a change,
``{"event": "message", "message": {...}}`` for chat and notices); each connection subscribes to its
room and renders state events for its own seat. The in-process implementation serves one server
process; the cluster's (redis_pubsub.py) carries the events between nodes through Redis.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections import defaultdict
from typing import Any

Event = dict[str, Any]


class Subscription:
    """A connection's queue of events on one channel; `close` it when the connection ends."""

    def __init__(self, owner: PubSub, channel: str, limit: int) -> None:
        self.owner = owner
        self.channel = channel
        self.queue: asyncio.Queue[Event] = asyncio.Queue(limit)
        self.overflowed = False
        """True once the subscriber fell too far behind (the server then drops the connection)."""

    def deliver(self, event: Event) -> None:
        if self.overflowed:
            return
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            self.overflowed = True  # the reader sees the marker and closes the connection
            self.queue.get_nowait()
            self.queue.put_nowait({"event": "overflow"})

    async def get(self) -> Event:
        return await self.queue.get()

    def close(self) -> None:
        self.owner.unsubscribe(self)


class PubSub(ABC):
    """Channels of events, one per room."""

    @abstractmethod
    async def publish(self, channel: str, event: Event) -> None:
        """Deliver `event` to every current subscriber of `channel`, in publication order."""

    @abstractmethod
    def subscribe(self, channel: str, limit: int = 1000) -> Subscription: ...

    @abstractmethod
    def deliver_local(self, channel: str, event: Event) -> None:
        """Deliver `event` to this process's subscribers of `channel` only."""

    @abstractmethod
    def unsubscribe(self, sub: Subscription) -> None: ...

    @abstractmethod
    def channels(self, prefix: str) -> list[str]:
        """The channels starting with `prefix` that this process has subscribers of."""

    async def close(self) -> None:  # noqa: B027 - nothing to release in process
        """Release connections to a broker, if any."""

    async def watch(self, channel: str) -> None:  # noqa: B027 - one process sees everything
        """Receive events other processes publish on `channel` (a node holding the room)."""

    def unwatch(self, channel: str) -> None:  # noqa: B027
        """Undo one `watch`."""


class InProcessPubSub(PubSub):
    """Pub/sub inside one server process: a set of queues per channel."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = defaultdict(set)

    async def publish(self, channel: str, event: Event) -> None:
        self.deliver_local(channel, event)

    def deliver_local(self, channel: str, event: Event) -> None:
        for sub in list(self._subs.get(channel, ())):
            sub.deliver(event)

    def subscribe(self, channel: str, limit: int = 1000) -> Subscription:
        sub = Subscription(self, channel, limit)
        self._subs[channel].add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.channel]

    def subscribers(self, channel: str) -> int:
        return len(self._subs.get(channel, ()))

    def channels(self, prefix: str) -> list[str]:
        return [c for c in self._subs if c.startswith(prefix)]
