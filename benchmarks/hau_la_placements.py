"""Hau La: time a full enumeration of one player's choices, touch checks included.

    python -m benchmarks.hau_la_placements [--pieces 26] [--repeat 20] [--seed 3]

Builds a late-game building by adding random touch-free pieces to the starting building (the
box holds only 22 pieces, so a building this big cannot arise in a real game: it is a stress
case), puts four tags on it, and times:
- a normal turn: the mover's tag is on the board, all four piece kinds in hand;
- a free placement (first turn, or a penalty hand-over of a big joint): any two free holes.
Each enumeration is computed from scratch (the engine's cache is bypassed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from gamehall.games.hau_la.audit import contacts
from gamehall.games.hau_la.building import Building, Plan
from gamehall.games.hau_la.data import model
from gamehall.games.hau_la.placements import (
    FIRST,
    KIND,
    ROT,
    SECOND,
    SIDES,
    Ask,
    Tags,
    enumerate_placements,
)


def free_holes(b: Building, tag_holes: set[int]) -> tuple[int, ...]:
    return tuple(int(h) for h in np.flatnonzero(b.plug < 0) if int(h) not in tag_holes)


def late_building(pieces: int, seed: int) -> Building:
    """Grow the start building with random touch-free, tag-less placements (any kind)."""
    rng = random.Random(seed)
    b = Building.start(model())
    kinds = tuple(range(len(b.model.kinds)))
    while len(b.pieces) < pieces:
        free = free_holes(b, set())
        found = enumerate_placements(b, Tags.of(b, []), Ask(kinds, free, free, tag=False))
        ok = np.flatnonzero(~found.touch)
        row = found.rows[ok[rng.randrange(len(ok))]]
        kind = int(row[KIND])
        if b.model.kinds[kind].is_joint:
            plan = Plan(kind, (int(row[FIRST]), int(row[SECOND])),
                        (int(row[SIDES]) // 2, int(row[SIDES]) % 2))
        else:
            plan = Plan(kind, (int(row[FIRST]),), (int(row[SIDES]),), int(row[ROT]))
        b = b.add(plan, placer=len(b.pieces) % 4, bonus=False)
    return b


def timed(fn: object, repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds per call (CPU time is steadier on a shared machine)."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()  # type: ignore[operator]
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=26)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    b = late_building(args.pieces, args.seed)
    free = free_holes(b, set())
    by_height = sorted(free, key=lambda h: -b.pos[h][2])
    spots = [(h, 0) for h in by_height[:4] if h >= b.n_board]
    tags = Tags.of(b, spots)
    mover = spots[0][0]
    rest = tuple(h for h in free if h not in {h for h, _ in spots})
    kinds = tuple(range(len(b.model.kinds)))
    turn = Ask(kinds, (mover,), tuple(sorted((*rest, mover))))
    hand_over = Ask((b.model.kind_index("BJ"),), rest, rest, tag=False)
    n_turn = enumerate_placements(b, tags, turn)
    n_free = enumerate_placements(b, tags, hand_over)
    print(f"building: {len(b.pieces)} pieces, {b.n_holes} holes ({len(free)} free), "
          f"top hole at z = {b.pos[by_height[0]][2]:.2f}, touches: {len(contacts(b, spots))}")
    for label, ask, found in (("normal turn (tag on board, 4 kinds)", turn, n_turn),
                              ("free big joint (hand-over)", hand_over, n_free)):
        wall, cpu = timed(lambda a=ask: enumerate_placements(b, tags, a), args.repeat)
        print(f"{label:<38} {len(found):>4} placements ({found.touch.mean():.0%} touch)  "
              f"wall median {statistics.median(wall):5.1f} ms, min {min(wall):5.1f} ms; "
              f"CPU median {statistics.median(cpu):5.1f} ms")


if __name__ == "__main__":
    main()
