"""Nothing a token does not grant (issue 41), tried from outside against a real `gamehall serve`:
every operation of the OpenAPI document, every room action over HTTP and every one over the
WebSocket, with each kind of credential (none, a revoked token, a `read` token, a `bot:play`
token, a guest's session, an account's session), answered as the document says
(``x-gamehall-access``, and ``x-gamehall-actions`` for a room's actions): a 401 or 403 in the
hall's error shape, or let in."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.server.live import Server, auth, running

CHEAP_HASHES = ("--argon2-time-cost", "1", "--argon2-memory-kib", "8192")
PASSWORD = "correct horse"
KINDS = ("none", "revoked", "read", "bot", "guest", "session")
"""The credentials, in the order each operation is tried with them: the refused first, the
account's own session last (what it is let do may end the others' tokens)."""
ACCESS_REFUSALS = {"not_identified", "missing_scope", "not_bot"}
"""The codes that say "not with this token": a caller let in never gets one (the route's own
refusals, a seat taken, a game over, are other codes)."""
_names = itertools.count()


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("scopes")
    with running(Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", "--rate", "5000",
                        "--burst", "5000", "--token-rate", "100000/minute",
                        *CHEAP_HASHES)) as server:
        yield server


@dataclass
class World:
    """One bot account's credentials, and what a walk needs around it: a person (`person`) who
    challenged the bot twice (`own_room`: accepted, the bot seated; `challenge`: pending), a
    room the bot is not in (`other_room`)."""

    tokens: dict[str, str | None]
    bot: str
    person: str
    token_id: str
    own_room: str
    other_room: str
    challenge: str
    tournament: str


def _ok(r: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    return dict(r.json())


def world(server: Server) -> World:
    n = next(_names)
    with httpx.Client(base_url=server.http) as c:
        def account(nickname: str) -> str:
            token = str(_ok(c.post("/api/session", json={"nickname": nickname}))["token"])
            _ok(c.post("/api/account/password", json={"password": PASSWORD},
                       headers=auth(token)))
            return token

        def api_token(session: str, scope: str) -> tuple[str, str]:
            made = _ok(c.post("/api/account/tokens", json={"scopes": [scope]},
                              headers=auth(session)), 201)
            return str(made["id"]), str(made["token"])

        bot, person = f"walker{n}", f"walked{n}"
        session, person_session = account(bot), account(person)
        token_id, read = api_token(session, "read")
        _, play = api_token(session, "bot:play")
        gone_id, revoked = api_token(session, "read")
        _ok(c.delete(f"/api/account/tokens/{gone_id}", headers=auth(session)))
        _ok(c.post("/api/bot/account/upgrade", json={"games": ["hula"]}, headers=auth(play)))
        guest = str(_ok(c.post("/api/session", json={"nickname": f"guest{n}"}))["token"])
        game = {"game": "hula", "options": {"size": 5}, "seat": 0}
        first = _ok(c.post(f"/api/challenge/{bot}", json=game, headers=auth(person_session)),
                    201)
        own = _ok(c.post(f"/api/challenge/{first['id']}/accept", headers=auth(play)))["room"]
        pending = _ok(c.post(f"/api/challenge/{bot}", json=game,
                             headers=auth(person_session)), 201)
        other = _ok(c.post("/api/rooms", json={"game": "hula", "options": {"size": 5}},
                           headers=auth(person_session)), 201)["id"]
        tournament = _ok(c.post("/api/tournaments", json=TOURNAMENT,
                                headers=auth(person_session)), 201)["id"]
    return World({"none": None, "revoked": revoked, "read": read, "bot": play, "guest": guest,
                  "session": session}, bot, person, token_id, str(own), str(other),
                 str(pending["id"]), str(tournament))


# --- what the document says --------------------------------------------------------------------
GRANTS = {"guest": "session", "session": "session", "read": "scope:read", "bot": "scope:bot:play"}


def expected(access: str, kind: str, seated: bool = True) -> tuple[int, str] | None:
    """The answer the document promises `kind` for an operation or action of `access`: None
    (let in) or (status, code). ``a|b`` are alternatives; ``+bot_account``: of a bot account
    (the world's tokens are a bot account's, a guest's is not); ``+seated``: an API token acts
    only where its player holds a seat."""
    if access in ("anyone", "identified"):
        return None
    if kind in ("none", "revoked"):
        return 401, "not_identified"
    alternatives, _, condition = access.partition("+")
    options = alternatives.split("|")
    if "person" not in options and GRANTS[kind] not in options:
        return 403, "missing_scope"
    if condition == "bot_account" and kind == "guest":
        return 403, "not_bot"
    if condition == "seated" and GRANTS[kind] != "session" and not seated:
        return 403, "missing_scope"
    return None


def check(answer: tuple[int, dict[str, Any]], want: tuple[int, str] | None, what: str) -> None:
    status, body = answer
    assert status < 500, (what, status, body)
    if want is None:
        assert body.get("code") not in ACCESS_REFUSALS, (what, status, body)
        return
    assert (status, body.get("code")) == want, (what, status, body)
    assert body["type"] == "error" and body["message"] and body["key"], (what, body)
    assert isinstance(body["args"], dict), (what, body)


# --- the HTTP walk -----------------------------------------------------------------------------
ACTION_BODIES: dict[str, dict[str, Any]] = {
    "chat": {"text": "hello"}, "move": {"move": "a1", "version": 0},
    "bot": {"level": "easy"}, "option": {"key": "size", "value": 5},
    "clock": {"control": "5+3"}, "rated": {"value": True}, "identify": {"token": "nobody"},
}
TOURNAMENT = {"name": "walk", "game": "hula", "options": {"size": 5}, "clock": "5+3",
              "system": "swiss", "rounds": 3, "bots": True}
BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/api/tournaments"): TOURNAMENT,
    ("POST", "/api/preferences"): {"language": "en"},
    ("POST", "/api/session"): {"nickname": "will be made fresh"},
    ("POST", "/api/rooms"): {"game": "hula", "options": {"size": 5}},
    ("POST", "/api/account/password"): {"password": "battery staple",
                                        "old_password": PASSWORD},
    ("POST", "/api/account/tokens"): {"scopes": ["read"]},
    ("POST", "/api/bot/account/upgrade"): {"games": ["hula"]},
    ("PUT", "/api/bot/account"): {"games": ["hula"]},
    ("POST", "/api/challenge/{nickname}"): {"game": "hula", "options": {"size": 5}},
    ("POST", "/api/challenge/{cid}/decline"): {"reason": "later"},
    ("POST", "/api/bot/game/{room_id}/chat"): {"text": "hello"},
    ("POST", "/api/seeks"): {"game": "hula", "options": {"size": 5}, "clock": "10+5"},
}


def fill(path: str, w: World) -> str:
    values = {"room_id": w.own_room, "cid": w.challenge, "tid": w.tournament, "nickname": w.person,
              "pool": "hula-2d", "entry_id": "noentry", "seek_id": "noseek",
              "token_id": w.token_id, "game": "hula", "name": "hula", "index": "0",
              "step": "0", "move": "a1"}
    if path.startswith("/i18n/"):
        values["name"] = "en.json"
    out = path
    for key, value in values.items():
        out = out.replace("{" + key + "}", value)
    assert "{" not in out, f"the walk has no value for a parameter of {path}"
    return out


def call(c: httpx.Client, method: str, url: str, token: str | None,
         body: Any = None) -> tuple[int, dict[str, Any]]:
    """One request, with `token` only (no cookie kept from an answer before); a stream is read
    only as far as its status."""
    c.cookies.clear()
    kwargs: dict[str, Any] = {"headers": auth(token)}
    if body is not None:
        kwargs["json"] = body
    with c.stream(method, url, **kwargs) as r:
        if r.headers.get("content-type", "").startswith("application/x-ndjson"):
            return r.status_code, {}
        r.read()
        try:
            found = r.json()
        except ValueError:
            found = None
        return r.status_code, found if isinstance(found, dict) else {}


def operations(server: Server) -> list[tuple[str, str, dict[str, Any]]]:
    doc = httpx.get(f"{server.http}/openapi.json").json()
    return [(method.upper(), path, op) for path, item in doc["paths"].items()
            for method, op in item.items()]


def test_every_operation_answers_each_kind_of_token_as_documented(hall: Server) -> None:
    ops = operations(hall)
    assert len(ops) >= 45
    walked = 0
    with httpx.Client(base_url=hall.http, timeout=30) as c:
        for method, path, op in ops:
            if path == "/api/rooms/{room_id}/{kind}":
                continue  # walked action by action below
            w = world(hall)
            body = BODIES.get((method, path))
            for kind in KINDS:
                if path == "/api/session" and method == "POST":
                    body = {"nickname": f"fresh{next(_names)}"}
                answer = call(c, method, fill(path, w), w.tokens[kind], body)
                check(answer, expected(op["x-gamehall-access"], kind),
                      f"{method} {path} with {kind}")
                walked += 1
    assert walked == 6 * (len(ops) - 1)


def test_every_room_action_over_http_answers_each_kind_of_token_as_documented(
        hall: Server) -> None:
    ops = {(m, p): op for m, p, op in operations(hall)}
    act = ops[("POST", "/api/rooms/{room_id}/{kind}")]
    actions: dict[str, str] = act["x-gamehall-actions"]
    assert {"move", "chat", "join", "start", "identify", "ping"} <= set(actions)
    with httpx.Client(base_url=hall.http, timeout=30) as c:
        for action, access in actions.items():
            w = world(hall)
            for kind in KINDS:
                for room, seated in ((w.other_room, False), (w.own_room, True)):
                    answer = call(c, "POST", f"/api/rooms/{room}/{action}", w.tokens[kind],
                                  ACTION_BODIES.get(action, {}))
                    check(answer, expected(access, kind, seated),
                          f"{action} ({'seated' if seated else 'not seated'}) with {kind}")


def test_a_read_token_cannot_play_chat_make_rooms_or_take_over_the_account(
        hall: Server) -> None:
    """The issue's own reproduction: each of these was accepted from a `read` token."""
    w = world(hall)
    read = w.tokens["read"]
    with httpx.Client(base_url=hall.http, timeout=30) as c:
        room = c.get(f"/api/rooms/{w.own_room}", headers=auth(read)).json()
        tries = [("POST", f"/api/rooms/{w.own_room}/move", {"move": "a1", "version": 0}),
                 ("POST", f"/api/rooms/{w.own_room}/chat", {"text": "hi"}),
                 ("POST", f"/api/rooms/{w.own_room}/chat", {"text": "/resign"}),
                 ("POST", "/api/rooms", {"game": "hula"}),
                 ("POST", "/api/logout/all", None),
                 ("POST", "/api/account/password", {"password": "stolen horse",
                                                    "old_password": PASSWORD})]
        for method, url, body in tries:
            status, answer = call(c, method, url, read, body)
            assert (status, answer["code"]) == (403, "missing_scope"), (url, answer)
        after = c.get(f"/api/rooms/{w.own_room}", headers=auth(read)).json()
        assert after["version"] == room["version"] and after["status"] == "playing"
        assert c.get("/api/session", headers=auth(w.tokens["session"])).status_code == 200


# --- the WebSocket walk ------------------------------------------------------------------------
async def _ws_walk(server: Server, w: World, kind: str, room: str, seated: bool,
                   actions: dict[str, str]) -> None:
    async with connect(server.ws_url(room), open_timeout=20) as ws:
        seen: list[dict[str, Any]] = []

        async def until_reply(ref: int) -> list[dict[str, Any]]:
            """Every message up to the pong of `ref` (the server answers in order)."""
            got: list[dict[str, Any]] = []
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                got.append(message)
                if message.get("type") == "pong" and message.get("id") == ref:
                    return got

        ref = itertools.count(1)
        if w.tokens[kind] is not None:
            n = next(ref)
            await ws.send(json.dumps({"type": "identify", "token": w.tokens[kind], "id": n}))
            await ws.send(json.dumps({"type": "ping", "id": next(ref)}))
            seen = await until_reply(n + 1)
            errors = [m for m in seen if m.get("type") == "error" and m.get("id") == n]
            assert (errors[0]["code"] if errors else None) == (
                "not_identified" if kind == "revoked" else None), seen
        for action, access in actions.items():
            if action == "identify":
                continue
            n = next(ref)
            await ws.send(json.dumps({"type": action, "id": n, **ACTION_BODIES.get(action, {})}))
            await ws.send(json.dumps({"type": "ping", "id": next(ref)}))
            seen = await until_reply(n + 1)
            errors = [m for m in seen if m.get("type") == "error" and m.get("id") == n]
            answer = (403 if errors else 200, errors[0] if errors else {})
            want = expected(access, kind, seated)
            if want is not None and errors:
                answer = ({"not_identified": 401}.get(errors[0]["code"], 403), errors[0])
            check(answer, want, f"WebSocket {action} ({seated=}) with {kind}")


def test_every_websocket_action_answers_each_kind_of_token_as_documented(
        hall: Server) -> None:
    ops = {(m, p): op for m, p, op in operations(hall)}
    actions = ops[("POST", "/api/rooms/{room_id}/{kind}")]["x-gamehall-actions"]

    async def walk() -> None:
        for kind in KINDS:
            w = world(hall)
            for room, seated in ((w.other_room, False), (w.own_room, True)):
                await _ws_walk(hall, w, kind, room, seated, actions)

    asyncio.run(walk())


def test_the_lobby_socket_lets_every_kind_of_token_watch_the_same_lobby(hall: Server) -> None:
    """``/ws/lobby`` is `anyone`: each credential (none and a revoked token too) is let in and
    sent the same snapshot, which no token changes."""
    w = world(hall)

    async def snapshot(token: str | None) -> dict[str, Any]:
        async with connect(f"ws://127.0.0.1:{hall.port}/ws/lobby", open_timeout=20,
                           additional_headers=auth(token)) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert first["type"] == "lobby", (token, first)
            return dict(first)

    async def settled() -> None:  # the world's rooms have reached the lobby (a batch later)
        async with connect(f"ws://127.0.0.1:{hall.port}/ws/lobby", open_timeout=20) as ws:
            ids: set[str] = set()
            while not {w.own_room, w.other_room} <= ids:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                lines = msg["rooms"] if msg["type"] == "lobby" else msg["put"].get("rooms", [])
                ids |= {r["id"] for r in lines}

    async def walk() -> None:
        await settled()
        seen = {kind: await snapshot(w.tokens[kind]) for kind in KINDS}
        ids = {kind: sorted(r["id"] for r in s["rooms"]) for kind, s in seen.items()}
        assert w.own_room in ids["none"] and w.other_room in ids["none"]
        assert all(i == ids["none"] for i in ids.values()), ids

    asyncio.run(walk())
