"""Hau La's contract loop: how much of it is enumerating placements, and what a perfect cache
of joint shapes could give at most.

    python -m benchmarks.hau_la_ceiling [--games 30] [--seed 1]

Plays `--games` uniformly random 2-player games through the contract (as `benchmarks.adapters`'
engine column does, after three warm-up games) and times every placement enumeration where it
happens (CPU). Each enumeration is then run a second time on the same position, outside the
loop's count: its joint shapes are all in the cache by then and the building's touch grid is
made, so the repeat costs what any enumeration would cost if no joint ever had to be fitted.
Prints the loop's steps per CPU second, the enumerations' share, the cost of the rest per game,
and two ceilings: the loop with enumerations free, and with every enumeration at its repeat's
cost.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from benchmarks.adapters import engine_runner
from gamehall.games.hau_la import turns


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    plain = turns.enumerate_placements
    first: list[float] = []
    again: list[float] = []

    def timed(*a: Any, **k: Any) -> Any:
        t0 = time.process_time()
        found = plain(*a, **k)
        t1 = time.process_time()
        plain(*a, **k)
        first.append(t1 - t0)
        again.append(time.process_time() - t1)
        return found

    run = engine_runner("hau_la", {})
    rng = random.Random(args.seed)
    for _ in range(3):
        run(rng)
    turns.enumerate_placements = timed
    try:
        t0 = time.process_time()
        steps = sum(run(rng) for _ in range(args.games))
        cpu = time.process_time() - t0 - sum(again)
    finally:
        turns.enumerate_placements = plain
    enum = sum(first)
    rest = cpu - enum
    print(f"{steps} steps in {args.games} games, {cpu:.3f} CPU s: {steps / cpu:,.0f} steps/CPU-s")
    print(
        f"enumerations: {len(first)}, {enum:.3f} s ({enum / cpu:.0%}), mean "
        f"{enum / len(first) * 1e3:.2f} ms; repeated with every shape cached: mean "
        f"{statistics.mean(again) * 1e3:.2f} ms, median {statistics.median(again) * 1e3:.2f}"
    )
    print(f"the rest: {rest / args.games * 1e3:.2f} ms a game")
    print(
        f"ceilings: enumerations free {steps / rest:,.0f} steps/CPU-s; every enumeration at its "
        f"cached repeat's cost {steps / (rest + sum(again)):,.0f}"
    )


if __name__ == "__main__":
    main()
