"""A polled pool entry is seen (server/pairing/presence.py) without a database write per poll:
a script polling its entry many times a second writes once every `Presence.every` hall
seconds, and the entry still counts as seen within that time (far shorter than the away
time). The hall's clock is a number the test sets, so nothing waits."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from gamehall.server.pairing.presence import Presence
from gamehall.server.pairing.store import JoinLimits, PoolStore
from gamehall.server.storage import SqlStorage


class CountingStore(PoolStore):
    """The pools' store, counting the writes of `seen`."""

    writes = 0

    async def seen(self, entry_id: str, now: float) -> None:
        self.writes += 1
        await super().seen(entry_id, now)


def test_a_poll_storm_writes_once_per_interval(tmp_path: Path) -> None:
    async def run() -> None:
        storage = SqlStorage(f"sqlite:///{tmp_path / 'hall.db'}")
        await storage.open()
        try:
            ann = await storage.add_player("ann", "hash-ann")
            store = CountingStore(storage)
            joined = await store.join(
                "hula-5-3",
                "hula",
                ann,
                "ann",
                "1.2.3.4",
                None,
                None,
                100.0,
                JoinLimits(per_address=10),
            )
            assert joined.entry is not None
            now = SimpleNamespace(t=100.0)
            hall: Any = SimpleNamespace(clock=lambda: now.t)
            presence = Presence(hall, store, away=60.0)
            assert presence.every == 5.0
            for tick in range(101):  # ten polls a second for ten seconds
                now.t = 100.0 + tick / 10
                entry = await store.entry(joined.entry.id)
                assert entry is not None
                await presence.polled(entry)
            assert store.writes == 2  # at 105.0 and 110.0 (joined at 100.0): every 5 s, not 101
            last = await store.entry(joined.entry.id)
            assert last is not None and last.seen_at == 110.0
        finally:
            await storage.close()

    asyncio.run(run())
