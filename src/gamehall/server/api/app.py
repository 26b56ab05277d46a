"""The ASGI application: it assembles the hall's parts and the routers, one per feature, each in
its own module of `routes/` (and the room's WebSocket, `websocket.py`), with the refusals'
answers, the middleware and the lifespan. Who may call each route is declared on the route and
checked in `access.py`; what a router needs of the hall it is handed by `parts.py`.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import AsyncIterator, Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Route

from gamehall import __version__
from gamehall.server.accounts.identity import SignInLimiter
from gamehall.server.accounts.preferences import PreferenceStore
from gamehall.server.api import access, errors, websocket
from gamehall.server.api.door import BotDoor, Door, Held
from gamehall.server.api.guards import BodyLimit, keep_tokens_out_of_logs
from gamehall.server.api.routes import (
    accounts,
    bot_accounts,
    bot_games,
    bot_streams,
    challenges,
    explorer,
    games,
    languages,
    lobby,
    ops,
    pairing,
    players,
    reviews,
    rooms,
    sessions,
    tournaments,
)
from gamehall.server.api.routes.ops import PROTOCOL_URL
from gamehall.server.botapi.service import BotApi
from gamehall.server.cluster.node import Cluster
from gamehall.server.cluster.revocations import Revocations
from gamehall.server.cluster.stream_slots import SharedStreamSlots
from gamehall.server.engines.pool import BotLimits, BotPool
from gamehall.server.hall.hall import Hall
from gamehall.server.lobby.feed import LobbyFeed
from gamehall.server.lobby.pairing_lines import follow_pairing
from gamehall.server.ops.limiter import Limiter, SharedLimiter
from gamehall.server.ops.settings import Settings
from gamehall.server.pairing.seeks import Seeks
from gamehall.server.pairing.service import Pools
from gamehall.server.pubsub.in_process import InProcessPubSub, PubSub
from gamehall.server.pubsub.redis_pubsub import RedisPubSub
from gamehall.server.reviews.service import Reviews
from gamehall.server.storage import SqlStorage, Storage
from gamehall.server.table import protocol as proto
from gamehall.server.table.clocks import wall_time
from gamehall.server.table.replay import ReplayCache
from gamehall.server.tournaments.service import Tournaments

WEB_DIR = Path(__file__).resolve().parents[2] / "web"

ROUTERS = (ops.router, languages.router, reviews.router, games.router, sessions.router,
           rooms.router, accounts.router, players.router, bot_accounts.router,
           challenges.router, bot_streams.router, bot_games.router, explorer.router,
           tournaments.router, pairing.router, websocket.router, lobby.router)
"""Every feature's router, in the order their routes are matched: the reviews' before the rooms'
(whose ``POST /api/rooms/{id}/{kind}`` would take ``review`` for an action), and all before the
page's static files (which would answer ``/i18n/…``)."""

__all__ = ["PROTOCOL_URL", "WEB_DIR", "create_app"]


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
    botapi = BotApi(hall)  # a feature: it subscribes to the hall's events
    review_service = Reviews(hall, settings)
    lobby_feed = LobbyFeed(hall)  # the lobby follows the hall's rooms and pushes their changes
    pools = Pools(hall, cluster.leases if cluster is not None else None)
    seeks = Seeks(hall, botapi)
    follow_pairing(lobby_feed, pools, seeks)  # the lobby shows the pools' counts and the seeks
    tournament_service = Tournaments(hall, settings)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        keep_tokens_out_of_logs()  # now: the server has set up its logging by now
        errors.quiet_client_faults()
        await store.open()
        if cluster is not None:
            await cluster.pubsub.open()
        await hall.start()
        await review_service.start()
        await pools.start()
        await lobby_feed.start()
        await tournament_service.start()
        yield
        await tournament_service.stop()
        await pools.stop()
        await review_service.stop()
        await lobby_feed.stop()
        await hall.stop()
        await botapi.close()
        if cluster is not None:
            await cluster.pubsub.close()
        await limiter.close()
        await store.close()

    app = FastAPI(title="gamehall", version=__version__, lifespan=lifespan,
                  description="The online hall: rooms, seats, chat commands, bots. "
                              "Play happens over the WebSocket at /ws/rooms/{id}; "
                              f"[the protocol]({PROTOCOL_URL}) describes every message "
                              f"(protocol version {proto.PROTOCOL_VERSION}).")
    # the parts the routers are handed (parts.py), and the explorer's and languages' own
    app.state.hall = hall
    app.state.settings = settings
    app.state.botapi = botapi
    app.state.reviews = review_service
    app.state.lobby = lobby_feed
    app.state.pools = pools
    app.state.seeks = seeks
    app.state.tournaments = tournament_service
    app.state.door = Door(settings, hall.limiter)
    app.state.bot_door = BotDoor(settings, hall.limiter, None if cluster is None
                                 else SharedStreamSlots(cluster.pubsub.redis))
    app.state.held = Held(hall.accounts)  # what a token holds open ends with it
    app.state.replays = ReplayCache()
    app.state.preferences = PreferenceStore(hall.storage)
    app.state.explorer = explorer.Explorer(store, hall.boards, settings.explorer_max_games,
                                           settings.explorer_max_depth)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    if cluster is not None:
        app.add_middleware(NodeHeader, node=cluster.node)
    errors.install(app)
    for router in ROUTERS:
        access.publish(router.routes)
        app.include_router(router)
    if (web_dir / "index.html").is_file():
        app.mount("/", Page(app.router.routes, directory=web_dir, html=True), name="web")
    return app


class Page(StaticFiles):
    """The browser page's files, mounted at ``/`` after every route. A path of the API
    (``/api/…``, ``/ws/…``) that reaches it is no file: 405 (with ``Allow``) where a route
    takes the path with another method, else 404, whatever the method (the mount matches every
    path, so the router never gets to answer 405 itself)."""

    def __init__(self, routes: list[BaseRoute], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.routes = routes

    async def get_response(self, path: str, scope: MutableMapping[str, Any]) -> Response:
        if path.split(os.sep, 1)[0] not in ("api", "ws"):
            return await super().get_response(path, scope)
        methods: set[str] = set()
        for route in _routes(self.routes):
            if route.matches(scope)[0] is Match.PARTIAL:
                methods |= route.methods or set()
        if methods:
            raise HTTPException(status_code=405, headers={"Allow": ", ".join(sorted(methods))})
        raise HTTPException(status_code=404)


def _routes(routes: list[BaseRoute]) -> Iterator[Route]:
    """Every HTTP route, those of included routers too (FastAPI keeps a router whole)."""
    for route in routes:
        if isinstance(route, Route):
            yield route
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _routes(inner.routes)


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
