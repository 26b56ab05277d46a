"""The hall's door: who is asking and from where (the token of a request, the visitor a limit
counts, the address), and the limits every client passes before the hall acts."""

from __future__ import annotations

from fastapi import Request, WebSocket

from gamehall.core.messages import msg
from gamehall.server.accounts.identity import RateLimited
from gamehall.server.api.guards import (
    ConnectionCounts,
    RateLimits,
    RateSettings,
)
from gamehall.server.hall.hall import Player
from gamehall.server.ops.limiter import Limiter
from gamehall.server.ops.settings import Settings

COOKIE = "gamehall_token"
TOKEN_HEADER = "x-gamehall-token"


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
        self.origins = frozenset(o.strip().lower().rstrip("/") for o in s.allow_origins)


def visitor_key(player: Player | None, address: str) -> str:
    """Who a limit counts: the player once identified, else the address."""
    return f"p{player.id}" if player is not None else f"a{address}"


def address_of(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client is not None else "unknown"


def token_of(request: Request | WebSocket) -> str | None:
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
