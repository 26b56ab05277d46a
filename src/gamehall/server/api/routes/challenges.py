"""The bot API's challenges (docs/bot-api.md): a person challenges a bot account (or a bot a
person) to a game; the challenged accepts (the room is made, both seated, started) or declines
with a reason; the challenger may cancel."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from pydantic import BaseModel, Field, StrictBool

from gamehall.core.messages import msg
from gamehall.server.api.access import Caller, session_or
from gamehall.server.api.parts import BotApiPart
from gamehall.server.botapi.service import DECLINE_REASONS, game_line, reason_said, reason_text
from gamehall.server.table.errors import RoomError

router = APIRouter()


class ChallengeIn(BaseModel):
    game: str = Field(max_length=64, examples=["hula"])
    options: dict[str, str | int | bool] = Field(default_factory=dict, examples=[{"size": 6}])
    clock: str | None = Field(default=None, max_length=16, examples=["5+3"])
    rated: StrictBool | None = None
    seat: int | None = Field(default=None, ge=0, le=16,
                             description="the challenger's seat; absent: drawn at random")


class DeclineIn(BaseModel):
    reason: str = Field(default="generic", max_length=16, examples=["later"])


Reader = Annotated[Caller, Depends(session_or("read", "bot:play"))]
Actor = Annotated[Caller, Depends(session_or("bot:play"))]


@router.get("/api/challenge", summary="Your pending challenges, made and received")
async def challenges(botapi: BotApiPart, who: Reader) -> dict[str, Any]:
    pending = await botapi.bot_store.pending(who.player.id)
    return {"in": [c.to_json() for c in pending if c.dest_id == who.player.id],
            "out": [c.to_json() for c in pending if c.challenger_id == who.player.id],
            "reasons": [_reason(r) for r in DECLINE_REASONS]}


@router.get("/api/challenge/{cid}", summary="One challenge you made or received, settled or "
                                            "not: its status, room, reason")
async def one_challenge(cid: str, botapi: BotApiPart, who: Reader) -> dict[str, Any]:
    found = await botapi.bot_store.challenge(cid)
    if found is None:
        raise RoomError("unknown_challenge", msg("error.challenge.unknown", id=cid[:16]))
    if who.player.id not in (found.challenger_id, found.dest_id):
        raise RoomError("not_your_challenge", msg("error.challenge.others"))
    return {**found.to_json(), **reason_text(found.reason)}


@router.post("/api/challenge/{nickname}", status_code=201,
             summary="Challenge a bot account (or, as a bot, a person) to a game")
async def challenge(nickname: str, body: ChallengeIn, botapi: BotApiPart,
                    who: Actor) -> dict[str, Any]:
    made = await botapi.make_challenge(who.player, nickname, body.game, body.options,
                                     body.clock, body.rated, body.seat)
    return made.to_json()


@router.post("/api/challenge/{cid}/accept",
             summary="Accept a challenge: the room is made with both seated and started")
async def accept(cid: str, botapi: BotApiPart, who: Actor) -> dict[str, Any]:
    room = await botapi.accept_challenge(who.player, cid)
    seat = room.seat_of(who.player.id)
    assert seat is not None
    return {"ok": True, "room": room.id, "game": game_line(room, seat)}


@router.post("/api/challenge/{cid}/decline",
             summary=f"Decline a challenge with a reason: {', '.join(DECLINE_REASONS)}")
async def decline(cid: str, botapi: BotApiPart, who: Actor,
                  body: Annotated[DeclineIn | None, Body()] = None) -> dict[str, Any]:
    reason = body.reason if body is not None else "generic"
    await botapi.decline_challenge(who.player, cid, reason)
    return {"ok": True, "reason": reason}


@router.post("/api/challenge/{cid}/cancel", summary="Cancel a challenge you made")
async def cancel(cid: str, botapi: BotApiPart, who: Actor) -> dict[str, Any]:
    await botapi.cancel_challenge(who.player, cid)
    return {"ok": True}


def _reason(reason: str) -> dict[str, Any]:
    """A decline reason as the challenge list offers it: its code, its English text, and the
    text's key and args (for a client's own language)."""
    said = reason_said(reason)
    assert said is not None
    return {"reason": reason, "text": said.text, **said.to_json()}
