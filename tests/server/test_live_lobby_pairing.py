"""The pools and seeks in the pushed lobby (issue 44), through a real server: every pool is in
the snapshot with how many wait; a join changes its count on every lobby socket; a wave's
pairing reaches the paired player's identified lobby socket (``paired``, with the room); a seek
posted, accepted (its line then names the room) and another cancelled (gone)."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.live import Server, auth, running
from tests.server.lobby_client import Lobby

_names = itertools.count()


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("lobbypairing")
    with running(
        Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", "--pairing-wave-players", "2")
    ) as server:
        yield server


def _person(hall: Server) -> str:
    return hall.session(f"lobbypair{next(_names)}")


async def _identified(hall: Server, token: str) -> Lobby:
    lobby = await Lobby.open(hall.http)
    await lobby.ws.send(json.dumps({"type": "identify", "token": token, "id": "me"}))
    while True:
        msg = await lobby.next()
        if msg.get("id") == "me":
            assert msg["type"] == "welcome", msg
            return lobby


def test_a_join_is_counted_and_a_pairing_reaches_the_lobby_socket(hall: Server) -> None:
    async def run() -> None:
        ann, bob = _person(hall), _person(hall)
        watcher = await Lobby.open(hall.http)
        assert watcher.sections["pools"]["hula-10-5"]["waiting"] == 0
        assert watcher.sections["pools"]["hula-10-5"]["seats"] == 2
        mine = await _identified(hall, ann)
        r = httpx.post(f"{hall.http}/api/pools/hula-10-5/join", headers=auth(ann))
        assert r.status_code == 202, r.text
        await watcher.until(lambda pools: pools["hula-10-5"]["waiting"] == 1, section="pools")
        r = httpx.post(f"{hall.http}/api/pools/hula-10-5/join", headers=auth(bob))
        assert r.status_code == 202, r.text
        while True:
            msg = await mine.next()
            if msg["type"] == "paired":
                break
        room = msg["room"]
        assert msg["pool"] == "hula-10-5" and room
        await watcher.until(lambda rooms: room in rooms and rooms[room]["status"] == "playing")
        await watcher.until(lambda pools: pools["hula-10-5"]["waiting"] == 0, section="pools")
        assert not any(m["type"] == "paired" for m in watcher.messages)  # only the player's
        await watcher.close()
        await mine.close()

    asyncio.run(run())


def test_a_seek_posted_accepted_and_another_cancelled(hall: Server) -> None:
    async def run() -> None:
        carl, dan = _person(hall), _person(hall)
        lobby = await Lobby.open(hall.http)
        posted = httpx.post(
            f"{hall.http}/api/seeks",
            headers=auth(carl),
            json={"game": "hula", "clock": "10+5", "rated": False},
        )
        assert posted.status_code == 201, posted.text
        seek = posted.json()["id"]
        await lobby.until(lambda seeks: seek in seeks, section="seeks")
        assert lobby.sections["seeks"][seek]["status"] == "open"
        accepted = httpx.post(f"{hall.http}/api/seeks/{seek}/accept", headers=auth(dan))
        assert accepted.status_code == 200, accepted.text
        room = accepted.json()["room"]
        await lobby.until(lambda seeks: seeks[seek].get("room") == room, section="seeks")
        other = httpx.post(
            f"{hall.http}/api/seeks", headers=auth(carl), json={"game": "halali", "clock": "10+5"}
        ).json()["id"]
        await lobby.until(lambda seeks: other in seeks, section="seeks")
        gone = httpx.delete(f"{hall.http}/api/seeks/{other}", headers=auth(carl))
        assert gone.status_code == 200, gone.text
        await lobby.until(lambda seeks: other not in seeks, section="seeks")
        later = await Lobby.open(hall.http)
        assert other not in later.sections["seeks"]
        await lobby.close()
        await later.close()

    asyncio.run(run())


async def answer(lobby: Lobby) -> dict[str, Any]:
    """The next message that is no pushed change: the server is shared, and other tests' rooms
    change the lobby at any moment (a change may come before the answer)."""
    while (msg := await lobby.next())["type"] in ("lobby", "lobby_change"):
        pass
    return msg


def test_identify_with_an_unknown_token_is_refused_and_the_lobby_goes_on(hall: Server) -> None:
    async def run() -> None:
        lobby = await Lobby.open(hall.http)
        await lobby.ws.send(json.dumps({"type": "identify", "token": "nope", "id": 3}))
        refused = await answer(lobby)
        assert refused["type"] == "error" and refused["code"] == "not_identified"
        await lobby.ws.send(json.dumps({"type": "ping"}))
        assert (await answer(lobby))["type"] == "pong"
        await lobby.close()

    asyncio.run(run())


def test_a_player_whose_last_lobby_socket_closes_waits_no_longer(hall: Server) -> None:
    async def run() -> None:
        eve = _person(hall)
        watcher = await Lobby.open(hall.http)
        first, second = await _identified(hall, eve), await _identified(hall, eve)
        r = httpx.post(f"{hall.http}/api/pools/haugaz-10-5/join", headers=auth(eve))
        assert r.status_code == 202, r.text
        entry = r.json()["id"]
        await watcher.until(lambda pools: pools["haugaz-10-5"]["waiting"] == 1, section="pools")
        await first.close()  # another of hers is open: she is still in the lobby
        await second.ws.send(json.dumps({"type": "ping", "id": "still"}))
        while (await second.next()).get("id") != "still":
            pass
        got = httpx.get(f"{hall.http}/api/pools/entries/{entry}", headers=auth(eve)).json()
        assert got["status"] == "waiting"
        await second.close()  # her last one: out of the pool
        await watcher.until(lambda pools: pools["haugaz-10-5"]["waiting"] == 0, section="pools")
        got = httpx.get(f"{hall.http}/api/pools/entries/{entry}", headers=auth(eve)).json()
        assert got["status"] == "cancelled"
        await watcher.close()

    asyncio.run(run())
