"""The hall under load: N rooms, two scripted WebSocket clients each, random legal moves.

    python -m benchmarks.hall --rooms 500 [--game hula] [--think 1.0] [--seconds 60]
                              [--url http://host:port] [--db URL]

Without --url a server is started here (`gamehall serve` on a free loopback port, a fresh
SQLite file with full sync: the production settings). Each room's two clients play random legal
moves, waiting `think` seconds on average (uniform 0.5x-1.5x) before each move, and start a new
game in a new room when one ends. Prints moves/s, the latency from a move's submission to the
opponent's state update (p50, p99, max), and every error (error messages, timeouts, dropped
connections).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False
    elapsed: float = 1.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    load: tuple[float, ...] = field(default_factory=os.getloadavg)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


async def post_json(base: str, path: str, body: dict[str, Any],
                    token: str | None = None) -> Any:
    """A minimal HTTP/1.1 POST (a full HTTP client costs the load generator too much CPU)."""
    host, _, port = base.removeprefix("http://").partition(":")
    reader, writer = await asyncio.open_connection(host, int(port or 80))
    data = json.dumps(body).encode()
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    writer.write(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                 f"{auth}Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode()
                 + data)
    raw = await reader.read()
    writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    if status >= 300:
        raise RuntimeError(f"POST {path}: {status} {payload[:200]!r}")
    return json.loads(payload)


class Table:
    """One room and its two players, who start a new room when a game ends."""

    def __init__(self, base: str, game: str, tokens: list[str],
                 stats: Stats, think: float, rng: random.Random) -> None:
        self.base, self.game, self.tokens = base, game, tokens
        self.stats, self.think, self.rng = stats, think, rng
        self.finished = False
        self.pending: tuple[int, int, float] | None = None
        """(seat, version, time) of the move in flight, until the opponent sees its result."""

    async def new_room(self) -> str:
        made = await post_json(self.base, "/api/rooms", {"game": self.game}, self.tokens[0])
        return str(made["id"])

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            room = await self.new_room()
            self.pending = None
            ws_base = self.base.replace("http", "ws", 1)
            socks = [await connect(f"{ws_base}/ws/rooms/{room}", open_timeout=60,
                                   max_size=2**22,
                                   additional_headers={"Authorization": f"Bearer {t}"})
                     for t in self.tokens]
            try:
                for ws in socks:  # seats and start through the WebSocket, as a page would
                    await ws.send(json.dumps({"type": "join"}))
                    while not await self.seated(ws):
                        pass
                await socks[0].send(json.dumps({"type": "start"}))
                self.finished = False
                await asyncio.gather(*(self.player(ws, stop) for ws in socks))
                self.stats.games += self.finished
            finally:
                for ws in socks:
                    await ws.close()

    @staticmethod
    async def seated(ws: ClientConnection) -> bool:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if msg["type"] == "error":
            raise RuntimeError(msg["message"])
        return msg["type"] == "state" and msg["seat"] is not None

    @staticmethod
    async def receive(ws: ClientConnection, stop: asyncio.Event) -> str | bytes | None:
        """The next message; None once the run is stopping; TimeoutError after 30 s of nothing."""
        recv = asyncio.ensure_future(ws.recv())
        stopping = asyncio.ensure_future(stop.wait())
        try:
            done, _ = await asyncio.wait({recv, stopping}, timeout=30,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
        if recv in done:
            return recv.result()
        recv.cancel()
        if stop.is_set():
            return None
        raise TimeoutError

    async def player(self, ws: ClientConnection, stop: asyncio.Event) -> None:
        """Read states; move when it is this seat's turn; time the opponent's moves."""
        moved_at = -1
        while True:
            try:
                raw = await self.receive(ws, stop)
            except TimeoutError:
                self.stats.error("timeout waiting for an update")
                return
            except Exception as exc:  # dropped connection
                self.stats.error(f"connection: {type(exc).__name__}")
                return
            if raw is None:
                return
            msg = json.loads(raw)
            if msg["type"] == "error":
                self.stats.error(f"error {msg['code']}")
                continue
            if msg["type"] != "state" or msg["status"] == "waiting":
                continue
            version = msg["version"]
            if self.pending is not None and self.pending[0] != msg["seat"] \
                    and version > self.pending[1]:
                if self.stats.measuring:
                    self.stats.latencies.append(time.perf_counter() - self.pending[2])
                    self.stats.moves += 1
                self.pending = None
            if msg["status"] == "finished":
                self.finished = True
                return
            if msg["legal_moves"] and version > moved_at and not stop.is_set():
                moved_at = version
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                self.pending = (msg["seat"], version, time.perf_counter())
                await ws.send(json.dumps({"type": "move", "version": version,
                                          "move": self.rng.choice(msg["legal_moves"])}))
            elif stop.is_set() and msg["legal_moves"]:
                return


def cpu_seconds(pid: int | None) -> float:
    """CPU time (user + system) a local process has used, from /proc; 0 when unknown."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


async def bench(base: str, rooms: int, game: str, think: float, seconds: float,
                warmup: float, server_pid: int | None = None) -> Stats:
    stats = Stats()
    tag = random.randrange(10**6)
    tokens = []
    for i in range(2 * rooms):
        made = await post_json(base, "/api/session", {"nickname": f"b{tag}x{i}"})
        tokens.append(made["token"])
    stop = asyncio.Event()
    tables = [Table(base, game, tokens[2 * i:2 * i + 2], stats, think, random.Random(i))
              for i in range(rooms)]
    tasks = []
    for t in tables:  # stagger the start over the warm-up
        tasks.append(asyncio.create_task(t.run(stop)))
        await asyncio.sleep(warmup / 2 / rooms)
    await asyncio.sleep(warmup / 2)
    stats.measuring = True
    t0, cpu0 = time.perf_counter(), cpu_seconds(server_pid)
    own0 = time.process_time()
    await asyncio.sleep(seconds)
    stats.measuring = False
    stats.elapsed = time.perf_counter() - t0
    stats.server_cpu = cpu_seconds(server_pid) - cpu0
    stats.client_cpu = time.process_time() - own0
    stop.set()
    done, pending = await asyncio.wait(tasks, timeout=60)
    for task in pending:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            stats.error(f"client: {type(task.exception()).__name__}: {task.exception()}")
    return stats


def report(stats: Stats, rooms: int, game: str, think: float) -> str:
    lat = sorted(stats.latencies)
    elapsed = stats.elapsed

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    lines = [
        f"rooms {rooms} ({2 * rooms} clients), game {game}, think {think:.2f} s",
        f"moves measured {stats.moves} in {elapsed:.1f} s: {stats.moves / elapsed:.1f} moves/s",
        f"latency submission -> opponent's update: p50 {pct(0.50):.1f} ms, "
        f"p99 {pct(0.99):.1f} ms, max {pct(1.0):.1f} ms"
        + (f", mean {statistics.fmean(lat) * 1000:.1f} ms" if lat else ""),
        f"games finished {stats.games}",
        f"CPU during the measured period: server {stats.server_cpu:.1f} s "
        f"({1000 * stats.server_cpu / max(1, stats.moves):.2f} ms per move), "
        f"load generator {stats.client_cpu:.1f} s; load average before/after: "
        f"{stats.load[0]:.1f}/{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
        f"errors {sum(stats.errors.values())}" + (f": {stats.errors}" if stats.errors else ""),
    ]
    return "\n".join(lines)


SERVER_PID: int | None = None
BENCH_LIMITS = ("--session-rate", "100000/minute", "--room-address-rate", "100000/minute",
                "--max-connections-per-address", "100000", "--address-factor", "100000")
"""Every client here comes from one address: the per-address limits are raised (each visitor
keeps the default limits, which the benchmark's players stay within)."""


@contextlib.contextmanager
def local_server(db: str | None) -> Any:
    """`gamehall serve` in a subprocess on a free port; yields its base URL."""
    import subprocess

    from tests.server.live import free_port

    port = free_port()
    tmp = tempfile.mkdtemp(prefix="gamehall-bench-")
    url = db or f"sqlite:///{Path(tmp) / 'bench.db'}"
    log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "gamehall", "serve", "--port", str(port),
                             "--db", url, "--log-level", "warning", *BENCH_LIMITS], stdout=log,
                            stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    global SERVER_PID
    SERVER_PID = proc.pid
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rooms", type=int, default=500)
    p.add_argument("--game", default="hula")
    p.add_argument("--think", type=float, default=1.0, help="mean seconds before each move")
    p.add_argument("--seconds", type=float, default=60.0, help="measured period")
    p.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    p.add_argument("--url", help="a running hall; default: start one here")
    p.add_argument("--db", help="database URL for the server started here")
    a = p.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with contextlib.ExitStack() as stack:
        base = a.url or stack.enter_context(local_server(a.db))
        stats = asyncio.run(bench(base, a.rooms, a.game, a.think, a.seconds, a.warmup,
                                  SERVER_PID if not a.url else None))
    print(report(stats, a.rooms, a.game, a.think))


if __name__ == "__main__":
    main()
