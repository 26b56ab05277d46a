"""The hall's door: limits on what one visitor or one address may do, before the hall does it.

- `BodyLimit`: an ASGI middleware that refuses an HTTP body over the limit with 413 before it is
  read whole (from its Content-Length, or as soon as the bytes received pass the limit).
- `origin_allowed`: a browser's WebSocket must come from the hall's own page or an origin the
  operator allows (clients without an Origin header, which are not browsers, may connect).
- `RateLimits`: rate limits per visitor (token) and per address, counted by the hall's
  `Limiter` (the `limits` library: in memory; a cluster's nodes share one count in Redis,
  `limiter.SharedLimiter`).
- `ConnectionCounts`: open WebSockets per visitor and per address, capped (per node: see
  docs/cluster.md, "Which limits are cluster-wide").

A visitor is ``p<player id>`` once identified and ``a<address>`` before; an address is the
client's IP address as the ASGI server reports it (behind a proxy, from X-Forwarded-For when
uvicorn trusts the proxy).
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from limits import parse_many

from gamehall.core.messages import Message as Sentence
from gamehall.core.messages import msg
from gamehall.server.ops.limiter import Limiter, Rule

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
        said = msg("error.request.too_large", limit=self.max_bytes)
        body = json.dumps({"type": "error", "code": "too_large", "message": said.text,
                           **said.to_json()})
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
def per_window(rate: float, burst: int) -> str:
    """`burst` messages in any ``ceil(burst / rate)`` seconds: at most `burst` at once and on
    average no more than `rate` a second (in the `limits` notation)."""
    seconds = max(1, math.ceil(burst / rate)) if rate > 0 else 1
    return f"{max(1, burst)} per {seconds} seconds"


def rules(name: str, text: str, keys: tuple[str, ...], flag: str) -> tuple[Rule, ...]:
    """One rule per rate of `text` in the `limits` notation (``30/minute``,
    ``10 per second; 500/day``); ValueError naming `flag` for anything else."""
    try:
        items = parse_many(text)
    except ValueError:
        items = []
    if not items:
        raise ValueError(f"{flag} is a rate such as 30/minute or \"10/second;500/day\", not "
                         f"{text!r}")
    return tuple(Rule(f"{name}:{i}", str(item), keys) for i, item in enumerate(items))


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
    """Every repeatable thing a client does, counted per visitor and per address in the hall's
    `Limiter` (in a cluster, Redis: one count for all the nodes). ``allow_*`` count the try and
    say whether it may go on; ``*_wait`` say how many seconds to wait, or None (then it may go
    on). The flood strikes count one connection's refusals, so they are kept in this process's
    memory (`local`) even in a cluster: a connection lives on one node."""

    def __init__(self, limiter: Limiter, s: RateSettings, local: Limiter | None = None) -> None:
        self.limiter = limiter
        self.local = local or Limiter()
        per_address = per_window(s.rate * s.address_factor,
                                 max(1, round(s.burst * s.address_factor)))
        address = Rule("msg-address", per_address, ("address",))
        self.message = (Rule("msg", per_window(s.rate, s.burst), ("visitor",)), address)
        self.connect = (address,)
        self.session = rules("session", s.session_rate, ("address",), "--session-rate")
        self.room = (rules("room", s.room_rate, ("visitor",), "--room-rate")
                     + rules("room-address", s.room_address_rate, ("address",),
                             "--room-address-rate"))
        self.strikes = (Rule("strike", f"{max(1, s.flood_strikes)}/minute", ("connection",)),)

    async def allow_message(self, visitor: str, address: str) -> bool:
        """A room message (WebSocket or HTTP): within the visitor's and the address's rate?"""
        return await self.limiter.allow(self.message, {"visitor": visitor, "address": address})

    async def allow_connect(self, address: str) -> bool:
        """A new WebSocket counts as a message of its address."""
        return await self.limiter.allow(self.connect, {"address": address})

    async def strike(self, connection: str) -> bool:
        """Count a refused message against a connection; False once it has had too many within
        a minute (a steady flood: the connection is then closed)."""
        return await self.local.allow(self.strikes, {"connection": connection})

    async def _wait(self, found: tuple[Rule, ...], values: dict[str, str]) -> float | None:
        if await self.limiter.allow(found, values):
            return None
        return await self.limiter.blocked(found, values) or 1.0

    async def message_wait(self, visitor: str, address: str) -> float | None:
        return await self._wait(self.message, {"visitor": visitor, "address": address})

    async def session_wait(self, address: str) -> float | None:
        return await self._wait(self.session, {"address": address})

    async def room_wait(self, visitor: str, address: str) -> float | None:
        return await self._wait(self.room, {"visitor": visitor, "address": address})


# --- connections ------------------------------------------------------------------------------
class ConnectionCounts:
    """Open WebSockets per visitor and per address (this process's). They stay per node in a
    cluster: they bound what one visitor holds of a node (sockets, memory), and a count kept in
    Redis would outlive a node that died with its connections open."""

    def __init__(self, per_visitor: int, per_address: int) -> None:
        self.per_visitor, self.per_address = per_visitor, per_address
        self._visitors: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()

    def open(self, visitor: str, address: str) -> Sentence | None:
        """Count a new connection, or say why it may not open (nothing counted then)."""
        if self._addresses[address] >= self.per_address:
            return msg("error.connections.address", most=self.per_address)
        if self._visitors[visitor] >= self.per_visitor:
            return msg("error.connections.visitor", most=self.per_visitor)
        self._visitors[visitor] += 1
        self._addresses[address] += 1
        return None

    def move(self, old: str, new: str) -> Sentence | None:
        """A connection's visitor changes (it identified itself): count it for `new`."""
        if old == new:
            return None
        if self._visitors[new] >= self.per_visitor:
            return msg("error.connections.visitor", most=self.per_visitor)
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


# --- logs -------------------------------------------------------------------------------------
_TOKEN_IN_URL = re.compile(r"((?:^|[?&;])[^=&;#\s?/]*(?:token|auth)[^=&;#\s?/]*=)[^&;#\s]*",
                           re.IGNORECASE)
"""A URL's parameter named like a token (``token``, ``access_token``, ``Authorization`` …):
its value is what the logs must not show."""

SERVER_LOGS = ("uvicorn.access", "uvicorn.error")
"""The loggers that write URLs: uvicorn's access log (HTTP) and its server log, which names
each WebSocket's handshake (``"WebSocket /ws/rooms/…?token=…" [accepted]``)."""


class NoTokensInLog(logging.Filter):
    """Log lines never show a token, even one a client put in a URL (the hall never reads it
    there, but the server logs every URL, an HTTP request's and a WebSocket's)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = _TOKEN_IN_URL.sub(r"\1***", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_TOKEN_IN_URL.sub(r"\1***", a) if isinstance(a, str) else a
                                for a in record.args)
        return True


def keep_tokens_out_of_logs(names: tuple[str, ...] = SERVER_LOGS) -> None:
    """Blank tokens in URLs on every logger that writes URLs (`SERVER_LOGS`)."""
    for name in names:
        log = logging.getLogger(name)
        if not any(isinstance(f, NoTokensInLog) for f in log.filters):
            log.addFilter(NoTokensInLog())
