"""Young collections on a timer, rather than on Python's count of allocations.

CPython (3.11) starts a young collection when the allocations of tracked objects, less their
deallocations, pass the first threshold (`serve.GC_THRESHOLDS`); but freeing an old object
lowers that count too. A hall in its steady state frees about as much as it allocates: each
move frees the position it replaces, which has aged into the older generations, and allocates
a new one. The count then barely rises while the young generation fills up with every move's
survivors. In the three-node benchmark a node's young collection came only every 20-40 s, found
60,000-95,000 objects in a generation meant for 7,000, and stopped the node for 50-160 ms:
the largest stalls left in the latencies (benchmarks/README.md, "Fifth session").

So the young generation is collected four times a second, and the middle one with it every
time: an object still alive at a tick goes straight to the old generation. In a steady state
these collections find no garbage at all (the hall makes no cycles once its rooms and
connections are up), so their whole cost is walking the survivors. Collected every tenth tick,
as at first, the middle generation had each survivor walked twice, and two and a half seconds'
worth at once: stalls of 15-50 ms every 2.5 s per node. Collected every tick, a survivor is
walked once, and a tick's stall is a quarter of a second's worth (benchmarks/README.md, "Sixth
session"). The price: a cycle still alive at a tick (a failed request's traceback, say) waits
for a full collection instead of the middle one.

Full collections are left to Python, which considers one only when its count passes the first
threshold between two ticks (a burst of allocations: a failover loading rooms, many rooms
opened at once), at least `GC_THRESHOLDS[2]` middle collections (ticks: about four minutes)
after the last, and when the long-lived objects have grown by a quarter since. That is rare, as
it was before these ticks (the count rarely passed the threshold then either): cycles among
long-lived objects wait for it.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_SECONDS = 0.25
"""How often the young and middle generations are collected."""


async def collect_young(period: float = YOUNG_SECONDS, times: int | None = None) -> None:
    """Collect the young and middle generations every `period` seconds, on the event loop
    (finalisers run where they expect to); `times` times, or until cancelled. While the
    collector is disabled (`gc.disable()`) a tick does nothing."""
    done = 0
    while times is None or done < times:
        await asyncio.sleep(period)
        done += 1
        if gc.isenabled():
            gc.collect(1)
