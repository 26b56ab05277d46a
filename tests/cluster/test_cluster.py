"""Three nodes serve one hall (deploy/topology.py: PostgreSQL, Redis, three `gamehall serve`
nodes configured by GAMEHALL_* variables, nginx in front): a game whose players and watcher sit
on three different nodes, and the owner of a room killed with kill -9 in the middle of it."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import redis

from deploy.topology import Topology
from tests.cluster.helpers import (
    Endpoint,
    move,
    node,
    one_history,
    owner_of,
)
from tests.server.live import seat_and_start


def test_a_game_across_three_nodes(topology: Topology) -> None:
    """Ann plays on n1, Bob on n2, Carol watches on n3; everything else goes through nginx.
    Every client sees the same versions in the same order, and the room's owner is one node."""
    front = Endpoint(topology.http)
    n1, n2, n3 = (node(n) for n in topology.nodes)
    ann, bob = front.session("xann"), front.session("xbob")
    carol = front.session("xcarol")
    room = front.create_room(ann, "testrace", goal=25)

    async def scenario() -> None:
        a = await n1.client(room, ann, "ann")
        b = await n2.client(room, bob, "bob")
        c = await n3.client(room, carol, "carol")
        await seat_and_start([a, b])
        await c.state_at(0)
        await b.send({"type": "chat", "text": "good luck"})      # chat from a non-owner node
        for who in (a, c):
            got = await who.wait(lambda m: m["type"] == "chat")
            assert got["from"] == "xbob" and got["text"] == "good luck"
        rng = random.Random(5)
        while (a.state or {}).get("status") != "finished":
            await move({0: a, 1: b}, rng)
        await c.wait(lambda m: m["type"] == "state" and m["status"] == "finished")
        versions = one_history([a, b, c])
        assert versions[-1] == len(a.state["moves"])  # type: ignore[index]
        seen = [m for m in c.messages if m["type"] == "state"]
        assert all(s["seats"][0]["connected"] and s["seats"][1]["connected"]
                   for s in seen[-3:]), _presence_report(topology, room, seen)
        for x in (a, b, c):
            await x.close()
        record = front.record(room)
        assert [m["move"] for m in record["actions"]] == [m["move"] for m in a.state["moves"]]  # type: ignore[index]

    asyncio.run(scenario())
    owners = [h["cluster"] for h in (n1.health(), n2.health(), n3.health())]
    assert {o["node"] for o in owners} == {"n1", "n2", "n3"}
    assert len({o["holder"] for o in owners}) == 3
    assert all(len(o["nodes_alive"]) == 3 for o in owners), _liveness_report(topology, owners)
    metrics = httpx.get(f"{topology.http}/metrics", timeout=30).text
    for name in ("gamehall_moves_total", "gamehall_commit_seconds_bucket",
                 "gamehall_broadcast_seconds_bucket", "gamehall_rooms", "gamehall_connections",
                 "gamehall_bot_queue", "gamehall_lease_changes_total",
                 "gamehall_forward_seconds_bucket", "process_cpu_seconds_total"):
        assert name in metrics, name


class Publications:
    """Every publication on the hall's Redis channels while it listens (a pattern subscriber on
    a thread of its own), parsed: a test can then count the publications of one room by kind,
    whatever other rooms (an earlier test's departures) publish meanwhile."""

    MARK = "gamehall:test-mark"

    def __init__(self, topology: Topology) -> None:
        self.client = redis.Redis.from_url(topology.redis.url, decode_responses=True)
        self.sub = self.client.pubsub()
        self.sub.psubscribe("gamehall:*")
        m = self.sub.get_message(timeout=30)
        assert m is not None and m["type"] == "psubscribe", m
        self.seen: list[tuple[str, dict[str, Any]]] = []

    def until_now(self) -> list[tuple[str, dict[str, Any]]]:
        """Everything published before this call: a mark published now comes after it all."""
        self.client.publish(self.MARK, "{}")
        while True:
            m = self.sub.get_message(timeout=30)
            assert m is not None, "the mark did not come back"
            if m["type"] != "pmessage":
                continue
            if m["channel"] == self.MARK:
                return list(self.seen)
            self.seen.append((str(m["channel"]), json.loads(m["data"])))

    def close(self) -> None:
        self.sub.close()
        self.client.close()


def test_the_state_event_answers_a_forwarded_move(topology: Topology) -> None:
    """n1 owns the room; Ann plays on n2 and Bob on n3, so every move is passed to n1. The
    state event of its commit both updates the other nodes and answers the caller: two
    publications per move (the request, the event), no answer of its own."""
    n1, n2, n3 = (node(n) for n in topology.nodes)
    ann, bob = n1.session("fann"), n1.session("fbob")
    room = n1.create_room(ann, "testrace", goal=30)
    assert owner_of(topology, room).name == "n1"

    async def scenario() -> None:
        a = await n2.client(room, ann, "ann")
        b = await n3.client(room, bob, "bob")
        await seat_and_start([a, b])
        rng = random.Random(3)
        listening = Publications(topology)
        try:
            for _ in range(4):
                await move({0: a, 1: b}, rng)
            seen = listening.until_now()
        finally:
            listening.close()
        calls = [m for c, m in seen if c.startswith("gamehall:node:") and m.get("t") == "call"
                 and m.get("room") == room]
        ids = {m["id"] for m in calls}
        replies = [m for c, m in seen if c.startswith("gamehall:node:") and m.get("t") == "reply"
                   and m.get("id") in ids]
        states = [m for c, m in seen if c == f"gamehall:room:{room}" and m.get("event") == "state"]
        assert len(calls) == 4 and not replies, seen
        assert len(states) == 4 and all(s.get("answered") for s in states), seen
        assert sorted(i for s in states for i in s["answered"]) == sorted(m["id"] for m in calls)
        # besides: late news of the start (its notice, published after the commit that the
        # players saw) and of who connected; nothing else
        others = [m for c, m in seen if c == f"gamehall:room:{room}" and m.get("event") != "state"]
        assert all(m.get("event") == "presence" or (m.get("event") == "message"
                   and m["message"].get("type") == "info") for m in others), others
        one_history([a, b])
        for x in (a, b):
            await x.close()

    asyncio.run(scenario())


def test_kill_9_of_a_rooms_owner_mid_game(topology: Topology) -> None:
    """n1 owns two rooms: Ann (on n1) against Bob (on n2), and Bob against a bot that is thinking
    (2 s) when n1 dies. Another node takes both rooms from PostgreSQL; Ann reconnects through
    nginx; every move anyone saw acknowledged is in the game, once; the bot plays on."""
    n1 = node(topology.nodes[0])
    n2, n3 = node(topology.nodes[1]), node(topology.nodes[2])
    front = Endpoint(topology.http)
    ann, bob, dan = n1.session("kann"), n1.session("kbob"), n1.session("kdan")
    duel = n1.create_room(ann, "testrace", goal=30)
    solo = n1.create_room(bob, "testline", size=4)
    assert owner_of(topology, duel).name == "n1" and owner_of(topology, solo).name == "n1"

    async def scenario() -> None:
        a = await n1.client(duel, ann, "ann")
        b = await n2.client(duel, bob, "bob")
        w = await n3.client(duel, dan, "dan")
        await seat_and_start([a, b])
        rng = random.Random(9)
        for _ in range(6):
            await move({0: a, 1: b}, rng)
        b_solo = await n2.client(solo, bob, "bob-solo")
        await b_solo.command("/join x")
        await b_solo.command("/bot testthink:2 o")
        await b_solo.command("/start")
        st = await b_solo.wait(lambda m: m["type"] == "state" and m["status"] == "playing"
                               and m["to_move"] == 0)
        await b_solo.send({"type": "move", "move": st["legal_moves"][0], "version": 0})
        mid = await b_solo.wait(lambda m: m["type"] == "state" and m["version"] == 1)
        assert mid["to_move"] == 1                           # the bot's turn: it thinks
        acknowledged = [m["move"] for m in (w.state or {})["moves"]]

        topology.nodes[0].kill9()                            # the owner of both rooms

        bot_moved = await b_solo.wait(lambda m: m["type"] == "state" and m["version"] >= 2, 60)
        assert bot_moved["moves"][1]["seat"] == 1            # the bot played on, elsewhere
        a2 = await front.client(duel, ann, "ann-again")      # the page reconnects, to any node
        assert [m["move"] for m in a2.state["moves"]][:len(acknowledged)] == acknowledged  # type: ignore[index]
        players = {0: a2, 1: b}
        while (a2.state or {}).get("status") != "finished":
            await move(players, rng, retry_on=("room_unavailable",))
        await w.wait(lambda m: m["type"] == "state" and m["status"] == "finished", 60)
        one_history([a2, b, w])
        final = [m["move"] for m in a2.state["moves"]]  # type: ignore[index]
        assert final[:len(acknowledged)] == acknowledged
        record = front.record(duel)
        assert [m["move"] for m in record["actions"]] == final
        for x in (a2, b, w, b_solo):
            await x.close()

    try:
        asyncio.run(scenario())
        new_owner = owner_of(topology, solo)
        assert new_owner.name in ("n2", "n3")
        changes = node(new_owner).health()["cluster"]["lease_changes"]
        assert changes.get("acquired", 0) >= 1
    finally:
        topology.nodes[0].start()                            # the cluster is whole again
        topology.wait_formed()


def test_http_players_on_a_following_node_read_every_acknowledged_move(
        topology: Topology) -> None:
    """Ann and Bob play by HTTP alone, no WebSocket anywhere. n1 owns the room; after each move
    acknowledged on n1, every seat's GET on every node answers the new version at once, the
    following nodes that have rendered the room for that seat before included."""
    nodes = [node(n) for n in topology.nodes]
    n1 = nodes[0]
    ann, bob = n1.session("hann"), n1.session("hbob")
    room = n1.create_room(ann, "testrace", goal=25)
    assert owner_of(topology, room).name == "n1"
    for token in (ann, bob):
        assert n1.act(token, room, "join").status_code == 200
    assert n1.act(ann, room, "start").status_code == 200

    def read(at: Endpoint, token: str) -> dict[str, object]:
        r = httpx.get(f"{at.http}/api/rooms/{room}", timeout=30,
                      headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        return dict(r.json())

    tokens = {0: ann, 1: bob}
    for _ in range(4):
        for at in nodes:  # every node renders the room for both seats before the move
            for token in tokens.values():
                read(at, token)
        seat = int(read(n1, ann)["to_move"])  # type: ignore[call-overload]
        st = read(n1, tokens[seat])
        version = int(st["version"])  # type: ignore[call-overload]
        moved = n1.act(tokens[seat], room, "move", move=st["legal_moves"][0],  # type: ignore[index]
                       version=version)
        assert moved.status_code == 200, moved.text
        acknowledged = moved.json()["state"]["version"]
        assert acknowledged > version
        for at in nodes:
            for token in tokens.values():
                assert read(at, token)["version"] == acknowledged, at.name


def _presence_report(topo: Topology, room: str, seen: list[dict[str, object]]) -> str:
    """What a failed presence check needs to be understood: each state's flags, the presence
    hash in Redis, and every node's view of the cluster."""
    r = redis.Redis.from_url(topo.redis.url, decode_responses=True)
    try:
        stored = r.hgetall(f"gamehall:presence:{room}")
    finally:
        r.close()
    views = {n.name: node(n).health()["cluster"] for n in topo.nodes}
    flags = [(s["version"], s["seats"][0]["connected"], s["seats"][1]["connected"])  # type: ignore[index]
             for s in seen]
    return (f"flags {flags}\nhash {stored}\n"
            + "\n".join(f"{k}: holder {v['holder']} alive {v['nodes_alive']}"
                         for k, v in views.items()))



def _liveness_report(topo: Topology, views: list[dict[str, object]]) -> str:
    """What a failed liveness check needs to be understood: each node's view, the node set and
    heartbeats in Redis (time to live left), and what each node logged."""
    r = redis.Redis.from_url(topo.redis.url, decode_responses=True)
    try:
        members = sorted(str(m) for m in r.smembers("gamehall:nodes"))
        beats = {m: r.pttl(f"gamehall:alive:{m}") for m in members}
    finally:
        r.close()
    logs = "\n".join(f"--- {n.name}\n" + "\n".join(
        line for line in n.log.read_text().splitlines() if not line.startswith("INFO"))[-2000:]
        for n in topo.nodes)
    seen = [(v["node"], v["holder"], v["nodes_alive"], v.get("looked_s_ago")) for v in views]
    return f"views {seen}\nredis nodes {members} ttl {beats}\n{logs}"
