"""Who is connected, across nodes: a player whose WebSocket is open on any node is never
absent, however long they say nothing, and whoever claims (on any node) is refused; once the
connection closes, the allowance runs and the claim is accepted."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest

from deploy.topology import Topology
from tests.cluster.conftest import fresh_topology
from tests.cluster.helpers import NODE_ENV, node, owner_of, wait_for
from tests.server.live import seat_and_start

ABSENT_SECONDS = 2.0


@pytest.fixture(scope="module")
def absent_topology(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topology]:
    env = {**NODE_ENV, "GAMEHALL_ABSENT_SECONDS": str(ABSENT_SECONDS)}
    with fresh_topology(pg_url, tmp_path_factory.mktemp("absent"), 3, env) as topo:
        yield topo


def test_a_silent_open_connection_on_any_node_is_never_claimed_against(
        absent_topology: Topology) -> None:
    n1, n2, n3 = (node(n) for n in absent_topology.nodes)
    ann, bob = n1.session("pann"), n1.session("pbob")
    room = n1.create_room(ann, "testline")
    assert owner_of(absent_topology, room).name == "n1"

    async def scenario() -> None:
        a = await n1.client(room, ann, "ann")
        b = await n2.client(room, bob, "bob")       # Bob sits on a node that does not own it
        await seat_and_start([a, b])
        await a.send({"type": "move", "move": "b2", "version": 0, "id": "m0"})
        await b.state_at(1)
        time.sleep(ABSENT_SECONDS * 1.5)             # Bob thinks, silently, past the allowance
        for at in (n1, n2, n3):                      # n3 keeps no copy: it reads Redis
            st = httpx.get(f"{at.http}/api/rooms/{room}", timeout=30,
                           headers={"Authorization": f"Bearer {ann}"}).json()
            assert st["seats"][1]["connected"] and st["absent"] is None, (at.name, st)
            claim = at.act(ann, room, "claim")
            assert claim.status_code == 409 and claim.json()["code"] == "not_absent", at.name
            st = claim.json()
            assert "absent" not in st or st.get("absent") is None
        assert a.state is not None and a.state["absent"] is None
        assert a.state["seats"][1]["connected"]
        await b.close()                              # now he is gone: the allowance runs
        away = wait_for(lambda: httpx.get(f"{n3.http}/api/rooms/{room}", timeout=30,
                                          headers={"Authorization": f"Bearer {ann}"}
                                          ).json()["absent"])
        assert away["seat"] == 1 and away["player"] == "pbob" and away["claim_in_ms"] > 0
        got = wait_for(lambda: n3.act(ann, room, "claim").status_code == 200, timeout=30)
        assert got
        end = await a.wait(lambda m: m["type"] == "state" and m["status"] == "finished")
        assert end["ended_by"] == "claim"
        await a.close()

    asyncio.run(scenario())


def test_a_node_that_runs_late_keeps_its_players_connected(absent_topology: Topology) -> None:
    """Bob's node stops running for twice its heartbeat's life (a machine too busy, as CI's
    is): the others stop counting it alive, but it still holds Bob's connection, so Bob stays
    connected for them, and Ann cannot claim against him meanwhile or after."""
    n1, n2, _ = absent_topology.nodes
    e1, e2 = node(n1), node(n2)
    ann, bob = e1.session("lann"), e1.session("lbob")
    room = e1.create_room(ann, "testline")
    assert owner_of(absent_topology, room).name == "n1"

    def seen_from_n1() -> dict[str, object]:
        return dict(httpx.get(f"{e1.http}/api/rooms/{room}", timeout=30,
                              headers={"Authorization": f"Bearer {ann}"}).json())

    async def scenario() -> None:
        a = await e1.client(room, ann, "ann")
        b = await e2.client(room, bob, "bob")
        await seat_and_start([a, b])
        await a.send({"type": "move", "move": "b2", "version": 0, "id": "m0"})
        await b.state_at(1)
        await a.close()
        lease = float(NODE_ENV["GAMEHALL_LEASE_MS"]) / 1000
        n2.freeze()
        try:
            late = time.monotonic() + 2 * lease + ABSENT_SECONDS
            wait_for(lambda: len(e1.health()["cluster"]["nodes_alive"]) == 2, timeout=30)
            while time.monotonic() < late:
                st = seen_from_n1()
                assert st["seats"][1]["connected"] and st["absent"] is None, st  # type: ignore[index]
                assert e1.act(ann, room, "claim").status_code == 409
                time.sleep(0.2)
        finally:
            n2.thaw()
        wait_for(lambda: len(e1.health()["cluster"]["nodes_alive"]) == 3, timeout=30)
        assert e1.act(ann, room, "claim").status_code == 409
        assert seen_from_n1()["status"] == "playing"
        await b.close()

    asyncio.run(scenario())
