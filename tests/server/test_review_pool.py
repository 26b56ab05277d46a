"""The review workers (`ReviewPool`, real worker processes): a review past the operator's
`review_max_seconds` is stopped (its worker killed) and answers an error, the next review gets
a new worker; a review given up by its progress (another node took the job) answers None."""

from __future__ import annotations

import asyncio
from typing import Any

from gamehall.core import GameRecord
from gamehall.server.reviews.service import ReviewPool
from tests.ai.test_review import hula_blunder

RECORD = GameRecord.from_state(hula_blunder()).to_dict()


def _job(simulations: int) -> dict[str, Any]:
    return {"record": RECORD, "simulations": simulations, "seed": 0, "widening": None}


def test_a_review_past_its_time_is_stopped_and_the_pool_goes_on() -> None:
    async def scenario() -> None:
        seen: list[tuple[int, int]] = []

        async def progress(done: int, total: int) -> bool:
            seen.append((done, total))
            return True

        pool = ReviewPool(1, (), max_seconds=0.05)  # 24 positions at 100000: minutes
        try:
            late = await pool.review("slow", _job(100000), progress)
            assert late is not None and "ran past" in late["error"]
            assert pool.stats.timeouts == 1
            pool.max_seconds = 600.0
            done = await pool.review("quick", _job(3), progress)
            assert done is not None and done["review"]["simulations"] == 3
            assert pool.stats.restarts == 1 and seen[-1] == (24, 24)

            async def give_up(done: int, total: int) -> bool:
                return False

            assert await pool.review("lost", _job(3), give_up) is None
        finally:
            await pool.close()
    asyncio.run(scenario())
