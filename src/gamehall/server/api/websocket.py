"""A room's WebSocket: the handshake's checks, then one `Connection` (a reader of requests and a
writer of events and replies) until the socket closes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect

from gamehall.core import messages
from gamehall.server.api.access import Visitor, check_action, identified, token_scopes
from gamehall.server.api.door import Door, Held, end_now, visitor_key
from gamehall.server.api.guards import ConnectionCounts, origin_allowed
from gamehall.server.api.parts import DoorPart, HallPart, HeldPart, SettingsPart
from gamehall.server.hall.hall import Hall, Player
from gamehall.server.ops.settings import Settings
from gamehall.server.table import protocol as proto
from gamehall.server.table.errors import RoomError
from gamehall.server.table.protocol import ProtocolError
from gamehall.server.table.room import Room

log = logging.getLogger("gamehall.server")


router = APIRouter()


@router.websocket("/ws/rooms/{room_id}")
async def ws_room(ws: WebSocket, room_id: str, hall: HallPart, settings: SettingsPart,
                  door: DoorPart, held: HeldPart,
                  who: Annotated[Visitor, Depends(identified())]) -> None:
    # who: anyone may watch; the requests a connection sends are the hall's to allow
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), door.origins):
        await ws.close(4403)  # before the handshake completes: the browser gets a 403
        return
    token, player, address, visitor = who.token, who.player, who.address, who.key
    await ws.accept()
    if not await admit(ws, door, door.connections, visitor, address):
        return
    conn: Connection | None = None
    try:
        try:
            room = await hall.get_room(room_id)
        except RoomError as exc:
            await ws.send_text(proto.dumps(proto.error(exc.code, exc.said)))
            await ws.close(4404)
            return
        conn = Connection(ws, hall, settings, room, player, token, door, address, who.scopes)
        with conn.held:
            conn.hold(held)
            await conn.run()
    finally:
        door.connections.close(conn.visitor if conn is not None else visitor, address)


TOO_MANY_CONNECTIONS = "too_many_connections"
SIGNED_OUT = 4401
"""The close code of a connection whose token was signed out or revoked (protocol.md)."""


async def admit(ws: WebSocket, door: Door, counts: ConnectionCounts, visitor: str,
                address: str) -> bool:
    """Count an accepted socket in `counts` and against the address's rate of new ones (the
    `limits` library), or refuse it: an `error` (`too_many_connections`) and close code 1008,
    nothing counted. The count and its check are one step (no await between them), so sockets
    raced at once are each counted."""
    refusal = counts.open(visitor, address)
    if refusal is None and not await door.rates.allow_connect(address):
        counts.close(visitor, address)
        refusal = messages.msg("error.rate.connections")
    if refusal is None:
        return True
    await ws.send_text(proto.dumps(proto.error(TOO_MANY_CONNECTIONS, refusal)))
    await ws.close(1008, "too many connections")
    return False


def _unsendable(message: dict[str, Any]) -> str:
    """What a client gets in place of a message that could not be encoded: a ``server_error``
    answering the same request (its ``id``), never silence."""
    ref = message.get("id")
    said = messages.msg("error.server")
    try:
        return proto.dumps(proto.error("server_error", said,
                                       ref if isinstance(ref, str | int) else None))
    except (TypeError, ValueError):  # the id itself cannot be written
        return proto.dumps(proto.error("server_error", said))


class Connection:
    """One WebSocket: a reader (requests) and a writer (events and replies), one queue between."""

    def __init__(self, ws: WebSocket, hall: Hall, settings: Settings, room: Room,
                 player: Player | None, token: str | None, door: Door, address: str,
                 scopes: tuple[str, ...] | None = None) -> None:
        self.ws, self.hall, self.settings, self.player = ws, hall, settings, player
        self.room_id = room.id
        self.token = token
        self.scopes = scopes
        """The API token's scopes (None: a browser's session, or no token): what
        `access.check_action` lets this connection's requests do."""
        self.door, self.address = door, address
        self.visitor = visitor_key(player, address)
        self.sub = hall.pubsub.subscribe(room.id)
        self.last_state: tuple[int, int, int | None, int] | None = None
        self.moves_sent = 0
        """How many moves this connection has been sent: later states carry only the rest."""
        self.held = contextlib.ExitStack()
        """This connection known to `Held` under its token (`hold`), while it runs."""
        self._held_by: Held | None = None

    def hold(self, held: Held) -> None:
        """Be known to `held` under this connection's token (again, after an identify): when
        the token stops working (signed out, revoked), the connection is closed at once."""
        self._held_by = held
        self.held.close()
        if self.player is not None and self.token is not None:
            self.held.enter_context(held.holding(self.token, self.player.id, self._signed_out))

    def _signed_out(self) -> None:
        end_now(self.sub, {"event": "signed_out"})

    def _send(self, message: dict[str, Any]) -> None:
        self.sub.deliver({"event": "message", "message": message})

    def _welcome(self, ref: str | int | None = None) -> None:
        cluster = self.hall.cluster
        self._send({"type": "welcome", "protocol": proto.PROTOCOL_VERSION, "room": self.room_id,
                    **({"node": cluster.node} if cluster is not None else {}),
                    "you": self.player.nickname if self.player else None,
                    "limits": {"max_message_bytes": self.settings.max_message_bytes,
                               "rate": self.settings.rate, "burst": self.settings.burst},
                    **({"id": ref} if ref is not None else {})})

    async def run(self) -> None:
        self._welcome()  # first in the queue: events of the room may come in while it loads
        try:
            room = await self.hall.attach(self.room_id)
        except RoomError as exc:  # gone meanwhile
            self.sub.close()
            await self.ws.send_text(proto.dumps(proto.error(exc.code, exc.said)))
            await self.ws.close(4404)
            return
        except BaseException:
            self.sub.close()
            raise
        try:
            await self._run(room)
        finally:
            self.hall.detach(self.room_id)

    async def _run(self, room: Room) -> None:
        history = await self.hall.chat_history(room.id)
        if self.token and self.player is None:
            self._send(proto.error(proto.NOT_IDENTIFIED,
                                   messages.msg("error.token.unknown_watching")))
        for line in history:
            self._send(line)
        self.sub.deliver({"event": "state"})
        await self.hall.connected(room, self.player)
        writer = asyncio.create_task(self._writer())
        try:
            await self._reader()
        except WebSocketDisconnect:
            pass
        finally:
            writer.cancel()
            self.sub.close()
            with contextlib.suppress(RoomError):
                await self.hall.disconnected(await self.hall.get_room(self.room_id),
                                             self.player)

    async def _reader(self) -> None:
        rates = self.door.rates
        strikes_key = f"{self.visitor}/{id(self)}"
        while True:
            msg = await self.ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            raw = msg.get("text")
            if raw is None:
                raw = msg.get("bytes") or b""
            if not await rates.allow_message(self.visitor, self.address):
                if not await rates.strike(strikes_key):
                    await self.ws.close(1008, "too many messages")
                    return
                self._send(proto.error(proto.RATE_LIMITED, messages.msg("error.rate.messages")))
                continue
            await self._handle(raw)

    async def _identify(self, token: str, ref: str | int | None) -> None:
        """The client names its token in a message (the page does, first thing): from now on
        the connection is that player's; it is sent a new welcome (with the message's id), the
        chat and the room as that player sees it."""
        player = await self.hall.identify(token)
        if player is None:
            raise ProtocolError(proto.NOT_IDENTIFIED,
                                messages.msg("error.token.unknown_watching"), ref)
        visitor = visitor_key(player, self.address)
        refusal = self.door.connections.move(self.visitor, visitor)
        if refusal is not None:
            raise ProtocolError(TOO_MANY_CONNECTIONS, refusal, ref)
        scopes = await token_scopes(self.ws, token)
        old, self.player, self.token, self.visitor = self.player, player, token, visitor
        self.scopes = scopes
        if self._held_by is not None:
            self.hold(self._held_by)
        room = await self.hall.get_room(self.room_id)
        await self.hall.connected(room, player)
        await self.hall.disconnected(room, old)
        self._welcome(ref)
        for line in await self.hall.chat_history(room.id):
            self._send(line)
        self.sub.deliver({"event": "sync"})

    async def _handle(self, raw: str | bytes) -> None:
        ref: str | int | None = None
        try:
            req = proto.parse_message(raw, self.settings.max_message_bytes)
            ref = req.ref
            if req.kind == "identify":
                await self._identify(req.args["token"], ref)
                return
            room = await self.hall.get_room(self.room_id)
            # a token signed out since the connection opened no longer acts (cheap: cached)
            player = await self.hall.identify(self.token) if self.player is not None else None
            check_action(self.scopes, room, player, req)
            done = await self.hall.execute(room, player, req)
            for reply in done.replies:
                self._send(reply)
            if done.resync:
                self.sub.deliver({"event": "sync"})
            if done.changed:  # the mover's own answer: the room as its change left it
                self.sub.deliver({"event": "state"})
        except ProtocolError as exc:
            self._send(proto.error(exc.code, exc.said, exc.ref if exc.ref is not None else ref))
        except RoomError as exc:
            self._send(proto.error(exc.code, exc.said, ref))
        except Exception:
            log.exception("request failed")
            self._send(proto.error("server_error", messages.msg("error.server"), ref))

    async def _send_state(self, full: bool) -> None:
        """The room for this connection's seat, with only the moves it has not been sent yet
        (all of them on the first state and on `sync`); nothing if nothing changed for it."""
        room = await self.hall.get_room(self.room_id)
        seat = self.hall.seat_for(room, self.player)
        sent = 0 if full or self.moves_sent > room.version else self.moves_sent
        key = (id(room), room.rev, seat, room.version)
        if not full and key == self.last_state:
            return
        text = self.hall.render(room, seat, sent)
        self.last_state, self.moves_sent = key, room.version
        await self.ws.send_text(text)

    async def _writer(self) -> None:
        """Send events in order; a state event renders the room for this connection's seat."""
        try:
            while True:
                event = await self.sub.get()
                kind = event.get("event")
                if kind == "overflow":
                    await self.ws.close(1013, "too far behind")
                    return
                if kind == "signed_out":  # the token stopped working: nothing more for it
                    await self.ws.close(SIGNED_OUT, "signed out")
                    return
                if kind == "message":
                    try:
                        text = proto.dumps(event["message"])
                        text.encode()
                    except (TypeError, ValueError):  # not sendable as UTF-8 text: a bug
                        log.error("a message could not be sent: %r", event["message"])
                        text = _unsendable(event["message"])
                    await self.ws.send_text(text)
                elif kind in ("state", "sync"):
                    await self._send_state(full=kind == "sync")
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        except Exception:  # a closed socket shows up as various errors across servers
            log.debug("writer stopped", exc_info=True)
        with contextlib.suppress(Exception):  # nothing reaches this client now: let it reconnect
            await self.ws.close(1011, "the server could not write to this connection")
