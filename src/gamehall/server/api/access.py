"""Who may call a route and how often: declared on the route, checked here, in one place.

Every route declares exactly one access as a FastAPI dependency, ``Depends(anyone())``,
``Depends(person(ROOMS))``, ``Depends(scope("bot:play"))`` …, and its handler is given what
the check found (a `Visitor`, or an identified `Caller`): a handler never reads a token itself.
The limits a call counts against are named in the same declaration and counted right after the
caller is let in. `declared` finds a route's access, so that `create_app` writes it into the
OpenAPI document (``x-gamehall-access``, ``x-gamehall-limits``) and a test walks every route.

The kinds keep the answers the routes gave when each checked for itself (a refusal's code,
status and sentence; which tokens pass): changing who may call a route is a change of its one
declaration.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, cast

from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.requests import HTTPConnection
from starlette.routing import BaseRoute

from gamehall.core.messages import msg
from gamehall.server.accounts.identity import Player, token_hash
from gamehall.server.api.door import BotDoor, Door, address_of, check_rate, token_of, visitor_key
from gamehall.server.api.guards import RateLimits
from gamehall.server.botapi.service import BotApi
from gamehall.server.hall.hall import Hall
from gamehall.server.table import protocol as proto
from gamehall.server.table.commands import parse_command
from gamehall.server.table.errors import RoomError, Said
from gamehall.server.table.protocol import ProtocolError, Request
from gamehall.server.table.room import Room

ACCESS_KEY = "x-gamehall-access"
LIMITS_KEY = "x-gamehall-limits"
ACTIONS_KEY = "x-gamehall-actions"
"""Where each operation of the OpenAPI document names its access and its limits (and the room's
action route what each action needs, `ACTIONS`)."""


@dataclass(frozen=True)
class Visitor:
    """Whoever is asking, identified or not: the player their token names (None without one,
    or for a route that does not ask), the token sent, and their address. `scopes`: an API
    token's scopes where the token names a player (None for a browser's session token, and for
    no player): what `check_action` lets it do in a room."""

    player: Player | None
    token: str | None
    address: str
    scopes: tuple[str, ...] | None = None

    @property
    def key(self) -> str:
        """Who a limit counts: the player once identified, else the address."""
        return visitor_key(self.player, self.address)


@dataclass(frozen=True)
class Caller:
    """An identified caller: the player, the token that named them, and their address."""

    player: Player
    token: str
    address: str
    scopes: tuple[str, ...] | None = None
    """The API token's scopes; None for a browser's session token."""

    @property
    def key(self) -> str:
        return visitor_key(self.player, self.address)

    @property
    def token_key(self) -> str:
        """The token's hash: what the token's own limits and streams count."""
        return token_hash(self.token)


# --- limits -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Limit:
    """A rate a call counts against, per visitor and per address (`RateLimits`): a 429 with
    Retry-After past it."""

    name: str
    wait: Callable[[RateLimits, str, str], Awaitable[float | None]]
    """(rates, visitor, address) -> seconds to wait, or None: it may go on."""

    async def check(self, conn: HTTPConnection, visitor: str, address: str) -> None:
        check_rate(await self.wait(cast(Door, conn.app.state.door).rates, visitor, address))


SESSIONS = Limit("sessions", lambda rates, _visitor, address: rates.session_wait(address))
"""New sessions and sign-ins per address (``--session-rate``)."""
ROOMS = Limit("rooms", lambda rates, visitor, address: rates.room_wait(visitor, address))
"""Rooms made per visitor and per address (``--room-rate``, ``--room-address-rate``)."""
MESSAGES = Limit("messages", lambda rates, visitor, address: rates.message_wait(visitor, address))
"""Requests per visitor and per address, counted with the WebSocket's messages (``--rate``)."""
SIGN_IN_FIRST = "error.not_identified.account"
"""The 401's sentence of the account's routes (`person(unknown=SIGN_IN_FIRST)`)."""
TOKEN = "token"
"""The bot API's kinds count every call against its token's rate (``--token-rate``)."""


# --- kinds --------------------------------------------------------------------------------------
class Access:
    """One kind of access: a FastAPI dependency that lets a caller in (or refuses them) and
    counts its limits. `name` is what the OpenAPI document shows."""

    def __init__(self, name: str, limits: tuple[Limit, ...] = ()) -> None:
        self.name, self.limits = name, limits

    def describe(self) -> dict[str, Any]:
        return {ACCESS_KEY: self.name, LIMITS_KEY: [limit.name for limit in self.limits]}

    async def _limit(self, conn: HTTPConnection, visitor: str, address: str) -> None:
        for limit in self.limits:
            await limit.check(conn, visitor, address)

    def __repr__(self) -> str:
        return f"<access {self.name}>"


class Anyone(Access):
    """No one needs to say who they are; the route does not ask (its limits count the
    address)."""

    async def __call__(self, conn: HTTPConnection) -> Visitor:
        visitor = Visitor(None, None, address_of(conn))
        await self._limit(conn, visitor.key, visitor.address)
        return visitor


class Identified(Access):
    """Anyone, but a token the hall knows names its player: what the answer holds depends on
    who asks (a room as its seat sees it). What the player may then do in a room is
    `check_action`'s, by the token's kind (`Visitor.scopes`)."""

    async def __call__(self, conn: HTTPConnection) -> Visitor:
        token = token_of(conn)
        player = await _hall(conn).identify(token)
        scopes = await token_scopes(conn, token) if player is not None else None
        visitor = Visitor(player, token, address_of(conn), scopes)
        await self._limit(conn, visitor.key, visitor.address)
        return visitor


class Person(Access):
    """Any token the hall knows (a browser's session, or an API token whatever its scopes), or
    with `browser_only` a browser's session token only (an API token: 403 `missing_scope`);
    401 `not_identified` with the route's own sentence without a token the hall knows."""

    def __init__(self, name: str, limits: tuple[Limit, ...], unknown: str,
                 browser_only: bool = False) -> None:
        super().__init__(name, limits)
        self.unknown, self.browser_only = unknown, browser_only

    async def __call__(self, conn: HTTPConnection) -> Caller:
        token = token_of(conn)
        player = await _hall(conn).identify(token)
        if player is None or token is None:
            raise ProtocolError(proto.NOT_IDENTIFIED, msg(self.unknown))
        scopes = await token_scopes(conn, token)
        if self.browser_only and scopes is not None:
            raise RoomError("missing_scope", msg("error.token.browser_only"))
        caller = Caller(player, token, address_of(conn), scopes)
        await self._limit(conn, caller.key, caller.address)
        return caller


class Token(Access):
    """The bot API's kinds: a token the hall knows (401 `missing token`), whose kind is allowed
    here: a browser's session token if `sessions`, an API token with one of `scopes` (403
    `missing_scope` otherwise, with `refusal`'s sentence). Every call counts against the token's
    rate; with `bots_only` the player must be a bot account too (403 `not_bot`)."""

    def __init__(self, name: str, sessions: bool, scopes: frozenset[str],
                 refusal: Callable[[], Said], bots_only: bool = False) -> None:
        super().__init__(name)
        self.sessions, self.scopes, self.refusal = sessions, scopes, refusal
        self.bots_only = bots_only

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), LIMITS_KEY: [TOKEN]}

    async def __call__(self, conn: HTTPConnection) -> Caller:
        hall, token = _hall(conn), token_of(conn)
        player = await hall.identify(token)
        if player is None or token is None:
            raise ProtocolError(proto.NOT_IDENTIFIED, msg("error.token.missing"))
        if not _botapi(conn).bot_store.available:
            raise RoomError("storage_error", msg("error.bot_api.unavailable"))
        caller = Caller(player, token, address_of(conn))
        scopes = await _botapi(conn).token_scopes(caller.token_key)
        allowed = self.sessions if scopes is None else bool(self.scopes & set(scopes))
        if not allowed:
            raise RoomError("missing_scope", self.refusal())
        await cast(BotDoor, conn.app.state.bot_door).check(caller.token_key)
        if self.bots_only and not await _botapi(conn).is_bot_account(player.id):
            raise RoomError("not_bot", msg("error.bot_api.not_bot", nickname=player.nickname))
        return Caller(player, token, caller.address, scopes)


def _hall(conn: HTTPConnection) -> Hall:
    return cast(Hall, conn.app.state.hall)


def _botapi(conn: HTTPConnection) -> BotApi:
    return cast(BotApi, conn.app.state.botapi)


async def token_scopes(conn: HTTPConnection, token: str | None) -> tuple[str, ...] | None:
    """The scopes of an API token the hall knows; None for a browser's session token."""
    return await _botapi(conn).token_scopes(token_hash(token)) if token else None


def anyone(*limits: Limit) -> Anyone:
    """Anyone at all; the route does not ask who."""
    return Anyone("anyone", limits)


def identified(*limits: Limit) -> Identified:
    """Anyone; the player is named where the token names one (the answer depends on it)."""
    return Identified("identified", limits)


def person(*limits: Limit, unknown: str = "error.not_identified") -> Person:
    """A player: any token the hall knows, a browser's or an API token of any scope (what
    reads only the caller's own things). `unknown` is the sentence of the 401."""
    return Person("person", limits, unknown)


def browser(*limits: Limit, unknown: str = "error.not_identified") -> Person:
    """A player's browser: a session token only, never an API token, whatever its scopes (403
    `missing_scope`): the account's own management (its password, signing out) and what a
    person does in the lobby. `unknown` is the sentence of the 401."""
    return Person("session", limits, unknown, browser_only=True)


def session() -> Token:
    """A signed-in browser's session token only (the bot API's token management)."""
    return Token("session", True, frozenset(), lambda: msg("error.token.session_only"))


def scope(name: str, bots_only: bool = False) -> Token:
    """An API token with the scope `name` (no browser's session token); with `bots_only`, of a
    bot account."""
    def refusal() -> Said:
        if name == "bot:play":
            return msg("error.token.needs_bot_play")
        return msg("error.token.lacks", scope=name)

    return Token(f"scope:{name}" + ("+bot_account" if bots_only else ""), False,
                 frozenset({name}), refusal, bots_only)


def session_or(*names: str, bots_only: bool = False) -> Token:
    """A browser's session token, or an API token with one of the scopes `names` (a refusal
    names the first); with `bots_only`, of a bot account."""
    kinds = "|".join(["session", *(f"scope:{n}" for n in names)])
    return Token(kinds + ("+bot_account" if bots_only else ""), True, frozenset(names),
                 lambda: msg("error.token.lacks", scope=names[0]), bots_only)


# --- a room's actions ----------------------------------------------------------------------------
WATCH = "anyone"
"""An action anyone may send (a question, nothing changes): a `read` token may only watch."""
PLAY = "session|scope:bot:play+seated"
"""A move in a game of one's own: a browser's session, or a `bot:play` token whose player
holds a seat in the room (the bot API's own actions, over the room's routes)."""
MANAGE = "session"
"""What a person does at a table (sit down, start, options, a hall bot, hints…): a browser's
session only."""

ACTIONS: dict[str, str] = {
    **dict.fromkeys(("ping", "help", "who", "options", "clocks", "sync", "identify"), WATCH),
    **dict.fromkeys(("move", "resign", "berserk", "claim", "chat"), PLAY),
    **dict.fromkeys(("join", "leave", "spectate", "start", "bot", "option", "clock", "rated",
                     "rematch", "hint"), MANAGE),
}
"""What each request of a room (protocol.md: a WebSocket message, or ``POST
/api/rooms/{id}/{kind}``) needs of the token that sends it; ``rated`` without a value is a
question (`WATCH`). The room's own rules come after (a seat, a manager, the turn)."""


def action_access(req: Request) -> str:
    """What `req` needs (`ACTIONS`), its chat command read first: ``/join`` is a join."""
    if req.kind == "chat" and req.args["text"].lstrip().startswith("/"):
        req = parse_command(req.args["text"], req.ref)
    if req.kind == "rated" and "value" not in req.args:
        return WATCH
    return ACTIONS.get(req.kind, MANAGE)


def check_action(scopes: tuple[str, ...] | None, room: Room, player: Player | None,
                 req: Request) -> None:
    """The one check of a room's requests by the token's kind, for the WebSocket's messages and
    the room's HTTP actions alike: a browser's session token (`scopes` None) and no token at all
    pass (the hall asks who then); an API token does only what `ACTIONS` grants its scopes, else
    403 `missing_scope` (ProtocolError on a malformed command: the hall's own answer)."""
    if scopes is None or player is None:
        return
    need = action_access(req)
    if need == WATCH:
        return
    if need == PLAY and "bot:play" in scopes:
        if room.seat_of(player.id) is not None:
            return
        raise RoomError("missing_scope", msg("error.token.own_games"))
    if need == PLAY:
        raise RoomError("missing_scope", msg("error.token.lacks", scope="bot:play"))
    raise RoomError("missing_scope", msg("error.token.browser_only"))


# --- the declarations -------------------------------------------------------------------------
def declared(route: BaseRoute) -> list[Access]:
    """The accesses a route declares (its dependencies', at any depth): exactly one for every
    route of the API."""
    if not isinstance(route, APIRoute | APIWebSocketRoute):
        return []
    found: list[Access] = []
    stack = list(route.dependant.dependencies)
    while stack:
        dep = stack.pop()
        if isinstance(dep.call, Access):
            found.append(dep.call)
        stack.extend(dep.dependencies)
    return found


def api_routes(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route of `routes`, those of included routers too: FastAPI from 0.16x keeps an
    included router as one entry of ``app.routes`` (its routes are the router's own objects)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from api_routes(inner.routes)
        else:
            yield route


def publish(routes: Iterable[BaseRoute]) -> None:
    """Write each API route's access into its OpenAPI operation (before its router is
    included: FastAPI copies a route's settings then); a route that declares none, or several,
    is refused here, so that the app cannot start with it."""
    for route in api_routes(routes):
        if not isinstance(route, APIRoute | APIWebSocketRoute):
            continue
        found = declared(route)
        if len(found) != 1:
            raise RuntimeError(f"the route {route.path} declares {len(found)} accesses, not one "
                               "(gamehall.server.api.access)")
        if isinstance(route, APIRoute):
            route.openapi_extra = {**(route.openapi_extra or {}), **found[0].describe()}
