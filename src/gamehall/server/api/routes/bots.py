"""The bot API's HTTP routes, shaped as lichess's Bot API: API tokens with scopes, bot accounts,
challenges, and two NDJSON streams (a player's events, a game's states).

The routes only translate, as app.py's do: a move, a resignation or a chat line is a request
to `Hall.execute`, the one path every client's change takes, and a game's state is the page's
own `state` message for the bot's seat (`StateRenderer.render`), so hidden information stays hidden
exactly as it does for people. docs/bot-api.md describes every route and event.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request, WebSocket
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from gamehall.core.messages import msg
from gamehall.core.registry import list_games
from gamehall.server.accounts.identity import Player, RateLimited, new_token, token_hash
from gamehall.server.api.guards import rules
from gamehall.server.botapi.service import (
    DECLINE_REASONS,
    BotApi,
    game_line,
    player_channel,
    reason_said,
    reason_text,
)
from gamehall.server.botapi.store import SCOPES
from gamehall.server.hall.hall import Hall
from gamehall.server.ops.limiter import Limiter
from gamehall.server.ops.settings import Settings
from gamehall.server.pubsub.in_process import Event, Subscription
from gamehall.server.table import protocol as proto
from gamehall.server.table.clocks import stamp
from gamehall.server.table.errors import RoomError
from gamehall.server.table.protocol import ProtocolError
from gamehall.server.table.room import FINISHED, PLAYING

KEEPALIVE = 7.0
"""Seconds between keep-alive newlines on a quiet stream (as lichess sends them)."""
NDJSON = "application/x-ndjson"
STREAM_RETRY = 10.0
"""The Retry-After of a stream refused past the cap: by then a stream closed is counted out."""

STATUS = {"missing_scope": 403, "not_bot": 403, "bot_account": 403, "not_your_challenge": 403,
          "unknown_challenge": 404, "too_many_streams": 429, "bad_reason": 400,
          "bad_scope": 400, "no_such_token": 404}
"""HTTP statuses of the bot API's own refusals (others are 409, as the hall's)."""


class TokenIn(BaseModel):
    description: str = Field(default="", max_length=100, examples=["my engine"])
    scopes: list[str] = Field(default_factory=lambda: ["bot:play"], max_length=len(SCOPES),
                              examples=[["bot:play"]])


class GamesIn(BaseModel):
    games: list[str] | None = Field(default=None, max_length=64,
                                    description="the games the bot plays; absent: all",
                                    examples=[["hula", "haugaz"]])


class ChallengeIn(BaseModel):
    game: str = Field(max_length=64, examples=["hula"])
    options: dict[str, str | int | bool] = Field(default_factory=dict, examples=[{"size": 6}])
    clock: str | None = Field(default=None, max_length=16, examples=["5+3"])
    rated: bool | None = None
    seat: int | None = Field(default=None, ge=0, le=16,
                             description="the challenger's seat; absent: drawn at random")


class DeclineIn(BaseModel):
    reason: str = Field(default="generic", max_length=16, examples=["later"])


class ChatIn(BaseModel):
    text: str = Field(min_length=1, max_length=500, examples=["good luck"])


@dataclass(frozen=True)
class Caller:
    player: Player
    key: str
    """The token's hash: what its limits count."""
    scopes: tuple[str, ...] | None
    """An API token's scopes; None for a browser's session token."""


class BotDoor:
    """The bot API's limits: requests per token (in the hall's limiter, so one count for a
    whole cluster) and streams per token (this node's)."""

    def __init__(self, settings: Settings, limiter: Limiter) -> None:
        self.limiter = limiter
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

    def check_streams(self, key: str) -> None:
        """Refuse a stream past the cap before its answer starts (a 429, not a cut stream)."""
        if self.streams[key] >= self.max_streams:
            refusal = RateLimited(STREAM_RETRY, msg("error.rate.streams",
                                                    count=self.max_streams))
            refusal.code = "too_many_streams"
            raise refusal

    @contextlib.contextmanager
    def stream(self, key: str) -> Any:
        """Count a stream while it runs: entered by the stream's body itself, so that a client
        gone before the body starts leaves nothing counted (nor subscribed)."""
        self.streams[key] += 1
        try:
            yield
        finally:
            self.streams[key] -= 1
            if self.streams[key] <= 0:
                del self.streams[key]


async def _kept_alive(sub: Subscription) -> AsyncIterator[Event | None]:
    """A stream's events, and None after each `KEEPALIVE` seconds without one (the stream then
    sends a newline, as lichess's do, so proxies keep it open); it ends at an overflow, or when
    the server is stopping (`BotDoor.end_streams`)."""
    while True:
        try:
            event = await asyncio.wait_for(sub.get(), KEEPALIVE)
        except TimeoutError:
            yield None
            continue
        if event.get("event") in ("overflow", "closing"):
            return
        yield event


def _line(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def install(app: FastAPI, hall: Hall, settings: Settings,
            token_of: Callable[[Request | WebSocket], str | None]) -> None:
    """Add the bot API's routes to the hall's app (its `BotDoor` is `app.state.bot_door`)."""
    botapi: BotApi = app.state.botapi
    door = BotDoor(settings, hall.limiter)
    app.state.bot_door = door

    async def caller(request: Request, need: str) -> Caller:
        """The identified caller, refused unless its token may do `need`: ``bot:play`` (an API
        token with that scope), ``act`` (that, or a browser's token), ``read`` (any token but an
        API token without `read` or `bot:play`), ``session`` (a browser's token only)."""
        token = token_of(request)
        player = await hall.identify(token)
        if player is None or token is None:
            raise ProtocolError(proto.NOT_IDENTIFIED, msg("error.token.missing"))
        if not botapi.bot_store.available:
            raise RoomError("storage_error", msg("error.bot_api.unavailable"))
        key = token_hash(token)
        scopes = await botapi.bot_store.token_scopes(key)
        have = set(scopes or ())
        if need == "bot:play" and "bot:play" not in have:
            raise RoomError("missing_scope", msg("error.token.needs_bot_play"))
        if need == "act" and scopes is not None and "bot:play" not in have:
            raise RoomError("missing_scope", msg("error.token.lacks", scope="bot:play"))
        if need == "read" and scopes is not None and not have & {"read", "bot:play"}:
            raise RoomError("missing_scope", msg("error.token.lacks", scope="read"))
        if need == "session" and scopes is not None:
            raise RoomError("missing_scope", msg("error.token.session_only"))
        await door.check(key)
        return Caller(player, key, scopes)

    async def bot(request: Request) -> Caller:
        who = await caller(request, "bot:play")
        if not await botapi.is_bot_account(who.player.id):
            raise RoomError("not_bot", msg("error.bot_api.not_bot", nickname=who.player.nickname))
        return who

    _token_routes(app, hall, settings, door, caller, bot)
    _account_routes(app, hall, settings, door, caller, bot)
    _challenge_routes(app, hall, settings, door, caller, bot)
    _stream_routes(app, hall, settings, door, caller, bot)
    _action_routes(app, hall, settings, door, caller, bot)


def _token_routes(app: FastAPI, hall: Hall, settings: Settings, door: BotDoor,
        caller: Callable[[Request, str], Awaitable[Caller]],
        bot: Callable[[Request], Awaitable[Caller]]) -> None:
    """The bot API's routes: API tokens."""
    botapi: BotApi = app.state.botapi
    @app.post("/api/account/tokens", status_code=201,
              summary="Create an API token with scopes (bot:play, read); shown once")
    async def create_token(body: TokenIn, request: Request) -> dict[str, Any]:
        who = await caller(request, "session")
        if not who.player.account:
            raise RoomError("no_password", msg("error.token.guest"))
        bad = [s for s in body.scopes if s not in SCOPES]
        if bad or not body.scopes:
            raise RoomError("bad_scope", msg("error.token.scopes", scopes=", ".join(SCOPES)))
        token = new_token()
        made = await botapi.bot_store.add_token(
            who.player.id, token_hash(token), body.description.strip(),
            sorted(set(body.scopes)), stamp(hall.clock()), settings.max_api_tokens)
        if made is None:
            raise RoomError("too_many_tokens", msg("error.token.too_many",
                                                   most=settings.max_api_tokens))
        return {**made.to_json(), "token": token}

    @app.get("/api/account/tokens", summary="Your API tokens (never the tokens themselves)")
    async def list_tokens(request: Request) -> dict[str, Any]:
        who = await caller(request, "session")
        return {"tokens": [t.to_json() for t in await botapi.bot_store.tokens(who.player.id)]}

    @app.delete("/api/account/tokens/{token_id}",
                summary="Revoke an API token: it stops working at once, on every node")
    async def revoke_token(token_id: str, request: Request) -> dict[str, Any]:
        who = await caller(request, "session")
        key = await botapi.bot_store.revoke_token(who.player.id, token_id[:16])
        if key is None:
            raise RoomError("no_such_token", msg("error.token.unknown"))
        await hall.accounts.forget_token(key)
        return {"id": token_id, "revoked": True}


def _account_routes(app: FastAPI, hall: Hall, settings: Settings, door: BotDoor,
        caller: Callable[[Request, str], Awaitable[Caller]],
        bot: Callable[[Request], Awaitable[Caller]]) -> None:
    """The bot API's routes: bot accounts."""
    botapi: BotApi = app.state.botapi
    @app.post("/api/bot/account/upgrade",
              summary="Make your account a bot account, for good (only before it has played)")
    async def upgrade(request: Request,
                      body: Annotated[GamesIn | None, Body()] = None) -> dict[str, Any]:
        who = await caller(request, "act")
        games = body.games if body is not None and body.games is not None else list_games()
        done = await botapi.upgrade_to_bot(who.player, games)
        return {"nickname": who.player.nickname, "bot_account": True, "games": done}

    @app.get("/api/bot/account", summary="Your bot account: the games it plays")
    async def bot_account(request: Request) -> dict[str, Any]:
        who = await caller(request, "read")
        games = await botapi.bot_store.bot_games(who.player.id)
        return {"nickname": who.player.nickname, "bot_account": games is not None,
                "games": games or []}

    @app.put("/api/bot/account", summary="Say which games your bot plays")
    async def set_games(body: GamesIn, request: Request) -> dict[str, Any]:
        who = await caller(request, "act")  # the bot, or its owner's browser (account page)
        if not await botapi.is_bot_account(who.player.id):
            raise RoomError("not_bot", msg("error.bot_api.not_bot", nickname=who.player.nickname))
        games = await botapi.set_bot_games(who.player, body.games or list_games())
        return {"nickname": who.player.nickname, "bot_account": True, "games": games}


def _challenge_routes(app: FastAPI, hall: Hall, settings: Settings, door: BotDoor,
        caller: Callable[[Request, str], Awaitable[Caller]],
        bot: Callable[[Request], Awaitable[Caller]]) -> None:
    """The bot API's routes: challenges."""
    botapi: BotApi = app.state.botapi
    @app.get("/api/challenge", summary="Your pending challenges, made and received")
    async def challenges(request: Request) -> dict[str, Any]:
        who = await caller(request, "read")
        pending = await botapi.bot_store.pending(who.player.id)
        return {"in": [c.to_json() for c in pending if c.dest_id == who.player.id],
                "out": [c.to_json() for c in pending if c.challenger_id == who.player.id],
                "reasons": [_reason(r) for r in DECLINE_REASONS]}

    @app.get("/api/challenge/{cid}", summary="One challenge you made or received, settled or "
                                             "not: its status, room, reason")
    async def one_challenge(cid: str, request: Request) -> dict[str, Any]:
        who = await caller(request, "read")
        found = await botapi.bot_store.challenge(cid)
        if found is None:
            raise RoomError("unknown_challenge", msg("error.challenge.unknown", id=cid[:16]))
        if who.player.id not in (found.challenger_id, found.dest_id):
            raise RoomError("not_your_challenge", msg("error.challenge.others"))
        return {**found.to_json(), **reason_text(found.reason)}

    @app.post("/api/challenge/{nickname}", status_code=201,
              summary="Challenge a bot account (or, as a bot, a person) to a game")
    async def challenge(nickname: str, body: ChallengeIn, request: Request) -> dict[str, Any]:
        who = await caller(request, "act")
        made = await botapi.make_challenge(who.player, nickname, body.game, body.options,
                                         body.clock, body.rated, body.seat)
        return made.to_json()

    @app.post("/api/challenge/{cid}/accept",
              summary="Accept a challenge: the room is made with both seated and started")
    async def accept(cid: str, request: Request) -> dict[str, Any]:
        who = await caller(request, "act")
        room = await botapi.accept_challenge(who.player, cid)
        seat = room.seat_of(who.player.id)
        assert seat is not None
        return {"ok": True, "room": room.id, "game": game_line(room, seat)}

    @app.post("/api/challenge/{cid}/decline",
              summary=f"Decline a challenge with a reason: {', '.join(DECLINE_REASONS)}")
    async def decline(cid: str, request: Request,
                      body: Annotated[DeclineIn | None, Body()] = None) -> dict[str, Any]:
        who = await caller(request, "act")
        reason = body.reason if body is not None else "generic"
        await botapi.decline_challenge(who.player, cid, reason)
        return {"ok": True, "reason": reason}

    @app.post("/api/challenge/{cid}/cancel", summary="Cancel a challenge you made")
    async def cancel(cid: str, request: Request) -> dict[str, Any]:
        who = await caller(request, "act")
        await botapi.cancel_challenge(who.player, cid)
        return {"ok": True}


def _stream_routes(app: FastAPI, hall: Hall, settings: Settings, door: BotDoor,
        caller: Callable[[Request, str], Awaitable[Caller]],
        bot: Callable[[Request], Awaitable[Caller]]) -> None:
    """The bot API's routes: streams."""
    botapi: BotApi = app.state.botapi
    @app.get("/api/stream/event", response_class=StreamingResponse,
             summary="NDJSON: gameStart, gameFinish, challenge, challengeCanceled, "
                     "challengeDeclined, challengeAccepted (open games and pending challenges "
                     "first)")
    async def stream_events(request: Request) -> StreamingResponse:
        who = await caller(request, "read")
        door.check_streams(who.key)
        channel = player_channel(who.player.id)

        async def lines() -> AsyncIterator[bytes]:
            with door.stream(who.key):
                sub = hall.pubsub.subscribe(channel)
                try:
                    await hall.pubsub.watch(channel)
                    yield b"\n"  # a first keep-alive: from here on no event is missed
                    with door.tracked(sub):
                        async for line in event_lines(sub):
                            yield line
                finally:
                    sub.close()
                    hall.pubsub.unwatch(channel)

        async def event_lines(sub: Subscription) -> AsyncIterator[bytes]:
            for room_id in await botapi.bot_store.open_rooms(who.player.id):
                with contextlib.suppress(RoomError):
                    room = await hall.get_room(room_id)
                    seat = room.seat_of(who.player.id)
                    if room.status == PLAYING and seat is not None:
                        yield _line({"type": "gameStart", "game": game_line(room, seat)})
            for c in await botapi.bot_store.pending(who.player.id):
                yield _line({"type": "challenge", "challenge": c.to_json()})
            async for event in _kept_alive(sub):
                if event is None:
                    yield b"\n"
                elif event.get("event") == "player":
                    yield _line(event["message"])

        return StreamingResponse(lines(), media_type=NDJSON)

    @app.get("/api/bot/game/stream/{room_id}", response_class=StreamingResponse,
             summary="NDJSON: gameFull, then gameState after each change, chatLine, "
                     "opponentGone; ends with the game")
    async def stream_game(room_id: str, request: Request) -> StreamingResponse:
        who = await caller(request, "read")
        room = await hall.get_room(room_id)
        if room.seat_of(who.player.id) is None:
            raise RoomError("not_seated", msg("error.bot_api.not_in_room"))
        door.check_streams(who.key)
        player = who.player

        async def lines() -> AsyncIterator[bytes]:
            with door.stream(who.key):
                room = await hall.attach(room_id)
                sub = hall.pubsub.subscribe(room.id)
                try:
                    await hall.connected(room, player)
                    with door.tracked(sub):
                        async for line in game_lines(sub):
                            yield line
                finally:
                    sub.close()
                    with contextlib.suppress(RoomError):
                        await hall.disconnected(await hall.get_room(room_id), player)
                    hall.detach(room_id)

        async def game_lines(sub: Subscription) -> AsyncIterator[bytes]:
            gone: bool = False
            live = await hall.get_room(room_id)
            seat = live.seat_of(player.id)
            state = json.loads(hall.render(live, seat, 0))
            sent, last = live.version, (id(live), live.rev)
            full = {"type": "gameFull", "id": live.id, "game": live.game_name,
                    "title": live.game.title, "options": live.game.shown_options(),
                    "seat": seat, "seats": state["seats"], "clock": state["clock"],
                    "rated": state["rated"], "chat": await hall.chat_history(live.id),
                    "state": {**state, "type": "gameState"}}
            yield _line(full)
            if live.status == FINISHED:
                return
            async for event in _kept_alive(sub):
                if event is None:
                    yield b"\n"
                    continue
                kind = event.get("event")
                if kind == "message":
                    message = event["message"]
                    if message.get("type") == "chat":
                        yield _line({"type": "chatLine", "room": "player",
                                     "username": message.get("from"),
                                     "text": message.get("text")})
                    elif message.get("type") == "info":  # the hall's notice, with key/args
                        yield _line({"type": "chatLine", "room": "player", "username": "server",
                                     **{k: message[k] for k in ("text", "key", "args")
                                        if k in message}})
                    continue
                if kind not in ("state", "sync"):
                    continue
                live = await hall.get_room(room_id)
                if (id(live), live.rev) == last:
                    continue
                seat = live.seat_of(player.id)
                moves_from = 0 if sent > live.version else sent
                state = json.loads(hall.render(live, seat, moves_from))
                sent, last = live.version, (id(live), live.rev)
                yield _line({**state, "type": "gameState"})
                away = state.get("absent")
                now_gone = away is not None and away.get("seat") != seat
                if now_gone or gone:
                    gone = now_gone
                    yield _line({"type": "opponentGone", "gone": now_gone,
                                 **({"claimWinInSeconds": -(-away["claim_in_ms"] // 1000)}
                                    if now_gone and away is not None else {})})
                if live.status == FINISHED:
                    return

        return StreamingResponse(lines(), media_type=NDJSON)


def _action_routes(app: FastAPI, hall: Hall, settings: Settings, door: BotDoor,
        caller: Callable[[Request, str], Awaitable[Caller]],
        bot: Callable[[Request], Awaitable[Caller]]) -> None:
    """The bot API's routes: a bot's actions."""
    async def act(request: Request, room_id: str, message: dict[str, Any]) -> dict[str, Any]:
        who = await bot(request)
        room = await hall.get_room(room_id)
        if room.seat_of(who.player.id) is None:
            raise RoomError("not_seated", msg("error.bot_api.not_in_room"))
        done = await hall.execute(room, who.player, proto.parse_request(message))
        return {"ok": True, "replies": done.replies}

    @app.post("/api/bot/game/{room_id}/move/{move}",
              summary="Play a move (the game's notation, URL-encoded) for your seat")
    async def move(room_id: str, move: str, request: Request,
                   version: Annotated[int | None, Query(ge=0, le=10**7)] = None
                   ) -> dict[str, Any]:
        if version is None:
            version = (await hall.get_room(room_id)).version
        return await act(request, room_id, {"type": "move", "move": move[:200],
                                            "version": version})

    @app.post("/api/bot/game/{room_id}/resign", summary="Resign the game")
    async def resign(room_id: str, request: Request) -> dict[str, Any]:
        return await act(request, room_id, {"type": "resign"})

    @app.post("/api/bot/game/{room_id}/chat", summary="Say something in the game's chat")
    async def chat(room_id: str, body: ChatIn, request: Request) -> dict[str, Any]:
        return await act(request, room_id, {"type": "chat", "text": body.text})


def _reason(reason: str) -> dict[str, Any]:
    """A decline reason as the challenge list offers it: its code, its English text, and the
    text's key and args (for a client's own language)."""
    said = reason_said(reason)
    assert said is not None
    return {"reason": reason, "text": said.text, **said.to_json()}
