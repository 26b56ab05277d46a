"""The young collections on a timer (`collector.collect_young`): each tick collects the young
generation, and every `middle_every`-th the middle one with it, whatever Python's own count of
allocations says."""

from __future__ import annotations

import asyncio
import gc

from gamehall.server.collector import collect_young


def test_each_tick_collects_the_young_generation_and_every_tenth_the_middle_one() -> None:
    young, middle, full = (g["collections"] for g in gc.get_stats())
    gc.disable()  # only the ticks collect meanwhile
    try:
        asyncio.run(collect_young(period=0, middle_every=10, times=25))
    finally:
        gc.enable()
    after = [g["collections"] for g in gc.get_stats()]
    assert after == [young + 23, middle + 2, full]
