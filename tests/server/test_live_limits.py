"""The hall's limits against real servers, each started with small limits of its own: rates per
visitor and per address, floods disconnected, connections capped, bodies capped before they are
read, WebSocket origins checked, text that is not text refused, tokens never in a URL, idle
waiting rooms dropped (by the hall's clock, which the test moves), chat history bounded."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.server.fake_time import set_time
from tests.server.live import Client, Server, TimedServer, auth, running, until

Start = Callable[..., Server]


@pytest.fixture()
def start(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Start]:
    """Start a server with the given flags (stopped after the test)."""
    started: list[Server] = []

    def make(*flags: str) -> Server:
        tmp = tmp_path_factory.mktemp("limits")
        server = Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", *flags)
        server.start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


def run(coro: object) -> object:
    return asyncio.run(coro)  # type: ignore[arg-type]


async def answers(client: Client, n: int) -> list[str]:
    """The next `n` answers (pong/info: "ok", error: its code)."""
    out = []
    while len(out) < n:
        m = await client.wait(lambda m: m["type"] in ("pong", "info", "error"))
        out.append("ok" if m["type"] != "error" else m["code"])
    return out


def test_message_rates_are_per_visitor_not_per_connection(start: Start) -> None:
    """Ten messages in any 20 seconds per visitor: five sockets of one token share them, and
    the HTTP room actions count too."""
    server = start("--rate", "0.5", "--burst", "10")
    token = server.session("ratesann")
    room = server.create_room(token, "testline")

    async def scenario() -> None:
        socks = [await Client.open(server, room, token, f"s{i}") for i in range(5)]
        for c in socks:
            for _ in range(4):
                await c.send({"type": "who"})
        got = [code for c in socks for code in await answers(c, 4)]
        assert got.count("ok") == 10 and got.count("rate_limited") == 10, got
        r = server.act(token, room, "chat", text="over HTTP too")
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        other = server.session("ratesbob")  # another visitor has a budget of their own
        assert server.act(other, room, "who").status_code == 200
        for c in socks:
            await c.close()

    run(scenario())


def test_a_steady_flood_is_disconnected(start: Start) -> None:
    """A client that keeps sending past the limit, round after round as the window refills,
    is disconnected: its refused messages add up (they are not forgotten at each refill)."""
    server = start("--rate", "10", "--burst", "10", "--flood-strikes", "8")
    token = server.session("floodann")
    room = server.create_room(token, "testline")

    async def scenario() -> None:
        c = await Client.open(server, room, token)
        rounds: list[list[str]] = []
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(20):
                for i in range(14):
                    await c.send({"type": "ping", "id": i})
                rounds.append(await answers(c, 14))
                await asyncio.sleep(1.1)  # the window refills
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert len(rounds) >= 1 and rounds[0].count("ok") >= 1, rounds

    run(scenario())


def test_websockets_are_capped_per_visitor_and_per_address(start: Start) -> None:
    server = start("--max-connections-per-visitor", "3", "--max-connections-per-address", "5")
    ann, bob = server.session("capann"), server.session("capbob")
    room = server.create_room(ann, "testline")

    async def refused(token: str | None) -> None:
        async with connect(server.ws_url(room), additional_headers=auth(token)) as ws:
            msg = json.loads(await ws.recv())
            assert msg["type"] == "error" and msg["code"] == "too_many_connections", msg
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    async def scenario() -> None:
        mine = [await Client.open(server, room, ann) for _ in range(3)]
        await refused(ann)
        watchers = [await Client.open(server, room, None) for _ in range(2)]
        await refused(bob)  # five from this address already
        await watchers[0].close()
        b = await Client.open(server, room, None)  # a place is free again
        await b.send({"type": "identify", "token": ann, "id": "me"})
        err = await b.error()  # ann has three already: the connection stays anonymous
        assert err["code"] == "too_many_connections" and err["id"] == "me"
        await mine[0].close()
        await b.send({"type": "identify", "token": ann, "id": "again"})
        hello = await b.wait(lambda m: m["type"] == "welcome")
        assert hello["you"] == "capann" and hello["id"] == "again"
        for c in (*mine[1:], watchers[1], b):
            await c.close()

    run(scenario())


def test_sessions_and_rooms_are_rate_limited(start: Start) -> None:
    server = start("--session-rate", "3/minute", "--room-rate", "2/minute")
    tokens = [server.session(f"sess{i}") for i in range(3)]
    r = httpx.post(f"{server.http}/api/session", json={"nickname": "sess3"})
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    assert int(r.headers["retry-after"]) >= 1
    r = httpx.post(f"{server.http}/api/login", json={"nickname": "sess0", "password": "x" * 12})
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"  # a sign-in is a session
    for _ in range(2):
        server.create_room(tokens[0], "testline")
    r = httpx.post(f"{server.http}/api/rooms", json={"game": "testline"},
                   headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    server.create_room(tokens[1], "testline")  # per visitor: another may still


def _raw_http(server: Server, head: str, chunks: Iterator[bytes]) -> bytes:
    """Send a request head and body chunks, stopping as soon as the server answers."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(head.encode())
        sock.setblocking(False)
        answer = b""
        for chunk in chunks:
            try:
                sock.sendall(chunk)
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                break  # the server stopped reading
            try:
                answer += sock.recv(65536)
                break
            except BlockingIOError:
                continue
        sock.setblocking(True)
        sock.settimeout(30)
        while not _whole_answer(answer):  # the head and the body may come in separate packets
            try:
                more = sock.recv(65536)
            except ConnectionResetError:
                break
            if not more:
                break
            answer += more
        return answer


def _whole_answer(answer: bytes) -> bool:
    """Whether `answer` holds a response's head and all of its body (its Content-Length)."""
    head, sep, body = answer.partition(b"\r\n\r\n")
    if not sep:
        return False
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    return length is None or len(body) >= int(length.group(1))


def test_a_huge_body_is_refused_before_it_is_read(start: Start) -> None:
    """50 MB announced (of which at most a few MB are sent) and a chunked body that keeps
    coming: both answered 413 while the client is still sending."""
    server = start("--max-body-bytes", "65536")
    token = server.session("bodyann")
    megabyte = b"x" * 2**20
    head = (f"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {token}\r\n")
    announced = _raw_http(server, head + f"Content-Length: {50 * 2**20}\r\n\r\n",
                          iter([megabyte] * 4))
    assert announced.startswith(b"HTTP/1.1 413"), announced[:200]
    chunked = _raw_http(server, head + "Transfer-Encoding: chunked\r\n\r\n",
                        iter([b"%x\r\n%s\r\n" % (len(megabyte), megabyte)] * 4))
    assert chunked.startswith(b"HTTP/1.1 413"), chunked[:200]
    assert b"too_large" in chunked or b"too_large" in announced
    server.create_room(token, "testline")  # a body within the limit is served


def test_websocket_origins_are_checked(start: Start) -> None:
    server = start("--allow-origin", "https://friend.example")
    room = server.create_room(server.session("originann"), "testline")

    async def opens(origin: str | None) -> bool:
        try:
            async with connect(server.ws_url(room), origin=origin) as ws:  # type: ignore[arg-type]
                return json.loads(await ws.recv())["type"] == "welcome"
        except InvalidStatus as exc:
            assert exc.response.status_code == 403
            return False

    async def scenario() -> None:
        assert await opens(None), "clients without an Origin (not browsers) connect"
        assert await opens(f"http://127.0.0.1:{server.port}"), "the hall's own page"
        assert await opens("https://friend.example")
        assert not await opens("https://evil.example")
        assert not await opens(f"http://127.0.0.1:{server.port + 1}")
        assert not await opens("null")

    run(scenario())


def test_text_that_is_not_text_is_refused_and_the_connection_goes_on(start: Start) -> None:
    server = start()
    token = server.session("surrann")
    room = server.create_room(token, "testline")

    async def scenario() -> None:
        c = await Client.open(server, room, token)
        await c.send('{"type": "ping", "id": "\\ud800"}')
        err = await c.error()
        assert err["code"] == "bad_message" and "id" not in err
        await c.send('{"type": "chat", "text": "a\\udc00b", "id": 2}')
        err = await c.error()
        assert err["code"] == "bad_message" and err["id"] == 2
        await c.send({"type": "ping", "id": 3})
        assert (await c.wait(lambda m: m["type"] == "pong"))["id"] == 3
        r = httpx.post(f"{server.http}/api/rooms/{room}/chat", content='{"text": "\\ud800"}',
                       headers={"Authorization": f"Bearer {token}",
                                "Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "bad_message"
        await c.close()

    run(scenario())


def test_tokens_travel_in_headers_or_a_message_never_in_the_url(start: Start) -> None:
    server = start()
    token = server.session("urlann")
    room = server.create_room(token, "testline")
    base = f"{server.http}/api/session"
    assert httpx.get(base, params={"token": token}).status_code == 401
    assert httpx.get(base, headers={"X-Gamehall-Token": token}).status_code == 200
    assert httpx.get(base, cookies={"gamehall_token": token}).status_code == 200
    r = httpx.post(f"{server.http}/api/rooms/{room}/identify", json={"token": token},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 400 and r.json()["code"] == "unknown_type"

    async def scenario() -> None:
        async with connect(f"{server.ws_url(room)}?token={token}") as ws:
            assert json.loads(await ws.recv())["you"] is None, "a token in the URL is ignored"
        c = await Client.open(server, room, None)
        await c.send({"type": "identify", "token": token, "id": "hi"})
        hello = await c.wait(lambda m: m["type"] == "welcome" and m.get("id") == "hi")
        assert hello["you"] == "urlann"
        await c.send({"type": "join"})
        st = await c.wait(lambda m: m["type"] == "state" and m["seat"] == 0)
        assert st["seats"][0]["player"] == "urlann" and st["seats"][0]["connected"]
        await c.send({"type": "identify", "token": "nope", "id": "bad"})
        assert (await c.error())["code"] == "not_identified"
        await c.close()

    run(scenario())


def test_idle_waiting_rooms_are_dropped_and_not_loaded_at_start(tmp_path: Path) -> None:
    """Waiting rooms live 2 seconds of the hall's clock without a change or a watcher. The test
    moves that clock (tests/server/fake_time.py): a room goes once the hall's time says it has
    been idle, and never before, however long the machine takes."""
    with running(TimedServer(tmp_path, "--waiting-room-seconds", "2")) as server:
        token = server.session("idleann")

        def gone(room: str) -> bool:
            return httpx.get(f"{server.http}/api/rooms/{room}").status_code == 404

        async def scenario() -> None:
            idle = server.create_room(token, "testline")  # at 1000: idle from 1002 on
            watched = server.create_room(token, "testline")
            w = await Client.open(server, watched, None)
            set_time(server.time_file, 1001.5)
            young = server.create_room(token, "testline")  # idle from 1003.5 on
            set_time(server.time_file, 1003.0)
            await until(lambda: gone(idle), "the idle waiting room was never dropped")
            assert not gone(watched), "a watched waiting room is kept"
            await w.close()
            await until(lambda: gone(watched), "the room was kept after its watcher left")
            assert not gone(young), "a room is kept until it has been idle by the hall's clock"
            set_time(server.time_file, 1004.0)
            await until(lambda: gone(young), "the young room was kept after its time")

        run(scenario())
        waiting = [server.create_room(token, "testline") for _ in range(3)]  # the clock stays
        server.stop()
        server.start()
        health = httpx.get(f"{server.http}/api/health").json()
        assert health["rooms_in_memory"] == 0, "waiting rooms are loaded when asked for"
        assert httpx.get(f"{server.http}/api/rooms/{waiting[0]}").json()["status"] == "waiting"
        assert httpx.get(f"{server.http}/api/health").json()["rooms_in_memory"] == 1


def test_chat_history_is_bounded(start: Start, tmp_path: Path) -> None:
    server = start("--chat-keep", "5")
    token = server.session("chatann")
    room = server.create_room(token, "testline")
    for i in range(12):
        assert server.act(token, room, "chat", text=f"line {i}").status_code == 200
    db = server.db_url.removeprefix("sqlite:///")
    with sqlite3.connect(db) as conn:
        stored = [r[0] for r in conn.execute("SELECT text FROM chat WHERE room_id = ? "
                                             "ORDER BY id", (room,))]
    assert stored == [f"line {i}" for i in range(7, 12)]

    async def scenario() -> None:
        c = await Client.open(server, room, None)
        assert [m["text"] for m in c.messages if m["type"] == "chat"] == stored
        await c.close()

    run(scenario())
