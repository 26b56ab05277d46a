"""The lobby and its rooms over HTTP: the rooms there are, a new room, a room as the caller sees
it, its record and replay, and any room action (the WebSocket's requests, as POSTs).

They only translate: every action goes through `Hall.execute`, so a WebSocket message, a typed
chat command and an HTTP call with the same meaning behave identically.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query
from fastapi.responses import Response
from pydantic import BaseModel, Field, StrictBool

from gamehall.server.api.access import (
    ACTIONS,
    ACTIONS_KEY,
    MESSAGES,
    ROOMS,
    Caller,
    Visitor,
    anyone,
    browser,
    check_action,
    identified,
)
from gamehall.server.api.parts import HallPart, ReplaysPart
from gamehall.server.table import protocol as proto
from gamehall.server.table.replay import game_record, replay_step

router = APIRouter()


class RoomIn(BaseModel):
    game: str = Field(max_length=64, examples=["hula"])
    options: dict[str, str | int | bool] = Field(default_factory=dict, examples=[{"size": 6}])
    clock: str | None = Field(default=None, max_length=16, examples=["5+3", "0.5+0", "2d"],
                              description="time control: minutes+seconds per move, days per "
                                          "move, or null for an untimed game")
    rated: StrictBool | None = Field(default=None, description="rated or casual; absent: rated "
                                     "when every person seated at the start has an account")


@router.get("/api/rooms", dependencies=[Depends(anyone())],
            summary="Rooms, most recently active first")
async def rooms(hall: HallPart,
                status: Annotated[str | None, Query(pattern="^(waiting|playing|finished)$")]
                = None, limit: Annotated[int, Query(ge=1, le=500)] = 100,
                ) -> list[dict[str, Any]]:
    return await hall.list_rooms(status, limit)


@router.post("/api/rooms", status_code=201, summary="Create a room for a game with options")
async def create(body: RoomIn, hall: HallPart,
                 who: Annotated[Caller, Depends(browser(ROOMS))]) -> dict[str, Any]:
    room = await hall.create_room(who.player, body.game, body.options, body.rated, body.clock)
    return room.summary(None, hall.clock())


@router.get("/api/rooms/{room_id}", summary="The room as the caller sees it (a state message)")
async def room(room_id: str, hall: HallPart,
               who: Annotated[Visitor, Depends(identified())]) -> Response:
    r = await hall.get_room(room_id)
    return Response(hall.render(r, hall.seat_for(r, who.player)),
                    media_type="application/json")


@router.get("/api/rooms/{room_id}/record", dependencies=[Depends(anyone())],
            summary="The game record (never the seed)")
async def record(room_id: str, hall: HallPart) -> dict[str, Any]:
    return game_record(await hall.get_room(room_id))


@router.get("/api/rooms/{room_id}/replay/{step}", dependencies=[Depends(anyone())],
            summary="The spectator's view after `step` moves of the record (for replays)")
async def replay(room_id: str, step: int, hall: HallPart,
                 replays: ReplaysPart) -> dict[str, Any]:
    return await replay_step(await hall.get_room(room_id), step, replays)


@router.post("/api/rooms/{room_id}/{kind}",
             summary="Any room action: join, leave, spectate, start, bot, option, clock, "
                     "resign, berserk (an arena's game), claim, rematch, move, chat, who, "
                     "help, hint (body: the "
                     "WebSocket message's fields); what each needs of the token: "
                     "x-gamehall-actions", openapi_extra={ACTIONS_KEY: ACTIONS})
async def act(room_id: str, kind: str, hall: HallPart,
              who: Annotated[Visitor, Depends(identified(MESSAGES))],
              body: Annotated[dict[str, Any] | None, Body()] = None) -> dict[str, Any]:
    r = await hall.get_room(room_id)
    req = proto.parse_request({**(body or {}), "type": kind})
    check_action(who.scopes, r, who.player, req)
    replies = (await hall.execute(r, who.player, req)).replies
    r = await hall.get_room(room_id)
    return {"replies": replies,
            "state": json.loads(hall.render(r, hall.seat_for(r, who.player)))}
