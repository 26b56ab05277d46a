"""A property over the whole HTTP API against a real server: whatever a client sends, the answer
is never a 5xx. Schemathesis generates the requests from the app's own OpenAPI document."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamehall.server.api.app import create_app
from tests.server.conftest import _server
from tests.server.live import Server

ODD = ("²", "¹", "٣", "１", "9" * 22, "-" + "9" * 22, "\u0000", "1e309")
"""Text a stranger sends where a number is read: digits `str.isdigit` takes and `int` refuses,
other scripts' digits, numbers past 64 bits."""


def _document() -> dict[str, Any]:
    """The document the server serves at /openapi.json (building the app opens no database),
    with inputs that once broke the server added as examples beside the generated ones."""
    doc = create_app("sqlite://").openapi()
    paths = doc["paths"]
    body = paths["/api/rooms"]["post"]["requestBody"]["content"]["application/json"]
    body["examples"] = {
        "self": {"value": {"game": "testline", "options": {"self": 1}}},
        "path": {"value": {"game": "hotu_matua", "options": {"board": "/etc/passwd"}}},
        "huge": {"value": {"game": "hula", "options": {"size": 10**30}}},
        "digit": {"value": {"game": "hula", "options": {"size": "٧"}}},
    }
    for param in paths["/api/games/{game}/explorer"]["get"]["parameters"]:
        if param["name"] == "moves":
            param["examples"] = {f"odd{i}": {"value": f"3,{v}"} for i, v in enumerate(ODD)}
    act = paths["/api/rooms/{room_id}/{kind}"]["post"]
    act["requestBody"]["content"]["application/json"]["examples"] = {
        **{f"odd{i}": {"value": {"text": f"/join {v}", "seat": 10**30}}
           for i, v in enumerate(ODD)},
        "bot": {"value": {"text": "/bot easy ²", "version": 2**70, "move": "²"}},
    }
    for param in act["parameters"]:
        if param["name"] == "kind":
            param["examples"] = {k: {"value": k} for k in ("chat", "join", "move", "leave")}
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
    return _token_for_path(case.formatted_path, target)


def _token_for_path(path: str, target: dict[str, Any]) -> dict[str, str]:
    """A third of the requests carry no token; the bot API's others the bot's."""
    if len(path) % 3 == 0:
        return {}
    bot = "/bot/" in path or "/challenge" in path
    return {"Authorization": f"Bearer {target['bot' if bot else 'token']}"}


NOT_HTTP = "Invalid HTTP request received."
"""uvicorn's answer to bytes that are no HTTP request (a raw "²" or NUL in the request line,
which schemathesis sends unencoded): the request never reaches the hall."""


def _refusal_in_the_halls_shape(response: Any, what: object) -> None:
    """Not a 5xx; a refusal is the hall's error (code, message, key), never the framework's
    ``{"detail": …}``."""
    assert response.status_code < 500, (what, response.status_code, response.text[:500])
    if response.status_code == 400 and response.text == NOT_HTTP:
        return  # a request line with raw bytes in it: the HTTP parser's, before any route
    if response.status_code >= 400:
        body = response.json()
        assert body.get("type") == "error" and body.get("code") and body.get("key"), \
            (what, response.status_code, response.text[:500])


def _no_traceback(server: Server) -> None:
    """The server logged no error and no traceback (for any request so far)."""
    text = server.log_path.read_text(errors="replace")
    assert "Traceback" not in text and " ERROR " not in text, text[-3000:]


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
    _refusal_in_the_halls_shape(response, (case.method, case.formatted_path, case.body))
    _no_traceback(server)


OPERATIONS = sorted((method.upper(), path) for path, item in _document()["paths"].items()
                    for method in item if "/stream/" not in path)
"""Every operation of the document, with each method it takes."""
raw_bodies = st.one_of(
    st.integers(min_value=100, max_value=40_000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(min_value=100, max_value=5_000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
    st.binary(min_size=1, max_size=40),
    st.sampled_from([b'{"nickname": "\xff"}', b'{"text": "\xc3"}', b"\xed\xa0\x80",
                     b'{"text": "/join \xc2\xb2"}', b'{"seat": 99999999999999999999999}',
                     b'{"version": -99999999999999999999999, "move": "\xd9\xa3"}',
                     b'{"game": "hula", "options": {"size": 1e999}}', b"NaN", b"\x00"]))
"""Bodies that are no JSON a model reads: nested past any parser's depth, not UTF-8, numbers
past 64 bits or past a float, digits of other scripts."""


@settings(max_examples=max(EXAMPLES * 4, 60), derandomize=True, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(operation=st.sampled_from(OPERATIONS), body=raw_bodies,
       method=st.none() | st.sampled_from(["PUT", "PATCH", "DELETE", "POST", "GET"]))
def _raw(target: dict[str, Any], operation: tuple[str, str], body: bytes,
         method: str | None) -> None:
    server: Server = target["server"]
    path = operation[1].replace("{room_id}", target["room"]).replace("{kind}", "chat")
    path = path.replace("{game}", "hula").replace("{name}", "hula")
    path = path.replace("{", "").replace("}", "")  # other parameters: their names as values
    headers = {"content-type": "application/json", **_token_for_path(path, target)}
    response = httpx.request(method or operation[0], server.http + path, content=body,
                             headers=headers, timeout=30)
    _refusal_in_the_halls_shape(response, (method or operation[0], path, body[:60]))


def test_no_raw_body_gets_a_server_error(target: dict[str, Any]) -> None:
    """Every operation (and some methods it does not take) with a body no model reads: each
    answered in the hall's shape (400 ``bad_json`` for a body that is no JSON), none a 5xx,
    and no traceback in the log."""
    _raw(target)
    _no_traceback(target["server"])


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
