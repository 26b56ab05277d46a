"""Tournaments (docs/tournaments.md): create one, list them, read one (settings, status,
standings), join, withdraw, start early, and its games as NDJSON. The page, scripts and bot
accounts use the same routes; they only translate, `Tournaments` decides and stores."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Body, Depends, Query
from fastapi.responses import Response
from pydantic import BaseModel, Field, StrictBool

from gamehall.server.api.access import Caller, Visitor, anyone, identified, session_or
from gamehall.server.api.parts import TournamentsPart

router = APIRouter()
Actor = Annotated[Caller, Depends(session_or("bot:play"))]
"""A browser's session, or a `bot:play` token (bot accounts join tournaments open to bots)."""


class TournamentIn(BaseModel):
    name: str = Field(default="", max_length=80, examples=["Sunday Hula arena"])
    game: str = Field(max_length=64, examples=["hula"])
    options: dict[str, str | int | bool] = Field(default_factory=dict, examples=[{"size": 5}])
    clock: str | None = Field(
        max_length=16,
        examples=["5+3", "2d"],
        description="any clock the hall has; a tournament needs one",
    )
    system: Literal["arena", "swiss", "round_robin"]
    rounds: int | None = Field(default=None, ge=1, le=30, description="Swiss: its rounds")
    minutes: int | None = Field(default=None, ge=1, le=10080, description="arena: its length")
    seats: int = Field(default=2, ge=2, le=4, description="players at a table")
    starts_at: str | None = Field(
        default=None,
        max_length=40,
        examples=["2026-12-24T18:00:00Z"],
        description="absent: in ten minutes",
    )
    rated: StrictBool = True
    bots: StrictBool = False
    password: str | None = Field(
        default=None, max_length=100, description="only those who know it may join"
    )


class JoinIn(BaseModel):
    password: str | None = Field(default=None, max_length=100)


@router.post(
    "/api/tournaments",
    status_code=201,
    summary="Create a tournament (an account): arena, Swiss or round robin",
)
async def create(body: TournamentIn, tournaments: TournamentsPart, who: Actor) -> dict[str, Any]:
    made = await tournaments.create(who.player, body.model_dump())
    return {"id": made.id}


@router.get("/api/tournaments", summary="Tournaments: upcoming, running and finished")
async def listed(
    tournaments: TournamentsPart,
    who: Annotated[Visitor, Depends(identified())],
    limit: Annotated[int, Query(ge=1, le=100)] = 30,
) -> dict[str, Any]:
    return await tournaments.listed(limit, who.player)


@router.get(
    "/api/tournaments/{tid}",
    summary="A tournament: settings, status, standings with tiebreaks, games in play",
)
async def one(
    tid: str, tournaments: TournamentsPart, who: Annotated[Visitor, Depends(identified())]
) -> dict[str, Any]:
    return await tournaments.describe(tid, who.player)


@router.post("/api/tournaments/{tid}/join", summary="Join a tournament (its password if any)")
async def join(
    tid: str,
    tournaments: TournamentsPart,
    who: Actor,
    body: Annotated[JoinIn | None, Body()] = None,
) -> dict[str, Any]:
    await tournaments.join(tid, who.player, body.password if body else None)
    return {"ok": True}


@router.post("/api/tournaments/{tid}/withdraw", summary="Withdraw from a tournament")
async def withdraw(tid: str, tournaments: TournamentsPart, who: Actor) -> dict[str, Any]:
    await tournaments.withdraw(tid, who.player)
    return {"ok": True}


@router.post(
    "/api/tournaments/{tid}/start",
    summary="Start a tournament now, before its time (its creator only)",
)
async def start(tid: str, tournaments: TournamentsPart, who: Actor) -> dict[str, Any]:
    t = await tournaments.start_now(tid, who.player)
    return {"ok": True, "status": t.status}


@router.get(
    "/api/tournaments/{tid}/games",
    dependencies=[Depends(anyone())],
    response_class=Response,
    responses={200: {"content": {"application/x-ndjson": {}}}},
    summary="NDJSON: a tournament's games, one line each with its result",
)
async def games(tid: str, tournaments: TournamentsPart) -> Response:
    lines = await tournaments.game_lines(tid)
    return Response(
        b"".join(orjson.dumps(line) + b"\n" for line in lines), media_type="application/x-ndjson"
    )
