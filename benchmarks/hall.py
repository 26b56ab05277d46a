"""The hall under load: N rooms, two scripted WebSocket clients each, random legal moves.

    python -m benchmarks.hall --rooms 500 [--game hula] [--think 1.0] [--seconds 60]
                              [--url http://host:port] [--db URL]
    python -m benchmarks.hall --nodes 3 --rooms 1000 [--db postgresql+psycopg://...]

Without --url a server is started here (`gamehall serve` on a free loopback port, a fresh
SQLite file: the default settings). With --nodes N a cluster is started instead, exactly as
deploy/topology.py starts it (Redis, N nodes, nginx in front; a throwaway PostgreSQL with fsync
on unless --db names one), and every client goes through nginx. Each room's two clients play
random legal moves, waiting `think` seconds on average (uniform 0.5x-1.5x) before each move,
and start a new game in a new room when one ends. Prints moves/s, the latency from a move's
submission to the opponent's state update (p50, p99, max; for a cluster also split by whether
the two players sit on one node or two, and whether the mover's node owns the room), the CPU
used (servers; for a cluster also Redis and nginx, and PostgreSQL when it runs here), the load
generator's own event-loop lag (its stalls would be in the latencies; its collector is off
while measuring), and every error (error messages, timeouts, dropped connections). A cluster
run ends with a failover: the load stops, the node owning most rooms is killed (kill -9), and
for each of its rooms a player submits a move through nginx; the time until each is accepted
is the failover time.

Choosing --think: each room makes about one move per `think` seconds, so N rooms ask for N/think
moves per second, and the load generator itself needs about 1.2 ms of CPU per move. The default
(1 s) is a stress setting: 1,000 rooms at 1 s would be 1,000 moves/s, more than the generator
alone can drive on 2 cores. People think for 5-10 s or more: `--think 10` (100 moves/s for
1,000 rooms) is the figure for a hall of people, `--think 5` a brisk one. Give a large hall a
long `--warmup` (rooms are opened over its first half): `--nodes 3 --rooms 1000 --think 10
--warmup 60` opens 33 rooms a second.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from gamehall.server.ops.serve import GC_THRESHOLDS


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    kinds: list[tuple[bool, bool]] = field(default_factory=list)
    """Per latency: (the players sit on different nodes, the mover's node owns the room)."""
    moves: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False
    elapsed: float = 1.0
    server_cpu: float = 0.0
    helpers_cpu: float = 0.0
    """Redis and nginx (cluster runs)."""
    database_cpu: float = 0.0
    """PostgreSQL's processes, when it runs on this machine (cluster runs)."""
    client_cpu: float = 0.0
    client_lags: list[float] = field(default_factory=list)
    """The load generator's own event-loop lag while measuring (every 50 ms): a latency is
    measured by this loop, so its stalls show in the latencies as well."""
    load: tuple[float, ...] = field(default_factory=os.getloadavg)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


async def request(base: str, method: str, path: str, body: dict[str, Any] | None = None,
                  token: str | None = None) -> tuple[int, dict[str, str], Any]:
    """A minimal HTTP/1.1 request (a full HTTP client costs the load generator too much CPU):
    status, headers (lower-case names), decoded JSON body."""
    host, _, port = base.removeprefix("http://").partition(":")
    reader, writer = await asyncio.open_connection(host, int(port or 80))
    data = json.dumps(body).encode() if body is not None else b""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"
                 f"\r\n{auth}Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode()
                 + data)
    raw = await reader.read()
    writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
    status = int(lines[0].split()[1])
    try:
        return status, headers, json.loads(payload) if payload else None
    except ValueError:  # not JSON (a proxy's own error page): say what came
        return status, headers, {"code": f"http_{status}", "text": payload[:200].decode("latin-1")}


async def post_json(base: str, path: str, body: dict[str, Any],
                    token: str | None = None) -> Any:
    status, _, payload = await request(base, "POST", path, body, token)
    if status >= 300:
        raise RuntimeError(f"POST {path}: {status} {str(payload)[:200]}")
    return payload


class Table:
    """One room and its two players, who start a new room when a game ends."""

    def __init__(self, base: str, game: str, tokens: list[str],
                 stats: Stats, think: float, rng: random.Random) -> None:
        self.base, self.game, self.tokens = base, game, tokens
        self.stats, self.think, self.rng = stats, think, rng
        self.finished = False
        self.pending: tuple[int, int, float] | None = None
        """(seat, version, time) of the move in flight, until the opponent sees its result."""
        self.room = ""
        self.owner = ""
        self.welcomes: dict[ClientConnection, str] = {}
        self.nodes: dict[ClientConnection, str] = {}
        """The node each socket reached (cluster: from its welcome) and the room's owner."""

    async def new_room(self) -> str:
        status, headers, made = await request(self.base, "POST", "/api/rooms",
                                              {"game": self.game}, self.tokens[0])
        if status >= 300:
            raise RuntimeError(f"POST /api/rooms: {status} {str(made)[:200]}")
        self.owner = headers.get("x-gamehall-node", "")
        self.room = str(made["id"])
        return self.room

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
                self.nodes = {ws: self.welcomes.pop(ws, "") for ws in socks}
                await socks[0].send(json.dumps({"type": "start"}))
                self.finished = False
                await asyncio.gather(*(self.player(ws, stop) for ws in socks))
                self.stats.games += self.finished
            finally:
                for ws in socks:
                    await ws.close()

    async def seated(self, ws: ClientConnection) -> bool:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if msg["type"] == "error":
            raise RuntimeError(msg["message"])
        if msg["type"] == "welcome":
            self.welcomes[ws] = str(msg.get("node", ""))
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
        here = self.nodes.get(ws, "")
        there = next((n for w, n in self.nodes.items() if w is not ws), "")
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
                    self.stats.kinds.append((here != there, there == self.owner))
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


async def watch_lag(stats: Stats) -> None:
    """Sample this process's event-loop lag every 50 ms while measuring (`Stats.client_lags`)."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(0.05)
        if stats.measuring:
            stats.client_lags.append(loop.time() - t - 0.05)


def cpu_seconds(pid: int | None) -> float:
    """CPU time (user + system) a local process has used, from /proc; 0 when unknown."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def postmaster(url: str) -> list[int]:
    """The PostgreSQL server on this machine listening on the URL's port (its backends are its
    children), or nothing."""
    port = url.rsplit(":", 1)[-1].split("/", 1)[0]
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
        if args and args[0].endswith(b"postgres") and b"-p" in args \
                and args[args.index(b"-p") + 1:][:1] == [port.encode()]:
            return [int(cmdline.parent.name)]
    return []


def tree_cpu(pids: Sequence[int]) -> float:
    """CPU time of the processes and their children (nginx's worker, a node's bot workers)."""
    family = set(pids)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) in pids:
                family.add(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return sum(cpu_seconds(p) for p in family)


async def bench(base: str, rooms: int, game: str, think: float, seconds: float,
                warmup: float, server_pids: Sequence[int] = (),
                helper_pids: Sequence[int] = (),
                database_pids: Sequence[int] = ()) -> tuple[Stats, list[Table]]:
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
    gc.freeze()  # the clients' long-lived objects: no full collection of this process walks them
    # nor any other collection while measuring: its one young collection in the measured 30 s
    # walked some 100,000 objects and paused every client 120-145 ms (benchmarks/README.md,
    # "Fifth session"); the garbage of 30 s is small
    gc.disable()
    lag = asyncio.create_task(watch_lag(stats))
    stats.measuring = True
    t0 = time.perf_counter()
    cpu0, helpers0 = tree_cpu(list(server_pids)), tree_cpu(list(helper_pids))
    database0 = tree_cpu(list(database_pids))
    own0 = time.process_time()
    await asyncio.sleep(seconds)
    stats.measuring = False
    stats.elapsed = time.perf_counter() - t0
    stats.server_cpu = tree_cpu(list(server_pids)) - cpu0
    stats.helpers_cpu = tree_cpu(list(helper_pids)) - helpers0
    stats.database_cpu = tree_cpu(list(database_pids)) - database0
    stats.client_cpu = time.process_time() - own0
    lag.cancel()
    gc.enable()
    stop.set()
    done, pending = await asyncio.wait(tasks, timeout=60)
    for task in pending:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            stats.error(f"client: {type(task.exception()).__name__}: {task.exception()}")
    return stats, tables


async def failover(base: str, tables: list[Table], victim: Any,
                   rooms: list[str]) -> tuple[list[float], dict[str, int]]:
    """Kill the node `victim` (kill -9); for each of `rooms` (it owned them) the player to move
    submits a move through `base`. Returns the seconds from the kill until each move was
    accepted, and the failures."""
    by_room = {t.room: t for t in tables if t.room in set(rooms)}
    states: dict[str, tuple[str, int, str]] = {}
    for room, table in by_room.items():  # who is to move, and a legal move, before the kill
        for token in table.tokens:
            status, _, st = await request(base, "GET", f"/api/rooms/{room}", None, token)
            if status == 200 and st["status"] == "playing" and st["legal_moves"]:
                states[room] = (token, st["version"], st["legal_moves"][0])
    errors: dict[str, int] = {}
    kill_at = time.perf_counter()
    victim.kill9()

    async def probe(room: str, token: str, version: int, text: str) -> float | None:
        for _ in range(100):
            status, _, body = await request(base, "POST", f"/api/rooms/{room}/move",
                                            {"move": text, "version": version}, token)
            if status == 200:
                return time.perf_counter() - kill_at
            code = (body or {}).get("code", str(status))
            if code != "room_unavailable" and status not in (502, 504):
                errors[code] = errors.get(code, 0) + 1
                return None
        return None

    got = await asyncio.gather(*(probe(r, *states[r]) for r in states))
    return sorted(g for g in got if g is not None), errors


def _pct(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else float("nan")


def report(stats: Stats, rooms: int, game: str, think: float) -> str:
    lat = sorted(stats.latencies)
    elapsed = stats.elapsed

    def pct(p: float) -> float:
        return _pct(lat, p)

    lines = [
        f"rooms {rooms} ({2 * rooms} clients), game {game}, think {think:.2f} s",
        f"moves measured {stats.moves} in {elapsed:.1f} s: {stats.moves / elapsed:.1f} moves/s",
        f"latency submission -> opponent's update: p50 {pct(0.50):.1f} ms, "
        f"p99 {pct(0.99):.1f} ms, max {pct(1.0):.1f} ms"
        + (f", mean {statistics.fmean(lat) * 1000:.1f} ms" if lat else ""),
    ]
    if any(cross for cross, _ in stats.kinds):
        pairs = list(zip(stats.latencies, stats.kinds, strict=True))
        groups = {"players on one node": [t for t, (cross, _) in pairs if not cross],
                  "players on two nodes": [t for t, (cross, _) in pairs if cross],
                  "  mover's node owns the room": [t for t, (cross, at_owner) in pairs
                                                   if cross and at_owner],
                  "  mover's node forwards to the owner": [t for t, (cross, at_owner) in pairs
                                                           if cross and not at_owner]}
        for name, values in groups.items():
            values.sort()
            lines.append(f"  {name}: {len(values)} moves, p50 {_pct(values, 0.5):.1f} ms, "
                         f"p99 {_pct(values, 0.99):.1f} ms, max {_pct(values, 1.0):.1f} ms")
    lines += [
        f"games finished {stats.games}",
        f"CPU during the measured period: server {stats.server_cpu:.1f} s "
        f"({1000 * stats.server_cpu / max(1, stats.moves):.2f} ms per move)"
        + (f", redis+nginx {stats.helpers_cpu:.1f} s "
           f"({1000 * stats.helpers_cpu / max(1, stats.moves):.2f} ms per move)"
           if stats.helpers_cpu else "")
        + (f", postgresql {stats.database_cpu:.1f} s "
           f"({1000 * stats.database_cpu / max(1, stats.moves):.2f} ms per move)"
           if stats.database_cpu else "")
        + f", load generator {stats.client_cpu:.1f} s; load average before/after: "
        f"{stats.load[0]:.1f}/{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
        f"load generator's event-loop lag: p99 {_pct(sorted(stats.client_lags), 0.99):.1f} ms, "
        f"max {_pct(sorted(stats.client_lags), 1.0):.1f} ms (its collector off)",
        f"errors {sum(stats.errors.values())}" + (f": {stats.errors}" if stats.errors else ""),
    ]
    return "\n".join(lines)


SERVER_PID: int | None = None
BENCH_LIMITS = ("--session-rate", "100000/minute", "--room-address-rate", "100000/minute",
                "--max-connections-per-address", "100000", "--address-factor", "100000")
"""Every client here comes from one address: the per-address limits are raised (each visitor
keeps the default limits, which the benchmark's players stay within)."""
BENCH_LIMITS_ENV = {"GAMEHALL_" + flag[2:].upper().replace("-", "_"): value
                    for flag, value in zip(BENCH_LIMITS[::2], BENCH_LIMITS[1::2], strict=True)}
"""The same for a cluster's nodes (configured by GAMEHALL_* variables)."""


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


@contextlib.contextmanager
def local_cluster(nodes: int, db: str | None) -> Any:
    """deploy/topology.py's cluster (and a throwaway PostgreSQL, fsync on, unless `db`)."""
    from tests.server.postgres import postgres_cluster

    from deploy.topology import Topology

    with contextlib.ExitStack() as stack:
        url = db or stack.enter_context(postgres_cluster(fsync=True))
        topo = Topology(url, nodes, env={"GAMEHALL_LOG_LEVEL": "warning", **BENCH_LIMITS_ENV})
        topo.start()
        stack.callback(topo.stop)
        yield topo


async def cluster_run(topo: Any, a: argparse.Namespace) -> str:
    stats, tables = await bench(topo.http, a.rooms, a.game, a.think, a.seconds, a.warmup,
                                [n.pid for n in topo.nodes], [topo.redis.pid, topo.nginx.pid],
                                postmaster(topo.nodes[0].db))
    out = [f"cluster of {len(topo.nodes)} nodes behind nginx (logs in {topo.folder})",
           report(stats, a.rooms, a.game, a.think)]
    healths = {n.name: httpx.get(f"{n.http}/api/health", timeout=30).json() for n in topo.nodes}
    owned = {k: h["cluster"]["rooms_owned"] for k, h in healths.items()}
    out.append("per node after the run: " + "; ".join(
        f"{k} owns {len(h['cluster']['rooms_owned'])} rooms, lease changes "
        f"{h['cluster']['lease_changes']}, event loop lag p99 {h['loop_lag_ms']['p99']} ms, "
        f"max {h['loop_lag_ms']['max']} ms, slowest commit since start "
        f"{1000 * h['storage'].get('max_commit_seconds', 0):.1f} ms"
        for k, h in healths.items()))
    if a.failover:
        victim = max(topo.nodes, key=lambda n: len(owned[n.name]))
        times, errors = await failover(topo.http, tables, victim, owned[victim.name])
        out.append(f"failover after kill -9 of {victim.name} ({len(owned[victim.name])} rooms, "
                   f"{len(times)} probed): every room accepted a move again after "
                   f"{times[-1] if times else float('nan'):.2f} s (p50 "
                   f"{times[len(times) // 2] if times else float('nan'):.2f} s)"
                   + (f"; failures {errors}" if errors else "; 0 failures"))
    return "\n".join(out)


def main() -> None:
    gc.set_threshold(*GC_THRESHOLDS)  # as the server's, for the warm-up
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rooms", type=int, default=500)
    p.add_argument("--game", default="hula")
    p.add_argument("--think", type=float, default=1.0, help="mean seconds before each move")
    p.add_argument("--seconds", type=float, default=60.0, help="measured period")
    p.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    p.add_argument("--url", help="a running hall; default: start one here")
    p.add_argument("--db", help="database URL for the server(s) started here")
    p.add_argument("--nodes", type=int, default=0,
                   help="start a cluster of this many nodes behind nginx (deploy/topology.py)")
    p.add_argument("--no-failover", dest="failover", action="store_false",
                   help="cluster: skip the kill -9 at the end")
    a = p.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    if a.nodes:
        with local_cluster(a.nodes, a.db) as topo:
            print(asyncio.run(cluster_run(topo, a)))
        return
    with contextlib.ExitStack() as stack:
        base = a.url or stack.enter_context(local_server(a.db))
        pids = [SERVER_PID] if SERVER_PID is not None and not a.url else []
        stats, _ = asyncio.run(bench(base, a.rooms, a.game, a.think, a.seconds, a.warmup,
                                     pids))
    print(report(stats, a.rooms, a.game, a.think))


if __name__ == "__main__":
    main()
