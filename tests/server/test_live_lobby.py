"""The lobby pushed over /ws/lobby, through a real server: a snapshot first, then each room's
change as it happens (created, filled, started), to anonymous visitors too, with nothing a
visitor may not see; each address holds a few lobby sockets at once, raced."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.server.live import Client, Server, running
from tests.server.lobby_client import Lobby, lobby_url

Message = dict[str, Any]


def test_a_room_created_elsewhere_reaches_an_anonymous_lobby(server: Server) -> None:
    asyncio.run(_a_room_created_elsewhere_reaches_an_anonymous_lobby(server))


async def _a_room_created_elsewhere_reaches_an_anonymous_lobby(server: Server) -> None:
    ann = server.session("lobbyann")
    earlier = server.create_room(ann, "hula")
    lobby = await Lobby.open(server.http)  # no token: an anonymous visitor watches
    await lobby.until(lambda rooms: earlier in rooms)  # in the snapshot, or just after it
    room = server.create_room(ann, "hula", clock="5+3")
    await lobby.until(lambda rooms: room in rooms)
    line = lobby.rooms[room]
    listed = httpx.get(f"{server.http}/api/rooms").json()
    same = next(r for r in listed if r["id"] == room)
    assert set(line) == set(same)  # the lobby's line is the HTTP list's, nothing more
    assert line["status"] == "waiting" and line["clock"]["control"] == "5+3"

    bob = server.session("lobbybob")
    for token in (ann, bob):
        assert server.act(token, room, "join").status_code == 200
    await lobby.until(lambda rooms: all(s["player"] for s in rooms[room]["seats"]))
    assert server.act(ann, room, "start").status_code == 200
    await lobby.until(lambda rooms: rooms[room]["status"] == "playing")
    text = json.dumps(lobby.messages)
    assert ann not in text and bob not in text  # no token in any line
    assert '"seed"' not in text and '"view"' not in text  # nor what only the table sees
    await lobby.ws.close()


def test_a_move_updates_the_line_and_a_finished_game_stays_listed(server: Server) -> None:
    asyncio.run(_a_move_updates_the_line_and_a_finished_game_stays_listed(server))


async def _a_move_updates_the_line_and_a_finished_game_stays_listed(server: Server) -> None:
    ann, bob = server.session("lobbycat"), server.session("lobbydan")
    room = server.create_room(ann, "hula")
    for token in (ann, bob):
        server.act(token, room, "join")
    server.act(ann, room, "start")
    lobby = await Lobby.open(server.http, bob)
    await lobby.until(lambda rooms: room in rooms and rooms[room]["status"] == "playing")
    assert server.act(ann, room, "resign").status_code == 200
    await lobby.until(lambda rooms: rooms[room]["status"] == "finished")
    assert lobby.rooms[room]["outcome"]
    await lobby.ws.close()


def test_the_lobby_only_listens(server: Server) -> None:
    asyncio.run(_the_lobby_only_listens(server))


async def _the_lobby_only_listens(server: Server) -> None:
    lobby = await Lobby.open(server.http)
    await lobby.ws.send(json.dumps({"type": "ping", "id": 7}))
    assert (await lobby.next())["type"] == "pong"
    await lobby.ws.send(json.dumps({"type": "join", "id": 8}))
    refused = await lobby.next()
    assert refused["type"] == "error" and refused["code"] == "bad_message" and refused["id"] == 8
    await lobby.ws.send("not json")
    assert (await lobby.next())["type"] == "error"
    await lobby.ws.close()


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("lobbycap")
    with running(
        Server(
            f"sqlite:///{tmp / 'hall.db'}",
            tmp / "server.log",
            "--max-lobby-sockets",
            "3",
        )
    ) as s:
        yield s


async def _try_open(server: Server) -> ClientConnection | str:
    """A lobby socket if the server lets it stay open, else the refusal's code."""
    ws = await connect(lobby_url(server.http), open_timeout=20)
    first = json.loads(await asyncio.wait_for(ws.recv(), 30))
    if first["type"] == "lobby":
        return ws
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 30)
    return str(first["code"])


def test_lobby_sockets_per_address_are_capped_when_raced(capped: Server) -> None:
    asyncio.run(_lobby_sockets_per_address_are_capped_when_raced(capped))


async def _lobby_sockets_per_address_are_capped_when_raced(capped: Server) -> None:
    tries = await asyncio.gather(*(_try_open(capped) for _ in range(12)))
    held = [t for t in tries if not isinstance(t, str)]
    refused = [t for t in tries if isinstance(t, str)]
    assert len(held) == 3
    assert refused == ["too_many_connections"] * 9
    await held[0].close()
    await held[0].wait_closed()
    for _ in range(50):  # the server counts the closed one out once it has seen it close
        again = await _try_open(capped)
        if not isinstance(again, str):
            break
        await asyncio.sleep(0.1)
    assert not isinstance(again, str), "a closed lobby socket's place was never given back"
    for ws in [*held[1:], again]:
        await ws.close()


def test_a_room_socket_is_not_a_lobby_socket(capped: Server) -> None:
    asyncio.run(_a_room_socket_is_not_a_lobby_socket(capped))


async def _a_room_socket_is_not_a_lobby_socket(capped: Server) -> None:
    """The lobby's cap is its own: a visitor with rooms open still watches the lobby."""
    token = capped.session("capann")
    room = capped.create_room(token, "hula")
    clients = [await Client.open(capped, room, token) for _ in range(4)]
    lobby = await Lobby.open(capped.http)
    await lobby.until(lambda rooms: room in rooms)
    await lobby.ws.close()
    for c in clients:
        await c.close()


def test_lobby_doc_names_the_socket() -> None:
    text = (Path(__file__).resolve().parents[2] / "src/gamehall/server/protocol.md").read_text()
    assert "/ws/lobby" in text and "lobby_change" in text
