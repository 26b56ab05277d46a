"""Hostile clients against a real server: thousands of malformed or forbidden messages, each
answered with an error on a connection that stays open, and none changing anything."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamehall.core import normalise_notation
from gamehall.server.table.commands import parse_command
from gamehall.server.table.protocol import REQUESTS, ProtocolError, parse_request
from tests.server.live import Client, Server

HARMLESS = {"who", "help", "options", "spectate", "sync", "ping"}
"""Requests that legitimately succeed for a watcher (they answer, they change nothing)."""

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=12)
field_values = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=40),
                         st.lists(st.integers(), max_size=3), st.just("x" * 300),
                         st.sampled_from(["red", "blue", "0", "1", "2", "roll", "hold", "random",
                                          "hard", "goal", "-1", "RED "]))
typed = st.builds(
    lambda kind, fields, ref: {"type": kind, **fields, **({"id": ref} if ref is not None else {})},
    st.sampled_from(sorted(REQUESTS) + ["", "Move", "nope", "state", "error"]),
    st.dictionaries(st.sampled_from(["move", "version", "seat", "level", "key", "value", "text",
                                     "extra"]), field_values, max_size=4),
    st.one_of(st.none(), st.integers(), st.text(max_size=10), st.lists(st.integers())))
commands = st.builds(lambda word, rest: f"/{word}{rest}",
                     st.sampled_from(["join", "leave", "start", "bot", "option", "resign",
                                      "frob", "", "JOIN", "bot hard", "option goal"]),
                     st.text(max_size=30))
raw_text = st.one_of(
    st.text(max_size=200),
    json_values.map(json.dumps),
    st.just("[" * 3000), st.just('{"type": "move"' + " " * 5000 + "}"),
    st.just("x" * 70000), st.just('{"type":"ping","id":' + "9" * 400 + "}"),
    st.sampled_from(["", "null", "[]", "{}", '"type"', "NaN", '{"type": null}', "\x00"]))
hostile = st.one_of(
    raw_text,
    typed.map(json.dumps),
    commands.map(lambda t: json.dumps({"type": "chat", "text": t})),
    st.binary(max_size=50),
)


def must_fail(raw: str | bytes) -> bool:
    """Filter out the few generated messages that a watcher may legitimately send."""
    if isinstance(raw, bytes):
        return True
    try:
        req = parse_request(json.loads(raw))
    except (ValueError, RecursionError, ProtocolError):
        return True
    if req.kind == "chat":
        text = req.args["text"].strip()
        if not text.startswith("/"):
            return not text
        try:
            req = parse_command(text)
        except ProtocolError:
            return True
    if req.kind == "rated" and "value" not in req.args:
        return False  # only asks whether the game is rated
    return req.kind not in HARMLESS


def seat_moves(seat_to_move: bool, legal: list[str]) -> Any:
    """Moves from a seated player that must be refused (not their turn, stale, or illegal)."""
    legal_norm = {normalise_notation(m) for m in legal}
    moves = st.builds(lambda m, v: {"type": "move", "move": m, "version": v},
                      st.one_of(st.text(max_size=12), st.sampled_from(legal + ["d3", "swap"])),
                      st.integers(-3, 50))
    if not seat_to_move:
        return moves
    return moves.filter(lambda m: m["version"] != 2 or normalise_notation(m["move"])
                        not in legal_norm)


@pytest.fixture(scope="module")
def fuzz_room(server: Server) -> dict[str, Any]:
    """A game in progress: ann (red, to move) against bob (blue); mallory only watches."""
    ann, bob, mal = (server.session(n) for n in ("fuzzann", "fuzzbob", "mallory"))
    room = server.create_room(ann, "testrace")
    server.act(ann, room, "join")
    server.act(bob, room, "join")
    server.act(ann, room, "start")
    server.act(ann, room, "move", move="roll", version=0)
    state = httpx.get(f"{server.http}/api/rooms/{room}").json()
    assert state["version"] == 2 and state["to_move"] == 1
    return {"room": room, "tokens": {"ann": ann, "bob": bob, "mallory": mal}, "state": state}


async def _barrage(server: Server, room: str, token: str | None,
                   messages: list[str | bytes]) -> list[dict[str, Any]]:
    """Send every message, then a ping; return what came back before the pong."""
    c = await Client.open(server, room, token)
    start = len(c.messages)
    for raw in messages:
        await c.ws.send(raw)
    await c.send({"type": "ping", "id": "end-of-barrage"})
    await c.wait(lambda m: m.get("id") == "end-of-barrage", 30)
    replies = c.messages[start:-1]
    await c.close()
    return replies


def _check(replies: list[dict[str, Any]], sent: int) -> None:
    errors = [r for r in replies if r["type"] == "error"]
    states = [r for r in replies if r["type"] == "state"]
    assert len(errors) == sent, f"{sent} sent, {len(errors)} errors: {replies[-5:]}"
    assert all(isinstance(e["code"], str) and e["message"] for e in errors)
    assert all(e["code"] != "server_error" for e in errors), errors
    assert not states, f"something changed: {states[:1]}"


def _unchanged(server: Server, fuzz_room: dict[str, Any]) -> None:
    """The room's position is exactly as it was before any hostile message."""
    now = httpx.get(f"{server.http}/api/rooms/{fuzz_room['room']}").json()
    was = fuzz_room["state"]
    for key in ("version", "moves", "seats", "status", "view", "to_move", "options"):
        assert now[key] == was[key], key
    assert server.alive()


def test_watcher_barrage(server: Server, fuzz_room: dict[str, Any]) -> None:
    """Thousands of hostile messages from a watcher: each refused, none changing the room.
    (Each test counts and checks its own barrages: under xdist a module's tests may run on
    different workers, each with its own server.)"""
    sent: list[int] = []

    @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(hostile.filter(must_fail), min_size=8, max_size=24))
    def barrage(messages: list[str | bytes]) -> None:
        replies = asyncio.run(_barrage(server, fuzz_room["room"],
                                       fuzz_room["tokens"]["mallory"], messages))
        _check(replies, len(messages))
        sent.append(len(messages))

    barrage()
    assert sum(sent) >= 1500, sum(sent)
    _unchanged(server, fuzz_room)


def test_players_bad_moves(server: Server, fuzz_room: dict[str, Any]) -> None:
    """Moves that must be refused from both seated players (not their turn, stale, illegal)."""
    sent: list[int] = []
    legal = fuzz_room["state"]["legal_moves"] or ["roll", "hold"]

    @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def barrage(data: Any) -> None:
        for name, to_move in (("bob", True), ("ann", False)):
            moves = data.draw(st.lists(seat_moves(to_move, legal), min_size=40, max_size=80))
            replies = asyncio.run(_barrage(server, fuzz_room["room"], fuzz_room["tokens"][name],
                                           [json.dumps(m) for m in moves]))
            _check(replies, len(moves))
            sent.append(len(moves))

    barrage()
    assert sum(sent) >= 1500, sum(sent)
    _unchanged(server, fuzz_room)


def test_nothing_changed_and_the_server_still_plays(server: Server,
                                                    fuzz_room: dict[str, Any]) -> None:
    """After the barrages (on this worker's server, whichever of them ran here): the position
    is exactly as it was, and the player to move still moves."""
    _unchanged(server, fuzz_room)
    r = server.act(fuzz_room["tokens"]["bob"], fuzz_room["room"], "move", move="hold", version=2)
    assert r.status_code == 200 and r.json()["state"]["version"] == 3


def test_size_and_rate_limits_keep_the_connection(plain_server: Server) -> None:
    """Default limits: 4096-byte messages, 40 in any 2 seconds."""
    server = plain_server
    token = server.session("flood")
    room = server.create_room(token, "testline")

    async def scenario() -> None:
        c = await Client.open(server, room, token)
        await c.send(json.dumps({"type": "chat", "text": "y" * 400, "pad": "z" * 5000}))
        assert (await c.error())["code"] == "too_large"
        for _ in range(80):
            await c.send({"type": "who"})
        codes = []
        while len(codes) < 80:
            m = await c.wait(lambda m: m["type"] in ("info", "error"))
            codes.append(m.get("code", "ok"))
        assert codes.count("rate_limited") >= 20 and codes[:30] == ["ok"] * 30
        await asyncio.sleep(2.1)  # the window has passed
        await c.send({"type": "ping", "id": 1})
        assert (await c.wait(lambda m: m["type"] in ("pong", "error")))["type"] == "pong"
        await c.close()

    asyncio.run(scenario())
