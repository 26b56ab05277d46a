"""The hall's door: limits on what one visitor or one address may do, before the hall does it.

- `BodyLimit`: an ASGI middleware that refuses an HTTP body over the limit with 413 before it is
  read whole (from its Content-Length, or as soon as the bytes received pass the limit).
- `origin_allowed`: a browser's WebSocket must come from the hall's own page or an origin the
  operator allows (clients without an Origin header, which are not browsers, may connect).
- `RateLimits`: rate limits per visitor (token) and per address, with the `limits` library. Its
  storage is in memory; the same calls work on a shared storage (``async+redis://``) so that
  the nodes of a cluster share one count.
- `ConnectionCounts`: open WebSockets per visitor and per address, capped.

A visitor is ``p<player id>`` once identified and ``a<address>`` before; an address is the
client's IP address as the ASGI server reports it (behind a proxy, from X-Forwarded-For when
uvicorn trusts the proxy).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, RateLimitItemPerMinute, RateLimitItemPerSecond, parse_many
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# --- HTTP bodies ------------------------------------------------------------------------------
class BodyLimit:
    """Refuse HTTP request bodies over `max_bytes` with 413 ``too_large``, reading no further."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send)
            return
        seen = 0
        started = refused = False

        async def limited() -> Message:
            """The body as it comes, until it passes the limit: then the 413 goes out at once
            and the app is told the client left (it reads no more)."""
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    if not started:
                        await self._refuse(send)
                        refused = True
                    return {"type": "http.disconnect"}
            return message

        async def watch(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the app's answer to a body it never got whole: already answered
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, limited, watch)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"type": "error", "code": "too_large",
                           "message": f"request bodies are limited to {self.max_bytes} bytes"})
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body.encode()})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


# --- WebSocket origins ----------------------------------------------------------------------
def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """True for no Origin (not a browser), the hall's own origin (the Host the page came from),
    or one the operator allows (``scheme://host[:port]``, or ``*`` for any)."""
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if "*" in allowed or origin in allowed:
        return True
    if not host or "://" not in origin:
        return False
    scheme, _, netloc = origin.partition("://")
    default = {"http": ":80", "https": ":443"}.get(scheme, "")
    host = host.strip().lower()
    return netloc == host or (bool(default) and (netloc + default == host
                                                 or netloc == host + default))


# --- rate limits --------------------------------------------------------------------------------
def per_window(rate: float, burst: int) -> RateLimitItem:
    """`burst` messages in any ``ceil(burst / rate)`` seconds: at most `burst` at once and on
    average no more than `rate` a second."""
    seconds = max(1, math.ceil(burst / rate)) if rate > 0 else 1
    return RateLimitItemPerSecond(max(1, burst), seconds)


def parse_rates(text: str, flag: str) -> list[RateLimitItem]:
    """Rates in the `limits` notation (``30/minute``, ``10 per second; 500/day``)."""
    try:
        items = parse_many(text)
    except ValueError:
        items = []
    if not items:
        raise ValueError(f"{flag} is a rate such as 30/minute or \"10/second;500/day\", not "
                         f"{text!r}")
    return items


@dataclass(frozen=True)
class RateSettings:
    """What `RateLimits` needs of the hall's settings."""

    rate: float
    burst: int
    address_factor: float
    session_rate: str
    room_rate: str
    room_address_rate: str
    flood_strikes: int


class RateLimits:
    """Every repeatable thing a client does, counted per visitor and per address."""

    def __init__(self, s: RateSettings) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self.message = per_window(s.rate, s.burst)
        self.address_message = per_window(s.rate * s.address_factor,
                                          max(1, round(s.burst * s.address_factor)))
        self.session = parse_rates(s.session_rate, "--session-rate")
        self.room = parse_rates(s.room_rate, "--room-rate")
        self.address_room = parse_rates(s.room_address_rate, "--room-address-rate")
        self.strikes = RateLimitItemPerMinute(max(1, s.flood_strikes))

    async def _all(self, items: list[RateLimitItem], *key: str) -> bool:
        ok = True
        for item in items:
            ok = await self._limiter.hit(item, *key) and ok
        return ok

    async def allow_message(self, visitor: str, address: str) -> bool:
        """A room message (WebSocket or HTTP): within both limits?"""
        mine = await self._limiter.hit(self.message, "msg", visitor)
        theirs = await self._limiter.hit(self.address_message, "msg-addr", address)
        return mine and theirs

    async def allow_connect(self, address: str) -> bool:
        """A new WebSocket counts as a message of its address."""
        return await self._limiter.hit(self.address_message, "msg-addr", address)

    async def allow_session(self, address: str) -> bool:
        return await self._all(self.session, "session", address)

    async def allow_room(self, visitor: str, address: str) -> bool:
        mine = await self._all(self.room, "room", visitor)
        theirs = await self._all(self.address_room, "room-addr", address)
        return mine and theirs

    async def strike(self, connection: str) -> bool:
        """Count a refused message against a connection; False once it has had too many within
        a minute (a steady flood: the connection is then closed)."""
        return await self._limiter.hit(self.strikes, "strike", connection)


# --- connections ------------------------------------------------------------------------------
class ConnectionCounts:
    """Open WebSockets per visitor and per address (this process's)."""

    def __init__(self, per_visitor: int, per_address: int) -> None:
        self.per_visitor, self.per_address = per_visitor, per_address
        self._visitors: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()

    def open(self, visitor: str, address: str) -> str | None:
        """Count a new connection, or say why it may not open (nothing counted then)."""
        if self._addresses[address] >= self.per_address:
            return f"at most {self.per_address} connections from one address"
        if self._visitors[visitor] >= self.per_visitor:
            return f"at most {self.per_visitor} connections per visitor (close a tab)"
        self._visitors[visitor] += 1
        self._addresses[address] += 1
        return None

    def move(self, old: str, new: str) -> str | None:
        """A connection's visitor changes (it identified itself): count it for `new`."""
        if old == new:
            return None
        if self._visitors[new] >= self.per_visitor:
            return f"at most {self.per_visitor} connections per visitor (close a tab)"
        self._visitors[new] += 1
        self._drop(self._visitors, old)
        return None

    def close(self, visitor: str, address: str) -> None:
        self._drop(self._visitors, visitor)
        self._drop(self._addresses, address)

    @staticmethod
    def _drop(counts: Counter[str], key: str) -> None:
        counts[key] -= 1
        if counts[key] <= 0:
            del counts[key]
