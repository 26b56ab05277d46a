"""Room leases on a real redis-server: one holder at a time, fencing numbers that only grow (even
when Redis forgets everything), renewals that fail once the lease is someone else's."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from deploy.topology import RedisServer
from gamehall.server.cluster.leases import Leases


def _client(server: RedisServer) -> Redis:
    return Redis.from_url(server.url, decode_responses=True)


def test_one_holder_and_growing_fences(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        ra, rb = _client(redis_server), _client(redis_server)
        a, b = Leases(ra, "node-a", 60_000), Leases(rb, "node-b", 60_000)
        assert await a.acquire("r1") == 1
        assert await b.acquire("r1") is None
        assert await a.holders(["r1", "r2"]) == ["node-a", None]
        assert await a.renew(["r1"]) == [True]
        assert await b.renew(["r1"]) == [False]
        assert await b.release(["r1"]) == 0          # not b's to give up
        assert await a.holders(["r1"]) == ["node-a"]
        assert await a.release(["r1"]) == 1
        assert await b.acquire("r1") == 2            # the next holder's number is larger
        assert await b.acquire("r3", floor=41) == 42  # never behind the database's number
        await ra.aclose()
        await rb.aclose()

    asyncio.run(scenario())


def test_a_lease_not_renewed_runs_out(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        ra, rb = _client(redis_server), _client(redis_server)
        a, b = Leases(ra, "node-a", 200), Leases(rb, "node-b", 200)
        assert await a.acquire("r1") == 1
        taken = None
        for _ in range(100):                          # a paused holder: nobody renews
            taken = await b.acquire("r1")
            if taken is not None:
                break
            await asyncio.sleep(0.05)
        assert taken == 2
        assert await a.renew(["r1"]) == [False]       # the old holder learns it lost the room
        await ra.aclose()
        await rb.aclose()

    asyncio.run(scenario())


def test_racing_nodes_exactly_one_wins_each_room(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        clients = [_client(redis_server) for _ in range(3)]
        nodes = [Leases(c, f"node-{i}", 60_000) for i, c in enumerate(clients)]
        rooms = [f"race{i}" for i in range(50)]
        tries = [n.acquire(r) for r in rooms for n in nodes]
        got = await asyncio.gather(*tries)
        for i, room in enumerate(rooms):
            fences = got[3 * i:3 * i + 3]
            winners = [n for n, f in zip(nodes, fences, strict=True) if f is not None]
            assert len(winners) == 1 and fences.count(1) == 1
            assert await nodes[0].holders([room]) == [winners[0].holder]
        for c in clients:
            await c.aclose()

    asyncio.run(scenario())


def test_after_a_redis_restart_numbers_continue_from_the_database(
        redis_server: RedisServer) -> None:
    async def scenario() -> None:
        ra = _client(redis_server)
        a = Leases(ra, "node-a", 60_000)
        for _ in range(5):
            fence = await a.acquire("r1")
            await a.release(["r1"])
        assert fence == 5
        redis_server.restart()                        # every lease and counter is gone
        renewed = None
        for _ in range(100):
            try:
                renewed = await a.renew(["r1"])
                break
            except Exception:                         # the client reconnects
                await asyncio.sleep(0.05)
        assert renewed == [False]
        assert await a.acquire("r1", floor=5) == 6    # floor: the fence stored with the room
        await ra.aclose()

    asyncio.run(scenario())
