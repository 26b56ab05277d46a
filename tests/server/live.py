"""A real hall for tests: `gamehall serve` in a subprocess on a free loopback port, plus real
HTTP and WebSocket clients that record every message they receive."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol, TypeVar

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.server.fake_time import ENV, set_time

ROOT = Path(__file__).resolve().parents[2]
Message = dict[str, Any]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


OPEN_LIMITS = ("--session-rate", "100000/minute", "--room-rate", "100000/minute",
               "--room-address-rate", "100000/minute", "--max-connections-per-address", "10000",
               "--max-lobby-sockets", "10000",
               "--max-connections-per-visitor", "1000")
"""Every test client comes from one address and tests make many visitors and rooms quickly:
these limits are raised on every test server (a test of a limit sets its own after them)."""

OPEN_LIMITS_ENV = {"GAMEHALL_" + flag[2:].upper().replace("-", "_"): value
                   for flag, value in zip(OPEN_LIMITS[::2], OPEN_LIMITS[1::2], strict=True)}
"""The same, as the environment of a server configured by GAMEHALL_* variables (a cluster's)."""


class Server:
    """A hall process; `kill9` and `start` let a test crash and restart it on the same database.
    It logs at warning level (HH_LOG=debug in the environment shows every frame)."""

    def __init__(self, db_url: str, log_path: Path, *extra: str,
                 module: str = "gamehall", env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.module = module
        """What runs: ``python -m MODULE serve …`` (tests.server.gated wraps the storage)."""
        self.extra = extra
        self.env = env or {}
        self.log_path = log_path
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, room: str) -> str:
        """A room's WebSocket; the token goes in a header (`auth`), never in the URL."""
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room}"

    def start(self, timeout: float = 90.0) -> None:
        cmd = [sys.executable, "-m", self.module, "serve", "--port", str(self.port),
               "--db", self.db_url, "--plugin", "tests.server.games", "--bot-delay", "0",
               "--log-level", os.environ.get("HH_LOG", "warning"), *OPEN_LIMITS, *self.extra]
        log = self.log_path.open("ab")
        path = os.pathsep.join(p for p in (str(ROOT / "src"), str(ROOT),
                                            os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": path, **self.env}  # this checkout's code
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.http}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log_path.read_text()[-3000:]}")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    # --- HTTP helpers ----------------------------------------------------------------------------
    def session(self, nickname: str) -> str:
        r = httpx.post(f"{self.http}/api/session", json={"nickname": nickname})
        assert r.status_code == 200, r.text
        return str(r.json()["token"])

    def create_room(self, token: str, game: str, clock: str | None = None,
                    **options: Any) -> str:
        r = httpx.post(f"{self.http}/api/rooms",
                       json={"game": game, "options": options, "clock": clock},
                       headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201, r.text
        return str(r.json()["id"])

    def act(self, token: str | None, room: str, kind: str, **body: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.post(f"{self.http}/api/rooms/{room}/{kind}", json=body, headers=headers)

    def record(self, room: str) -> Message:
        r = httpx.get(f"{self.http}/api/rooms/{room}/record")
        assert r.status_code == 200, r.text
        return dict(r.json())


class TimedServer(Server):
    """A server whose clock is the number in a file: `at(t)` sets it, and waits until the hall
    has read it (and stored it as its last sign of life)."""

    def __init__(self, tmp: Path, *extra: str) -> None:
        self.time_file = tmp / "now.txt"
        set_time(self.time_file, 1000.0)
        super().__init__(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log",
                         "--plugin", "tests.server.fake_time", "--rate", "1000",
                         "--burst", "1000", *extra, env={ENV: str(self.time_file)})

    def at(self, t: float) -> None:
        set_time(self.time_file, t)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            clocks = httpx.get(f"{self.http}/api/health").json()["clocks"]
            if clocks["time"] == t and clocks["alive_at"] == t:
                return
            time.sleep(0.05)
        raise AssertionError(f"the server did not reach time {t}")


class Service(Protocol):
    def start(self) -> None: ...

    def stop(self) -> None: ...


S = TypeVar("S", bound=Service)


@contextlib.contextmanager
def running(service: S) -> Iterator[S]:
    """`service` (a server, Redis, a cluster) started for the block, stopped after it however
    the block ends."""
    service.start()
    try:
        yield service
    finally:
        service.stop()


async def until(done: Callable[[], bool], failure: str, polls: int = 120,
                pause: float = 0.25) -> None:
    """Wait for something the server does on its own (a loop's next round), asking `done` up to
    `polls` times; AssertionError(failure) if it never holds. What a test checks is that it
    happens (after what the test did), never how soon."""
    for _ in range(polls):
        if done():
            return
        await asyncio.sleep(pause)
    raise AssertionError(failure)


def auth(token: str | None) -> dict[str, str]:
    """The header that carries a token (none for an anonymous client)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


class Client:
    """A WebSocket client that keeps every message and the latest state."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.messages: list[Message] = []
        self.state: Message | None = None
        self.moves: list[Message] = []
        self._cursor = 0

    @classmethod
    async def open(cls, server: Server, room: str, token: str | None, name: str = "") -> Client:
        ws = await connect(server.ws_url(room), max_size=2**22, open_timeout=20,
                           additional_headers=auth(token))
        client = cls(ws, name)
        await client.wait(lambda m: m["type"] == "state")
        return client

    async def send(self, message: Message | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 30.0) -> Message:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = json.loads(raw)
        if msg["type"] == "state":  # rebuild the whole move list from the part sent
            start = msg["moves_from"]
            assert 0 <= start <= len(self.moves), (start, len(self.moves))
            self.moves = self.moves[:start] + msg["moves"]
            msg["moves"] = list(self.moves)
            assert len(self.moves) == msg["version"], "the move list and version disagree"
            self.state = msg
        self.messages.append(msg)
        return dict(msg)

    async def wait(self, pred: Callable[[Message], bool], timeout: float = 30.0) -> Message:
        """The next message (not yet returned by `wait`) that satisfies `pred`."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            while self._cursor < len(self.messages):
                msg = self.messages[self._cursor]
                self._cursor += 1
                if pred(msg):
                    return msg
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no matching message; last: "
                                   f"{self.messages[-3:]}")
            await self.recv(left)

    async def state_at(self, version: int, timeout: float = 30.0) -> Message:
        if self.state and self.state["version"] >= version:
            return self.state
        return await self.wait(lambda m: m["type"] == "state" and m["version"] >= version,
                               timeout)

    async def error(self, timeout: float = 30.0) -> Message:
        return await self.wait(lambda m: m["type"] == "error", timeout)

    async def command(self, text: str) -> None:
        await self.send({"type": "chat", "text": text})

    async def close(self) -> None:
        await self.ws.close()


async def seat_and_start(clients: list[Client], starter: int = 0) -> None:
    """Each client takes a seat (in order), `clients[starter]` starts the game; until all see it
    running."""
    for c in clients:
        await c.command("/join")
        await c.wait(lambda m: m["type"] == "state" and m["seat"] is not None)
    await clients[starter].command("/start")
    for c in clients:
        await c.wait(lambda m: m["type"] == "state" and m["status"] == "playing")


async def play_random(clients: dict[int, Client], rng: Any, max_moves: int = 10000,
                      on_move: Callable[[int, str], None] | None = None,
                      resign: bool = False) -> Message:
    """Seated clients play random legal moves until the game is over; returns the last state.
    After `max_moves` moves the seat to move resigns when `resign` is set (else: an error)."""
    any_client = next(iter(clients.values()))
    for _ in range(max_moves):
        st = any_client.state
        assert st is not None
        if st["status"] == "finished":
            return st
        seat = st["to_move"]
        if seat is None or seat not in clients:
            await any_client.state_at(st["version"] + 1, 30)
            continue
        mover = clients[seat]
        mine = await mover.state_at(st["version"])
        assert mine["version"] == st["version"] and mine["legal_moves"], mine
        move = rng.choice(mine["legal_moves"])
        if on_move:
            on_move(seat, move)
        await mover.send({"type": "move", "move": move, "version": st["version"]})
        await any_client.state_at(st["version"] + 1, 30)
    if not resign:
        raise AssertionError("the game did not end")
    st = any_client.state
    assert st is not None and st["to_move"] in clients
    await clients[st["to_move"]].send({"type": "resign"})
    return await any_client.wait(lambda m: m["type"] == "state" and m["status"] == "finished", 30)
