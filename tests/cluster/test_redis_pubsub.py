"""Room events between two nodes through a real redis-server: in order, never echoed back to the
publisher, addressed messages, and a subscriber that comes back (and says so) after Redis
restarts."""

from __future__ import annotations

import asyncio

from deploy.topology import RedisServer
from gamehall.server.pubsub.in_process import Event
from gamehall.server.pubsub.redis_pubsub import RedisPubSub


def test_events_reach_the_other_node_in_order(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        a, b = RedisPubSub(redis_server.url, "a"), RedisPubSub(redis_server.url, "b")
        await a.open()
        await b.open()
        seen: list[tuple[str, Event]] = []

        def receive(channel: str, event: Event) -> list[Event]:
            seen.append((channel, event))
            return [{"event": "state", "n": event["n"]}]

        b.receiver = receive
        await b.watch("r1")
        on_a, on_b = a.subscribe("r1"), b.subscribe("r1")
        for n in range(50):
            await a.publish("r1", {"event": "state", "n": n})
        await a.publish("r2", {"event": "state", "n": -1})  # a room b does not hold
        got_b = [(await asyncio.wait_for(on_b.get(), 5))["n"] for _ in range(50)]
        got_a = [(await asyncio.wait_for(on_a.get(), 5))["n"] for _ in range(50)]
        assert got_a == got_b == list(range(50))
        assert all(ch == "r1" and ev["origin"] == "a" for ch, ev in seen)
        assert on_a.queue.empty()                            # a's own copy is not echoed
        direct: list[dict[str, object]] = []
        a.on_direct = direct.append
        assert await b.send("a", {"t": "call", "id": 1}) == 1
        assert await b.send("nobody", {"t": "call"}) == 0
        for _ in range(100):
            if direct:
                break
            await asyncio.sleep(0.02)
        assert direct == [{"t": "call", "id": 1}]
        b.unwatch("r1")
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_the_subscriber_comes_back_after_a_redis_restart(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        a, b = RedisPubSub(redis_server.url, "a"), RedisPubSub(redis_server.url, "b")
        await a.open()
        await b.open()
        back = asyncio.Event()

        async def reconnected() -> None:
            back.set()

        b.on_reconnect = reconnected
        await b.watch("r1")
        sub = b.subscribe("r1")
        redis_server.restart()
        await a.publish("r1", {"event": "maybe lost"})        # while b reconnects
        await asyncio.wait_for(back.wait(), 30)              # b noticed and is subscribed again
        await a.publish("r1", {"event": "state", "n": 1})
        got = await asyncio.wait_for(sub.get(), 10)
        if got["event"] == "maybe lost":
            got = await asyncio.wait_for(sub.get(), 10)
        assert got == {"event": "state", "n": 1, "origin": "a"}
        await a.close()
        await b.close()

    asyncio.run(scenario())
