"""The lobby's WebSocket (``/ws/lobby``): every open room, pool and seek once, then their changes
as they happen (the page polls nothing). Anyone may watch, anonymous or not: a lobby line holds
only what every visitor may see. A client that names its token (``identify``) is sent its own
pairings too (``paired``: a pool's wave seated it), from any node. Each address may hold a few at
once (`--max-lobby-sockets`) and opens them at the rate of every WebSocket (`limits`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect

from gamehall.core import messages
from gamehall.server.api.access import Visitor, anyone
from gamehall.server.api.door import Door, Held, end_now
from gamehall.server.api.guards import origin_allowed
from gamehall.server.api.parts import DoorPart, HallPart, HeldPart, LobbyPart
from gamehall.server.api.websocket import SIGNED_OUT, admit
from gamehall.server.botapi.service import player_channel
from gamehall.server.hall.hall import Hall, Player
from gamehall.server.lobby.feed import LobbyFeed
from gamehall.server.pubsub.in_process import Subscription
from gamehall.server.table import protocol as proto

router = APIRouter()


@router.websocket("/ws/lobby")
async def ws_lobby(
    ws: WebSocket,
    feed: LobbyPart,
    hall: HallPart,
    door: DoorPart,
    held: HeldPart,
    who: Annotated[Visitor, Depends(anyone())],
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
        socket = LobbySocket(ws, hall, feed, door, held, address, sub)
        try:
            await socket.run(first)
        finally:
            await socket.close()
    finally:
        door.lobby_sockets.close(address, address)


class LobbySocket:
    """One lobby socket: a writer of the feed's changes (and the player's pairings, once
    identified), a reader that answers ``ping`` and ``identify`` and refuses the rest. An
    identified socket counts its player present in the lobby (`LobbyFeed.arrived`, `left`)."""

    def __init__(
        self,
        ws: WebSocket,
        hall: Hall,
        feed: LobbyFeed,
        door: Door,
        held: Held,
        address: str,
        sub: Subscription,
    ) -> None:
        self.ws, self.hall, self.feed, self.door = ws, hall, feed, door
        self.address, self.sub, self.held = address, sub, held
        self.player: Player | None = None
        self.player_sub: Subscription | None = None
        self.relay: asyncio.Task[None] | None = None
        self.holding = contextlib.ExitStack()
        """The identified token known to `Held`: when it stops working (signed out, revoked),
        the socket is closed with 4401 as a room's is (protocol.md, "Identity")."""

    async def run(self, first: str) -> None:
        writer = asyncio.create_task(self._write(first))
        try:
            while True:
                msg = await self.ws.receive()
                if msg["type"] == "websocket.disconnect":
                    return
                if not await self.door.rates.allow_message(f"a{self.address}", self.address):
                    await self.ws.close(1008, "too many messages")
                    return
                answer = await self._answer(msg.get("text"))
                if answer is not None:
                    self.sub.deliver({"event": "lobby", "text": proto.dumps(answer)})
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            writer.cancel()

    async def close(self) -> None:
        self.sub.close()
        await self._forget_player()

    async def _answer(self, raw: str | None) -> dict[str, Any] | None:
        """A ping's pong, an identify's welcome; anything else is refused (the lobby takes
        no requests)."""
        data: Any = None
        with contextlib.suppress(TypeError, ValueError):
            data = json.loads(raw or "")
        ref = data.get("id") if isinstance(data, dict) else None
        ref = ref if isinstance(ref, str | int) else None
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "ping":
            return {"type": "pong", **({"id": ref} if ref is not None else {})}
        if kind == "identify" and isinstance(data.get("token"), str):
            return await self._identify(data["token"], ref)
        return proto.error(proto.BAD_MESSAGE, messages.msg("error.lobby.listen_only"), ref)

    async def _identify(self, token: str, ref: str | int | None) -> dict[str, Any]:
        """From now on the player's pairings reach this socket (from any node)."""
        player = await self.hall.identify(token)
        if player is None:
            return proto.error(
                proto.NOT_IDENTIFIED, messages.msg("error.token.unknown_watching"), ref
            )
        await self.feed.arrived(player)  # first: the same player again never counts as gone
        await self._forget_player()
        self.player = player
        self.holding.enter_context(self.held.holding(token, player.id, self._signed_out))
        channel = player_channel(player.id)
        self.player_sub = self.hall.pubsub.subscribe(channel)
        await self.hall.pubsub.watch(channel)
        self.relay = asyncio.create_task(self._relay(self.player_sub))
        return {
            "type": "welcome",
            "you": player.nickname,
            **({"id": ref} if ref is not None else {}),
        }

    def _signed_out(self) -> None:
        end_now(self.sub, {"event": "signed_out"})

    async def _forget_player(self) -> None:
        self.holding.close()
        if self.relay is not None:
            self.relay.cancel()
            self.relay = None
        if self.player_sub is not None:
            self.player_sub.close()
            self.hall.pubsub.unwatch(self.player_sub.channel)
            self.player_sub = None
        if self.player is not None:
            player, self.player = self.player, None
            await self.feed.left(player)

    async def _relay(self, player_sub: Subscription) -> None:
        """The player's pairings, into this socket's queue (after the changes before them)."""
        while True:
            event = await player_sub.get()
            if event.get("event") == "pairing":
                self.sub.deliver({"event": "lobby", "text": proto.dumps(event["message"])})

    async def _write(self, first: str) -> None:
        try:
            await self.ws.send_text(first)
            while True:
                event = await self.sub.get()
                if event.get("event") == "overflow":  # too far behind: the client starts again
                    await self.ws.close(1013, "too far behind")
                    return
                if event.get("event") == "signed_out":  # its token stopped working
                    await self.ws.close(SIGNED_OUT, "signed out")
                    return
                await self.ws.send_text(str(event["text"]))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
