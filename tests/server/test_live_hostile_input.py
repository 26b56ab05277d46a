"""A stranger's odd input against a real server of its own: digits of other scripts ("²", "٣"),
numbers past 64 bits, JSON nested past any parser's depth, bytes that are not UTF-8, routes and
methods that do not exist. Every answer is the hall's error (``code``, ``message``, ``key``),
never a 5xx and never silence, and the server's log holds no traceback for any of it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import _server
from tests.server.live import Client, Server, auth

ODD_NUMBERS = ("²", "¹", "٣", "１", "9999999999999999999999", "-1", "0x1", "1_0")
"""Seat numbers a person could type that are no seat: digits `str.isdigit` accepts but `int`
refuses ("²"), other scripts' digits `int` reads ("٣", fullwidth "１"), and a number past 64
bits, which a JSON encoder (orjson) refuses to write back."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A hall of its own (its log is this module's alone) with a waiting Hula room whose two
    seats ann and bob hold; carol, identified, watches it (so her seat commands are all refused
    and each is answered with an error)."""
    for server in _server(tmp_path_factory.mktemp("hostile"), "--rate", "5000",
                          "--burst", "5000"):
        ann, bob, carol = (server.session(n) for n in ("hostann", "hostbob", "hostcarol"))
        room = server.create_room(ann, "hula")
        assert server.act(ann, room, "join").status_code == 200
        assert server.act(bob, room, "join").status_code == 200
        yield {"server": server, "room": room, "ann": ann, "carol": carol}


def in_hall_shape(response: httpx.Response, status: int | None = None) -> dict[str, Any]:
    """The answer is a refusal in the hall's shape (and of `status` when given)."""
    assert response.status_code < 500, (response.status_code, response.text[:300])
    if status is not None:
        assert response.status_code == status, (response.status_code, response.text[:300])
    assert response.headers["content-type"].startswith("application/json"), response.text[:300]
    body = response.json()
    assert body["type"] == "error", body
    assert isinstance(body["code"], str) and body["message"] and body["key"], body
    assert "detail" not in body, body
    return dict(body)


def fits_json_readers(value: object) -> bool:
    """Every number in `value` is one a JSON reader of any language holds exactly (53 bits)."""
    if isinstance(value, dict):
        return all(fits_json_readers(v) for v in value.values())
    if isinstance(value, list):
        return all(fits_json_readers(v) for v in value)
    return not isinstance(value, int) or abs(value) <= 2**53


def no_traceback(server: Server) -> None:
    """Nothing a client sent made the server log an error or a traceback."""
    text = Path(server.log_path).read_text(errors="replace")
    assert "Traceback" not in text and " ERROR " not in text, text[-3000:]


def test_non_ascii_digits_in_the_explorer(hall: dict[str, Any]) -> None:
    server: Server = hall["server"]
    for moves in ("²", "3,¹", "٣", "１", "9" * 30):
        r = httpx.get(f"{server.http}/api/games/hula/explorer", params={"moves": moves})
        assert in_hall_shape(r, 400)["code"] == "bad_moves", moves
    no_traceback(server)


def test_odd_seat_numbers_in_chat_commands_over_http(hall: dict[str, Any]) -> None:
    server: Server = hall["server"]
    for word in ODD_NUMBERS:
        for command in (f"/join {word}", f"/bot easy {word}", f"/leave {word}"):
            r = server.act(hall["carol"], hall["room"], "chat", text=command)
            body = in_hall_shape(r)
            assert body["code"] in ("no_such_seat", "not_seated"), (command, body)
            assert fits_json_readers(body), body
    no_traceback(server)


def test_odd_seat_numbers_in_chat_commands_over_the_websocket(hall: dict[str, Any]) -> None:
    """Each command is answered with an error that carries its id: no ``server_error``, and no
    command left without an answer (the encoder refusing a 22-digit number made one silent)."""
    server: Server = hall["server"]

    async def scenario() -> None:
        c = await Client.open(server, hall["room"], hall["carol"])
        sent = [f"/{verb} {word}" for word in ODD_NUMBERS
                for verb in ("join", "bot easy", "leave")]
        for i, command in enumerate(sent):
            await c.send({"type": "chat", "text": command, "id": i})
        for i, command in enumerate(sent):
            answer = await c.wait(lambda m, i=i: m.get("id") == i, 15)
            assert answer["type"] == "error", (command, answer)
            assert answer["code"] in ("no_such_seat", "not_seated"), (command, answer)
        await c.close()

    asyncio.run(scenario())
    no_traceback(server)


def test_unreadable_bodies_are_answered_in_the_halls_shape(hall: dict[str, Any]) -> None:
    """A body nested 40,000 deep (240 kB, under the body cap) or not UTF-8: 400 ``bad_json``,
    not the framework's ``{"detail": …}``."""
    server: Server = hall["server"]
    deep = ("[" * 40_000 + "]" * 40_000).encode()
    bodies = [deep, b'{"nickname": "\xff\xfe"}', b'{"text": "\xc3"}',
              b'{"text": "' + b"\xed\xa0\x80" + b'"}']  # an encoded surrogate is no UTF-8
    headers = {**auth(hall["ann"]), "content-type": "application/json"}
    for path in ("/api/session", f"/api/rooms/{hall['room']}/chat", "/api/login"):
        for body in bodies:
            r = httpx.post(f"{server.http}{path}", content=body, headers=headers)
            assert in_hall_shape(r, 400)["code"] in ("bad_json", "bad_message"), (path, body)
    no_traceback(server)


def test_unknown_routes_and_methods_are_answered_in_the_halls_shape(
        hall: dict[str, Any]) -> None:
    server: Server = hall["server"]
    for method, path in (("GET", "/api/nothing"), ("POST", "/api/nothing/at/all"),
                         ("GET", f"/api/rooms/{hall['room']}/a/b"), ("GET", "/no/such/page")):
        r = httpx.request(method, f"{server.http}{path}")
        assert in_hall_shape(r, 404)["code"] == "not_found", (method, path)
    for method, path in (("DELETE", "/api/games"), ("PUT", "/api/session"),
                         ("PATCH", f"/api/rooms/{hall['room']}")):
        r = httpx.request(method, f"{server.http}{path}")
        assert in_hall_shape(r, 405)["code"] == "method_not_allowed", (method, path)
        assert r.headers["allow"], r.headers
    no_traceback(server)


def test_a_frame_that_is_not_utf8_closes_without_a_traceback(hall: dict[str, Any]) -> None:
    """The client rightly gets 1007; the log gets no traceback, however many it sends."""
    server: Server = hall["server"]

    async def one(raw: bytes) -> int | None:
        c = await Client.open(server, hall["room"], None)
        await c.ws.send(raw, text=True)
        try:
            while True:
                await c.recv(15)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None

    for raw in (b"\xff", b'{"type": "chat", "text": "\xc3"}', b"\xed\xa0\x80", b"\x80" * 9):
        assert asyncio.run(one(raw)) == 1007, raw
    no_traceback(server)


# --- a fuzz of WebSocket messages -------------------------------------------------------------
odd_words = st.one_of(
    st.sampled_from(ODD_NUMBERS),
    st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=4),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(st.characters(blacklist_categories=["Zs", "Cc", "Cs"]), min_size=1, max_size=8))
commands = st.builds(lambda verb, word: f"/{verb} {word}",
                     st.sampled_from(["join", "leave", "bot easy", "bot", "bot hard"]), odd_words)
huge = st.one_of(st.integers(min_value=2**53 + 1, max_value=10**40),
                 st.integers(max_value=-(2**53) - 1, min_value=-(10**40)))
huge_fields = st.builds(lambda kind, name, n: {"type": kind, name: n},
                        st.sampled_from(["join", "leave", "move", "hint", "bot", "option"]),
                        st.sampled_from(["seat", "version", "value", "level", "move"]), huge)
deep = st.builds(lambda depth, shape: shape[0] * depth + shape[1] * depth,
                 st.integers(min_value=500, max_value=1900),
                 st.sampled_from([("[", "]"), ('{"a":', "}")]))
answered = st.one_of(commands.map(lambda t: {"type": "chat", "text": t}), huge_fields)
"""Messages carrying an id, each of which must get an error carrying that id."""
unanswerable = st.one_of(
    deep, deep.map(lambda d: '{"type": "chat", "text": "/join 1", "x": ' + d + "}"),
    st.builds(lambda n: '{"type": "ping", "id": ' + str(n) + "}", huge))
"""Messages whose answer has no id to match (not JSON; an id past 53 bits is not echoed)."""
not_utf8 = st.one_of(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b'{"id": "\xfe"}']),
                     st.binary(min_size=1, max_size=20).filter(lambda b: not _utf8(b)))


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


async def _exchange(server: Server, room: str, token: str, answerable: list[dict[str, Any]],
                    others: list[str], last: bytes | None) -> None:
    c = await Client.open(server, room, token)
    for i, message in enumerate(answerable):
        await c.send({**message, "id": f"m{i}"})
    for raw in others:
        await c.send(raw)
    await c.send({"type": "ping", "id": "end"})
    await c.wait(lambda m: m.get("id") == "end", 30)
    replies = {m["id"]: m for m in c.messages if isinstance(m.get("id"), str)}
    for i, message in enumerate(answerable):
        answer = replies.get(f"m{i}")
        assert answer is not None, f"no answer to {message}"
        assert answer["type"] == "error" and answer["code"] != "server_error", (message, answer)
        assert fits_json_readers(answer), answer
    assert not [m for m in c.messages if m.get("code") == "server_error"]
    if last is None:
        await c.close()
        return
    await c.ws.send(last, text=True)
    try:
        while True:
            await c.recv(15)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 1007, closed


@settings(max_examples=30, derandomize=True, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(answerable=st.lists(answered, min_size=1, max_size=8),
       others=st.lists(unanswerable, max_size=3), last=st.none() | not_utf8)
def _fuzz(server: Server, room: str, token: str, answerable: list[dict[str, Any]],
          others: list[str], last: bytes | None) -> None:
    asyncio.run(_exchange(server, room, token, answerable, others, last))


def test_fuzzed_messages_are_each_refused_without_a_traceback(hall: dict[str, Any]) -> None:
    """Seat commands with odd numbers, fields holding numbers past 53 bits, JSON nested past
    the parser's depth, and a last frame that is not UTF-8: every message with an id gets an
    error with that id (never ``server_error``), the connection stays open until the bad
    frame (then 1007), and the log holds no traceback."""
    server: Server = hall["server"]
    _fuzz(server, hall["room"], hall["carol"])
    no_traceback(server)
    assert server.alive()


def test_a_reply_that_cannot_be_written_still_answers_its_request() -> None:
    """Should a reply ever hold what JSON cannot write (a number past 64 bits), the client gets
    a ``server_error`` answering the same id in its place, never silence."""
    import json

    from gamehall.server.api.websocket import _unsendable

    reply = {"type": "error", "code": "no_such_seat", "args": {"seat": 10**30}, "id": 7}
    assert json.loads(_unsendable(reply)) | {"message": ""} == {
        "type": "error", "code": "server_error", "message": "", "key": "error.server",
        "args": {}, "id": 7}
    assert "id" not in json.loads(_unsendable({**reply, "id": "\ud800"}))
