"""A player's account: a password that protects the nickname, and the API tokens (with scopes)
a bot or a script acts with (docs/bot-api.md). A token is shown once, when it is made."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from gamehall.core.messages import msg
from gamehall.server.accounts.identity import MAX_PASSWORD, new_token, token_hash
from gamehall.server.api.access import SIGN_IN_FIRST, Caller, browser, session
from gamehall.server.api.parts import BotApiPart, HallPart, SettingsPart
from gamehall.server.botapi.store import SCOPES
from gamehall.server.table.clocks import stamp
from gamehall.server.table.errors import RoomError

router = APIRouter()


class PasswordIn(BaseModel):
    password: str = Field(max_length=MAX_PASSWORD, examples=["correct horse battery"])
    old_password: str | None = Field(default=None, max_length=MAX_PASSWORD,
                                     description="the current password, to change it")


class TokenIn(BaseModel):
    description: str = Field(default="", max_length=100, examples=["my engine"])
    scopes: list[str] = Field(default_factory=lambda: ["bot:play"], max_length=len(SCOPES),
                              examples=[["bot:play"]])


@router.post("/api/account/password",
             summary="Protect your nickname with a password, or change it (old_password); "
                     "a browser's session token only")
async def set_password(body: PasswordIn, hall: HallPart,
                       who: Annotated[Caller, Depends(browser(unknown=SIGN_IN_FIRST))],
                       ) -> dict[str, Any]:
    updated = await hall.set_password(who.player, who.token, body.password,
                                     body.old_password, who.address)
    return {"nickname": updated.nickname, "account": True}


@router.post("/api/account/tokens", status_code=201,
             summary="Create an API token with scopes (bot:play, read); shown once")
async def create_token(body: TokenIn, hall: HallPart, botapi: BotApiPart, settings: SettingsPart,
                       who: Annotated[Caller, Depends(session())]) -> dict[str, Any]:
    if not who.player.account:
        raise RoomError("no_password", msg("error.token.guest"))
    bad = [s for s in body.scopes if s not in SCOPES]
    if bad or not body.scopes:
        raise RoomError("bad_scope", msg("error.token.scopes", scopes=", ".join(SCOPES)))
    token = new_token()
    made = await botapi.bot_store.add_token(
        who.player.id, token_hash(token), body.description.strip(),
        sorted(set(body.scopes)), stamp(hall.clock()), settings.max_api_tokens)
    if made is None:
        raise RoomError("too_many_tokens", msg("error.token.too_many",
                                               most=settings.max_api_tokens))
    return {**made.to_json(), "token": token}


@router.get("/api/account/tokens", summary="Your API tokens (never the tokens themselves)")
async def list_tokens(botapi: BotApiPart,
                      who: Annotated[Caller, Depends(session())]) -> dict[str, Any]:
    return {"tokens": [t.to_json() for t in await botapi.bot_store.tokens(who.player.id)]}


@router.delete("/api/account/tokens/{token_id}",
               summary="Revoke an API token: it stops working at once, on every node")
async def revoke_token(token_id: str, hall: HallPart, botapi: BotApiPart,
                       who: Annotated[Caller, Depends(session())]) -> dict[str, Any]:
    key = await botapi.bot_store.revoke_token(who.player.id, token_id[:16])
    if key is None:
        raise RoomError("no_such_token", msg("error.token.unknown"))
    await hall.accounts.forget_token(key)
    return {"id": token_id, "revoked": True}
