"""What a router is handed: the parts of the hall that `create_app` puts on ``app.state``, as
FastAPI dependencies, so that each feature's `APIRouter` is a plain module-level object (no
closure over the hall) and a handler names the parts it uses in its signature."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from gamehall.server.api.door import BotDoor, Door, Held
from gamehall.server.botapi.service import BotApi
from gamehall.server.hall.hall import Hall
from gamehall.server.lobby.feed import LobbyFeed
from gamehall.server.ops.settings import Settings
from gamehall.server.pairing.seeks import Seeks
from gamehall.server.pairing.service import Pools
from gamehall.server.reviews.service import Reviews
from gamehall.server.table.replay import ReplayCache
from gamehall.server.tournaments.service import Tournaments


def part(name: str) -> Any:
    """A dependency that hands over ``app.state.<name>``; a coroutine, as FastAPI runs a plain
    function in a thread, at a thread's cost."""

    async def handed(conn: HTTPConnection) -> Any:
        return getattr(conn.app.state, name)

    handed.__name__ = f"{name}_part"
    return Depends(handed)


HallPart = Annotated[Hall, part("hall")]
BotApiPart = Annotated[BotApi, part("botapi")]
DoorPart = Annotated[Door, part("door")]
BotDoorPart = Annotated[BotDoor, part("bot_door")]
HeldPart = Annotated[Held, part("held")]
SettingsPart = Annotated[Settings, part("settings")]
LobbyPart = Annotated[LobbyFeed, part("lobby")]
ReviewsPart = Annotated[Reviews, part("reviews")]
ReplaysPart = Annotated[ReplayCache, part("replays")]
PoolsPart = Annotated[Pools, part("pools")]
SeeksPart = Annotated[Seeks, part("seeks")]
TournamentsPart = Annotated[Tournaments, part("tournaments")]
