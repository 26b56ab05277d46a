"""A property over the whole HTTP API against a real server: whatever a client sends, the answer
is never a 5xx. Schemathesis generates the requests from the app's own OpenAPI document."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from gamehall.server.api.app import create_app
from tests.server.conftest import _server
from tests.server.live import Server


def _document() -> dict[str, Any]:
    """The document the server serves at /openapi.json (building the app opens no database),
    with inputs that once broke the server added as examples beside the generated ones."""
    doc = create_app("sqlite://").openapi()
    body = doc["paths"]["/api/rooms"]["post"]["requestBody"]["content"]["application/json"]
    body["examples"] = {
        "self": {"value": {"game": "testline", "options": {"self": 1}}},
        "path": {"value": {"game": "hotu_matua", "options": {"board": "/etc/passwd"}}},
    }
    return doc


SCHEMA = schemathesis.openapi.from_dict(_document()).exclude(path_regex="/stream/")
STREAMS = schemathesis.openapi.from_dict(_document()).include(path_regex="/stream/")
"""The bot API's NDJSON streams never end by themselves: their answers are read up to the
status line (`test_no_stream_gets_a_server_error`)."""

EXAMPLES = int(os.environ.get("GAMEHALL_PROPERTY_EXAMPLES", "15"))
"""Generated requests per operation: 15 is about 170 in all, a few seconds on a busy machine
(a longer search: GAMEHALL_PROPERTY_EXAMPLES=500)."""


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A hall of its own with a visitor and a room, so generated requests reach past the 401 and
    404 answers (rate limits raised: the property sends quickly)."""
    for server in _server(tmp_path_factory.mktemp("property"), "--rate", "5000",
                          "--burst", "5000"):
        token = server.session("propann")
        bot = _bot_token(server)
        yield {"server": server, "token": token, "room": server.create_room(token, "testline"),
               "bot": bot}


def _bot_token(server: Server) -> str:
    """An API token (bot:play) of a bot account, so the bot API's requests get past 401/403."""
    session = server.session("propengine")
    headers = {"Authorization": f"Bearer {session}"}
    assert httpx.post(f"{server.http}/api/account/password", json={"password": "a b c d e f"},
                      headers=headers).status_code == 200
    r = httpx.post(f"{server.http}/api/account/tokens", json={"scopes": ["bot:play"]},
                   headers=headers)
    token = str(r.json()["token"])
    assert httpx.post(f"{server.http}/api/bot/account/upgrade",
                      headers={"Authorization": f"Bearer {token}"}).status_code == 200
    return token


def _token_for(case: schemathesis.Case, target: dict[str, Any]) -> dict[str, str]:
    """A third of the requests carry no token; the bot API's others the bot's."""
    if len(case.formatted_path) % 3 == 0:
        return {}
    bot = "/bot/" in case.formatted_path or "/challenge" in case.formatted_path
    return {"Authorization": f"Bearer {target['bot' if bot else 'token']}"}


@SCHEMA.parametrize()
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_no_input_gets_a_server_error(case: schemathesis.Case, target: dict[str, Any]) -> None:
    server: Server = target["server"]
    params = case.path_parameters or {}
    if "room_id" in params and len(str(params["room_id"])) % 2 == 0:
        params["room_id"] = target["room"]  # half the room requests name a real room
    headers = _token_for(case, target)
    response = case.call(base_url=server.http, headers=headers, timeout=30)
    assert response.status_code < 500, (case.method, case.formatted_path, case.body,
                                        response.text[:500])


@STREAMS.parametrize()
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_no_stream_gets_a_server_error(case: schemathesis.Case, target: dict[str, Any]) -> None:
    server: Server = target["server"]
    params = case.path_parameters or {}
    if "room_id" in params and len(str(params["room_id"])) % 2 == 0:
        params["room_id"] = target["room"]
    with httpx.stream(case.method, server.http + case.formatted_path,
                      headers=_token_for(case, target), params=case.query or None,
                      timeout=30) as response:
        assert response.status_code < 500, (case.method, case.formatted_path)
