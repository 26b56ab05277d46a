"""Talking to a cluster in tests: an endpoint (nginx or one node) with the HTTP helpers the
hall's live tests use, and the checks that every client saw one history."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import httpx

from deploy.topology import Node, Topology
from tests.server.live import OPEN_LIMITS_ENV, Client, Message

NODE_ENV = {"GAMEHALL_PLUGIN": "tests.server.games", "GAMEHALL_RATE": "5000",
            "GAMEHALL_BURST": "5000", "GAMEHALL_LOG_LEVEL": "warning",
            "GAMEHALL_BOT_DELAY": "0.3", "GAMEHALL_LEASE_MS": "2000", **OPEN_LIMITS_ENV}
"""How the tests' nodes run: the test games, high rate limits (every client comes from one
address, through nginx), bots that wait 0.3 s a move (so a test can catch a bot's turn), leases
of 2 s."""


class Endpoint:
    """An address of the hall: nginx in front of every node, or one node."""

    def __init__(self, http: str, name: str = "") -> None:
        self.http, self.name = http, name

    def ws_url(self, room: str) -> str:
        """A room's WebSocket; the token goes in a header, never in the URL."""
        return f"{self.http.replace('http', 'ws', 1)}/ws/rooms/{room}"

    def session(self, nickname: str) -> str:
        r = httpx.post(f"{self.http}/api/session", json={"nickname": nickname}, timeout=30)
        assert r.status_code == 200, r.text
        return str(r.json()["token"])

    def create_room(self, token: str, game: str, **options: Any) -> str:
        r = httpx.post(f"{self.http}/api/rooms", json={"game": game, "options": options},
                       headers={"Authorization": f"Bearer {token}"}, timeout=30)
        assert r.status_code == 201, r.text
        return str(r.json()["id"])

    def act(self, token: str | None, room: str, kind: str, **body: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.post(f"{self.http}/api/rooms/{room}/{kind}", json=body, headers=headers,
                          timeout=30)

    def record(self, room: str) -> Message:
        r = httpx.get(f"{self.http}/api/rooms/{room}/record", timeout=30)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def health(self) -> Message:
        return dict(httpx.get(f"{self.http}/api/health", timeout=30).json())

    async def client(self, room: str, token: str | None, name: str = "") -> Client:
        return await Client.open(self, room, token, name)  # type: ignore[arg-type]


def node(n: Node) -> Endpoint:
    return Endpoint(n.http, n.name)


def owner_of(topo: Topology, room: str, among: list[Node] | None = None) -> Node:
    """The live node (of `among`, default all) whose health lists the room as its own."""
    owners = [n for n in (among or topo.nodes) if n.alive()
              and room in node(n).health()["cluster"]["rooms_owned"]]
    assert len(owners) == 1, [n.name for n in owners]
    return owners[0]


def wait_for(what: Callable[[], Any], timeout: float = 60.0, step: float = 0.1) -> Any:
    """Poll until `what()` is true-ish; its value (AssertionError after `timeout`)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            got = what()
        except (httpx.HTTPError, AssertionError):
            got = None
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(step)


async def move(clients: dict[int, Client], rng: Any, retry_on: tuple[str, ...] = ()) -> Message:
    """The seat to move plays a random legal move; returns the state every client then has.
    A refusal whose code is in `retry_on` (a room changing hands) is tried again."""
    st = max((c.state for c in clients.values() if c.state), key=lambda s: s["version"])
    mover = clients[st["to_move"]]
    mine = await mover.state_at(st["version"])
    version = mine["version"]
    text = rng.choice(mine["legal_moves"])
    for attempt in range(20):
        ref = f"mv{version}.{attempt}"
        await mover.send({"type": "move", "move": text, "version": version, "id": ref})
        got = await mover.wait(lambda m, ref=ref: (m["type"] == "state"
                                                   and m["version"] > version)
                               or (m["type"] == "error" and m.get("id") == ref), 60)
        if got["type"] == "state":
            break
        assert got["code"] in retry_on, got
        await asyncio.sleep(0.2)
    for c in clients.values():
        await c.state_at(version + 1, 60)
    return mover.state or {}


def one_history(clients: list[Client]) -> list[int]:
    """Every client saw states in increasing version order, and all of them the same moves:
    the versions the first client saw."""
    finals = [c.state for c in clients]
    assert all(f is not None for f in finals)
    moves = [m["move"] for m in finals[0]["moves"]]  # type: ignore[index]
    for c in clients:
        versions = [m["version"] for m in c.messages if m["type"] == "state"]
        assert versions == sorted(versions), (c.name, versions)
        assert [m["move"] for m in c.state["moves"]] == moves  # type: ignore[index]
    return [m["version"] for m in clients[0].messages if m["type"] == "state"]
