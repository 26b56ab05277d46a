"""Young collections on a timer, rather than on Python's count of allocations.

CPython (3.11) starts a young collection when the allocations of tracked objects, less their
deallocations, pass the first threshold (`serve.GC_THRESHOLDS`); but freeing an old object
lowers that count too. A hall in its steady state frees about as much as it allocates: each
move frees the position it replaces, which has aged into the older generations, and allocates
a new one. The count then barely rises while the young generation fills up with every move's
survivors. In the three-node benchmark a node's young collection came only every 20-40 s, found
60,000-95,000 objects in a generation meant for 7,000, and stopped the node for 50-160 ms:
the largest stalls left in the latencies (benchmarks/README.md, "Fifth session").

Collected four times a second, the young generation holds a quarter of a second's survivors,
and the middle one, collected with it every tenth time (Python's own ratio), two and a half
seconds' worth.

Full collections are left to Python, which considers one only when its count passes the first
threshold between two ticks (a burst of allocations: a failover loading rooms, many rooms
opened at once), at least `GC_THRESHOLDS[2]` middle collections (here about four minutes) after
the last, and when the long-lived objects have grown by a quarter since. That is rare, as it
was before these ticks (the count rarely passed the threshold then either): cycles among
long-lived objects wait for it.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_SECONDS = 0.25
"""How often the youngest generation is collected."""

MIDDLE_EVERY = 10
"""Every how many young collections the middle generation is collected with it."""


async def collect_young(period: float = YOUNG_SECONDS, middle_every: int = MIDDLE_EVERY,
                        times: int | None = None) -> None:
    """Collect the young generation every `period` seconds, and the middle one with it every
    `middle_every`-th time, on the event loop (finalisers run where they expect to); `times`
    times, or until cancelled. While the collector is disabled (`gc.disable()`) a tick does
    nothing."""
    done = 0
    while times is None or done < times:
        await asyncio.sleep(period)
        done += 1
        if gc.isenabled():
            gc.collect(1 if done % middle_every == 0 else 0)
