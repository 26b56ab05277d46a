"""The ASGI application: HTTP API (lobby, identity, records, room actions) and a WebSocket per room.

Both layers only translate: every request goes through `Hall.execute`, so a WebSocket message,
a typed chat command and an HTTP call with the same meaning behave identically.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from redis.exceptions import RedisError

from gamehall import __version__
from gamehall.core import GamehallError, load_game
from gamehall.core.game import Game
from gamehall.core.messages import msg
from gamehall.core.registry import game_class, list_games
from gamehall.server.accounts.identity import MAX_PASSWORD, RateLimited, SignInLimiter
from gamehall.server.api.door import COOKIE, Door, address_of, token_of, visitor_key
from gamehall.server.api.door import check_rate as _check_rate
from gamehall.server.api.guards import (
    BodyLimit,
    keep_tokens_out_of_access_log,
)
from gamehall.server.api.routes import bots as bot_routes
from gamehall.server.api.routes import explorer, howto
from gamehall.server.api.routes import languages as language_routes
from gamehall.server.api.routes import reviews as review_routes
from gamehall.server.api.websocket import mount_websocket
from gamehall.server.botapi.service import BotApi
from gamehall.server.cluster.node import Cluster
from gamehall.server.cluster.revocations import Revocations
from gamehall.server.engines.pool import BotLimits, BotPool, bot_levels, default_level
from gamehall.server.hall.hall import Hall, Player
from gamehall.server.ops.limiter import Limiter, SharedLimiter
from gamehall.server.ops.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from gamehall.server.ops.settings import Settings
from gamehall.server.pubsub.in_process import InProcessPubSub, PubSub
from gamehall.server.pubsub.redis_pubsub import RedisPubSub
from gamehall.server.reviews.service import STATUS as review_status
from gamehall.server.reviews.service import Reviews
from gamehall.server.storage import SqlStorage, Storage, UnknownPlayer
from gamehall.server.table import protocol as proto
from gamehall.server.table.clocks import wall_time
from gamehall.server.table.errors import RoomError, Said
from gamehall.server.table.protocol import ProtocolError
from gamehall.server.table.replay import ReplayCache, game_record, replay_step
from gamehall.server.table.sentences import reason_of

log = logging.getLogger("gamehall.server")

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
PROTOCOL_URL = "/api/protocol"
"""Where the hall serves its own protocol description (protocol.md, shipped in this package)."""

_STATUS = {"not_identified": 401, "unknown_room": 404, "not_seated": 403, "not_your_seat": 403,
           "bad_json": 400, "bad_message": 400, "unknown_type": 400, "unknown_command": 400,
           "bad_nickname": 400, "bad_game": 400, "bad_option": 400, "bad_bot": 400,
           "bad_clock": 400, "bad_picture": 404,
           "too_large": 413, "bad_step": 400, "storage_error": 503, "bad_login": 401,
           "weak_password": 400, "unknown_player": 404, "rate_limited": 429,
           "room_unavailable": 503, "unknown_game": 404, "hints_rated": 403,
           "hints_no_bot": 403, "hint_failed": 503, **bot_routes.STATUS, **explorer.STATUS,
           **language_routes.STATUS, **review_status}


class SessionIn(BaseModel):
    nickname: str = Field(max_length=40, examples=["ann"])


class RoomIn(BaseModel):
    game: str = Field(max_length=64, examples=["hula"])
    options: dict[str, str | int | bool] = Field(default_factory=dict, examples=[{"size": 6}])
    clock: str | None = Field(default=None, max_length=16, examples=["5+3", "0.5+0", "2d"],
                              description="time control: minutes+seconds per move, days per "
                                          "move, or null for an untimed game")
    rated: bool | None = Field(default=None, description="rated or casual; absent: rated when "
                               "every person seated at the start has an account")


class PasswordIn(BaseModel):
    password: str = Field(max_length=MAX_PASSWORD, examples=["correct horse battery"])
    old_password: str | None = Field(default=None, max_length=MAX_PASSWORD,
                                     description="the current password, to change it")


class LoginIn(BaseModel):
    nickname: str = Field(max_length=40, examples=["ann"])
    password: str = Field(max_length=MAX_PASSWORD, examples=["correct horse battery"])


def create_app(db_url: str, settings: Settings | None = None, storage: Storage | None = None,
               pubsub: PubSub | None = None, web_dir: Path = WEB_DIR,
               clock: Callable[[], float] = wall_time,
               sign_ins: SignInLimiter | None = None) -> FastAPI:
    """The hall as an ASGI app; storage is opened (and migrated) when the app starts. The browser
    page is served at ``/`` from `web_dir` when it holds an index.html. `clock` is the hall's
    time source (tests pass their own); the storage made here stamps its rows with it too (an
    injected `storage` keeps the clock it was made with)."""
    settings = settings or Settings()
    store = storage or SqlStorage(db_url, sqlite_sync=settings.sqlite_sync, clock=clock)
    cluster: Cluster | None = None
    limiter: Limiter = Limiter()
    if settings.redis_url:  # a node of a cluster: pub/sub, leases and rate counts in Redis
        node = settings.node or f"{socket.gethostname()}-{os.getpid()}"
        pubsub = RedisPubSub(settings.redis_url, Cluster.new_holder(node))
        cluster = Cluster(pubsub, store, node, settings.lease_ms)
        limiter = SharedLimiter(settings.redis_url)
    limits = BotLimits(settings.bot_max_seconds, settings.bot_max_simulations)
    bots = BotPool(settings.bot_workers, settings.plugins, limits)
    hall = Hall(store, pubsub or InProcessPubSub(), bots, settings, clock=clock,
                sign_ins=sign_ins, cluster=cluster, limiter=limiter)
    if cluster is not None:  # a sign-out reaches every node's memory of tokens at once
        Revocations(cluster.pubsub, hall.accounts)
    botapi = BotApi(hall)
    reviews = Reviews(hall, settings)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        keep_tokens_out_of_access_log()  # now: the server has set up its logging by now
        await store.open()
        if cluster is not None:
            await cluster.pubsub.open()
        await hall.start()
        await reviews.start()
        yield
        await reviews.stop()
        await hall.stop()
        if cluster is not None:
            await cluster.pubsub.close()
        await limiter.close()
        await store.close()

    app = FastAPI(title="gamehall", version=__version__, lifespan=lifespan,
                  description="The online hall: rooms, seats, chat commands, bots. "
                              "Play happens over the WebSocket at /ws/rooms/{id}; "
                              f"[the protocol]({PROTOCOL_URL}) describes every message "
                              f"(protocol version {proto.PROTOCOL_VERSION}).")
    door = Door(settings, hall.limiter)
    app.state.hall = hall
    app.state.botapi = botapi
    app.state.reviews = reviews
    app.state.door = door
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    if cluster is not None:
        app.add_middleware(NodeHeader, node=cluster.node)
    _protocol_doc(app)
    language_routes.install(app, hall, door)
    review_routes.install(app, hall, reviews, door)  # before the room actions it would hit
    _routes(app, hall, door)
    _account_routes(app, hall, door)
    _player_routes(app, hall, botapi, reviews)
    bot_routes.install(app, hall, settings, token_of)
    explorer.install(app, explorer.Explorer(store, hall.boards, settings.explorer_max_games,
                                            settings.explorer_max_depth), door, _check_rate)
    mount_websocket(app, hall, settings, door)
    if (web_dir / "index.html").is_file():
        app.mount("/", StaticFiles(directory=web_dir, html=True), name="web")
    return app


class NodeHeader:
    """Names the node that answered in every HTTP response of a cluster (X-Gamehall-Node), for
    operators and load tests behind the load balancer. Plain ASGI: it costs next to nothing."""

    def __init__(self, app: Any, node: str) -> None:
        self.app, self.header = app, (b"x-gamehall-node", node.encode())

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def named(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), self.header]
            await send(message)

        await self.app(scope, receive, named)


def _protocol_doc(app: FastAPI) -> None:
    """Serve protocol.md, the one description of the protocol, so that every installed hall
    documents itself (plain text: a browser shows it instead of downloading it)."""
    text = resources.files("gamehall.server").joinpath("protocol.md").read_text("utf-8")

    @app.get(PROTOCOL_URL, response_class=PlainTextResponse,
             summary="The protocol description: HTTP API, WebSocket messages, chat commands "
                     "(Markdown)")
    async def protocol() -> PlainTextResponse:
        return PlainTextResponse(text)


def _seat_keys(game: Game) -> dict[str, str]:
    """The catalogue key of every seat name the game may have (`seats`, `seats_for`, a match's
    seats), so that a client names each seat in its reader's language."""
    return {seat: game.seat_key(seat) for seat in game.every_seat_name()}


def _description(game: Game) -> dict[str, str]:
    """The game's one line for people ("" where it has none) and, beside a line, its key."""
    if not game.description:
        return {"description": ""}
    return {"description": game.description, "description_key": game.description_key()}


def _seats_for(game: Game) -> dict[str, dict[str, list[str]]]:
    """The seats at each value of an option that changes them (Hau La's `players`), so that a
    form picking the seat before the room exists (a challenge's) offers the table's own."""
    out: dict[str, dict[str, list[str]]] = {}
    for opt in type(game).OPTIONS:
        seats = {}
        for value in opt.choices or ():
            try:
                seats[str(value)] = list(load_game(game.name, **{opt.name: value}).seat_names)
            except GamehallError:
                continue
        if any(names != list(game.seat_names) for names in seats.values()):
            out[opt.name] = seats
    return out


def _error(code: str, said: Said) -> JSONResponse:
    """An HTTP refusal: the same body as a WebSocket ``error`` (code, English message, and the
    sentence's key and args), with the code's status."""
    return JSONResponse(proto.error(code, said), status_code=_STATUS.get(code, 409))


def _routes(app: FastAPI, hall: Hall, door: Door) -> None:
    replays = ReplayCache()

    @app.exception_handler(RoomError)
    async def room_error(_r: Request, exc: RoomError) -> JSONResponse:
        resp = _error(exc.code, exc.said)
        if isinstance(exc, RateLimited):
            resp.headers["Retry-After"] = str(max(1, round(exc.retry_after)))
        return resp

    @app.exception_handler(RedisError)
    async def redis_error(_r: Request, exc: RedisError) -> JSONResponse:
        log.warning("Redis failed during a request: %s", exc)
        return _error("room_unavailable", msg("error.room.redis_down"))

    @app.exception_handler(ProtocolError)
    async def protocol_error(_r: Request, exc: ProtocolError) -> JSONResponse:
        return _error(exc.code, exc.said)

    @app.exception_handler(RequestValidationError)
    async def invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(proto.BAD_MESSAGE, msg("error.request.invalid", where=where,
                                             reason=str(first.get("msg", "invalid request"))))

    async def who(request: Request, required: bool = True) -> Player | None:
        player = await hall.identify(token_of(request))
        if player is None and required:
            raise ProtocolError(proto.NOT_IDENTIFIED, msg("error.not_identified"))
        return player

    @app.get("/api/health", summary="Liveness and load: rooms, connections, storage commits; "
                                     "in a cluster the node, the rooms it owns, the live nodes")
    async def health() -> dict[str, Any]:
        return {**hall.health(), "reviews": app.state.reviews.health()}

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(hall.metrics.render(), media_type=METRICS_CONTENT_TYPE)

    @app.get("/api/games", summary="Every installed game: seats, options with defaults and the "
                                   "page's board module")
    async def games() -> list[dict[str, Any]]:
        out = []
        for name in list_games():
            try:
                game = load_game(name)
            except GamehallError:
                continue
            module = f"/js/boards/{game.web_board}.js" if game.web_board else None
            out.append({"name": name, "title": game.title, "seats": list(game.seat_names),
                        "seats_for": _seats_for(game), "seat_keys": _seat_keys(game),
                        "has_chance": game.has_chance, "board": module,
                        "options": hall.boards.describe(type(game)),
                        **_description(game)})
        return out

    @app.get("/api/bots", summary="The bot levels players may seat, and the one `/bot` seats "
                                  "when none is named")
    async def bots() -> dict[str, Any]:
        return {"levels": bot_levels(), "default": default_level()}

    @app.get("/api/games/{game}/rules", summary="How to play the game: its rules for players "
                                                "(Markdown) and the pictures of its rules page")
    def rules(game: str, lang: Annotated[str, Query(max_length=16)] = "en") -> dict[str, Any]:
        return howto.rules_page(game, lang)

    @app.get("/api/games/{game}/rules/{index}.svg", response_class=Response,
             summary="A picture of the game's rules page (SVG), drawn by the game from a position")
    def rules_picture(game: str, index: int) -> Response:
        return Response(howto.picture(game, index), media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=3600"})

    @app.get("/api/games/{name}/pictures", summary="The pictures a game's board module draws "
                                                   "(the same file its SVG drawing reads)")
    async def game_pictures(name: str) -> dict[str, Any]:
        pictures = None
        if name in list_games():
            try:
                pictures = load_game(name).web_pictures()
            except GamehallError:
                pictures = None
        if pictures is None:
            raise ProtocolError("unknown_game", msg("error.game.no_pictures", game=name[:40]))
        return pictures

    @app.post("/api/session", summary="Pick a nickname; returns a token (also set as a cookie)")
    async def new_session(body: SessionIn, request: Request) -> JSONResponse:
        _check_rate(await door.rates.session_wait(address_of(request)))
        player, token = await hall.register(body.nickname)
        resp = JSONResponse({"nickname": player.nickname, "token": token})
        resp.set_cookie(COOKIE, token, httponly=True, samesite="lax", max_age=365 * 86400)
        return resp

    @app.get("/api/session", summary="Who the token belongs to")
    async def session(request: Request) -> dict[str, Any]:
        player = await who(request)
        assert player is not None
        return {"nickname": player.nickname, "account": player.account}

    @app.get("/api/rooms", summary="Rooms, most recently active first")
    async def rooms(status: Annotated[str | None, Query(pattern="^(waiting|playing|finished)$")]
                    = None, limit: Annotated[int, Query(ge=1, le=500)] = 100,
                    ) -> list[dict[str, Any]]:
        return await hall.list_rooms(status, limit)

    @app.post("/api/rooms", status_code=201, summary="Create a room for a game with options")
    async def create(body: RoomIn, request: Request) -> dict[str, Any]:
        player = await who(request)
        assert player is not None
        address = address_of(request)
        _check_rate(await door.rates.room_wait(visitor_key(player, address), address))
        room = await hall.create_room(player, body.game, body.options, body.rated,
                                      body.clock)
        return room.summary(None, hall.clock())

    @app.get("/api/rooms/{room_id}", summary="The room as the caller sees it (a state message)")
    async def room(room_id: str, request: Request) -> Response:
        r = await hall.get_room(room_id)
        player = await who(request, required=False)
        return Response(hall.render(r, hall.seat_for(r, player)), media_type="application/json")

    @app.get("/api/rooms/{room_id}/record", summary="The game record (never the seed)")
    async def record(room_id: str) -> dict[str, Any]:
        return game_record(await hall.get_room(room_id))

    @app.get("/api/rooms/{room_id}/replay/{step}",
             summary="The spectator's view after `step` moves of the record (for replays)")
    async def replay(room_id: str, step: int) -> dict[str, Any]:
        return await replay_step(await hall.get_room(room_id), step, replays)

    @app.post("/api/rooms/{room_id}/{kind}",
              summary="Any room action: join, leave, spectate, start, bot, option, clock, "
                      "resign, claim, rematch, move, chat, who, help, hint (body: the "
                      "WebSocket message's fields)")
    async def act(room_id: str, kind: str, request: Request,
                  body: Annotated[dict[str, Any] | None, Body()] = None) -> dict[str, Any]:
        player = await who(request, required=False)
        address = address_of(request)
        _check_rate(await door.rates.message_wait(visitor_key(player, address), address))
        r = await hall.get_room(room_id)
        req = proto.parse_request({**(body or {}), "type": kind})
        replies = (await hall.execute(r, player, req)).replies
        r = await hall.get_room(room_id)
        return {"replies": replies, "state": json.loads(hall.render(r, hall.seat_for(r, player)))}


def _settoken_of(resp: JSONResponse, token: str) -> None:
    resp.set_cookie(COOKIE, token, httponly=True, samesite="lax", max_age=365 * 86400)


async def _caller(hall: Hall, request: Request) -> tuple[Player, str]:
    """The identified caller and their token; `not_identified` otherwise."""
    token = token_of(request)
    player = await hall.identify(token)
    if player is None or token is None:
        raise ProtocolError(proto.NOT_IDENTIFIED, msg("error.not_identified.account"))
    return player, token


def _account_routes(app: FastAPI, hall: Hall, door: Door) -> None:
    """Accounts: a password for one's nickname, signing in from any browser, signing out."""

    @app.post("/api/account/password",
              summary="Protect your nickname with a password, or change it (old_password)")
    async def set_password(body: PasswordIn, request: Request) -> dict[str, Any]:
        player, token = await _caller(hall, request)
        updated = await hall.set_password(player, token, body.password, body.old_password)
        return {"nickname": updated.nickname, "account": True}

    @app.post("/api/login", summary="Sign in with nickname and password: a new token (and "
                                    "cookie) for this browser")
    async def login(body: LoginIn, request: Request) -> JSONResponse:
        address = address_of(request)
        _check_rate(await door.rates.session_wait(address))  # a sign-in makes a session too
        player, token = await hall.accounts.login(body.nickname, body.password, address)
        resp = JSONResponse({"nickname": player.nickname, "token": token, "account": True})
        _settoken_of(resp, token)
        return resp

    @app.post("/api/logout", summary="Sign out this browser: its token stops working")
    async def logout(request: Request) -> JSONResponse:
        player, token = await _caller(hall, request)
        await hall.accounts.logout(player, token)
        resp = JSONResponse({"nickname": player.nickname, "signed_out": "this browser"})
        resp.delete_cookie(COOKIE)
        return resp

    @app.post("/api/logout/all", summary="Sign out everywhere: every token of the player stops")
    async def logout_all(request: Request) -> JSONResponse:
        player, _ = await _caller(hall, request)
        await hall.accounts.logout_all(player)
        resp = JSONResponse({"nickname": player.nickname, "signed_out": "everywhere"})
        resp.delete_cookie(COOKIE)
        return resp


def _player_routes(app: FastAPI, hall: Hall, botapi: BotApi, reviews: Reviews) -> None:
    """Profiles, leaderboards and the archive of finished games (read only, public)."""

    @app.get("/api/players/{nickname}",
             summary="A player's (or a bot level's) ratings per game and latest games")
    async def profile(nickname: str,
                      recent: Annotated[int, Query(ge=0, le=100)] = 20) -> dict[str, Any]:
        found = await hall.storage.profile(nickname[:40], recent) if len(nickname) <= 40 \
            else None
        if found is None:
            raise RoomError("unknown_player", msg("error.player.unknown", nickname=nickname[:40]))
        games = await botapi.bot_store.games_of_name(found["nickname"])
        found["bot_account"], found["bot_games"] = games is not None, games or []
        await review_routes.with_accuracy(reviews, found["recent"])
        return found

    @app.get("/api/leaderboard/{game}", summary="A game's rated players, best first")
    async def leaderboard(game: str, limit: Annotated[int, Query(ge=1, le=200)] = 50,
                          offset: Annotated[int, Query(ge=0, le=10**6)] = 0) -> dict[str, Any]:
        title = _game_title(game)
        players = await hall.storage.leaderboard(game, limit + 1, offset)
        bots = await botapi.bot_store.bot_names([p["nickname"] for p in players])
        for p in players:
            p["bot_account"] = p["nickname"] in bots
        more = len(players) > limit
        return {"game": game, "title": title, "players": players[:limit],
                "next_offset": offset + limit if more else None}

    @app.get("/api/archive", summary="Finished games, newest first, by game and/or player "
                                     "(paged with `before`)")
    async def archive(game: Annotated[str | None, Query(max_length=64)] = None,
                      player: Annotated[str | None, Query(max_length=40)] = None,
                      before: Annotated[str | None, Query(max_length=100)] = None,
                      limit: Annotated[int, Query(ge=1, le=100)] = 20) -> dict[str, Any]:
        titles = {game: _game_title(game)} if game is not None else {}
        try:
            games, cursor = await hall.storage.finished_games(game, player, before, limit)
        except UnknownPlayer:
            raise RoomError("unknown_player", msg("error.player.unknown",
                                                  nickname=str(player))) from None
        for g in games:
            if g["game"] not in titles:
                titles[g["game"]] = _game_title(g["game"], strict=False)
            g["title"] = titles[g["game"]]
        await review_routes.with_accuracy(reviews, games)
        return {"games": games, "next": cursor}


def _game_title(name: str, strict: bool = True) -> str:
    """A game's title; `bad_game` for one not installed (unless not `strict`: then the name)."""
    try:
        return game_class(name).title
    except GamehallError as exc:
        if strict:
            raise RoomError("bad_game", msg("error.game.unknown", reason=reason_of(exc))) \
                from None
        return name
