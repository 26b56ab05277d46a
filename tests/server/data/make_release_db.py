"""Write `release-0001.sql`: a hall database as the release before accounts (schema 0001) left
it (as SQLite's dump of it), for the upgrade test (tests/server/test_migrations.py).

It must run against that release's code, not this tree's (this tree writes the new schema):

    mkdir /tmp/release && git archive c46361b | tar -x -C /tmp/release
    cd /tmp/release && PYTHONPATH=/tmp/release/src:/tmp/release \
        /path/to/.venv/bin/python /path/to/make_release_db.py OUT_DIR

It plays through a real `gamehall serve`: guests, rooms waiting, playing and finished (by the
rules and by resignation, against bots and between people), chat; then dumps the database to
`release-0001.sql` and writes `release-0001.json` (the tokens, which only the clients ever
knew) into OUT_DIR.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
from tests.server.live import Client, Server, play_random


class ReleaseServer(Server):
    """`gamehall serve` of the release: the same PYTHONPATH as this script (live.Server would
    point it at the tests' own tree)."""

    def start(self, timeout: float = 90.0) -> None:
        cmd = [sys.executable, "-m", "gamehall", "serve", "--port", str(self.port),
               "--db", self.db_url, "--plugin", "tests.server.games", "--bot-delay", "0",
               "--log-level", "warning", *self.extra]
        self.proc = subprocess.Popen(cmd, stdout=self.log_path.open("ab"),
                                     stderr=subprocess.STDOUT, env=dict(os.environ))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.http}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the release server did not start")


async def _play(server: Server, tokens: dict[str, str]) -> None:
    ann, bob, cid = tokens["ann"], tokens["bob"], tokens["cid"]
    finished = server.create_room(ann, "testrace", goal=12)
    a, b = await Client.open(server, finished, ann), await Client.open(server, finished, bob)
    for c in (a, b):
        await c.command("/join")
        await c.wait(lambda m: m["type"] == "state" and m["seat"] is not None)
    await a.command("gg soon")
    await a.command("/start")
    await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    await play_random({0: a, 1: b}, random.Random(3))
    for c in (a, b):
        await c.close()
    resigned = server.create_room(bob, "hula", size=5)
    for kind, body in (("join", {}), ("bot", {"level": "random"}), ("start", {})):
        assert server.act(bob, resigned, kind, **body).status_code == 200
    c = await Client.open(server, resigned, bob)
    st = c.state
    for _ in range(3):
        assert st is not None
        await c.send({"type": "move", "move": st["legal_moves"][0], "version": st["version"]})
        v = st["version"]
        st = await c.wait(lambda m, v=v: m["type"] == "state" and m["version"] > v
                          and m["to_move"] == m["seat"])
    await c.send({"type": "resign"})
    await c.wait(lambda m: m["type"] == "state" and m["status"] == "finished")
    await c.close()
    playing = server.create_room(cid, "testrace", goal=40)
    for kind, body in (("join", {}), ("bot", {"level": "random"}), ("start", {})):
        assert server.act(cid, playing, kind, **body).status_code == 200
    waiting = server.create_room(ann, "testrace")
    assert server.act(cid, waiting, "join").status_code == 200
    assert server.act(cid, waiting, "chat", text="anyone?").status_code == 200


def main(out: Path) -> None:
    if importlib.util.find_spec("gamehall.server.accounts.identity") is not None:
        raise SystemExit("this is not the release's code (see the docstring)")
    out.mkdir(parents=True, exist_ok=True)
    db = out / "release-0001.db"
    db.unlink(missing_ok=True)
    server = ReleaseServer(f"sqlite:///{db}", out / "release-server.log", "--rate", "1000",
                    "--burst", "1000")
    server.start()
    try:
        tokens = {name: server.session(name) for name in ("ann", "bob", "cid", "Dora")}
        asyncio.run(_play(server, tokens))
    finally:
        server.stop()
    conn = sqlite3.connect(db)
    (out / "release-0001.sql").write_text("\n".join(conn.iterdump()) + "\n")
    conn.close()
    for leftover in (db, db.with_suffix(".db-wal"), db.with_suffix(".db-shm")):
        leftover.unlink(missing_ok=True)
    (out / "release-0001.json").write_text(json.dumps({"tokens": tokens}, indent=1) + "\n")
    (out / "release-server.log").unlink(missing_ok=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
