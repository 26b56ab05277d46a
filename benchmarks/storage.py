"""What one move's commit and one token look-up cost on PostgreSQL: the node's CPU and the
database's, one at a time (as a cluster node with 33 moves a second sees them: group commit
rarely batches more than one).

    python -m benchmarks.storage [--commits 2000] [--reads 2000] [--db postgresql+psycopg://...]

Without --db a throwaway PostgreSQL is started here (fsync on, as in production; Debian's
`postgresql` package). A commit is `SqlStorage.save_room` of a stored room with one new move
and the node's fencing number; a read is `SqlStorage.token_owner`. CPU is this process's
(`time.process_time`: the event loop and the storage's threads) and PostgreSQL's processes'
(from /proc), divided by the count. The storage's public methods only, so the same command
measures an older checkout (`PYTHONPATH=<its src>`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

from gamehall.server.storage import SqlStorage
from gamehall.server.table.room import Move, Room

ROOMS = 200


def postgres_cpu() -> dict[int, float]:
    """CPU seconds used so far by each PostgreSQL process on this machine, by process id."""
    out = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if "(postgres)" in text:
            fields = text.rsplit(")", 1)[1].split()
            out[int(stat.parent.name)] = ((int(fields[11]) + int(fields[12]))
                                          / os.sysconf("SC_CLK_TCK"))
    return out


def grown(before: dict[int, float], after: dict[int, float]) -> float:
    """The CPU the processes alive at the end used since `before`. A process that ended in
    between (an autovacuum worker) is left out: subtracting what it had used made the figure
    negative once."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


@contextlib.contextmanager
def database(url: str | None) -> Iterator[str]:
    if url is not None:
        yield url
        return
    from tests.server.postgres import postgres_cluster

    with postgres_cluster(fsync=True) as made:
        yield made


def per_op(name: str, count: int, cpu: float, db: float, wall: float) -> str:
    return (f"{name}: {count} one at a time, node CPU {1000 * cpu / count:.3f} ms each, "
            f"PostgreSQL CPU {1000 * db / count:.3f} ms, wall {1000 * wall / count:.3f} ms")


async def measure(url: str, commits: int, reads: int) -> list[str]:
    store = SqlStorage(url)
    await store.open()
    try:
        rooms = [Room(id=f"bench{i}", game_name="hula", options={}, created_by="ann", seed=i)
                 for i in range(ROOMS)]
        for room in rooms:
            await store.save_room(room, fence=1)
        for i in range(ROOMS):
            await store.add_player(f"bench{i}", f"hash{i}")

        async def commit(room: Room) -> None:
            move = Move(0, 5, "a1-b2")
            room.moves.append(move)
            room.revision += 1
            await store.save_room(room, [move], fence=1)

        async def timed(what: str, count: int, one: Callable[[int], Awaitable[object]]) -> str:
            for i in range(min(50, count)):  # warm: statements prepared, connections open
                await one(i)
            cpu, db, wall = time.process_time(), postgres_cpu(), time.perf_counter()
            for i in range(count):
                await one(i)
            return per_op(what, count, time.process_time() - cpu, grown(db, postgres_cpu()),
                          time.perf_counter() - wall)

        return [await timed("commits of one move", commits,
                            lambda i: commit(rooms[i % ROOMS])),
                await timed("token look-ups", reads,
                            lambda i: store.token_owner(f"hash{i % ROOMS}"))]
    finally:
        await store.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--commits", type=int, default=2000)
    p.add_argument("--reads", type=int, default=2000)
    p.add_argument("--db", help="a PostgreSQL URL (its data is left there); default: a "
                                "throwaway server started here")
    a = p.parse_args()
    with database(a.db) as url:
        print("\n".join(asyncio.run(measure(url, a.commits, a.reads))))


if __name__ == "__main__":
    main()
