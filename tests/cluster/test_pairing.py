"""Pairing across three nodes (issue 44): a seek posted through one node is accepted through
another; players who join a pool through different nodes are paired by the one node that runs
the pool (its lease); and when that node dies in the middle of a wave (its choice written, its
rooms not stored yet: the test holds its storage's commits at a gate, then kills it), another
node takes the pool over and stores those rooms: every entry is paired once, none is lost."""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from deploy.topology import Node, Topology
from tests.cluster.conftest import fresh_topology
from tests.cluster.helpers import NODE_ENV, Endpoint, node, wait_for
from tests.server.lobby_client import Lobby

POOL = "hula-5-3"
TABLE = 8
PER_ADDRESS = 12
AWAY = 20
"""Seconds a waiting entry's player may be neither polling nor connected (nodes mark their
connected players every 5 s): long past any stall of a loaded machine's event loop."""
"""The address's cap (every test client comes from one address): above the `TABLE` entries a
wave takes at once, so only the race test meets it."""
ENV = {**NODE_ENV, "GAMEHALL_PAIRING_WAVE_SECONDS": "3600",
       "GAMEHALL_PAIRING_WAVE_PLAYERS": str(TABLE),
       "GAMEHALL_PAIRING_PER_ADDRESS": str(PER_ADDRESS),
       "GAMEHALL_PAIRING_AWAY_SECONDS": str(AWAY),
       "GAMEHALL_PAIRING_RATE": "1000/minute", "GAMEHALL_PAIRING_ADDRESS_RATE": "100000/minute"}
"""Waves only when `TABLE` players wait (never on the timer), so the test decides when a wave
fires: at its last join."""
_names = itertools.count()


class GatedNode(Node):
    """A node whose storage commits the test can hold at a gate (tests/server/gated.py)."""

    def launch(self) -> None:
        self._spawn([sys.executable, "-m", "tests.server.gated", "serve"],
                    env=self.environment())


class GatedTopology(Topology):
    """deploy/topology.py's cluster of `GatedNode`s."""

    def __init__(self, db: str, nodes: int = 3, folder: Path | None = None,
                 port: int | None = None, env: dict[str, str] | None = None) -> None:
        super().__init__(db, nodes, folder, port, env)
        self.nodes = [GatedNode(n.name, self.folder, n.db, n.redis, n.extra, n.port)
                      for n in self.nodes]


@pytest.fixture(scope="module")
def cluster(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topology]:
    with fresh_topology(pg_url, tmp_path_factory.mktemp("pairing"), 3, ENV,
                        GatedTopology) as topo:
        yield topo


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_seek_posted_on_one_node_is_accepted_on_another(cluster: Topology) -> None:
    one, two, three = (node(n) for n in cluster.nodes)
    ann, bob = one.session(f"clseek{next(_names)}"), two.session(f"clseek{next(_names)}")
    made = httpx.post(f"{one.http}/api/seeks", headers=_auth(ann), timeout=30,
                      json={"game": "hula", "options": {"size": 5}, "clock": "10+5"})
    assert made.status_code == 201, made.text
    seek = made.json()["id"]
    assert seek in {s["id"] for s in httpx.get(f"{two.http}/api/seeks").json()["seeks"]}
    took = httpx.post(f"{two.http}/api/seeks/{seek}/accept", headers=_auth(bob), timeout=30)
    assert took.status_code == 200, took.text
    room = httpx.get(f"{three.http}/api/rooms/{took.json()['room']}", timeout=30).json()
    assert room["status"] == "playing"


def _address_load(at: Endpoint) -> int:
    """The address's pool entries waiting and seeks open (all of the tests' are one address)."""
    pools = httpx.get(f"{at.http}/api/pools", timeout=30).json()["pools"]
    open_seeks = httpx.get(f"{at.http}/api/seeks", timeout=30).json()["seeks"]
    return sum(int(p["waiting"]) for p in pools) + len(open_seeks)


def test_concurrent_joins_from_one_address_over_every_node_stop_at_its_cap(
        cluster: Topology) -> None:
    """Each node counts the address's entries in its own transaction: unless the address is
    locked across nodes, joins racing through different nodes all see room under the cap."""
    ends = [node(n) for n in cluster.nodes]
    before = _address_load(ends[0])
    people = [(at, at.session(f"claddr{next(_names)}"))
              for at in (ends[i % len(ends)] for i in range(3 * PER_ADDRESS))]
    away = {"rating_range": [0, 100]}  # nobody fits anybody: no wave pairs them meanwhile

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=60) as c:
            return await asyncio.gather(*[
                c.post(f"{at.http}/api/pools/hula-2d/join", headers=_auth(t), json=away)
                for at, t in people])

    answers = asyncio.run(race())
    codes = [r.status_code for r in answers]
    assert codes.count(202) == PER_ADDRESS - before, codes
    assert {r.json()["code"] for r in answers if r.status_code == 429} == {"address_full"}
    assert _address_load(ends[1]) == PER_ADDRESS
    for (at, token), r in zip(people, answers, strict=True):  # leave the pools as found
        if r.status_code == 202:
            httpx.delete(f"{at.http}/api/pools/entries/{r.json()['id']}", headers=_auth(token),
                         timeout=30)
    assert _address_load(ends[2]) == before


def test_a_player_connected_to_another_node_keeps_their_entry_and_one_gone_loses_it(
        cluster: Topology) -> None:
    """The node running the pool cancels an entry whose player neither polls nor holds a
    socket anywhere; one whose player holds a lobby socket on another node waits on (that
    node marks them seen)."""
    pool = "hula-2d"
    holder = _pool_holder(cluster, pool)
    other = node(next(n for n in cluster.nodes if n is not holder))
    ann, bob = (other.session(f"claway{next(_names)}") for _ in range(2))
    nobody = {"rating_range": [0, 100]}  # nobody fits anybody: no wave pairs them meanwhile
    before = int(next(p for p in httpx.get(f"{other.http}/api/pools", timeout=30)
                      .json()["pools"] if p["id"] == pool)["waiting"])

    async def run() -> None:
        lobby = await Lobby.open(other.http)
        try:
            await lobby.ws.send(json.dumps({"type": "identify", "token": ann, "id": "me"}))
            while (await lobby.next()).get("id") != "me":
                pass
            ids = []
            for token in (ann, bob):
                r = httpx.post(f"{node(holder).http}/api/pools/{pool}/join", json=nobody,
                               headers=_auth(token), timeout=30)
                assert r.status_code == 202, r.text
                ids.append(r.json()["id"])
            await lobby.until(lambda pools: pools[pool]["waiting"] == before + 2,
                              section="pools")
            await lobby.until(lambda pools: pools[pool]["waiting"] == before + 1,
                              timeout=AWAY * 4, section="pools")  # bob went: cancelled
            assert _entry(other, bob, ids[1])["status"] == "cancelled"
            assert _entry(other, ann, ids[0])["status"] == "waiting"
            httpx.delete(f"{other.http}/api/pools/entries/{ids[0]}", headers=_auth(ann),
                         timeout=30)
        finally:
            await lobby.close()

    asyncio.run(run())


def test_a_player_in_the_lobby_on_two_nodes_waits_until_the_last_socket_closes(
        cluster: Topology) -> None:
    """Two tabs of one player behind the load balancer, their lobby sockets on two nodes:
    closing the one on the first node keeps the pool entry (the player is still in the lobby);
    closing the last one, on the second node, cancels it. Each node's decision is read once
    its part of the player's Redis hash (`lobby:present:{nickname}`) is gone, which it deletes
    only after acting on it."""
    pool = "hula-2d"
    first, second = (node(n) for n in cluster.nodes[:2])
    name = f"twotabs{next(_names)}"
    ann = first.session(name)
    r = redis.Redis.from_url(cluster.redis.url, decode_responses=True)
    key = f"gamehall:lobby:present:{name}"

    async def identified(at: Endpoint) -> Lobby:
        lobby = await Lobby.open(at.http)
        await lobby.ws.send(json.dumps({"type": "identify", "token": ann, "id": "me"}))
        while (await lobby.next()).get("id") != "me":
            pass
        return lobby

    async def run() -> None:
        tabs = [await identified(first), await identified(second)]
        try:
            wait_for(lambda: r.hlen(key) == 2)
            joined = httpx.post(f"{first.http}/api/pools/{pool}/join", headers=_auth(ann),
                                json={"rating_range": [0, 100]}, timeout=30)
            assert joined.status_code == 202, joined.text
            entry = joined.json()["id"]
            await tabs[0].close()
            wait_for(lambda: r.hlen(key) == 1)  # the first node decided: still in the lobby
            assert _entry(second, ann, entry)["status"] == "waiting"
            await tabs[1].close()
            wait_for(lambda: r.hlen(key) == 0)  # the second node decided: gone
            assert _entry(second, ann, entry)["status"] == "cancelled"
        finally:
            for tab in tabs:
                await tab.close()

    try:
        asyncio.run(run())
    finally:
        r.close()


def _pool_holder(topo: Topology, pool: str = POOL) -> Node:
    """The node that runs the pool's waves: the holder of its lease in Redis."""
    r = redis.Redis.from_url(topo.redis.url, decode_responses=True)
    try:
        holder = wait_for(lambda: r.get(f"gamehall:lease:pool:{pool}"))
    finally:
        r.close()
    return next(n for n in topo.nodes if n.alive()
                and node(n).health()["cluster"]["holder"] == holder)


def _entry(at: Endpoint, token: str, entry: str) -> dict[str, Any]:
    r = httpx.get(f"{at.http}/api/pools/entries/{entry}", headers=_auth(token), timeout=30)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_node_killed_mid_wave_loses_no_entry_and_pairs_no_one_twice(
        cluster: Topology) -> None:
    holder = _pool_holder(cluster)
    others = [n for n in cluster.nodes if n is not holder and n.alive()]
    gate = node(holder).http
    assert httpx.post(f"{gate}/_gate/hold", timeout=30).status_code == 200
    people: list[tuple[str, str, str]] = []  # (nickname, token, entry)
    for i in range(TABLE):  # through every node in turn; the last join fires the wave
        at = node(cluster.nodes[i % len(cluster.nodes)])
        nick = f"clpool{next(_names)}"
        token = at.session(nick)
        r = httpx.post(f"{at.http}/api/pools/{POOL}/join", headers=_auth(token), timeout=30)
        assert r.status_code == 202, r.text
        people.append((nick, token, r.json()["id"]))
    # the wave's choice is written and its first room waits at the gate: mid-wave
    wait_for(lambda: httpx.get(f"{gate}/_gate", timeout=5).json()["held"] >= 1)
    holder.kill9()
    survivor = node(others[0])
    wait_for(lambda: all(_entry(survivor, t, e)["status"] == "paired" for _, t, e in people),
             timeout=90)
    rooms: dict[str, list[str]] = {}
    for nick, token, entry in people:
        rooms.setdefault(_entry(survivor, token, entry)["room"], []).append(nick)
    assert len(rooms) == TABLE // 2 and all(len(v) == 2 for v in rooms.values())
    seated: list[str] = []
    for room_id, nicks in rooms.items():
        room = httpx.get(f"{survivor.http}/api/rooms/{room_id}", timeout=30).json()
        assert room["status"] == "playing"
        players = sorted(s["player"] for s in room["seats"])
        assert players == sorted(nicks)
        seated += players
    assert sorted(seated) == sorted(n for n, _, _ in people)  # each once, nobody twice
    pools = httpx.get(f"{survivor.http}/api/pools", timeout=30).json()["pools"]
    assert next(p for p in pools if p["id"] == POOL)["waiting"] == 0
