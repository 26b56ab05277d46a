"""Pub/sub through Redis: room events reach the connections of every node of a cluster.

Each node keeps one subscriber connection to Redis. A room's channel is subscribed while the
node holds the room in memory (`watch` / `unwatch`), and the node's own channel carries messages
addressed to it (requests passed on by other nodes, and their answers); the hall's channel
carries what every node must hear (sign-outs, revocations.py). An event is delivered to
the node's own connections at once and published to Redis for the others, tagged with its
origin so that the publisher skips its own copy.

Redis delivers at most once: a restart of Redis, or a dropped subscriber connection, loses the
events published meanwhile. The subscriber notices (its connection fails), reconnects,
subscribes again and calls `on_reconnect`, which lets the hall compare what it holds with the
database, the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.client import PubSub as RedisSubscriber
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from gamehall.server.pubsub.in_process import Event, InProcessPubSub, PubSub, Subscription

log = logging.getLogger("gamehall.server")

PREFIX = "gamehall:"
POOL_SIZE = 4096
"""The most Redis connections per node for commands and publications (the subscriber has its
own; Redis accepts 10,000 clients by default)."""
SUBSCRIBE_WAIT = 5.0
"""Seconds `watch` waits for Redis to confirm a subscription (then goes on; see on_reconnect)."""


def _no_op_receiver(_channel: str, event: Event) -> list[Event]:
    return [event]


class RedisPubSub(PubSub):
    """Room channels shared by the nodes of a cluster, plus one channel per node."""

    def __init__(self, url: str, origin: str, prefix: str = PREFIX) -> None:
        self.url, self.origin, self.prefix = url, origin, prefix
        self.redis: Redis = Redis(connection_pool=ConnectionPool.from_url(
            url, max_connections=POOL_SIZE, decode_responses=True, health_check_interval=0,
            socket_connect_timeout=5, socket_timeout=5))
        """Commands and publications (leases use it too). Its pool grows to the commands in
        flight at once, which a busy node under load has many of: redis-py's default of 100
        refused the 101st (MaxConnectionsError), so publications and room creations failed."""
        self._subscriber: Redis = Redis.from_url(
            url, decode_responses=True, retry=Retry(NoBackoff(), 0), socket_connect_timeout=2)
        self._local = InProcessPubSub()
        self._watched: dict[str, int] = {}
        self._confirmed: dict[str, asyncio.Event] = {}
        self._conn: RedisSubscriber | None = None
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self.up = False
        """True while the subscriber connection is open."""
        self.up_since = 0.0
        """When (monotonic) the subscriber connection last opened."""
        self.receiver: Callable[[str, Event], list[Event]] = _no_op_receiver
        """Called with each event another node published on a room channel; returns the events
        to deliver to this node's connections (the hall updates its copy of the room first)."""
        self.on_direct: Callable[[dict[str, Any]], None] = lambda _msg: None
        """Called with each message addressed to this node."""
        self.on_broadcast: Callable[[dict[str, Any]], None] = lambda _msg: None
        """Called with each message on the hall's channel, this node's own included."""
        self.on_answered: Callable[[list[str]], None] = lambda _ids: None
        """Called with the ids of this node's forwarded requests that a room event answers
        (after the event was handed to `receiver`)."""
        self._own = '{"origin":' + json.dumps(origin) + ","
        """How this node's own publications start: the subscriber skips them unparsed."""
        self.on_reconnect: Callable[[], Coroutine[Any, Any, None]] | None = None
        """Called after the subscriber connection was lost and is back (events may be lost)."""
        self.on_down: Callable[[], None] = lambda: None
        """Called when the subscriber connection breaks (messages to this node may be lost)."""
        self.failed_publishes = 0

    # --- names ---------------------------------------------------------------------------------
    def room_channel(self, room_id: str) -> str:
        return f"{self.prefix}room:{room_id}"

    def node_channel(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    def hall_channel(self) -> str:
        return f"{self.prefix}hall"

    # --- life cycle ----------------------------------------------------------------------------
    async def open(self) -> None:
        self._reader = asyncio.create_task(self._read_loop(), name="gamehall-redis-reader")
        deadline = time.monotonic() + SUBSCRIBE_WAIT
        while not self.up and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if not self.up:
            raise RuntimeError(f"cannot subscribe on Redis at {self.url}")

    async def close(self) -> None:
        self._closing = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.aclose()
        with contextlib.suppress(Exception):
            await self._subscriber.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # --- the PubSub interface ------------------------------------------------------------------
    async def publish(self, channel: str, event: Event) -> None:
        """Deliver to this node's connections, then to the other nodes through Redis."""
        await self._local.publish(channel, event)
        await self.publish_remote(channel, event)

    async def publish_remote(self, channel: str, event: Event) -> bool:
        """Publish to the other nodes only; False when Redis failed. A failure is logged, never
        raised: the change is committed already, and the others catch up from the database on
        reconnecting. The origin comes first, so that the publisher's own subscriber can skip
        its copy without parsing it."""
        data = json.dumps({"origin": self.origin, **event}, separators=(",", ":"))
        try:
            await self.redis.publish(self.room_channel(channel), data)
        except (RedisError, OSError) as exc:
            self.failed_publishes += 1
            log.warning("could not publish on room %s: %s", channel, exc)
            return False
        return True

    def deliver_local(self, channel: str, event: Event) -> None:
        """Hand an event to this node's connections of `channel` only."""
        self._local.deliver_local(channel, event)

    def subscribe(self, channel: str, limit: int = 1000) -> Subscription:
        return self._local.subscribe(channel, limit)

    def unsubscribe(self, sub: Subscription) -> None:
        self._local.unsubscribe(sub)

    def subscribers(self, channel: str) -> int:
        return self._local.subscribers(channel)

    def channels(self, prefix: str) -> list[str]:
        return self._local.channels(prefix)

    async def watch(self, channel: str) -> None:
        """Receive the other nodes' events on `channel` from now on (waits for Redis to confirm,
        at most SUBSCRIBE_WAIT seconds)."""
        self._watched[channel] = self._watched.get(channel, 0) + 1
        if self._watched[channel] > 1:
            confirmed = self._confirmed.get(channel)
        else:
            confirmed = self._confirmed[channel] = asyncio.Event()
            conn = self._conn
            if conn is not None:
                try:
                    await conn.subscribe(self.room_channel(channel))
                except (RedisError, OSError) as exc:  # the reader reconnects and subscribes
                    log.warning("could not subscribe to room %s: %s", channel, exc)
        if confirmed is not None and self.up:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(confirmed.wait(), SUBSCRIBE_WAIT)

    def unwatch(self, channel: str) -> None:
        left = self._watched.get(channel, 0) - 1
        if left > 0:
            self._watched[channel] = left
            return
        self._watched.pop(channel, None)
        self._confirmed.pop(channel, None)
        conn = self._conn
        if conn is not None:
            asyncio.get_running_loop().create_task(self._unsubscribe(conn, channel))

    async def _unsubscribe(self, conn: RedisSubscriber, channel: str) -> None:
        if channel in self._watched:
            return  # watched again meanwhile
        with contextlib.suppress(RedisError, OSError):
            await conn.unsubscribe(self.room_channel(channel))

    def watching(self, channel: str) -> bool:
        return channel in self._watched

    def hold(self, channel: str) -> bool:
        """If the other nodes' events on `channel` reach this node now (watched, and Redis has
        confirmed the subscription), keep them coming until the matching `unwatch`; else
        False (nothing to undo)."""
        confirmed = self._confirmed.get(channel)
        if not self.up or channel not in self._watched or confirmed is None \
                or not confirmed.is_set():
            return False
        self._watched[channel] += 1
        return True

    async def send(self, node: str, message: dict[str, Any]) -> int:
        """Publish `message` to one node; returns how many subscribers got it (0: nobody)."""
        return int(await self.redis.publish(self.node_channel(node),
                                            json.dumps(message, separators=(",", ":"))))

    async def broadcast(self, message: dict[str, Any]) -> int:
        """Publish `message` to every node, this one included (`on_broadcast`); returns how many
        got it. Raises RedisError (or OSError) when Redis fails."""
        return int(await self.redis.publish(self.hall_channel(),
                                            json.dumps(message, separators=(",", ":"))))

    # --- the subscriber ------------------------------------------------------------------------
    async def _read_loop(self) -> None:
        connected_before = False
        while not self._closing:
            conn = self._subscriber.pubsub()
            try:
                for event in self._confirmed.values():
                    event.clear()
                await conn.subscribe(self.node_channel(self.origin), self.hall_channel(),
                                     *(self.room_channel(c) for c in self._watched))
                self._conn = conn
                while True:
                    msg = await conn.get_message(timeout=None)
                    if msg is not None:
                        self._dispatch(msg)
                        if not self.up and msg["type"] == "subscribe":
                            self.up = True
                            self.up_since = time.monotonic()
                            if connected_before and self.on_reconnect is not None:
                                asyncio.get_running_loop().create_task(self.on_reconnect())
                            connected_before = True
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis went away: reconnect, then catch up
                if self.up:
                    log.warning("lost the Redis subscriber connection: %s", exc)
                self.up = False
                self._conn = None
                self.on_down()
                with contextlib.suppress(Exception):
                    await conn.aclose()
                await asyncio.sleep(0.2)

    def _dispatch(self, msg: dict[str, Any]) -> None:
        kind, channel = msg.get("type"), str(msg.get("channel") or "")
        if kind == "subscribe":
            room = channel.removeprefix(self.prefix + "room:")
            confirmed = self._confirmed.get(room)
            if confirmed is not None:
                confirmed.set()
            return
        if kind != "message":
            return
        raw = msg["data"]
        if channel == self.hall_channel():
            self._hall_message(raw)
            return
        if isinstance(raw, str) and raw.startswith(self._own):
            return  # this node's own publication: its connections had it at once
        try:
            data = json.loads(raw)
        except (TypeError, ValueError):
            log.warning("not JSON on %s", channel)
            return
        if channel == self.node_channel(self.origin):
            self.on_direct(data)
            return
        room = channel.removeprefix(self.prefix + "room:")
        if data.get("origin") == self.origin or room not in self._watched:
            return
        try:
            events = self.receiver(room, data)
        except Exception:
            log.exception("room event on %s failed", room)
            events = []
        for event in events:
            self.deliver_local(room, event)
        answered = data.get("answered")
        if answered:
            self.on_answered(list(answered))

    def _hall_message(self, raw: Any) -> None:
        try:
            data = json.loads(raw)
        except (TypeError, ValueError):
            log.warning("not JSON on %s", self.hall_channel())
            return
        if not isinstance(data, dict):
            return
        try:
            self.on_broadcast(data)
        except Exception:
            log.exception("a message on the hall's channel failed")
