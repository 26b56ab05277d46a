"""The bot API's accounts (docs/bot-api.md): make an account a bot account, for good, and say
which games it plays."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from pydantic import BaseModel, Field

from gamehall.core.registry import list_games
from gamehall.server.api.access import Caller, session_or
from gamehall.server.api.parts import BotApiPart

router = APIRouter()


class GamesIn(BaseModel):
    games: list[str] | None = Field(default=None, max_length=64,
                                    description="the games the bot plays; absent: all",
                                    examples=[["hula", "haugaz"]])


@router.post("/api/bot/account/upgrade",
             summary="Make your account a bot account, for good (only before it has played)")
async def upgrade(botapi: BotApiPart, who: Annotated[Caller, Depends(session_or("bot:play"))],
                  body: Annotated[GamesIn | None, Body()] = None) -> dict[str, Any]:
    games = body.games if body is not None and body.games is not None else list_games()
    done = await botapi.upgrade_to_bot(who.player, games)
    return {"nickname": who.player.nickname, "bot_account": True, "games": done}


@router.get("/api/bot/account", summary="Your bot account: the games it plays")
async def bot_account(botapi: BotApiPart, who: Annotated[Caller, Depends(session_or(
        "read", "bot:play"))]) -> dict[str, Any]:
    games = await botapi.bot_store.bot_games(who.player.id)
    return {"nickname": who.player.nickname, "bot_account": games is not None,
            "games": games or []}


@router.put("/api/bot/account", summary="Say which games your bot plays")
async def set_games(body: GamesIn, botapi: BotApiPart, who: Annotated[Caller, Depends(session_or(
        "bot:play", bots_only=True))]) -> dict[str, Any]:
    # the bot, or its owner's browser (the account page)
    games = await botapi.set_bot_games(who.player, body.games or list_games())
    return {"nickname": who.player.nickname, "bot_account": True, "games": games}
