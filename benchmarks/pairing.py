"""Quick pairing under load: players joining pools over a few simulated minutes on several
nodes, and the cost of one wave with many waiting.

    python -m benchmarks.pairing [--players 1000] [--minutes 5] [--nodes 3] [--seed 1]

The hall's own code runs: each node is a `Hall` with its `Pools` (pairing/service.py) on one
shared SQLite database, the pools' leases shared among the nodes as the cluster's are (one node
runs a pool at a time; every simulated minute each pool's lease moves to the next node, as when
a node dies). Time is simulated (the halls' clock is the benchmark's): every node looks at its
pools every half simulated second, waves fire on the hall's defaults (every 20 s, or at 16
waiting). Players join at random moments through a random node, in pools weighted towards
Hula 5+3, with ratings drawn around 1500 (sd 300, stored as their ratings) and one in five with
a rating range of ±200; each paired game lasts 3-8 simulated minutes (it is resigned then) and
half the players join again after it, so repeated pairs can happen. The figures: time from join
to paired (simulated seconds), the rating gap of the tables, how many pairs met twice in a row,
those never paired; then one wave of `--wave` players waiting in one pool, timed (wall clock):
the matching alone and the whole look (reads, the choice written, the rooms stored).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamehall.server.engines.pool import BotLimits, BotPool
from gamehall.server.hall.hall import Hall, Player
from gamehall.server.ops.settings import Settings
from gamehall.server.pairing.lease import lease_key
from gamehall.server.pairing.pools import CATALOGUE
from gamehall.server.pairing.service import Pools
from gamehall.server.pairing.store import PAIRED
from gamehall.server.pairing.wave import Candidate, pair_wave
from gamehall.server.pubsub.in_process import InProcessPubSub
from gamehall.server.storage import SqlStorage
from gamehall.server.storage.schema import ratings
from gamehall.server.table.protocol import Request

WEIGHTS = {"hula-5-3": 5, "hula-10-5": 2, "halali-10-5": 2, "haugaz-10-5": 1,
           "hotu_matua-10-5": 1, "hau_la-2p-10-5": 1, "hau_la-3p-10-5": 1,
           "hau_la-4p-10-5": 1, "hula-2d": 1}
STEP = 0.5


class SimClock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


class SharedLeases:
    """The cluster's pool leases among in-process nodes: one holder a key, a number that grows
    at each taking (duck-typed as `cluster.leases.Leases`)."""

    def __init__(self) -> None:
        self.holder: dict[str, str] = {}
        self.fence = 0

    def of(self, node: str) -> Any:
        shared = self

        class NodeLeases:
            async def acquire(self, key: str, floor: int = 0) -> int | None:
                if shared.holder.get(key, node) != node:
                    return None
                shared.holder[key] = node
                shared.fence += 1
                return shared.fence

            async def renew(self, keys: Sequence[str]) -> list[bool]:
                return [shared.holder.get(k) == node for k in keys]

            async def release(self, keys: Sequence[str]) -> int:
                return sum(shared.holder.pop(k, None) is not None for k in keys)

        return NodeLeases()


@dataclass
class Sim:
    joins: list[tuple[float, int, str]] = field(default_factory=list)
    entries: dict[str, tuple[int, str, float]] = field(default_factory=dict)
    """entry -> (player index, pool, joined at)"""
    waits: list[float] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    pairs: int = 0
    repeats: int = 0
    last: dict[int, frozenset[int]] = field(default_factory=dict)
    ends: list[tuple[float, str, int]] = field(default_factory=list)


def settings() -> Settings:
    # the simulated players stay (a person polls or holds a socket): none is cancelled as gone
    return Settings(pairing_rate="1000000/minute", pairing_address_rate="1000000/minute",
                    pairing_per_address=100000, max_seeks=1000, no_show_seconds=0.0,
                    pairing_away_seconds=1e9, bot_workers=1)


async def make_nodes(db: str, count: int, clock: SimClock,
                     leases: SharedLeases) -> list[tuple[Hall, Pools]]:
    nodes = []
    for i in range(count):
        storage = SqlStorage(db, clock=clock)
        await storage.open()
        s = settings()
        hall = Hall(storage, InProcessPubSub(), BotPool(1, (), BotLimits(3.0, 2000)), s,
                    clock=clock)
        nodes.append((hall, Pools(hall, leases.of(f"n{i}"))))
    return nodes


async def people(hall: Hall, n: int, rng: random.Random) -> list[tuple[Player, float]]:
    """`n` players with ratings in every game drawn around 1500."""
    out = []
    for i in range(n):
        player, _ = await hall.register(f"sim{i}")
        out.append((player, rng.gauss(1500, 300)))
    storage = hall.storage
    assert isinstance(storage, SqlStorage) and storage.engine is not None
    games = sorted({p.game for p in CATALOGUE})
    with storage.engine.begin() as conn:
        conn.execute(ratings.insert(), [
            {"player_id": p.id, "game": g, "mu": r, "sigma": 100.0, "games": 30,
             "updated_at": "2026-01-01T00:00:00"} for p, r in out for g in games])
    return out


async def run(players: int, minutes: float, count: int, seed: int, db: str) -> dict[str, Any]:
    rng = random.Random(seed)
    clock, leases = SimClock(), SharedLeases()
    nodes = await make_nodes(db, count, clock, leases)
    sim = Sim()
    everyone = await people(nodes[0][0], players, rng)
    pools = [p.id for p in CATALOGUE]
    weights = [WEIGHTS[p] for p in pools]
    span = minutes * 60
    sim.joins = sorted((rng.uniform(0, span), i, rng.choices(pools, weights)[0])
                       for i in range(players))
    rejoins: list[tuple[float, int, str]] = []
    unpaired_at_end = 0
    try:
        while clock.now <= span + 120 or rejoins:
            if clock.now > span + 600:
                break
            if int(clock.now / 60) != int((clock.now - STEP) / 60):  # a node "dies"
                for key, holder in list(leases.holder.items()):
                    leases.holder[key] = f"n{(int(holder[1:]) + 1) % count}"
            due = [j for j in sim.joins if j[0] <= clock.now]
            sim.joins = sim.joins[len(due):]
            due += [j for j in rejoins if j[0] <= clock.now]
            rejoins = [j for j in rejoins if j[0] > clock.now]
            for _, i, pool in due:
                player, rating = everyone[i]
                hall, service = nodes[rng.randrange(count)]
                ranged = [rating - 200, rating + 200] if rng.random() < 0.2 else None
                with contextlib.suppress(Exception):
                    entry = await service.join(player, f"10.0.{i // 250}.{i % 250}", pool,
                                               ranged, None)
                    sim.entries[entry.id] = (i, pool, clock.now)
            for _hall, service in nodes:
                for pool_obj in CATALOGUE:
                    await service.look(pool_obj)
            await settle(nodes[0][1], sim, everyone, rng, clock, rejoins, span)
            await finish_games(nodes[0][0], sim, everyone, clock)
            clock.now += STEP
        unpaired_at_end = len(sim.entries)
        left = sorted(pool for _, pool, _ in sim.entries.values())
        clock.now += 10_000  # every game still running is over: its players are free
        await finish_games(nodes[0][0], sim, everyone, clock)
        wave = await wave_cost(nodes[0], everyone, clock, leases)
    finally:
        for hall, service in nodes:
            await service.stop()
            await hall.storage.close()
    got = report(sim, unpaired_at_end, wave, players, minutes, count)
    got["left_in"] = {p: left.count(p) for p in sorted(set(left))}
    return got


async def settle(service: Pools, sim: Sim, everyone: list[tuple[Player, float]],
                 rng: random.Random, clock: SimClock, rejoins: list[tuple[float, int, str]],
                 span: float) -> None:
    """Note the entries paired since the last step: their wait, their table's gap, repeats."""
    tables: dict[str, list[tuple[int, float]]] = {}
    for entry_id, (i, _pool, joined) in list(sim.entries.items()):
        found = await service.store.entry(entry_id)
        if found is None or found.status != PAIRED or found.room is None:
            continue
        del sim.entries[entry_id]
        sim.waits.append(clock.now - joined)
        tables.setdefault(found.room, []).append((i, everyone[i][1]))
    for room, seated in tables.items():
        rs = [r for _, r in seated]
        sim.gaps.append(max(rs) - min(rs))
        ids = {everyone[i][0].id for i, _ in seated}
        if len(seated) == 2:
            sim.pairs += 1
            a, b = (everyone[i][0].id for i, _ in seated)
            sim.repeats += b in sim.last.get(a, frozenset())
        for i, _ in seated:
            pid = everyone[i][0].id
            sim.last[pid] = frozenset(ids - {pid})
            if rng.random() < 0.5 and clock.now < span:
                length = rng.uniform(180, 480)
                rejoins.append((clock.now + length + 1, i, rng.choice(list(WEIGHTS))))
        sim.ends.append((clock.now + rng.uniform(180, 480), room, seated[0][0]))


async def finish_games(hall: Hall, sim: Sim, everyone: list[tuple[Player, float]],
                       clock: SimClock) -> None:
    """Resign the games whose time has come (so their players may join again)."""
    due = [e for e in sim.ends if e[0] <= clock.now]
    sim.ends = [e for e in sim.ends if e[0] > clock.now]
    for _, room_id, i in due:
        with contextlib.suppress(Exception):
            room = await hall.get_room(room_id)
            await hall.execute(room, everyone[i][0], Request("resign", {}))


async def wave_cost(node: tuple[Hall, Pools], everyone: list[tuple[Player, float]],
                    clock: SimClock, leases: SharedLeases) -> dict[str, float]:
    """One wave of len(everyone) waiting in one pool: the matching alone, then the whole look
    (the entries read, the choice written, every room stored and started)."""
    rng = random.Random(2)
    cands = [Candidate(f"e{i}", p.id, r, (r - 200, r + 200) if rng.random() < 0.2 else None,
                       rng.randrange(3)) for i, (p, r) in enumerate(everyone)]
    start = time.perf_counter()
    tables = pair_wave(cands, 2)
    matching = time.perf_counter() - start
    hall, service = node
    pool = next(p for p in CATALOGUE if p.id == "hula-10-5")
    for p, _ in everyone:
        with contextlib.suppress(Exception):
            await service.join(p, "10.9.9.9", pool.id, None, None)
    leases.holder[lease_key(pool.id)] = "n0"  # this node runs the pool
    waiting = len(await service.store.active(pool.id))  # past 16 waiting: the wave is due
    start = time.perf_counter()
    await service.look(pool)
    look = time.perf_counter() - start
    paired = sum(1 for e in await service.store.active(pool.id))
    return {"waiting": waiting, "matching_s": matching, "pairs": len(tables),
            "look_s": look, "left_waiting": paired}


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def report(sim: Sim, unpaired: int, wave: dict[str, float], players: int, minutes: float,
           count: int) -> dict[str, Any]:
    return {"players": players, "minutes": minutes, "nodes": count,
            "paired_entries": len(sim.waits),
            "wait_median_s": statistics.median(sim.waits) if sim.waits else None,
            "wait_p95_s": pct(sim.waits, 0.95),
            "gap_median": statistics.median(sim.gaps) if sim.gaps else None,
            "gap_p95": pct(sim.gaps, 0.95), "tables": len(sim.gaps), "pairs": sim.pairs,
            "repeated_pairs": sim.repeats, "never_paired": unpaired, "wave": wave}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=1000)
    p.add_argument("--minutes", type=float, default=5.0)
    p.add_argument("--nodes", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'bench.db'}"
        start = time.perf_counter()
        got = asyncio.run(run(args.players, args.minutes, args.nodes, args.seed, db))
        got["wall_s"] = round(time.perf_counter() - start, 1)
    w = got.pop("wave")
    print(f"{got['players']} players joining over {got['minutes']:g} simulated minutes on "
          f"{got['nodes']} nodes ({got['wall_s']} s of wall clock):")
    print(f"  paired entries {got['paired_entries']}, never paired {got['never_paired']} "
          f"(still waiting at the end, by pool: {got['left_in']})")
    print(f"  join -> paired: median {got['wait_median_s']:.1f} s, p95 {got['wait_p95_s']:.1f} s"
          " (simulated)")
    print(f"  rating gap of a table: median {got['gap_median']:.0f}, p95 {got['gap_p95']:.0f} "
          f"({got['tables']} tables)")
    print(f"  pairs repeated (the same two twice in a row): {got['repeated_pairs']} of "
          f"{got['pairs']}")
    print(f"one wave with {w['waiting']} waiting in one pool: matching {w['matching_s']:.2f} s "
          f"({w['pairs']} pairs); the whole look (reads, choice, {w['pairs']} rooms stored) "
          f"{w['look_s']:.2f} s; left waiting {w['left_waiting']}")


if __name__ == "__main__":
    main()
