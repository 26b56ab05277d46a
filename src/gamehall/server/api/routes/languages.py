"""The page's languages: its catalogues (``GET /i18n/<lang>.json``, the joined parts of
``web/i18n/<lang>/``) and each player's chosen language (``GET``/``POST /api/preferences``).

They only translate: the catalogues are core.messages', the choice is kept by `PreferenceStore`.
Included before the page's static files, which would otherwise answer ``/i18n/…``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from gamehall.core.messages import LANGUAGES, catalogue, msg
from gamehall.server.accounts.preferences import BAD_LANGUAGE, PreferenceStore, checked_language
from gamehall.server.api.access import MESSAGES, Caller, anyone, browser, person
from gamehall.server.api.parts import HallPart, part
from gamehall.server.table import protocol as proto

UNKNOWN_LANGUAGE = "unknown_language"
STATUS = {BAD_LANGUAGE: 400, UNKNOWN_LANGUAGE: 404}
"""HTTP statuses of this module's error codes (app.py's table)."""


class PreferencesIn(BaseModel):
    language: str = Field(max_length=16, examples=["de"],
                          description="the page's language: one of GET /i18n's languages")


router = APIRouter()
"""Included before the page's static files: see the module's docstring."""


Preferences = Annotated[PreferenceStore, part("preferences")]
"""One per app: it keeps a test storage's choices in memory."""


@router.get("/i18n/{name}", dependencies=[Depends(anyone())],
            summary="The page's catalogue of a language (en.json, de.json): every key and its "
                    "ICU MessageFormat string")
async def language_catalogue(name: str) -> JSONResponse:
    lang = name.removesuffix(".json")
    if not name.endswith(".json") or lang not in LANGUAGES:
        known = ", ".join(f"{x}.json" for x in LANGUAGES)
        return JSONResponse(proto.error(UNKNOWN_LANGUAGE, msg("error.language.catalogue",
                                                              name=name[:40], known=known)),
                            status_code=404)
    return JSONResponse(catalogue(lang), headers={"Cache-Control": "no-cache"})


@router.get("/api/preferences", summary="The caller's preferences: the page's language (null "
                                        "until chosen) and the languages there are")
async def read(store: Preferences,
               who: Annotated[Caller, Depends(person())]) -> dict[str, Any]:
    return {"language": await store.language(who.player.id), "languages": list(LANGUAGES)}


@router.post("/api/preferences", summary="Keep the caller's preferences: the page's language")
async def write(body: PreferencesIn, hall: HallPart, store: Preferences,
                who: Annotated[Caller, Depends(browser(MESSAGES))]) -> dict[str, Any]:
    language = checked_language(body.language)
    await store.set_language(who.player.id, language, hall.clock())
    return {"language": language, "languages": list(LANGUAGES)}
