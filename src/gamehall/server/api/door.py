"""The hall's door: who is asking and from where (the token of a request, the visitor a limit
counts, the address), and the limits every client passes before the hall acts (`Door` for
everyone's, `BotDoor` for the bot API's tokens). Who may call which route is `access.py`."""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from fastapi import WebSocket
from fastapi.responses import StreamingResponse
from starlette.requests import HTTPConnection

from gamehall.core.messages import msg
from gamehall.server.accounts.identity import Accounts, RateLimited, token_hash
from gamehall.server.api.guards import (
    ConnectionCounts,
    RateLimits,
    RateSettings,
    rules,
)
from gamehall.server.cluster.stream_slots import SharedSlot, SharedStreamSlots
from gamehall.server.hall.hall import Player
from gamehall.server.ops.limiter import Limiter
from gamehall.server.ops.settings import Settings
from gamehall.server.pubsub.in_process import Event, Subscription

COOKIE = "gamehall_token"
TOKEN_HEADER = "x-gamehall-token"
STREAM_RETRY = 10.0
"""The Retry-After of a stream refused past the cap: by then a stream closed is counted out."""


class Door:
    """The limits every client passes before the hall acts: rates per visitor and per address,
    WebSockets per visitor and per address, and the origins whose pages may open WebSockets."""

    def __init__(self, settings: Settings, limiter: Limiter) -> None:
        s = settings
        self.rates = RateLimits(limiter, RateSettings(
            s.rate, s.burst, s.address_factor, s.session_rate, s.room_rate,
            s.room_address_rate, s.flood_strikes))
        self.connections = ConnectionCounts(s.max_connections_per_visitor,
                                            s.max_connections_per_address)
        self.lobby_sockets = ConnectionCounts(s.max_lobby_sockets,
                                              s.max_lobby_sockets)
        """The lobby's WebSockets, counted per address (apart from the rooms')."""
        self.origins = frozenset(o.strip().lower().rstrip("/") for o in s.allow_origins)


class BotDoor:
    """The bot API's limits: requests per token (in the hall's limiter, so one count for a
    whole cluster) and streams per token (this node's count, and in a cluster `shared`, the
    whole cluster's)."""

    def __init__(self, settings: Settings, limiter: Limiter,
                 shared: SharedStreamSlots | None = None) -> None:
        self.limiter = limiter
        self.shared = shared
        self.rules = rules("token", settings.token_rate, ("token",), "--token-rate")
        self.max_streams = settings.max_streams_per_token
        self.streams: Counter[str] = Counter()
        self.open: set[Subscription] = set()
        """The subscriptions of the streams open now (`end_streams` ends them)."""
        self.ending = False

    def end_streams(self) -> None:
        """The server is stopping: every open stream ends now, its body complete (the client
        opens it again, on another node of a cluster), instead of holding the stop until the
        server cancels it (a traceback in the log, and a stop 5 s late)."""
        self.ending = True
        for sub in list(self.open):
            sub.deliver({"event": "closing"})

    @contextlib.contextmanager
    def tracked(self, sub: Subscription) -> Any:
        """Keep a stream's subscription known to `end_streams` while the stream runs."""
        self.open.add(sub)
        if self.ending:
            sub.deliver({"event": "closing"})
        try:
            yield sub
        finally:
            self.open.discard(sub)

    async def check(self, key: str) -> None:
        if not await self.limiter.allow(self.rules, {"token": key}):
            wait = await self.limiter.blocked(self.rules, {"token": key}) or 1.0
            raise RateLimited(wait, msg("error.rate.token", seconds=max(1, round(wait))))

    async def open_stream(self, key: str) -> StreamSlot:
        """Count a stream of the token `key` from its request on, or refuse it past the cap
        before its answer starts (a 429, not a cut stream). This node's check and count are one
        step (no await between them), so that streams raced at once are each counted; in a
        cluster the stream then takes its slot in Redis, one atomic step there too. The slot is
        given back when the stream's answer ends, or was never sent."""
        if self.streams[key] >= self.max_streams:
            raise self._too_many()
        self.streams[key] += 1
        shared = None
        if self.shared is not None:
            try:
                shared = await self.shared.take(key, self.max_streams)
            except BaseException:
                self._close_stream(key)
                raise
            if shared is None:
                self._close_stream(key)
                raise self._too_many()
        return StreamSlot(self, key, shared)

    def _too_many(self) -> RateLimited:
        refusal = RateLimited(STREAM_RETRY, msg("error.rate.streams", count=self.max_streams))
        refusal.code = "too_many_streams"
        return refusal

    def _close_stream(self, key: str) -> None:
        self.streams[key] -= 1
        if self.streams[key] <= 0:
            del self.streams[key]


class StreamSlot:
    """One counted stream of a token: `close` (once) gives it back, here and in the cluster."""

    def __init__(self, door: BotDoor, key: str, shared: SharedSlot | None = None) -> None:
        self.door, self.key, self.shared, self.closed = door, key, shared, False

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.door._close_stream(self.key)
            if self.shared is not None:
                await self.shared.release()


class CountedStream(StreamingResponse):
    """A stream's answer that gives its slot back however it ends: its body done, the client
    gone, or never started at all (the client left before the answer began)."""

    def __init__(self, content: AsyncIterator[bytes], slot: StreamSlot, media_type: str) -> None:
        super().__init__(content, media_type=media_type)
        self.slot = slot
        self.content = content

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.slot.close()
            aclose = getattr(self.content, "aclose", None)
            if aclose is not None:
                with contextlib.suppress(RuntimeError):  # still running: it ends by itself
                    await aclose()


class Held:
    """What tokens hold open on this node, the bot API's streams and rooms' WebSockets: each
    ends at once when its token stops working (an API token revoked, a sign-out, a sign-out
    everywhere, a password changed). Every sign-out reaches `Accounts.on_drop` on every node
    (this node's before it is answered; the others' through Redis, `cluster/revocations.py`);
    what the tokens it names hold open is looked at again, and ended where the token is gone."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self._open: dict[int, tuple[str, int, Callable[[], None]]] = {}
        self._ids = itertools.count()
        accounts.on_drop.append(self._dropped)

    @contextlib.contextmanager
    def holding(self, token: str, player_id: int, end: Callable[[], None]) -> Iterator[None]:
        """Keep what `token` (of `player_id`) holds open known while the block runs; `end` is
        called (once) if the token stops working meanwhile."""
        ref = next(self._ids)
        self._open[ref] = (token_hash(token), player_id, end)
        try:
            yield
        finally:
            self._open.pop(ref, None)

    async def _dropped(self, keys: list[str], player_id: int | None) -> None:
        named = set(keys)
        for ref, (key, pid, end) in list(self._open.items()):
            if (key in named or pid == player_id) and not await self.accounts.alive(key) \
                    and self._open.pop(ref, None) is not None:
                end()


def end_now(sub: Subscription, event: Event) -> None:
    """End a subscription's reader at once: it gets nothing more of its channel, not even what
    was queued, only `event`."""
    sub.close()
    while not sub.queue.empty():
        sub.queue.get_nowait()
    sub.queue.put_nowait(event)


def visitor_key(player: Player | None, address: str) -> str:
    """Who a limit counts: the player once identified, else the address."""
    return f"p{player.id}" if player is not None else f"a{address}"


def address_of(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client is not None else "unknown"


def token_of(request: HTTPConnection) -> str | None:
    """The token from a header, or (HTTP only) the cookie; never from the URL, which access logs
    keep. A WebSocket ignores the cookie: the page sends `identify` instead, so that each tab is
    its own player and a page of another site cannot act with the cookie."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    header = request.headers.get(TOKEN_HEADER)
    if header or isinstance(request, WebSocket):
        return header
    return request.cookies.get(COOKIE)


def check_rate(wait: float | None) -> None:
    """Refuse an HTTP request over a rate limit: 429 with Retry-After."""
    if wait is not None:
        raise RateLimited(wait, msg("error.rate.requests", seconds=max(1, round(wait))))
