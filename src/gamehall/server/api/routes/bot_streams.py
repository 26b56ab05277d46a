"""The bot API's NDJSON streams (docs/bot-api.md), shaped as lichess's: a player's events
(games starting and finishing, challenges) and a game's states (``gameFull`` first, then
``gameState`` after each change), with an empty keep-alive line every `KEEPALIVE` seconds.

A game's state is the page's own `state` message for the bot's seat (`Hall.render`), so hidden
information stays hidden exactly as it does for people.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import StreamingResponse

from gamehall.core.messages import msg
from gamehall.server.api.access import Caller, session_or
from gamehall.server.api.door import CountedStream, end_now
from gamehall.server.api.parts import BotApiPart, BotDoorPart, HallPart, HeldPart
from gamehall.server.botapi.service import game_line, player_channel
from gamehall.server.pubsub.in_process import Event, Subscription
from gamehall.server.table.errors import RoomError
from gamehall.server.table.room import FINISHED, PLAYING

KEEPALIVE = 7.0
"""Seconds between keep-alive newlines on a quiet stream (as lichess sends them)."""
NDJSON = "application/x-ndjson"

router = APIRouter()
Reader = Annotated[Caller, Depends(session_or("read", "bot:play"))]


async def _kept_alive(sub: Subscription) -> AsyncIterator[Event | None]:
    """A stream's events, and None after each `KEEPALIVE` seconds without one (the stream then
    sends a newline, as lichess's do, so proxies keep it open); it ends at an overflow, or when
    the server is stopping (`BotDoor.end_streams`)."""
    while True:
        try:
            event = await asyncio.wait_for(sub.get(), KEEPALIVE)
        except TimeoutError:
            yield None
            continue
        if event.get("event") in ("overflow", "closing"):
            return
        yield event


def ender(sub: Subscription) -> Callable[[], None]:
    """How a stream ends when its token stops working: at once, with nothing more sent."""
    return lambda: end_now(sub, {"event": "closing"})


def _line(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


@router.get("/api/stream/event", response_class=StreamingResponse,
            summary="NDJSON: gameStart, gameFinish, challenge, challengeCanceled, "
                    "challengeDeclined, challengeAccepted (open games and pending challenges "
                    "first)")
async def stream_events(hall: HallPart, botapi: BotApiPart, door: BotDoorPart, held: HeldPart,
                        who: Reader) -> StreamingResponse:
    slot = await door.open_stream(who.token_key)  # counted from here: see CountedStream
    channel = player_channel(who.player.id)

    async def lines() -> AsyncIterator[bytes]:
        sub = hall.pubsub.subscribe(channel)
        try:
            await hall.pubsub.watch(channel)
            yield b"\n"  # a first keep-alive: from here on no event is missed
            with door.tracked(sub), held.holding(who.token, who.player.id, ender(sub)):
                async for line in event_lines(sub):
                    yield line
        finally:
            sub.close()
            hall.pubsub.unwatch(channel)

    async def event_lines(sub: Subscription) -> AsyncIterator[bytes]:
        for room_id in await botapi.bot_store.open_rooms(who.player.id):
            with contextlib.suppress(RoomError):
                room = await hall.get_room(room_id)
                seat = room.seat_of(who.player.id)
                if room.status == PLAYING and seat is not None:
                    yield _line({"type": "gameStart", "game": game_line(room, seat)})
        for c in await botapi.bot_store.pending(who.player.id):
            yield _line({"type": "challenge", "challenge": c.to_json()})
        async for event in _kept_alive(sub):
            if event is None:
                yield b"\n"
            elif event.get("event") == "player":
                yield _line(event["message"])

    return CountedStream(lines(), slot, NDJSON)


@router.get("/api/bot/game/stream/{room_id}", response_class=StreamingResponse,
            summary="NDJSON: gameFull, then gameState after each change, chatLine, "
                    "opponentGone; ends with the game")
async def stream_game(room_id: str, hall: HallPart, door: BotDoorPart, held: HeldPart,
                      who: Reader) -> StreamingResponse:
    room = await hall.get_room(room_id)
    if room.seat_of(who.player.id) is None:
        raise RoomError("not_seated", msg("error.bot_api.not_in_room"))
    slot = await door.open_stream(who.token_key)  # counted from here: see CountedStream
    player = who.player

    async def lines() -> AsyncIterator[bytes]:
        room = await hall.attach(room_id)
        sub = hall.pubsub.subscribe(room.id)
        try:
            await hall.connected(room, player)
            with door.tracked(sub), held.holding(who.token, player.id, ender(sub)):
                async for line in game_lines(sub):
                    yield line
        finally:
            sub.close()
            with contextlib.suppress(RoomError):
                await hall.disconnected(await hall.get_room(room_id), player)
            hall.detach(room_id)

    async def game_lines(sub: Subscription) -> AsyncIterator[bytes]:
        gone: bool = False
        live = await hall.get_room(room_id)
        seat = live.seat_of(player.id)
        state = json.loads(hall.render(live, seat, 0))
        sent, last = live.version, (id(live), live.rev)
        full = {"type": "gameFull", "id": live.id, "game": live.game_name,
                "title": live.game.title, "options": live.game.shown_options(),
                "seat": seat, "seats": state["seats"], "clock": state["clock"],
                "rated": state["rated"], "chat": await hall.chat_history(live.id),
                "state": {**state, "type": "gameState"}}
        yield _line(full)
        if live.status == FINISHED:
            return
        async for event in _kept_alive(sub):
            if event is None:
                yield b"\n"
                continue
            kind = event.get("event")
            if kind == "message":
                message = event["message"]
                if message.get("type") == "chat":
                    yield _line({"type": "chatLine", "room": "player",
                                 "username": message.get("from"),
                                 "text": message.get("text")})
                elif message.get("type") == "info":  # the hall's notice, with key/args
                    yield _line({"type": "chatLine", "room": "player", "username": "server",
                                 **{k: message[k] for k in ("text", "key", "args")
                                    if k in message}})
                continue
            if kind not in ("state", "sync"):
                continue
            live = await hall.get_room(room_id)
            if (id(live), live.rev) == last:
                continue
            seat = live.seat_of(player.id)
            moves_from = 0 if sent > live.version else sent
            state = json.loads(hall.render(live, seat, moves_from))
            sent, last = live.version, (id(live), live.rev)
            yield _line({**state, "type": "gameState"})
            away = state.get("absent")
            now_gone = away is not None and away.get("seat") != seat
            if now_gone or gone:
                gone = now_gone
                yield _line({"type": "opponentGone", "gone": now_gone,
                             **({"claimWinInSeconds": -(-away["claim_in_ms"] // 1000)}
                                if now_gone and away is not None else {})})
            if live.status == FINISHED:
                return

    return CountedStream(lines(), slot, NDJSON)
