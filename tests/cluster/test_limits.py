"""The hall's limits in a cluster (two nodes behind nginx, deploy/topology.py, small limits):
the rates are counted once for both nodes (in Redis), the open connections per node, bodies are
refused before they are read, WebSocket origins are checked through nginx, a token travels in a
header or an `identify` message to a node that does not own the room, lone surrogates are
refused, idle waiting rooms are dropped by their owner but not while a client watches them on
another node, chat is bounded.
The nodes read the hall's time from a file the test sets (tests/server/fake_time.py): a waiting
room is idle when that time says so, however long the machine takes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from deploy.topology import Topology
from tests.cluster.conftest import fresh_topology
from tests.cluster.helpers import NODE_ENV, Endpoint, node, owner_of
from tests.server.fake_time import ENV, set_time
from tests.server.live import Client, auth, until

LIMITS = {"GAMEHALL_RATE": "0.5", "GAMEHALL_BURST": "10", "GAMEHALL_SESSION_RATE": "5/minute",
          "GAMEHALL_ROOM_RATE": "3/minute", "GAMEHALL_MAX_CONNECTIONS_PER_VISITOR": "2",
          "GAMEHALL_MAX_BODY_BYTES": "65536", "GAMEHALL_ALLOW_ORIGIN": "https://friend.example",
          "GAMEHALL_WAITING_ROOM_SECONDS": "4", "GAMEHALL_CHAT_KEEP": "3"}


@pytest.fixture(scope="module")
def hall_time(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file both nodes read their clock from (1000.0 until a test moves it)."""
    path = tmp_path_factory.mktemp("cluster-time") / "now.txt"
    set_time(path, 1000.0)
    return path


@pytest.fixture(scope="module")
def limited(pg_url: str, hall_time: Path,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topology]:
    folder = tmp_path_factory.mktemp("cluster-limits")
    env = {**NODE_ENV, **LIMITS, ENV: str(hall_time),
           "GAMEHALL_PLUGIN": f"{NODE_ENV['GAMEHALL_PLUGIN']} tests.server.fake_time"}
    with fresh_topology(pg_url, folder, 2, env) as topo:
        yield topo


def other(topo: Topology, room: str) -> tuple[Endpoint, Endpoint]:
    """(the room's owner, the other node)."""
    owner = owner_of(topo, room)
    rest = next(n for n in topo.nodes if n is not owner)
    return node(owner), node(rest)


def gone(endpoint: Endpoint, room: str) -> bool:
    return httpx.get(f"{endpoint.http}/api/rooms/{room}", timeout=30).status_code == 404


def test_limits_hold_for_the_whole_cluster(limited: Topology, hall_time: Path) -> None:
    front = Endpoint(limited.http)
    n1, n2 = (node(n) for n in limited.nodes)
    ann, bob, carol = n2.session("clann"), n2.session("clbob"), n2.session("clcarol")
    for i in range(2):
        n1.session(f"clsess{i}")
    for at in (n1, n2):  # 5 a minute from one address, on both nodes together
        r = httpx.post(f"{at.http}/api/session", json={"nickname": "clsess5"}, timeout=30)
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text

    kept = n1.create_room(ann, "testline")
    owner, elsewhere = other(limited, kept)

    async def scenario() -> None:
        watcher = await elsewhere.client(kept, None, "watcher")  # keeps the room from expiring
        a = await Client.open(elsewhere, kept, None, "ann")  # type: ignore[arg-type]
        await a.send({"type": "identify", "token": ann, "id": "me"})
        hello = await a.wait(lambda m: m["type"] == "welcome" and m.get("id") == "me")
        assert hello["you"] == "clann" and hello["node"] == elsewhere.name
        await a.send({"type": "join", "id": "j"})  # carried out by the owner
        st = await a.wait(lambda m: m["type"] == "state" and m["seat"] == 0)
        assert st["seats"][0]["player"] == "clann" and st["seats"][0]["connected"]

        await a.send('{"type": "ping", "id": "\\ud800"}')
        assert (await a.error())["code"] == "bad_message"
        await a.send({"type": "ping", "id": "after"})
        assert (await a.wait(lambda m: m["type"] == "pong"))["id"] == "after"

        second = await elsewhere.client(kept, ann, "ann2")
        async with connect(elsewhere.ws_url(kept), additional_headers=auth(ann)) as ws:
            refused = json.loads(await ws.recv())
            assert refused["code"] == "too_many_connections", refused  # 2 per visitor, per node
        await second.close()

        codes = []  # 10 messages in any 20 s, on one connection to each node together
        for at in (elsewhere, owner):
            c = await at.client(kept, carol, "carol")
            for i in range(7):
                await c.send({"type": "ping", "id": i})
            for _ in range(7):
                m = await c.wait(lambda m: m["type"] in ("pong", "error"))
                codes.append(m.get("code", "ok"))
            await c.close()
        assert codes == ["ok"] * 10 + ["rate_limited"] * 4, codes

        for origin, ok in ((None, True), (limited.http, True), ("https://friend.example", True),
                           ("https://evil.example", False)):
            try:
                async with connect(front.ws_url(kept), origin=origin) as ws:  # type: ignore[arg-type]
                    assert json.loads(await ws.recv())["type"] == "welcome" and ok, origin
            except InvalidStatus as exc:
                assert exc.response.status_code == 403 and not ok, origin

        for i in range(5):  # chat from both nodes; 3 lines are kept
            r = (owner if i % 2 else elsewhere).act(bob, kept, "chat", text=f"line {i}")
            assert r.status_code == 200, r.text
        late = await owner.client(kept, None, "late")
        assert [m["text"] for m in late.messages if m["type"] == "chat"] == \
            ["line 2", "line 3", "line 4"]

        idle = owner.create_room(bob, "testline")
        set_time(hall_time, 1005.0)  # by the hall's clock both rooms are idle now (4 s)
        await until(lambda: gone(owner, idle) and gone(elsewhere, idle),
                    "the idle room was never dropped")
        assert not gone(front, kept), "a room watched on another node is kept"
        for c in (a, late):
            await c.close()
        await watcher.close()
        await until(lambda: gone(front, kept), "the room was kept after its watchers left")

    asyncio.run(scenario())
    elsewhere.create_room(bob, "testline")  # bob's second and third: one on each node
    owner.create_room(bob, "testline")
    for at in (owner, elsewhere):  # 3 a minute, on both nodes together
        r = httpx.post(f"{at.http}/api/rooms", json={"game": "testline"}, headers=auth(bob),
                       timeout=30)
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text


def _post(url: str, body: bytes) -> bytes:
    """POST `body` to /api/session at `url` from a plain socket: the answer's first bytes."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(f"POST /api/session HTTP/1.1\r\nHost: {host}\r\nContent-Type: "
                     f"application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode())
        with contextlib.suppress(OSError):  # the server may answer and close before the end
            sock.sendall(body)
        answer = b""
        while b"too_large" not in answer and (more := sock.recv(65536)):
            answer += more  # head and body may come apart
        return answer


def test_bodies_are_refused_before_they_are_read(limited: Topology) -> None:
    """nginx refuses a body over the hall's default limit itself, with the hall's answer (so
    no node is sent one it would refuse half-way, which would count as the node failing); a
    node refuses one over its own limit from its length."""
    for _ in range(4):
        answer = _post(limited.http, b"x" * 2**19)
        assert answer.startswith(b"HTTP/1.1 413") and b'"code":"too_large"' in answer, answer
    for n in limited.nodes:
        answer = _post(n.http, b"x" * 100_000)  # this cluster's nodes: 64 KiB
        assert answer.startswith(b"HTTP/1.1 413") and b"too_large" in answer, answer[:300]
    served = {httpx.get(f"{limited.http}/api/health", timeout=30).headers["x-gamehall-node"]
              for _ in range(6)}
    assert served == {"n1", "n2"}, "both nodes still serve"
