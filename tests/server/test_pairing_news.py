"""What the pairing tells (server/pairing/announce.py), read off the hall's pub/sub as the
lobby's WebSocket reads it: the pools' counts on the lobby's channel as players join and are
paired, each paired player's `paired` on their own channel, and seeks as they change. A hall
with its pools in-process, its clock the test's."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from gamehall.server.botapi.service import BotApi, player_channel
from gamehall.server.engines.pool import BotLimits, BotPool
from gamehall.server.hall.hall import Hall
from gamehall.server.ops.settings import Settings
from gamehall.server.pairing.announce import LOBBY
from gamehall.server.pairing.pools import pool_named
from gamehall.server.pairing.seeks import Seeks
from gamehall.server.pairing.service import Pools
from gamehall.server.pubsub.in_process import InProcessPubSub, Subscription
from gamehall.server.storage import SqlStorage


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


def drained(sub: Subscription) -> list[dict[str, Any]]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


def test_the_lobby_hears_counts_and_seeks_and_players_hear_their_pairing(
        tmp_path: Path) -> None:
    async def run() -> None:
        clock = Clock()
        storage = SqlStorage(f"sqlite:///{tmp_path / 'hall.db'}", clock=clock)
        await storage.open()
        pubsub = InProcessPubSub()
        settings = Settings(pairing_wave_seconds=20.0)
        hall = Hall(storage, pubsub, BotPool(1, (), BotLimits(3.0, 2000)), settings,
                    clock=clock)
        pools, seeks = Pools(hall), Seeks(hall, BotApi(hall))
        try:
            (ann, _), (bob, _) = await hall.register("ann"), await hall.register("bob")
            lobby = pubsub.subscribe(LOBBY)
            mine = [pubsub.subscribe(player_channel(p.id)) for p in (ann, bob)]
            a = await pools.join(ann, "1.1.1.1", "hula-5-3", None, None)
            b = await pools.join(bob, "1.1.1.2", "hula-5-3", None, None)
            counts = [e["message"] for e in drained(lobby)]
            assert [c["type"] for c in counts] == ["pools", "pools"]
            assert [next(p["waiting"] for p in c["pools"] if p["id"] == "hula-5-3")
                    for c in counts] == [1, 2]
            pool = pool_named("hula-5-3")
            assert pool is not None
            await pools.look(pool)  # the wave is not due yet
            assert drained(mine[0]) == []
            clock.now += 21
            await pools.look(pool)
            heard = [drained(s) for s in mine]
            told = [[e for e in h if e["event"] == "pairing"] for h in heard]
            room = told[0][0]["message"]["room"]
            assert told[0] == [{"event": "pairing", "message": {
                "type": "paired", "entry": a.id, "pool": "hula-5-3", "room": room}}]
            assert told[1][0]["message"]["entry"] == b.id and told[1][0]["message"]["room"] \
                == room
            for h in heard:  # and, as for every game that starts, the bot API's gameStart
                assert [e["message"]["game"]["id"] for e in h if e["event"] == "player"
                        and e["message"]["type"] == "gameStart"] == [room]
            last = drained(lobby)[-1]["message"]
            assert next(p["waiting"] for p in last["pools"] if p["id"] == "hula-5-3") == 0
            (cat, _) = await hall.register("cat")
            seek = await seeks.post(cat, "1.1.1.3", seeks.terms(cat, "hula", {}, "10+5", None,
                                                                 None, None, None))
            news = drained(lobby)
            assert news == [{"event": "lobby", "message": {"type": "seek",
                                                            "seek": seek.to_json()}}]
            await seeks.cancel(cat, seek.id)
            assert drained(lobby)[0]["message"]["seek"]["status"] == "cancelled"
            # the lobby connection of a waiting player closes: their entry goes
            c = await pools.join(cat, "1.1.1.3", "hula-10-5", None, None)
            drained(lobby)
            assert await pools.gone(cat) and not await pools.gone(cat)
            assert (await pools.entry(cat, c.id)).status == "cancelled"
            gone = drained(lobby)[-1]["message"]
            assert next(p["waiting"] for p in gone["pools"] if p["id"] == "hula-10-5") == 0
        finally:
            await pools.stop()
            await storage.close()
    asyncio.run(run())
