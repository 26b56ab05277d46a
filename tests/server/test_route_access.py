"""Every route of the hall declares who may call it, exactly once (api/access.py), so that no
route can forget the door: the app refuses to build with one that does, and the OpenAPI
document names each operation's access."""

from __future__ import annotations

from typing import Annotated

import pytest
from fastapi import APIRouter, Depends
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import Mount, Route

from gamehall.server.api.access import (
    ACCESS_KEY,
    ACTIONS_KEY,
    LIMITS_KEY,
    Access,
    Caller,
    anyone,
    api_routes,
    declared,
    person,
    publish,
)
from gamehall.server.api.app import WEB_DIR, create_app

FASTAPI_OWN = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}
"""FastAPI's own pages (the OpenAPI document and its viewers): public, no hall route."""


@pytest.fixture(scope="module")
def app():  # type: ignore[no-untyped-def]
    return create_app("sqlite:///:memory:", web_dir=WEB_DIR)


def test_every_route_and_method_declares_exactly_one_access(app) -> None:  # type: ignore[no-untyped-def]
    checked, others = [], set()
    for route in api_routes(app.routes):
        if isinstance(route, APIRoute | APIWebSocketRoute):
            methods = sorted(getattr(route, "methods", None) or {"WEBSOCKET"})
            found = declared(route)
            for method in methods:
                assert len(found) == 1, f"{method} {route.path} declares {found}"
                assert isinstance(found[0], Access)
                checked.append((method, route.path))
        elif isinstance(route, Route):
            others.add(route.path)
        else:
            assert isinstance(route, Mount) and route.path == "", route  # the page's files
    assert others == FASTAPI_OWN, "a route that is no API route declares no access"
    assert ("WEBSOCKET", "/ws/rooms/{room_id}") in checked
    assert ("WEBSOCKET", "/ws/lobby") in checked
    assert ("POST", "/api/bot/game/{room_id}/move/{move}") in checked and len(checked) >= 45


def test_every_operation_of_the_document_names_its_access(app) -> None:  # type: ignore[no-untyped-def]
    by_route = {(m, r.path): declared(r)[0].name for r in api_routes(app.routes)
                if isinstance(r, APIRoute) for m in r.methods}
    operations = {(method.upper(), path): op for path, item in app.openapi()["paths"].items()
                  for method, op in item.items()}
    assert operations
    for key, op in operations.items():
        assert op[ACCESS_KEY] == by_route[key], key
        assert isinstance(op[LIMITS_KEY], list)
    # what the routes declare today
    assert operations[("GET", "/api/games")][ACCESS_KEY] == "anyone"
    assert operations[("POST", "/api/rooms")][LIMITS_KEY] == ["rooms"]
    # issue 41: account management and the lobby need a browser's session, never an API token
    for key in [("POST", "/api/account/password"), ("POST", "/api/logout/all"),
                ("POST", "/api/logout"), ("POST", "/api/rooms")]:
        assert operations[key][ACCESS_KEY] == "session", key
    assert operations[("POST", "/api/rooms/{room_id}/{kind}")][ACTIONS_KEY]["move"] \
        == "session|scope:bot:play+seated"
    assert operations[("GET", "/api/account/tokens")][ACCESS_KEY] == "session"
    assert operations[("POST", "/api/bot/game/{room_id}/resign")][ACCESS_KEY] \
        == "scope:bot:play+bot_account"
    assert operations[("GET", "/api/stream/event")][ACCESS_KEY] \
        == "session|scope:read|scope:bot:play"


def test_a_route_that_declares_no_access_or_two_is_refused() -> None:
    router = APIRouter()

    @router.get("/forgot")
    async def forgot() -> None:
        return None

    with pytest.raises(RuntimeError, match="/forgot declares 0"):
        publish(router.routes)

    twice = APIRouter()

    @twice.get("/twice", dependencies=[Depends(anyone())])
    async def both(who: Annotated[Caller, Depends(person())]) -> None:
        return None

    with pytest.raises(RuntimeError, match="/twice declares 2"):
        publish(twice.routes)
