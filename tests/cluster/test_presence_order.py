"""Presence across nodes keeps the latest news whatever order Redis's answers come in: a hash
read that began before a node's presence event never overwrites that event, and one node's
writes of a room reach Redis one at a time, the latest last."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from redis.asyncio import Redis

from deploy.topology import RedisServer
from gamehall.server.cluster.node import Cluster
from gamehall.server.pubsub.redis_pubsub import RedisPubSub


class _Rooms:
    async def active_room_ids(self) -> list[str]:
        return []


def _node(server: RedisServer, name: str) -> Cluster:
    cluster = Cluster(RedisPubSub(server.url, Cluster.new_holder(name)), _Rooms(),  # type: ignore[arg-type]
                      name, lease_ms=60_000)
    return cluster


def test_an_older_hash_read_never_overwrites_a_newer_presence_event(
        redis_server: RedisServer) -> None:
    """n3 reads room r's presence twice at once (it starts following r while a node it had
    judged gone comes back); Bob connects on n2 in between, and the read that began first
    answers last, without him. n3 keeps Bob."""
    async def scenario() -> None:
        n2, n3 = _node(redis_server, "n2"), _node(redis_server, "n3")
        n3.live.add(n2.holder)
        old = '{"players":[],"watchers":{"?":1}}'
        await n3.pubsub.redis.hset("gamehall:presence:r", n2.holder, old)
        real = n3.pubsub.redis.hgetall
        calls = 0

        async def slow_first(key: str) -> Any:
            nonlocal calls
            calls += 1
            if calls == 1:
                snapshot = dict(await real(key))
                await asyncio.sleep(0.2)     # its answer comes after everything below
                return snapshot
            return await real(key)

        n3.pubsub.redis.hgetall = slow_first  # type: ignore[method-assign]
        n3.presence.expect_presence("r")
        first = asyncio.create_task(n3.presence.load_presence("r"))
        await asyncio.sleep(0.05)            # the first read has its (old) snapshot
        bob = '{"players":[7],"watchers":{"bob":1}}'
        await n3.pubsub.redis.hset("gamehall:presence:r", n2.holder, bob)
        assert n3.presence.note_presence("r", n2.holder, bob) == {7}   # Bob's event
        await n3.presence.load_presence("r")          # a second read, answered at once
        await first
        assert n3.presence.remote_players("r") == {7}
        assert n3.presence.remote_watchers("r") == Counter({"bob": 1})
        for c in (n2, n3):
            await c.pubsub.redis.aclose()

    asyncio.run(scenario())


def test_one_nodes_writes_of_a_room_end_with_the_latest(redis_server: RedisServer) -> None:
    """Ann connects and leaves at once on n1: two writes of room r's presence start together;
    Redis ends with the last (no one there), never the first."""
    async def scenario() -> None:
        n1 = _node(redis_server, "n1")
        real = n1.pubsub.redis.hset
        calls = 0

        async def slow_first_hset(*args: Any) -> Any:
            nonlocal calls
            calls += 1
            if calls == 1:
                await asyncio.sleep(0.2)     # the first write reaches Redis last, if let
            return await real(*args)

        n1.pubsub.redis.hset = slow_first_hset  # type: ignore[method-assign]
        await asyncio.gather(n1.presence.set_presence("r", {5}, Counter({"ann": 1})),
                             n1.presence.set_presence("r", set(), Counter()))
        redis = Redis.from_url(redis_server.url, decode_responses=True)
        assert await redis.hgetall("gamehall:presence:r") == {}
        await redis.aclose()
        await n1.pubsub.redis.aclose()

    asyncio.run(scenario())


def test_a_node_that_has_not_looked_yet_counts_the_players_of_live_nodes(
        redis_server: RedisServer) -> None:
    """n3 has just started and not yet looked at who is alive (its live set is itself) when
    Carol opens a room: the players of n2, whose heartbeat is in Redis, count as connected at
    once; those of a node that ended long ago (its entry left behind, no heartbeat) do not.
    (Carol saw both players away for a whole game this way in CI: nothing changed later.)"""
    async def scenario() -> None:
        n3 = _node(redis_server, "n3")
        redis = Redis.from_url(redis_server.url, decode_responses=True)
        await redis.set("gamehall:alive:n2:beating", "n2", px=60_000)
        await redis.hset("gamehall:presence:r", mapping={
            "n2:beating": '{"players":[7],"watchers":{"bob":1}}',
            "n1:ended": '{"players":[9],"watchers":{"old":1}}'})
        assert n3.live == {n3.holder}
        await n3.presence.load_presence("r")
        assert n3.presence.remote_players("r") == {7}
        assert (await n3.presence.read_presence("r"))[0] == {7}
        await redis.aclose()
        await n3.pubsub.redis.aclose()

    asyncio.run(scenario())
