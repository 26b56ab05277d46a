"""The page's languages: its catalogues (``GET /i18n/<lang>.json``, the joined parts of
``web/i18n/<lang>/``) and each player's chosen language (``GET``/``POST /api/preferences``).

They only translate: the catalogues are core.messages', the choice is kept by `PreferenceStore`.
Installed before the page's static files, which would otherwise answer ``/i18n/…``.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from gamehall.core.messages import LANGUAGES, catalogue, msg
from gamehall.server.accounts.preferences import BAD_LANGUAGE, PreferenceStore, checked_language
from gamehall.server.api.door import Door, address_of, check_rate, token_of, visitor_key
from gamehall.server.hall.hall import Hall, Player
from gamehall.server.table import protocol as proto
from gamehall.server.table.protocol import ProtocolError

UNKNOWN_LANGUAGE = "unknown_language"
STATUS = {BAD_LANGUAGE: 400, UNKNOWN_LANGUAGE: 404}
"""HTTP statuses of this module's error codes (app.py's table)."""


class PreferencesIn(BaseModel):
    language: str = Field(max_length=16, examples=["de"],
                          description="the page's language: one of GET /i18n's languages")


def install(app: FastAPI, hall: Hall, door: Door) -> None:
    """Add the routes (before the static page: see the module's docstring)."""
    store = PreferenceStore(hall.storage)

    async def caller(request: Request) -> Player:
        player = await hall.identify(token_of(request))
        if player is None:
            raise ProtocolError(proto.NOT_IDENTIFIED, msg("error.not_identified"))
        return player

    @app.get("/i18n/{name}", summary="The page's catalogue of a language (en.json, de.json): "
                                     "every key and its ICU MessageFormat string")
    async def language_catalogue(name: str) -> JSONResponse:
        lang = name.removesuffix(".json")
        if not name.endswith(".json") or lang not in LANGUAGES:
            known = ", ".join(f"{x}.json" for x in LANGUAGES)
            return JSONResponse(proto.error(UNKNOWN_LANGUAGE, msg("error.language.catalogue",
                                                                  name=name[:40], known=known)),
                                status_code=404)
        return JSONResponse(catalogue(lang), headers={"Cache-Control": "no-cache"})

    @app.get("/api/preferences", summary="The caller's preferences: the page's language "
                                         "(null until chosen) and the languages there are")
    async def read(request: Request) -> dict[str, Any]:
        player = await caller(request)
        return {"language": await store.language(player.id), "languages": list(LANGUAGES)}

    @app.post("/api/preferences", summary="Keep the caller's preferences: the page's language")
    async def write(body: PreferencesIn, request: Request) -> dict[str, Any]:
        player = await caller(request)
        address = address_of(request)
        check_rate(await door.rates.message_wait(visitor_key(player, address), address))
        language = checked_language(body.language)
        await store.set_language(player.id, language, hall.clock())
        return {"language": language, "languages": list(LANGUAGES)}
