"""A review worker process: reviews finished games, one job (a JSON line on stdin) at a time.

    python -m gamehall.server.reviews.worker PARENT_PID [PLUGIN ...]

Started by the hall's `ReviewPool` (reviews.py) as the bot workers are (botworker.py: it says
``ready``, exits with its parent), but at a lower CPU priority, so that on a busy machine the
bots' moves in live games go first. A job is ``{"record" (the room's public record),
"simulations", "seed", "widening", "rave"}`` (the search of `review_budget`); the worker answers
with ``{"progress": [done, total]}`` lines as it goes and one last line, ``{"review":
Review.to_dict() with the preferred moves' parts}`` or ``{"error": text}``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from typing import Any, TextIO

from gamehall.server.engines import worker as botworker

NICENESS = 10
"""How much lower than the hall a review worker runs (`os.nice`)."""
PROGRESS_EVERY = 0.5
"""Seconds between progress lines (the last position is always reported)."""


def review(job: dict[str, Any], out: TextIO) -> dict[str, Any]:
    """Review the job's record, writing progress lines to `out`; the final reply."""
    from gamehall.ai.review import review_record, with_parts
    from gamehall.core import GameRecord

    record = GameRecord.from_dict(job["record"])
    said = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - said[0] >= PROGRESS_EVERY:
            said[0] = now
            out.write(json.dumps({"progress": [done, total]}) + "\n")
            out.flush()

    widening, rave = job.get("widening"), job.get("rave")
    found = review_record(record, simulations=int(job["simulations"]),
                          seed=int(job.get("seed", 0)), progress=progress,
                          chance_widening=(float(widening[0]), float(widening[1]))
                          if widening else None,
                          rave=float(rave) if rave is not None else None)
    return {"review": with_parts(found, record).to_dict()}


def serve(jobs: TextIO, out: TextIO) -> None:
    for line in jobs:
        try:
            reply = review(json.loads(line), out)
        except Exception as exc:  # a failed review is reported; the worker goes on
            reply = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()


def main(argv: list[str]) -> None:
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    botworker.main(argv, serve)


if __name__ == "__main__":
    main(sys.argv[1:])
