"""The reviews' HTTP routes: ask for a finished game's review, read its progress and result
(protocol.md, "Reviews"). They only translate: `Reviews` (reviews.py) decides and stores.

Installed before app.py's room actions, whose ``POST /api/rooms/{id}/{kind}`` would otherwise
take ``review`` for an action: a review is no action on the room (it changes nothing there),
and it is not offered over the room's WebSocket.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request
from pydantic import BaseModel, Field

from gamehall.core.messages import msg
from gamehall.server.api.door import Door, address_of, check_rate, token_of, visitor_key
from gamehall.server.hall.hall import Hall
from gamehall.server.reviews.service import Reviews
from gamehall.server.table import protocol as proto
from gamehall.server.table.protocol import ProtocolError


class ReviewIn(BaseModel):
    level: str | None = Field(default=None, max_length=32, examples=["medium", "400"],
                              description="easy, medium, hard (the bots' levels in this game) "
                                          "or simulations a position; absent: the hall's "
                                          "default")


def install(app: FastAPI, hall: Hall, reviews: Reviews, door: Door) -> None:
    """Add the routes (before app.py's room actions: see the module's docstring)."""

    @app.post("/api/rooms/{room_id}/review",
              summary="Ask for the review of a finished game (the bots' winning chances, "
                      "marks, accuracy); answers the job: waiting, running, done or failed")
    async def ask(room_id: str, request: Request,
                  body: Annotated[ReviewIn | None, Body()] = None) -> dict[str, Any]:
        player = await hall.identify(token_of(request))
        if player is None:
            raise ProtocolError(proto.NOT_IDENTIFIED, msg("error.not_identified"))
        address = address_of(request)
        check_rate(await door.rates.message_wait(visitor_key(player, address), address))
        room = await hall.get_room(room_id)
        return await reviews.request(room, player, body.level if body else None)

    @app.get("/api/rooms/{room_id}/review",
             summary="A game's review: its progress, and once done the review itself")
    async def read(room_id: str,
                   level: Annotated[str | None, Query(max_length=32)] = None) -> dict[str, Any]:
        return await reviews.status(await hall.get_room(room_id), level)


async def with_accuracy(reviews: Reviews, games: list[dict[str, Any]]) -> None:
    """Add each archive line's per-seat accuracy (`accuracy`: null until a review is done)."""
    found = await reviews.accuracies([g["room"] for g in games])
    for g in games:
        g["accuracy"] = found.get(g["room"])
