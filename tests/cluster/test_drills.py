"""The cluster's longer failure drills (not in the default run; `pytest -m drill tests/cluster`):
Redis restarted mid-game, a node frozen (SIGSTOP) past its leases and resumed, and two nodes
racing to take the same rooms."""

from __future__ import annotations

import asyncio
import random
import re

import httpx
import pytest

from deploy.topology import Topology
from tests.cluster.helpers import (
    Endpoint,
    move,
    node,
    one_history,
    owner_of,
    wait_for,
)
from tests.server.live import seat_and_start

pytestmark = pytest.mark.drill

RETRY = ("room_unavailable",)


def _metric(endpoint: Endpoint, name: str) -> float:
    text = httpx.get(f"{endpoint.http}/metrics", timeout=30).text
    found = re.search(rf"^{name} ([0-9.e+-]+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def test_a_redis_restart_mid_game_loses_nothing(topology: Topology) -> None:
    """Both players sit on nodes that do not own the room, so every move crosses Redis; Redis
    is killed and started empty in the middle. The game goes on to its end with every move."""
    n1, n2, n3 = (node(n) for n in topology.nodes)
    ann, bob = n1.session("rann"), n1.session("rbob")
    room = n1.create_room(ann, "testrace", goal=20)

    async def scenario() -> None:
        a, b, w = (await n2.client(room, ann, "ann"), await n3.client(room, bob, "bob"),
                   await n1.client(room, None, "watcher"))
        await seat_and_start([a, b])
        rng = random.Random(3)
        for _ in range(5):
            await move({0: a, 1: b}, rng)
        before = [m["move"] for m in a.state["moves"]]  # type: ignore[index]
        topology.redis.restart()                       # every lease, subscription, event: gone
        for _ in range(3):
            await move({0: a, 1: b}, rng, retry_on=RETRY)
        wait_for(lambda: owner_of(topology, room))     # exactly one owner again
        while (a.state or {}).get("status") != "finished":
            await move({0: a, 1: b}, rng, retry_on=RETRY)
        await w.wait(lambda m: m["type"] == "state" and m["status"] == "finished", 60)
        one_history([a, b, w])
        final = [m["move"] for m in a.state["moves"]]  # type: ignore[index]
        assert final[:len(before)] == before
        assert [m["move"] for m in n1.record(room)["actions"]] == final
        for x in (a, b, w):
            await x.close()

    asyncio.run(scenario())
    wait_for(lambda: all(len(node(n).health()["cluster"]["nodes_alive"]) == 3
                         for n in topology.nodes))


def test_a_frozen_node_cannot_commit_and_rejoins(topology: Topology) -> None:
    """n1 owns a duel and an all-bot game when it is frozen (SIGSTOP) past its leases. The
    others take both rooms and go on; n1, resumed, commits nothing more for them, gives them
    up, and serves again: a player on it moves, and a room it creates is its own."""
    n1, n2, n3 = (node(n) for n in topology.nodes)
    ann, bob = n1.session("fann"), n1.session("fbob")
    duel = n1.create_room(ann, "testrace", goal=40)
    bots = n1.create_room(ann, "testrace", goal=40)
    n1.act(ann, bots, "bot", level="random")
    n1.act(ann, bots, "bot", level="random")
    assert n1.act(ann, bots, "start").status_code == 200

    async def scenario() -> None:
        a, b = await n2.client(duel, ann, "ann"), await n3.client(duel, bob, "bob")
        await seat_and_start([a, b])
        rng = random.Random(4)
        for _ in range(4):
            await move({0: a, 1: b}, rng)
        topology.nodes[0].freeze()
        try:
            others = topology.nodes[1:]
            wait_for(lambda: owner_of(topology, duel, others) and owner_of(topology, bots, others))
            for _ in range(4):                             # the game goes on without n1
                await move({0: a, 1: b}, rng, retry_on=RETRY)
            bot_game = n2.record(bots)["actions"]
        finally:
            topology.nodes[0].thaw()
        commits_before = _metric(n1, "gamehall_commit_seconds_count")
        wait_for(lambda: not {duel, bots} & set(n1.health()["cluster"]["rooms_owned"]))
        assert _metric(n1, "gamehall_commit_seconds_count") == commits_before
        later = n2.record(bots)["actions"]
        assert later[:len(bot_game)] == bot_game            # one history, never forked
        a1 = await n1.client(duel, ann, "ann-on-n1")       # n1 serves the room again
        players = {0: a1, 1: b}
        await move(players, rng, retry_on=RETRY)
        one_history([a1, b])
        for x in (a, b, a1):
            await x.close()

    asyncio.run(scenario())
    mine = n1.create_room(ann, "testline")
    assert owner_of(topology, mine).name == "n1"
    assert n1.health()["cluster"]["lease_changes"].get("lost", 0) >= 2


def test_two_nodes_racing_for_rooms_exactly_one_wins_each(topology: Topology) -> None:
    """n1 owns ten waiting rooms and dies; at once n2 and n3 both get a request for each room,
    so both try to take every one of them. Each room ends with exactly one owner and both
    requests carried out once."""
    n1, n2, n3 = (node(n) for n in topology.nodes)
    ann, bob = n1.session("cann"), n1.session("cbob")
    rooms = [n1.create_room(ann, "testline") for _ in range(10)]
    topology.nodes[0].kill9()
    try:
        async def join(endpoint: Endpoint, token: str, room: str, seat: str) -> int:
            async with httpx.AsyncClient(timeout=60) as client:
                r = await client.post(f"{endpoint.http}/api/rooms/{room}/join",
                                      json={"seat": seat},
                                      headers={"Authorization": f"Bearer {token}"})
                return r.status_code

        async def race() -> list[int]:
            calls = [join(n2, ann, r, "x") for r in rooms] + [join(n3, bob, r, "o")
                                                              for r in rooms]
            return list(await asyncio.gather(*calls))

        assert asyncio.run(race()) == [200] * 20
        owners = [n2.health()["cluster"]["rooms_owned"], n3.health()["cluster"]["rooms_owned"]]
        for room in rooms:
            assert (room in owners[0]) != (room in owners[1]), room
            seats = n2.record(room)["players"]
            assert seats == ["cann", "cbob"]
    finally:
        topology.nodes[0].start()
        topology.wait_formed()
