"""The lobby pushed at scale (issue 44): what a lobby socket costs with N waiting rooms.

    python -m benchmarks.lobby [--rooms 10000] [--changes 30] [--live/--no-live] [--page]

In process: N real rooms' lobby lines in a `LobbyIndex`; the time to build and encode the
snapshot and its size, and a change (one room new) applied and encoded, and its size. Live
(`--live`, the default): `gamehall serve` with a fresh SQLite file, N waiting rooms created over
HTTP, then a lobby socket: the time from opening it to its snapshot and the snapshot's size;
then `--changes` times a room created over HTTP and the time from the creation's answer to the
lobby socket's change that carries it (the feed gathers changes for 50 ms first), and the
change's size; and, for comparison, what one poll of the old page cost (GET /api/rooms, at most
500 lines, which it asked for every 2 s). With `--page`, the page itself in Debian's Chromium
(headless, Playwright): the time from opening the hall to its lobby drawn with every room
counted, and from a room's creation to its row on the page.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from gamehall.server.lobby.index import Change, LobbyIndex, Put, client_change
from gamehall.server.table.room import Room

ROOMS_PER_VISITOR = 100


def in_process(rooms: int) -> dict[str, float]:
    """The index's own costs (no network): snapshot and one change, built and encoded."""
    index = LobbyIndex()
    puts = []
    for i in range(rooms):
        room = Room(id=f"r{i:07d}", game_name="hula", options={}, created_by=f"p{i % 997}", seed=i)
        room.join(i, f"p{i % 997}", None)
        puts.append(Put("rooms", room.id, room.revision, 0.0, room.summary(None, 0.0)))
    t = time.perf_counter()
    index.apply(Change(puts, []))
    load = time.perf_counter() - t
    t = time.perf_counter()
    text = index.snapshot_text(1.0)
    snap = time.perf_counter() - t
    one = Room(id="new", game_name="hula", options={}, created_by="ann", seed=1)
    t = time.perf_counter()
    for _ in range(100):
        done = index.apply(
            Change([Put("rooms", one.id, one.revision, 0.0, one.summary(None, 0.0))], [])
        )
        change = json.dumps(client_change(done, 1.0), separators=(",", ":"))
        one.revision += 1
    diff = (time.perf_counter() - t) / 100
    return {
        "load_s": load,
        "snapshot_s": snap,
        "snapshot_bytes": len(text),
        "change_s": diff,
        "change_bytes": len(change),
    }


async def _make_rooms(base: str, rooms: int) -> None:
    sem = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:

        async def visitor(v: int, count: int) -> None:
            async with sem:
                r = await c.post("/api/session", json={"nickname": f"lobbybench{v}"})
                head = {"Authorization": f"Bearer {r.json()['token']}"}
                for _ in range(count):
                    made = await c.post("/api/rooms", json={"game": "hula"}, headers=head)
                    assert made.status_code == 201, made.text

        whole, rest = divmod(rooms, ROOMS_PER_VISITOR)
        counts = [ROOMS_PER_VISITOR] * whole + ([rest] if rest else [])
        await asyncio.gather(*(visitor(v, n) for v, n in enumerate(counts)))


async def live(base: str, rooms: int, changes: int) -> dict[str, Any]:
    t = time.perf_counter()
    await _make_rooms(base, rooms)
    made = time.perf_counter() - t
    await asyncio.sleep(0.5)  # the last rooms' batch reaches the feed
    ws_url = base.replace("http", "ws", 1) + "/ws/lobby"
    t = time.perf_counter()
    async with connect(ws_url, max_size=2**28, open_timeout=60) as ws:
        first = await ws.recv()
        opened = time.perf_counter() - t
        listed = len(json.loads(first)["rooms"])
        waits, sizes = [], []
        async with httpx.AsyncClient(base_url=base, timeout=60) as c:
            r = await c.post("/api/session", json={"nickname": "lobbybenchnew"})
            head = {"Authorization": f"Bearer {r.json()['token']}"}
            for _ in range(changes):
                new = await c.post("/api/rooms", json={"game": "hula"}, headers=head)
                room, t = new.json()["id"], time.perf_counter()
                while True:
                    raw = await ws.recv()
                    msg = json.loads(raw)
                    if any(line["id"] == room for line in msg["put"].get("rooms", [])):
                        break
                waits.append(time.perf_counter() - t)
                sizes.append(len(raw))
            t = time.perf_counter()
            poll = await c.get("/api/rooms", params={"limit": 500})
            polled = time.perf_counter() - t
    return {
        "rooms_made_s": made,
        "snapshot_s": opened,
        "snapshot_bytes": len(first),
        "snapshot_rooms": listed,
        "change_p50_s": statistics.median(waits),
        "change_max_s": max(waits),
        "change_bytes": statistics.median(sizes),
        "old_poll_s": polled,
        "old_poll_bytes": len(poll.content),
        "old_poll_rooms": len(poll.json()),
    }


def page_times(base: str, changes: int) -> dict[str, float]:
    """The lobby page in Chromium: loaded to drawn, and a room created to its row shown."""
    from playwright.sync_api import sync_playwright
    from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS

    r = httpx.post(f"{base}/api/session", json={"nickname": "lobbybenchpage"}, timeout=60)
    head = {"Authorization": f"Bearer {r.json()['token']}"}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        t = time.perf_counter()
        page.goto(base + "/")
        page.wait_for_selector(".rooms:not(.stale) tr[data-room]", timeout=120_000)
        page.wait_for_selector(".more-rooms:not([hidden])", timeout=120_000)
        drawn = time.perf_counter() - t
        waits = []
        for _ in range(changes):
            made = httpx.post(f"{base}/api/rooms", json={"game": "hula"}, headers=head, timeout=60)
            room, t = made.json()["id"], time.perf_counter()
            page.wait_for_selector(f"tr[data-room='{room}']", timeout=60_000)
            waits.append(time.perf_counter() - t)
        browser.close()
    return {"drawn_s": drawn, "row_p50_s": statistics.median(waits), "row_max_s": max(waits)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rooms", type=int, default=10_000)
    p.add_argument("--changes", type=int, default=30)
    p.add_argument("--live", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--page", action="store_true", help="also the page, in Chromium")
    a = p.parse_args()
    mine = in_process(a.rooms)
    print(
        f"in process, {a.rooms} waiting rooms: index loaded in {mine['load_s'] * 1000:.0f} ms;"
        f" snapshot built and encoded in {mine['snapshot_s'] * 1000:.0f} ms, "
        f"{mine['snapshot_bytes'] / 1e6:.2f} MB; one change applied and encoded in "
        f"{mine['change_s'] * 1e6:.0f} us, {mine['change_bytes']} bytes"
    )
    if not a.live:
        return
    from tests.server.live import OPEN_LIMITS, Server, running

    tmp = Path(tempfile.mkdtemp(prefix="gamehall-lobby-"))
    server = Server(
        f"sqlite:///{tmp / 'hall.db'}",
        tmp / "server.log",
        "--max-waiting-rooms",
        str(a.rooms + a.changes + 10),
        *OPEN_LIMITS,
    )
    with running(server):
        got = asyncio.run(live(server.http, a.rooms, a.changes))
        shown = page_times(server.http, a.changes) if a.page else None
    print(
        f"live, {a.rooms} waiting rooms (made over HTTP in {got['rooms_made_s']:.0f} s): "
        f"a lobby socket's snapshot in {got['snapshot_s'] * 1000:.0f} ms, "
        f"{got['snapshot_bytes'] / 1e6:.2f} MB, {got['snapshot_rooms']} rooms; a room created "
        f"reached it in p50 {got['change_p50_s'] * 1000:.0f} ms, max "
        f"{got['change_max_s'] * 1000:.0f} ms ({a.changes} creations), "
        f"{got['change_bytes']:.0f} bytes a change; the old page's poll: "
        f"{got['old_poll_s'] * 1000:.0f} ms, {got['old_poll_bytes'] / 1e3:.0f} kB for "
        f"{got['old_poll_rooms']} rooms, every 2 s"
    )

    if shown is not None:
        print(
            f"the page in Chromium: the lobby drawn {shown['drawn_s'] * 1000:.0f} ms after "
            f"opening the hall ({a.rooms + a.changes} rooms, 100 rows shown); a room created "
            f"shown in its row in p50 {shown['row_p50_s'] * 1000:.0f} ms, max "
            f"{shown['row_max_s'] * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
