"""A lobby socket (``/ws/lobby``) for tests: it keeps every section's lines as the server's
messages say (the snapshot, then each change), as the page does."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from tests.server.live import auth

Message = dict[str, Any]
Lines = dict[str, Message]


def lobby_url(http: str) -> str:
    """The lobby socket of the hall at `http` (a node, nginx, a test server's address)."""
    return f"{http.replace('http', 'ws', 1)}/ws/lobby"


class Lobby:
    """A lobby socket that keeps the lines as the messages say (snapshot, then changes)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.sections: dict[str, Lines] = {"rooms": {}, "pools": {}, "seeks": {}}
        self.messages: list[Message] = []

    @property
    def rooms(self) -> Lines:
        return self.sections["rooms"]

    @classmethod
    async def open(cls, http: str, token: str | None = None) -> Lobby:
        ws = await connect(lobby_url(http), open_timeout=20, additional_headers=auth(token))
        lobby = cls(ws)
        first = await lobby.next()
        assert first["type"] == "lobby", first
        return lobby

    async def next(self, timeout: float = 30.0) -> Message:
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(msg)
        if msg["type"] == "lobby":
            for section in self.sections:
                self.sections[section] = {line["id"]: line for line in msg[section]}
        elif msg["type"] == "lobby_change":
            for section, keys in msg["gone"].items():
                for key in keys:
                    self.sections[section].pop(key, None)
            for section, lines in msg["put"].items():
                for line in lines:
                    self.sections[section][line["id"]] = line
        return dict(msg)

    async def until(
        self, done: Callable[[Lines], bool], timeout: float = 30.0, section: str = "rooms"
    ) -> None:
        """Read changes until `done(lines of section)` holds (the server pushes them: nothing
        is asked); TimeoutError if it never does."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not done(self.sections[section]):
            await self.next(max(0.1, deadline - asyncio.get_running_loop().time()))

    async def close(self) -> None:
        await self.ws.close()
