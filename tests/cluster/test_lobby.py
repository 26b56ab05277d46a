"""The lobby pushed across a cluster (issue 44): a lobby socket on node 1 hears a room created
on node 2 (which owns it), its seats filled through node 3 and its start, without asking; a
lobby socket on node 3 opened afterwards has it in its snapshot. A pool joined through node 2
and a seek posted through node 3 reach node 1's lobby too."""

from __future__ import annotations

import asyncio

import httpx

from deploy.topology import Topology
from tests.cluster.helpers import node, owner_of
from tests.server.live import auth
from tests.server.lobby_client import Lobby


def test_a_room_made_on_node_2_reaches_a_lobby_on_node_1(topology: Topology) -> None:
    one, two, three = (node(n) for n in topology.nodes)

    async def run() -> None:
        lobby = await Lobby.open(one.http)  # anonymous, on node 1
        ann, bob = two.session("clann"), three.session("clbob")
        room = two.create_room(ann, "hula")
        assert owner_of(topology, room).name == topology.nodes[1].name
        await lobby.until(lambda rooms: room in rooms)
        assert lobby.rooms[room]["status"] == "waiting"
        for at, token in ((two, ann), (three, bob)):
            assert at.act(token, room, "join").status_code == 200
        await lobby.until(lambda rooms: all(s["player"] for s in rooms[room]["seats"]))
        assert three.act(ann, room, "start").status_code == 200
        await lobby.until(lambda rooms: rooms[room]["status"] == "playing")
        later = await Lobby.open(three.http)
        await later.until(lambda rooms: room in rooms and rooms[room]["status"] == "playing")
        assert any(line["id"] == room for line in later.messages[0]["rooms"])  # the snapshot
        await later.close()

        carl, dan = two.session("clcarl"), three.session("cldan")
        joined = httpx.post(f"{two.http}/api/pools/halali-10-5/join", headers=auth(carl),
                            timeout=30)
        assert joined.status_code == 202, joined.text
        await lobby.until(lambda pools: pools["halali-10-5"]["waiting"] >= 1, section="pools")
        seek = httpx.post(f"{three.http}/api/seeks", json={"game": "hula", "clock": "10+5"},
                          headers=auth(dan), timeout=30)
        assert seek.status_code == 201, seek.text
        await lobby.until(lambda seeks: seek.json()["id"] in seeks, section="seeks")
        await lobby.close()

    asyncio.run(run())
