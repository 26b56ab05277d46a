"""The bot API's actions in a game (docs/bot-api.md): a move, a resignation, a chat line. Each is
a request to `Hall.execute`, the one path every client's change takes."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field

from gamehall.core.messages import msg
from gamehall.server.api.access import Caller, scope
from gamehall.server.api.parts import HallPart
from gamehall.server.hall.hall import Hall
from gamehall.server.table import protocol as proto
from gamehall.server.table.errors import RoomError

router = APIRouter()
Bot = Annotated[Caller, Depends(scope("bot:play", bots_only=True))]


class ChatIn(BaseModel):
    text: str = Field(min_length=1, max_length=500, examples=["good luck"])


async def _act(hall: Hall, who: Caller, room_id: str, message: dict[str, Any]) -> dict[str, Any]:
    """The bot's request in its room; `not_seated` where it holds no seat there."""
    room = await hall.get_room(room_id)
    if room.seat_of(who.player.id) is None:
        raise RoomError("not_seated", msg("error.bot_api.not_in_room"))
    done = await hall.execute(room, who.player, proto.parse_request(message))
    return {"ok": True, "replies": done.replies}


@router.post("/api/bot/game/{room_id}/move/{move}",
             summary="Play a move (the game's notation, URL-encoded) for your seat")
async def move(room_id: str, move: str, hall: HallPart, who: Bot,
               version: Annotated[int | None, Query(ge=0, le=10**7)] = None
               ) -> dict[str, Any]:
    if version is None:
        version = (await hall.get_room(room_id)).version
    return await _act(hall, who, room_id, {"type": "move", "move": move[:200],
                                           "version": version})


@router.post("/api/bot/game/{room_id}/resign", summary="Resign the game")
async def resign(room_id: str, hall: HallPart, who: Bot) -> dict[str, Any]:
    return await _act(hall, who, room_id, {"type": "resign"})


@router.post("/api/bot/game/{room_id}/chat", summary="Say something in the game's chat")
async def chat(room_id: str, body: ChatIn, hall: HallPart, who: Bot) -> dict[str, Any]:
    return await _act(hall, who, room_id, {"type": "chat", "text": body.text})
