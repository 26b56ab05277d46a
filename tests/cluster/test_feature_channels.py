"""A node passes on what other nodes publish on the channels that are no room's (a player's own,
``player:<id>``; the lobby's pairing news, ``lobby:pairing``) as it came: the features' events
(`{"event": "lobby"}`, `{"event": "pairing"}`) reach that node's subscribers, where a room's
channel only carries the room's own kinds. Through a real redis-server, with the hall's
receiver (`Following.remote_event`)."""

from __future__ import annotations

import asyncio

from deploy.topology import RedisServer
from gamehall.server.hall.following import Following
from gamehall.server.pairing.announce import LOBBY
from gamehall.server.pubsub.redis_pubsub import RedisPubSub


def test_features_events_on_non_room_channels_reach_the_other_node(
        redis_server: RedisServer) -> None:
    async def scenario() -> None:
        a, b = RedisPubSub(redis_server.url, "a"), RedisPubSub(redis_server.url, "b")
        await a.open()
        await b.open()
        following = Following.__new__(Following)  # its receiver reads nothing else here
        b.receiver = following.remote_event
        for channel in (LOBBY, "player:7", "room1"):
            await b.watch(channel)
        subs = {c: b.subscribe(c) for c in (LOBBY, "player:7", "room1")}
        news = {"event": "lobby", "message": {"type": "pools", "pools": []}}
        paired = {"event": "pairing", "message": {"type": "paired", "room": "r"}}
        await a.publish("room1", {"event": "lobby", "message": {}})  # no room's kind: dropped
        await a.publish(LOBBY, news)
        await a.publish("player:7", paired)
        got = [await asyncio.wait_for(subs[c].get(), 5) for c in (LOBBY, "player:7")]
        assert [{k: v for k, v in e.items() if k != "origin"} for e in got] == [news, paired]
        assert subs["room1"].queue.empty()  # published first: it would have come by now
        await a.close()
        await b.close()

    asyncio.run(scenario())
