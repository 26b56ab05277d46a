"""Who a browser is: a session for a nickname, signing in with a password from any browser, and
signing out (this browser, or everywhere). A session's token is also set as a cookie."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from gamehall.server.accounts.identity import MAX_PASSWORD
from gamehall.server.api.access import (
    SESSIONS,
    SIGN_IN_FIRST,
    Caller,
    Visitor,
    anyone,
    browser,
    person,
)
from gamehall.server.api.door import COOKIE
from gamehall.server.api.parts import HallPart

router = APIRouter()


class SessionIn(BaseModel):
    nickname: str = Field(max_length=40, examples=["ann"])


class LoginIn(BaseModel):
    nickname: str = Field(max_length=40, examples=["ann"])
    password: str = Field(max_length=MAX_PASSWORD, examples=["correct horse battery"])


def _with_cookie(resp: JSONResponse, token: str) -> JSONResponse:
    resp.set_cookie(COOKIE, token, httponly=True, samesite="lax", max_age=365 * 86400)
    return resp


@router.post("/api/session", summary="Pick a nickname; returns a token (also set as a cookie)")
async def new_session(body: SessionIn, hall: HallPart,
                      _: Annotated[Visitor, Depends(anyone(SESSIONS))]) -> JSONResponse:
    player, token = await hall.register(body.nickname)
    return _with_cookie(JSONResponse({"nickname": player.nickname, "token": token}), token)


@router.get("/api/session", summary="Who the token belongs to")
async def session(who: Annotated[Caller, Depends(person())]) -> dict[str, Any]:
    return {"nickname": who.player.nickname, "account": who.player.account}


@router.post("/api/login", summary="Sign in with nickname and password: a new token (and "
                                   "cookie) for this browser")
async def login(body: LoginIn, hall: HallPart,
                who: Annotated[Visitor, Depends(anyone(SESSIONS))]) -> JSONResponse:
    # a sign-in makes a session too: it counts against the sessions' rate
    player, token = await hall.accounts.login(body.nickname, body.password, who.address)
    return _with_cookie(JSONResponse({"nickname": player.nickname, "token": token,
                                      "account": True}), token)


@router.post("/api/logout", summary="Sign out this browser: its token stops working (a "
                                    "browser's session token only)")
async def logout(hall: HallPart,
                 who: Annotated[Caller, Depends(browser(unknown=SIGN_IN_FIRST))],
                 ) -> JSONResponse:
    await hall.accounts.logout(who.player, who.token)
    resp = JSONResponse({"nickname": who.player.nickname, "signed_out": "this browser"})
    resp.delete_cookie(COOKIE)
    return resp


@router.post("/api/logout/all", summary="Sign out everywhere: every token of the player stops "
                                        "(a browser's session token only)")
async def logout_all(hall: HallPart,
                     who: Annotated[Caller, Depends(browser(unknown=SIGN_IN_FIRST))],
                     ) -> JSONResponse:
    await hall.accounts.logout_all(who.player)
    resp = JSONResponse({"nickname": who.player.nickname, "signed_out": "everywhere"})
    resp.delete_cookie(COOKIE)
    return resp
