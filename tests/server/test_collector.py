"""The young collections on a timer (`collector.collect_young`): each tick collects the young
and middle generations together, whatever Python's own count of allocations says, and counts
once towards a full collection (which `serve.GC_THRESHOLDS` spaces by that count)."""

from __future__ import annotations

import asyncio
import gc

from gamehall.server.ops.gc import YOUNG_SECONDS, collect_young
from gamehall.server.ops.serve import GC_THRESHOLDS


def _collections() -> list[int]:
    return [g["collections"] for g in gc.get_stats()]


def test_each_tick_collects_the_young_and_middle_generations_together() -> None:
    thresholds = gc.get_threshold()
    gc.set_threshold(10**9)  # only the ticks collect meanwhile
    try:
        gc.collect()
        young, middle, full = _collections()
        asyncio.run(collect_young(period=0, times=25))
        assert _collections() == [young, middle + 25, full]
        assert gc.get_count()[1:] == (0, 25)  # each tick brings a full collection one nearer
        gc.disable()  # an operator's (or a benchmark's) choice is kept
        asyncio.run(collect_young(period=0, times=25))
        assert _collections() == [young, middle + 25, full]
    finally:
        gc.enable()
        gc.set_threshold(*thresholds)


def test_full_collections_stay_minutes_apart_at_four_ticks_a_second() -> None:
    """Python considers a full collection only after `GC_THRESHOLDS[2]` middle collections,
    and every tick is one: at least four minutes between two, as before the ticks."""
    assert GC_THRESHOLDS[2] * YOUNG_SECONDS >= 240
