"""Start a gamehall cluster on one machine: Redis, N `gamehall serve` nodes, nginx in front.

    python -m deploy.topology --db postgresql+psycopg://user@host/gamehall --nodes 3 --port 8080
    python -m deploy.topology --print-nginx --nodes 3 --port 8080   # the nginx file, filled in

PostgreSQL is the deployment's database and is not started here (the tests start a throwaway
cluster, tests/server/postgres.py). Redis runs without persistence: it holds only room events
and leases, so a restart loses nothing. The tests and `python -m benchmarks.hall --nodes N` start
exactly this (the classes below); stop it with Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
NGINX_SITE = HERE / "gamehall-nginx.conf"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args!r} exited: {log.read_text()[-3000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}: {log.read_text()[-3000:]}")


class Process:
    """A child process with a log file; `kill9`, `freeze` and `thaw` are for failure drills."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def _spawn(self, cmd: Sequence[str], env: dict[str, str] | None = None,
               cwd: Path = ROOT) -> None:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(list(cmd), cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                     env=env, start_new_session=True)
        out.close()

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill9(self) -> None:
        if self.alive():
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def freeze(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if not self.alive():
            return
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)  # a frozen process cannot act on SIGTERM
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


class RedisServer(Process):
    """Debian's redis-server on a fixed port, without persistence (restart = empty Redis)."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        super().__init__(folder / "redis.log")
        self.folder = folder
        self.port = port or free_port()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        self._spawn([exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "no", "--dir", str(self.folder), "--protected-mode", "no"],
                    cwd=self.folder)
        _wait_port(self.port, self.proc, self.log, 30)  # type: ignore[arg-type]

    def restart(self) -> None:
        """Kill -9 and start again on the same port: every key and subscription is gone."""
        self.kill9()
        self.start()


class Node(Process):
    """One `gamehall serve` node of the cluster (configured through GAMEHALL_* variables)."""

    def __init__(self, name: str, folder: Path, db: str, redis: str,
                 extra: dict[str, str] | None = None, port: int | None = None) -> None:
        super().__init__(folder / f"{name}.log")
        self.name, self.db, self.redis = name, db, redis
        self.port = port or free_port()
        self.extra = dict(extra or {})

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def environment(self) -> dict[str, str]:
        path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)
        return {**os.environ, "PYTHONPATH": path, "GAMEHALL_DB": self.db,
                "GAMEHALL_REDIS": self.redis, "GAMEHALL_PORT": str(self.port),
                "GAMEHALL_NODE": self.name, **self.extra}

    def launch(self) -> None:
        """Start the process and return at once (`wait_up` waits for it): several nodes launched
        together start as an operator's service manager starts them, in the same instant."""
        self._spawn([sys.executable, "-m", "gamehall", "serve"], env=self.environment())

    def wait_up(self, timeout: float = 90.0) -> None:
        """Wait until the launched node answers its health check; RuntimeError with its log's
        end if it exits first or never answers."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"node {self.name} exited: {self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.http}/api/health", timeout=2) as resp:
                    if resp.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"node {self.name} did not start: {self.log.read_text()[-3000:]}")

    def view(self) -> tuple[str, set[str]] | None:
        """This node's holder name and the holders it knows alive, by its health; None if it
        does not answer (within 2 s)."""
        try:
            with urllib.request.urlopen(f"{self.http}/api/health", timeout=2) as resp:
                cluster = json.load(resp)["cluster"]
                return str(cluster["holder"]), {str(h) for h in cluster["nodes_alive"]}
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def start(self, timeout: float = 90.0) -> None:
        """Launch and wait until it is up."""
        self.launch()
        self.wait_up(timeout)


def nginx_site(ports: Sequence[int], listen: int) -> str:
    """deploy/gamehall-nginx.conf with its markers filled in."""
    servers = "\n".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;" for p in ports)
    return (NGINX_SITE.read_text().replace("@UPSTREAM_SERVERS@", servers)
            .replace("@LISTEN@", f"127.0.0.1:{listen}"))


class Nginx(Process):
    """Debian's nginx in the foreground with its own prefix folder, serving deploy's site file."""

    def __init__(self, folder: Path, ports: Sequence[int], port: int | None = None) -> None:
        super().__init__(folder / "nginx.log")
        self.folder = folder / "nginx"
        self.ports = list(ports)
        self.port = port or free_port()
        self._temps: Path | None = None
        """Where its workers buffer large bodies, when that cannot be `folder` (see start)."""

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "gamehall.conf").write_text(nginx_site(self.ports, self.port))
        temps = self.folder
        if os.geteuid() == 0:  # its workers run as nobody, who may not enter a private folder
            self._temps = Path(tempfile.mkdtemp(prefix="gamehall-nginx-"))
            self._temps.chmod(0o755)
            temps = self._temps
        temp = {k: temps / k for k in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
        paths = "\n".join(f"    {k}_temp_path {p};" if k != "body" else
                          f"    client_body_temp_path {p};" for k, p in temp.items())
        user = "user nobody nogroup;" if os.geteuid() == 0 else ""
        (self.folder / "nginx.conf").write_text(f"""{user}
worker_processes 1;
worker_rlimit_nofile 20000;
pid {self.folder / 'nginx.pid'};
error_log {self.folder / 'error.log'} warn;
events {{ worker_connections 10000; }}
http {{
    access_log off;
{paths}
    include {self.folder / 'gamehall.conf'};
}}
""")
        exe = shutil.which("nginx") or "/usr/sbin/nginx"
        self._spawn([exe, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"),
                     "-g", "daemon off;"], cwd=self.folder)
        _wait_port(self.port, self.proc, self.log, 30)  # type: ignore[arg-type]

    def stop(self) -> None:
        super().stop()
        if self._temps is not None:
            shutil.rmtree(self._temps, ignore_errors=True)
            self._temps = None


class Topology:
    """Redis, `nodes` hall nodes on one database, nginx in front; every process's log is kept in
    `folder`. Use as a context manager (or `start` / `stop`)."""

    def __init__(self, db: str, nodes: int = 3, folder: Path | None = None,
                 port: int | None = None, env: dict[str, str] | None = None) -> None:
        self.folder = folder or Path(tempfile.mkdtemp(prefix="gamehall-cluster-"))
        self.redis = RedisServer(self.folder)
        self.nodes = [Node(f"n{i + 1}", self.folder, db, self.redis.url, env)
                      for i in range(nodes)]
        self.nginx = Nginx(self.folder, [n.port for n in self.nodes], port)

    @property
    def http(self) -> str:
        return self.nginx.http

    def start(self) -> None:
        try:
            self.redis.start()
            for node in self.nodes:  # one at a time: each migrates or checks the schema
                node.start()
            self.nginx.start()
            self.wait_formed()
        except BaseException:
            self.stop()
            raise

    def wait_formed(self, timeout: float = 60.0) -> None:
        """Wait until every running node knows every other one alive (its health's
        `nodes_alive`). A node learns of another at its next look at the heartbeats, up to half
        a second after the other started: the cluster is whole then, not when the last node
        answers. RuntimeError with the nodes' views if that does not come."""
        running = [n for n in self.nodes if n.alive()]
        deadline = time.monotonic() + timeout
        while True:
            views = {n.name: n.view() for n in running}
            holders = {v[0] for v in views.values() if v is not None}
            if all(v is not None and v[1] == holders for v in views.values()):
                return  # by name: a restarted node's old holder may still be listed a moment
            if time.monotonic() > deadline:
                raise RuntimeError(f"the nodes do not all know each other: {views}")
            time.sleep(0.1)

    def stop(self) -> None:
        for proc in [self.nginx, *self.nodes, self.redis]:
            proc.stop()

    def __enter__(self) -> Topology:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--db", help="the PostgreSQL URL every node uses (postgresql+psycopg://…)")
    p.add_argument("--nodes", type=int, default=3)
    p.add_argument("--port", type=int, default=8080, help="where nginx listens")
    p.add_argument("--print-nginx", action="store_true",
                   help="print the nginx site file for nodes on ports 8001.. and exit")
    a = p.parse_args()
    if a.print_nginx:
        print(nginx_site([8001 + i for i in range(a.nodes)], a.port), end="")
        return
    if not a.db:
        p.error("--db is required (the cluster's PostgreSQL database)")
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    topo = Topology(a.db, a.nodes, port=a.port)
    topo.start()
    print(f"hall at {topo.http}/ (nodes {', '.join(n.http for n in topo.nodes)}; "
          f"redis {topo.redis.url}; logs in {topo.folder})", flush=True)
    try:
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    finally:
        topo.stop()


if __name__ == "__main__":
    main()
