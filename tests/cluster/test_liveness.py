"""How a node keeps its rooms under load and how the others see it end, on a real redis-server:
the lease thread's renewals and heartbeat, a node whose connections closed (kill -9) judged
ended and its leases freed without waiting for them to run out (a live node never), a forwarded
request that waits for a busy owner and gives up on a dead one, or is answered by the room's
own event when the caller watches the room, and storage look-ups that a burst shares."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio import Redis

from deploy.topology import RedisServer
from gamehall.server.cluster import node as cluster_module
from gamehall.server.cluster.leases import Leases, Renewer
from gamehall.server.cluster.node import BEAT, SILENT_BEATS, Answer, Cluster, NotOwner
from gamehall.server.pubsub.redis_pubsub import RedisPubSub
from gamehall.server.storage import Coalescer
from gamehall.server.table.errors import RoomError
from gamehall.server.table.protocol import Request


class _Rooms:
    """The little of Storage the cluster's look for unheld rooms reads."""

    def __init__(self, ids: list[str]) -> None:
        self.ids = ids

    async def active_room_ids(self) -> list[str]:
        return list(self.ids)


def _node(server: RedisServer, name: str, rooms: list[str]) -> Cluster:
    pubsub = RedisPubSub(server.url, Cluster.new_holder(name))
    cluster = Cluster(pubsub, _Rooms(rooms), name, lease_ms=60_000)  # type: ignore[arg-type]
    cluster.steady_seconds = 0.0
    return cluster


def test_the_lease_thread_renews_what_is_held_and_beats(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        redis = Redis.from_url(redis_server.url, decode_responses=True)
        a, b = Leases(redis, "node-a", 60_000), Leases(redis, "node-b", 60_000)
        assert await a.acquire("r1") == 1
        assert await b.acquire("r2") == 1
        renewer = Renewer(redis_server.url, "node-a", 60_000)
        assert renewer.beat_and_renew("n1", ["r1", "r2"]) == [True, False]
        assert renewer.beat_and_renew("n1", []) == []
        assert await redis.get("gamehall:alive:node-a") == "n1"
        assert await redis.smembers("gamehall:nodes") == {"node-a"}
        assert await a.holders(["r1", "r2"]) == ["node-a", "node-b"]
        renewer.close()
        await redis.aclose()

    asyncio.run(scenario())


def test_a_node_whose_connections_closed_is_judged_ended_and_its_leases_freed(
        redis_server: RedisServer) -> None:
    async def scenario() -> None:
        rooms = ["r1", "r2", "r3"]
        dead, live, judge = (_node(redis_server, n, rooms) for n in ("n1", "n2", "n3"))
        for node in (dead, live, judge):
            await node.pubsub.open()
            await node._heartbeat()
        assert await dead.leases.acquire("r1") is not None
        assert await dead.leases.acquire("r2") is not None
        assert await live.leases.acquire("r3") is not None
        await dead.pubsub.close()   # as kill -9 does: its connections close, its keys stay
        others = [dead.holder, live.holder]
        assert await judge._ended(others) == set()  # it beat just now: not judged yet
        missed = int((SILENT_BEATS + 1) * BEAT * 1000)  # its heartbeat as it is once it missed
        await judge.pubsub.redis.set(f"gamehall:alive:{dead.holder}", "n1", px=60_000 - missed)
        await judge.pubsub.redis.set(f"gamehall:alive:{live.holder}", "n2", px=60_000 - missed)
        assert await judge._ended(others) == {dead.holder}
        assert await judge.leases.holders(rooms) == [None, None, live.holder]
        assert await judge.pubsub.redis.get(f"gamehall:alive:{dead.holder}") is None
        assert await judge._ended([live.holder]) == set()  # it listens: a late beat is not death
        await live.pubsub.close()
        await judge.pubsub.close()

    asyncio.run(scenario())


def test_a_node_knows_the_live_nodes_when_it_starts(redis_server: RedisServer) -> None:
    """A node's first look at the heartbeats is part of its start: its first health answer lists
    the nodes alive (it listed only itself until its first scan, half a second later: a test
    that played a whole game in that time saw a node that knew nobody)."""
    async def scenario() -> None:
        a, b, c = (_node(redis_server, n, []) for n in ("n1", "n2", "n3"))
        for node in (a, b):
            await node.pubsub.open()
            await node._heartbeat()
        await c.pubsub.open()
        c.scan_seconds = 3600.0  # no scan after the start: what it knows, it learnt there
        await c.start(object())  # type: ignore[arg-type]
        try:
            assert c.live == {a.holder, b.holder, c.holder}
            health = c.health()
            assert len(health["nodes_alive"]) == 3 and health["looked_s_ago"] is not None
        finally:
            await c.stop()
            for node in (a, b, c):
                await node.pubsub.close()

    asyncio.run(scenario())


class _SlowHost:
    """An owner that carries out forwarded requests only when told to (a busy node)."""

    def __init__(self) -> None:
        self.arrived = asyncio.Event()
        self.go = asyncio.Event()

    async def serve_forwarded(self, room_id: str, player: Any, req: Request,
                              answer: Answer | None = None) -> list[Any]:
        self.arrived.set()
        await self.go.wait()
        if room_id == "moved":
            raise NotOwner(room_id)
        return [{"type": "info", "text": f"done {req.kind} in {room_id}"}]


def test_a_forwarded_request_waits_for_a_busy_owner_and_not_for_a_dead_one(
        redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_module, "FORWARD_CHECK", 0.01)

    async def scenario() -> None:
        caller, owner = _node(redis_server, "n1", []), _node(redis_server, "n2", [])
        host = _SlowHost()
        owner.host = host  # type: ignore[assignment]
        for node in (caller, owner):
            await node.pubsub.open()
        owner.pubsub.on_direct = owner._on_direct
        caller.pubsub.on_direct = caller._on_direct
        req = Request("move", {"move": "a1", "version": 0}, None)
        call = asyncio.create_task(caller.forward(owner.holder, "r1", (1, "ann", False), req))
        await asyncio.wait_for(host.arrived.wait(), 10)
        await asyncio.sleep(0.5)   # 50 checks: the owner is busy but alive, the caller waits
        assert not call.done()
        host.go.set()
        assert await asyncio.wait_for(call, 10) == [{"type": "info", "text": "done move in r1"}]
        host.go.clear()
        host.arrived.clear()
        call = asyncio.create_task(caller.forward(owner.holder, "r2", (1, "ann", False), req))
        await asyncio.wait_for(host.arrived.wait(), 10)
        caller.gone.add(owner.holder)   # its heartbeat ran out meanwhile: given up on
        with pytest.raises(RoomError) as refused:
            await asyncio.wait_for(call, 10)
        assert refused.value.code == "room_unavailable"
        host.go.set()
        await asyncio.sleep(0.1)
        for node in (caller, owner):
            await node.pubsub.close()

    asyncio.run(scenario())


class _CommittingHost:
    """An owner whose every forwarded request commits a change: the room's state event says
    which requests it answers, as the hall's commit does."""

    def __init__(self, owner: Cluster) -> None:
        self.owner = owner
        self.answers: list[Answer | None] = []

    async def serve_forwarded(self, room_id: str, player: Any, req: Request,
                              answer: Answer | None = None) -> list[Any]:
        self.answers.append(answer)
        event: dict[str, Any] = {"event": "state", "revision": len(self.answers)}
        if answer is not None:
            answer.folded = await self.owner.pubsub.publish_remote(
                room_id, {**event, "answered": [answer.id]})
        else:
            await self.owner.pubsub.publish_remote(room_id, event)
        return []


def test_a_forwarded_change_is_answered_by_the_rooms_event_where_the_caller_watches_it(
        redis_server: RedisServer) -> None:
    async def scenario() -> None:
        caller, owner = _node(redis_server, "n1", []), _node(redis_server, "n2", [])
        host = _CommittingHost(owner)
        owner.host = host  # type: ignore[assignment]
        for node in (caller, owner):
            await node.pubsub.open()
        owner.pubsub.on_direct = owner._on_direct
        direct: list[dict[str, Any]] = []

        def on_direct(msg: dict[str, Any]) -> None:
            direct.append(msg)
            caller._on_direct(msg)

        caller.pubsub.on_direct = on_direct
        caller.pubsub.on_answered = caller._on_answered
        await caller.pubsub.watch("watched")
        events = caller.pubsub.subscribe("watched")
        req = Request("move", {"move": "a1", "version": 0}, None)
        assert await caller.forward(owner.holder, "watched", (1, "ann", False), req) == []
        got = await asyncio.wait_for(events.get(), 10)
        assert got["event"] == "state" and got["answered"] == [host.answers[0].id]  # type: ignore[union-attr]
        assert caller.pubsub.watching("watched")      # still watched once, as before the call
        caller.pubsub.unwatch("watched")
        assert not caller.pubsub.watching("watched")
        # a room the caller does not follow: the owner answers on the caller's own channel
        assert await caller.forward(owner.holder, "elsewhere", (1, "ann", False), req) == []
        assert host.answers[1] is None
        assert [m["t"] for m in direct] == ["reply"]  # one answer of its own, for that one only
        for node in (caller, owner):
            await node.pubsub.close()

    asyncio.run(scenario())


def test_lookups_asked_for_together_share_a_query() -> None:
    async def scenario() -> None:
        calls: list[list[int]] = []

        async def fetch(keys: list[int]) -> dict[int, str]:
            calls.append(keys)
            await asyncio.sleep(0)
            return {k: f"v{k}" for k in keys if k % 10}

        shared: Coalescer[int, str] = Coalescer(fetch)
        got = await asyncio.gather(*(shared.get(k) for k in range(1, 101)))
        assert got == [f"v{k}" if k % 10 else None for k in range(1, 101)]
        assert len(calls) <= 2 and sorted(k for c in calls for k in c) == list(range(1, 101))
        assert await shared.get(7) == "v7"   # a lone look-up: a query of its own

        async def broken(keys: list[int]) -> dict[int, str]:
            raise OSError("database gone")

        failing: Coalescer[int, str] = Coalescer(broken)
        outcomes = await asyncio.gather(*(failing.get(k) for k in range(5)),
                                        return_exceptions=True)
        assert all(isinstance(o, OSError) for o in outcomes)

    asyncio.run(scenario())
