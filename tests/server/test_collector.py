"""The young collections on a timer (`collector.collect_young`): each tick collects the young
generation, and every `middle_every`-th the middle one with it, whatever Python's own count of
allocations says."""

from __future__ import annotations

import asyncio
import gc

from gamehall.server.collector import collect_young


def _collections() -> list[int]:
    return [g["collections"] for g in gc.get_stats()]


def test_each_tick_collects_the_young_generation_and_every_tenth_the_middle_one() -> None:
    thresholds = gc.get_threshold()
    gc.set_threshold(10**9)  # only the ticks collect meanwhile
    try:
        young, middle, full = _collections()
        asyncio.run(collect_young(period=0, middle_every=10, times=25))
        assert _collections() == [young + 23, middle + 2, full]
        gc.disable()  # an operator's (or a benchmark's) choice is kept
        asyncio.run(collect_young(period=0, middle_every=10, times=25))
        assert _collections() == [young + 23, middle + 2, full]
    finally:
        gc.enable()
        gc.set_threshold(*thresholds)
