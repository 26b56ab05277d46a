"""The reviews' HTTP routes: ask for a finished game's review, read its progress and result
(protocol.md, "Reviews"). They only translate: `Reviews` (reviews.py) decides and stores.

Included before the rooms' router, whose ``POST /api/rooms/{id}/{kind}`` would otherwise
take ``review`` for an action: a review is no action on the room (it changes nothing there),
and it is not offered over the room's WebSocket.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query
from pydantic import BaseModel, Field

from gamehall.server.api.access import MESSAGES, Caller, anyone, browser
from gamehall.server.api.parts import HallPart, ReviewsPart
from gamehall.server.reviews.service import Reviews


class ReviewIn(BaseModel):
    level: str | None = Field(default=None, max_length=32, examples=["medium", "400"],
                              description="easy, medium, hard (the bots' levels in this game) "
                                          "or simulations a position; absent: the hall's "
                                          "default")


router = APIRouter()
"""Included before the rooms' router: see the module's docstring."""


@router.post("/api/rooms/{room_id}/review",
             summary="Ask for the review of a finished game (the bots' winning chances, "
                     "marks, accuracy); answers the job: waiting, running, done or failed")
async def ask(room_id: str, hall: HallPart, reviews: ReviewsPart,
              who: Annotated[Caller, Depends(browser(MESSAGES))],
              body: Annotated[ReviewIn | None, Body()] = None) -> dict[str, Any]:
    room = await hall.get_room(room_id)
    return await reviews.request(room, who.player, body.level if body else None)


@router.get("/api/rooms/{room_id}/review", dependencies=[Depends(anyone())],
            summary="A game's review: its progress, and once done the review itself")
async def read(room_id: str, hall: HallPart, reviews: ReviewsPart,
               level: Annotated[str | None, Query(max_length=32)] = None) -> dict[str, Any]:
    return await reviews.status(await hall.get_room(room_id), level)


async def with_accuracy(reviews: Reviews, games: list[dict[str, Any]]) -> None:
    """Add each archive line's per-seat accuracy (`accuracy`: null until a review is done)."""
    found = await reviews.accuracies([g["room"] for g in games])
    for g in games:
        g["accuracy"] = found.get(g["room"])
