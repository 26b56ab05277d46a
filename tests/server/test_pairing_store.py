"""The pools' storage (server/pairing/store.py): one active entry a player whatever the pool,
the address's cap, holds after a no-show, a wave's choice written all of a table or none of it,
and refused behind a newer lease number (a node that lost the pool writes nothing). The hall's
time is passed in, so nothing here waits."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from gamehall.server.pairing.store import (
    PAIRED,
    PAIRING,
    WAITING,
    JoinLimits,
    PoolStore,
    Seat,
)
from gamehall.server.storage import SqlStorage

OPEN = JoinLimits(per_address=100)


def _scenario(tmp_path: Path, body: Callable[[PoolStore, list[int]], Awaitable[None]]) -> None:
    async def run() -> None:
        storage = SqlStorage(f"sqlite:///{tmp_path / 'hall.db'}")
        await storage.open()
        try:
            players = [await storage.add_player(n, f"hash-{n}")
                       for n in ("ann", "bob", "cat", "dan")]
            await body(PoolStore(storage), players)
        finally:
            await storage.close()
    asyncio.run(run())


def test_one_active_entry_per_player_and_the_address_cap(tmp_path: Path) -> None:
    async def body(store: PoolStore, p: list[int]) -> None:
        first = await store.join("hula-5-3", "hula", p[0], "ann", "1.2.3.4", None, None, 10.0,
                                 OPEN)
        assert first.entry is not None and first.entry.rating == 1500.0
        again = await store.join("hula-5-3", "hula", p[0], "ann", "1.2.3.4", None, None, 11.0,
                                 OPEN)
        assert again.refused == "already_waiting" and again.entry == first.entry
        other = await store.join("halali-10-5", "halali", p[0], "ann", "1.2.3.4", None, None,
                                 11.0, OPEN)
        assert other.refused == "other_pool"
        capped = await store.join("hula-5-3", "hula", p[1], "bob", "1.2.3.4", (1400, 1600),
                                  60.0, 12.0, JoinLimits(per_address=1))
        assert capped.refused == "address_full"
        assert await store.counts() == {"hula-5-3": 1}
        assert await store.cancel(first.entry.id, 13.0)
        assert not await store.cancel(first.entry.id, 14.0)  # cancelled once
        assert (await store.join("halali-10-5", "halali", p[0], "ann", "1.2.3.4", None, None,
                                 15.0, OPEN)).entry is not None
    _scenario(tmp_path, body)


def test_a_hold_refuses_joins_until_it_ends(tmp_path: Path) -> None:
    async def body(store: PoolStore, p: list[int]) -> None:
        await store.hold([p[0]], 100.0)
        held = await store.join("hula-5-3", "hula", p[0], "ann", "a", None, None, 50.0, OPEN)
        assert held.refused == "held_back" and held.until == 100.0
        assert (await store.join("hula-5-3", "hula", p[0], "ann", "a", None, None, 101.0,
                                 OPEN)).entry is not None
    _scenario(tmp_path, body)


def test_a_wave_writes_whole_tables_and_a_stale_lease_writes_nothing(tmp_path: Path) -> None:
    async def body(store: PoolStore, p: list[int]) -> None:
        ids = []
        for pid, name in zip(p, ("ann", "bob", "cat", "dan"), strict=True):
            got = await store.join("hula-5-3", "hula", pid, name, name, None, None, 1.0, OPEN)
            assert got.entry is not None
            ids.append(got.entry.id)
        assert await store.cancel(ids[3], 2.0)  # dan left before the wave wrote
        tables = [[Seat(ids[0], "r1", 0), Seat(ids[1], "r1", 1)],
                  [Seat(ids[2], "r2", 0), Seat(ids[3], "r2", 1)]]
        assert await store.choose("hula-5-3", 7, tables, [], 3.0) == [tables[0]]
        stale = await store.choose("hula-5-3", 6, [[Seat(ids[2], "r3", 0)]], [ids[2]], 4.0)
        assert stale is None  # behind lease 7: nothing written
        by_id = {e.id: e for e in await store.active("hula-5-3")}
        assert by_id[ids[0]].status == PAIRING and by_id[ids[0]].room == "r1"
        assert by_id[ids[2]].status == WAITING and by_id[ids[2]].waves == 0
        assert await store.choose("hula-5-3", 8, [], [ids[2]], 5.0) == []
        assert (await store.entry(ids[2])).waves == 1  # type: ignore[union-attr]
        assert [e.status for e in await store.paired("r1", 6.0)] == [PAIRED, PAIRED]
        again = await store.join("hula-5-3", "hula", p[1], "bob", "bob", None, None, 7.0, OPEN)
        assert again.entry is not None and again.entry.last == frozenset({p[0]})
    _scenario(tmp_path, body)
