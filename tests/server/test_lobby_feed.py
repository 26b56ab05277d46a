"""The lobby feed of one node (server/lobby/feed.py) with an in-process pub/sub: a room the hall
commits reaches an open lobby socket as one change; a reload (Redis back after a break, or the
feed fell behind) reads every line again and sends each socket the new snapshot, keeping a
change that came while it read."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

from gamehall.server.hall.events import HallEvents
from gamehall.server.lobby.feed import LobbyFeed
from gamehall.server.pubsub.in_process import InProcessPubSub
from gamehall.server.table.room import Room


def _room(room_id: str) -> Room:
    return Room(id=room_id, game_name="hula", options={}, created_by="ann", seed=1)


class Stored:
    """Storage as the feed reads it: the waiting rooms (the others none); `gate` holds a read."""

    def __init__(self) -> None:
        self.rooms: list[Room] = []
        self.gate: asyncio.Event | None = None

    async def list_rooms(self, status: str | None, limit: int) -> list[Room]:
        if self.gate is not None:
            await self.gate.wait()
        return list(reversed(self.rooms)) if status == "waiting" else []


def _feed() -> tuple[LobbyFeed, Stored, HallEvents]:
    stored, events = Stored(), HallEvents()
    hall: Any = SimpleNamespace(pubsub=InProcessPubSub(), storage=stored, clock=lambda: 5.0,
                                events=events, cluster=None)
    return LobbyFeed(hall), stored, events


async def _next(sub: Any) -> dict[str, Any]:
    event = await asyncio.wait_for(sub.get(), 5)
    return dict(json.loads(event["text"]))


def test_a_commit_reaches_a_socket_and_a_reload_sends_a_new_snapshot() -> None:
    async def run() -> None:
        feed, stored, events = _feed()
        stored.rooms = [_room("a")]
        await feed.start()
        first, sub = feed.open_socket()
        assert [r["id"] for r in json.loads(first)["rooms"]] == ["a"]
        events.room_changed(_room("b"))
        change = await _next(sub)
        assert [r["id"] for r in change["put"]["rooms"]] == ["b"]
        stored.rooms = [_room("a"), _room("b"), _room("c")]  # "c": its change was lost
        stored.gate = asyncio.Event()
        reading = asyncio.create_task(feed.reload())
        await asyncio.sleep(0)
        events.room_changed(_room("d"))  # comes while the lines are read
        await feed.flush()
        assert (await _next(sub))["put"]["rooms"][0]["id"] == "d"
        stored.gate.set()
        await reading
        again = await _next(sub)
        assert again["type"] == "lobby"
        assert {r["id"] for r in again["rooms"]} == {"a", "b", "c", "d"}
        sub.close()
        await feed.stop()

    asyncio.run(run())
