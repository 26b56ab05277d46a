"""The lobby's WebSocket (``/ws/lobby``): every open room, pool and seek once, then their changes
as they happen (the page polls nothing). Anyone may watch, anonymous or not: a lobby line holds
only what every visitor may see. Each address may hold a few at once (`--max-lobby-sockets`) and
opens them at the rate of every WebSocket (`limits`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Annotated

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect

from gamehall.core import messages
from gamehall.server.api.access import Visitor, anyone
from gamehall.server.api.guards import origin_allowed
from gamehall.server.api.parts import DoorPart, LobbyPart
from gamehall.server.api.websocket import admit
from gamehall.server.lobby.feed import LobbyFeed
from gamehall.server.pubsub.in_process import Subscription
from gamehall.server.table import protocol as proto

router = APIRouter()


@router.websocket("/ws/lobby")
async def ws_lobby(
    ws: WebSocket, feed: LobbyPart, door: DoorPart, who: Annotated[Visitor, Depends(anyone())]
) -> None:
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), door.origins):
        await ws.close(4403)
        return
    address = who.address
    await ws.accept()
    if not await admit(ws, door, door.lobby_sockets, address, address):
        return
    try:
        first, sub = feed.open_socket()
        try:
            await _serve(ws, first, sub, door, address)
        finally:
            sub.close()
    finally:
        door.lobby_sockets.close(address, address)


async def _serve(
    ws: WebSocket, first: str, sub: Subscription, door: DoorPart, address: str
) -> None:
    """Send the snapshot and then every change; answer pings; the client sends nothing else."""
    writer = asyncio.create_task(_write(ws, first, sub))
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            if not await door.rates.allow_message(f"a{address}", address):
                await ws.close(1008, "too many messages")
                return
            await ws.send_text(_answer(msg.get("text")))
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        writer.cancel()


def _answer(raw: str | None) -> str:
    """A ping's pong; anything else is refused (the lobby takes no requests)."""
    ref = None
    with contextlib.suppress(TypeError, ValueError):
        data = json.loads(raw or "")
        if isinstance(data, dict):
            ref = data.get("id") if isinstance(data.get("id"), str | int) else None
            if data.get("type") == "ping":
                return proto.dumps({"type": "pong", **({"id": ref} if ref is not None else {})})
    return proto.dumps(proto.error(proto.BAD_MESSAGE, messages.msg("error.lobby.listen_only"), ref))


async def _write(ws: WebSocket, first: str, sub: Subscription) -> None:
    try:
        await ws.send_text(first)
        while True:
            event = await sub.get()
            if event.get("event") == "overflow":  # too far behind: the client starts again
                await ws.close(1013, "too far behind")
                return
            await ws.send_text(str(event["text"]))
    except (WebSocketDisconnect, RuntimeError, OSError):
        return


__all__ = ["LobbyFeed", "router"]
