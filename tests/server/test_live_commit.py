"""Nothing is shown before it is stored: while a commit waits, every read path shows the room as
it was; when the commit fails, every watcher is sent the room as it is stored.

The server here is the real one with a storage whose commits the test holds open and then fails
(tests/server/gated.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.live import Client, Server, until


@pytest.fixture(scope="module")
def gated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("gated")
    server = Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", "--rate", "5000",
                    "--burst", "5000", module="tests.server.gated")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def open_gate(gated: Server) -> Iterator[None]:
    """Whatever a test leaves, the next one starts with the gate open."""
    yield
    gate(gated, "release", fail="true")


def gate(server: Server, what: str, **params: Any) -> int:
    if what == "held":
        r = httpx.get(f"{server.http}/_gate")
    else:
        r = httpx.post(f"{server.http}/_gate/{what}", params=params)
    assert r.status_code == 200, r.text
    return int(r.json()["held"])


async def wait_held(server: Server, n: int = 1) -> None:
    """Until `n` commits wait at the gate (the change has been applied and is being stored)."""
    await until(lambda: gate(server, "held") >= n, "the commit never reached the storage",
                polls=1500, pause=0.02)


async def state_since(client: Client, mark: int) -> dict[str, Any]:
    """The first state `client` received after its first `mark` messages (waiting for one)."""
    while True:
        found = [m for m in client.messages[mark:] if m["type"] == "state"]
        if found:
            return found[0]
        await client.recv()


async def seated_game(server: Server, tag: str) -> tuple[str, Client, Client, Client]:
    """A testrace room with ann and bob seated and playing, and an anonymous watcher."""
    ann, bob = server.session(f"ann{tag}"), server.session(f"bob{tag}")
    room = server.create_room(ann, "testrace", goal=30)
    a, b = await Client.open(server, room, ann, "ann"), await Client.open(server, room, bob, "bob")
    for c in (a, b):
        await c.command("/join")
        await c.wait(lambda m: m["type"] == "state" and m["seat"] is not None)
    await a.command("/start")
    for c in (a, b):
        await c.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    watcher = await Client.open(server, room, None, "watcher")
    return room, a, b, watcher


def test_a_move_waiting_for_its_commit_is_on_no_read_path_and_a_failed_commit_is_undone(
        gated: Server) -> None:
    server = gated

    async def scenario() -> None:
        room, a, b, watcher = await seated_game(server, "c1")
        before = a.state
        assert before is not None and before["version"] == 0 and before["to_move"] == 0
        gate(server, "hold")
        await a.send({"type": "move", "move": "roll", "version": 0, "id": "r1"})
        await wait_held(server)
        # The roll and the die drawn after it are applied and waiting to be stored:
        # nobody may see them yet, on any path.
        http = httpx.get(f"{server.http}/api/rooms/{room}").json()
        assert http["version"] == 0 and http["moves"] == []
        mine = httpx.get(f"{server.http}/api/rooms/{room}",
                         headers={"Authorization": f"Bearer {server.session('annc1x')}"}).json()
        assert mine["version"] == 0
        late = await Client.open(server, room, None, "late")
        assert late.state is not None and late.state["version"] == 0
        assert late.state["view"]["rolling"] is False and late.state["view"]["pos"] == [0, 0]
        lobby = httpx.get(f"{server.http}/api/rooms", params={"status": "playing"}).json()
        assert next(r for r in lobby if r["id"] == room)["version"] == 0
        record = server.record(room)
        assert record["actions"] == []
        assert httpx.get(f"{server.http}/api/rooms/{room}/replay/0").json()["total"] == 0
        assert httpx.get(f"{server.http}/api/rooms/{room}/replay/1").status_code == 400
        await b.close()  # a presence update: everyone is sent the room again
        seen = await watcher.wait(lambda m: m["type"] == "state"
                                  and not m["seats"][1]["connected"])
        assert seen["version"] == 0 and seen["view"]["pos"] == [0, 0]
        marks = {c.name: len(c.messages) for c in (a, watcher, late)}
        gate(server, "release", fail="true")
        err = await a.wait(lambda m: m["type"] == "error" and m.get("id") == "r1")
        assert err["code"] == "storage_error"
        for c in (a, watcher, late):  # every watcher is sent the room as stored
            restored = await state_since(c, marks[c.name])
            assert restored["version"] == 0 and restored["view"]["pos"] == [0, 0]
            assert restored["view"]["rolling"] is False
        assert all(m["type"] != "state" or m["version"] == 0
                   for c in (a, watcher, late) for m in c.messages), "the move was shown"
        # The room goes on from what is stored.
        await a.send({"type": "move", "move": "roll", "version": 0})
        st = await watcher.state_at(2)
        assert [m["move"] for m in st["moves"]][0] == "roll" and st["version"] == 2
        assert len(server.record(room)["actions"]) == 2
        for c in (a, watcher, late):
            await c.close()

    asyncio.run(scenario())


def test_a_seat_change_waiting_for_its_commit_is_not_shown_and_a_failure_restores_it(
        gated: Server) -> None:
    server = gated

    async def scenario() -> None:
        ann = server.session("annc2")
        room = server.create_room(ann, "testline")
        a = await Client.open(server, room, ann, "ann")
        watcher = await Client.open(server, room, None, "watcher")
        gate(server, "hold")
        r = asyncio.create_task(asyncio.to_thread(server.act, ann, room, "join", seat="o"))
        await wait_held(server)
        http = httpx.get(f"{server.http}/api/rooms/{room}").json()
        assert [s["player"] for s in http["seats"]] == [None, None]
        lobby = httpx.get(f"{server.http}/api/rooms", params={"status": "waiting"}).json()
        assert [s["player"] for s in next(x for x in lobby if x["id"] == room)["seats"]] == \
            [None, None]
        mark = len(watcher.messages)
        gate(server, "release", fail="true")
        resp = await r
        assert resp.status_code == 503 and resp.json()["code"] == "storage_error"
        st = await state_since(watcher, mark)
        assert [s["player"] for s in st["seats"]] == [None, None]
        # A commit that goes through is shown once stored.
        gate(server, "hold")
        r = asyncio.create_task(asyncio.to_thread(server.act, ann, room, "join", seat="o"))
        await wait_held(server)
        assert httpx.get(f"{server.http}/api/rooms/{room}").json()["seats"][1]["player"] is None
        gate(server, "release", fail="false")
        assert (await r).status_code == 200
        st = await watcher.wait(lambda m: m["type"] == "state" and m["seats"][1]["player"])
        assert st["seats"][1]["player"] == "annc2"
        for c in (a, watcher):
            await c.close()

    asyncio.run(scenario())

