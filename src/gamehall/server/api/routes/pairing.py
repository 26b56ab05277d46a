"""The pairing's HTTP routes (docs/pairing.md, protocol.md "Pairing"): quick-pairing pools
and open challenges (seeks). They only translate: `Pools` (pairing/service.py) and `Seeks`
(pairing/seeks.py) decide and store.

Pools take a player's session token (a person, or a script with one); seeks a session token
or a bot account's ``bot:play`` token, as the bot API's challenges do.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query
from pydantic import BaseModel, Field, StrictBool

from gamehall.server.api.access import Caller, anyone, browser, person, session_or
from gamehall.server.api.parts import PoolsPart, SeeksPart


class JoinIn(BaseModel):
    rating_range: list[int] | None = Field(
        default=None, min_length=2, max_length=2, examples=[[1300, 1700]],
        description="the ratings (in the pool's game) one accepts to play; absent: any")
    bot_after_s: int | None = Field(
        default=None, ge=5, le=86400, examples=[60],
        description="after waiting this long, play a house bot of one's level")


class SeekIn(BaseModel):
    game: str = Field(max_length=64, examples=["hula"])
    options: dict[str, str | int | bool] = Field(default_factory=dict, examples=[{"size": 6}])
    clock: str | None = Field(default=None, max_length=16, examples=["10+5"])
    seats: int | None = Field(default=None, ge=2, le=4,
                              description="players at the table (Hau La: 2, 3 or 4)")
    rated: StrictBool | None = None
    rating_range: list[int] | None = Field(default=None, min_length=2, max_length=2,
                                             examples=[[1300, 1700]])
    repeat: int | None = Field(default=None, ge=0, le=20,
                               description="open again after each game, this many times")


router = APIRouter()
Seeker = Annotated[Caller, Depends(session_or("bot:play"))]


@router.get("/api/pools", dependencies=[Depends(anyone())],
            summary="The quick-pairing pools and how many wait in each")
async def pools(pools: PoolsPart) -> dict[str, Any]:
    return {"pools": await pools.pools()}


@router.post("/api/pools/{pool}/join", status_code=202,
             summary="Join a pool: paired in its next wave (the entry's id to follow it)",
             description="Poll the entry (`GET /api/pools/entries/{id}`) or hold a lobby "
                         "socket (identified) or a room's WebSocket while waiting: an entry "
                         "whose player did none of these for `--pairing-away-seconds` (60 s) "
                         "is cancelled before a wave pairs it.")
async def join(pool: str, pools: PoolsPart, who: Annotated[Caller, Depends(browser())],
               body: Annotated[JoinIn | None, Body()] = None) -> dict[str, Any]:
    entry = await pools.join(who.player, who.address, pool,
                             body.rating_range if body else None,
                             body.bot_after_s if body else None)
    return {"id": entry.id, **entry.to_json()}


@router.get("/api/pools/entries/{entry_id}",
            summary="Your pool entry: waiting, paired (with its room) or cancelled")
async def entry(entry_id: str, pools: PoolsPart,
                who: Annotated[Caller, Depends(person())]) -> dict[str, Any]:
    return (await pools.entry(who.player, entry_id)).to_json()


@router.delete("/api/pools/entries/{entry_id}",
               summary="Leave the pool (an entry already paired stays paired)")
async def leave(entry_id: str, pools: PoolsPart,
                who: Annotated[Caller, Depends(browser())]) -> dict[str, Any]:
    return (await pools.leave(who.player, entry_id)).to_json()


@router.post("/api/seeks", status_code=201,
             summary="Post an open challenge anyone (in a rating range) may accept")
async def post_seek(body: SeekIn, seeks: SeeksPart, who: Seeker) -> dict[str, Any]:
    terms = seeks.terms(who.player, body.game, dict(body.options), body.clock, body.seats,
                        body.rated, body.rating_range, body.repeat)
    return (await seeks.post(who.player, who.address, terms)).to_json()


@router.get("/api/seeks", dependencies=[Depends(anyone())],
            summary="The open challenges, newest first")
async def list_seeks(seeks: SeeksPart,
                     game: Annotated[str | None, Query(max_length=64)] = None
                     ) -> dict[str, Any]:
    return {"seeks": [s.to_json() for s in await seeks.open_seeks(game)]}


@router.post("/api/seeks/{seek_id}/accept",
             summary="Accept a seek: the table full, its room is made, seated and started")
async def accept(seek_id: str, seeks: SeeksPart, who: Seeker) -> dict[str, Any]:
    seek, room = await seeks.accept(who.player, who.address, seek_id)
    return {"room": room.id if room is not None else None, "seek": seek.to_json()}


@router.delete("/api/seeks/{seek_id}", summary="Cancel your seek")
async def cancel(seek_id: str, seeks: SeeksPart, who: Seeker) -> dict[str, Any]:
    return (await seeks.cancel(who.player, seek_id)).to_json()
