"""Engine steps per second of this tree against another tree, alternated in the same run.

    python -m benchmarks.engine_ab GAME --before DIR [--rounds 3] [--seconds 6] [-o key=value]

DIR is a checkout of the tree to compare with (for instance `git archive COMMIT | tar -x -C
DIR`). Each measurement is a fresh process that imports gamehall and `benchmarks.adapters` from
its tree (DIR/src and DIR first on the path) and plays uniformly random games through the
contract (`benchmarks.adapters.engine_runner`: `legal_actions()` / `apply_action()`, seed 1)
for at least `--seconds` of CPU time. The two trees take turns, before first, so load from
other jobs falls on both alike; CPU time (`process_time`) is the steadier figure on a shared
machine, wall time is printed beside it. Prints one Markdown row per measurement, then the
ratio of the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_PROBE = """
import json, random, sys, time
from benchmarks.adapters import engine_runner
import gamehall
game, seconds, options = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
run = engine_runner(game, options)
rng = random.Random(1)
steps = 0
cpu0, wall0 = time.process_time(), time.perf_counter()
while time.process_time() - cpu0 < seconds:
    steps += run(rng)
print(json.dumps({"steps": steps, "cpu": time.process_time() - cpu0,
                  "wall": time.perf_counter() - wall0, "src": gamehall.__file__}))
"""


def measure(tree: Path, game: str, seconds: float, options: dict[str, str]) -> dict[str, float]:
    """One measurement in a fresh process importing everything from `tree`."""
    env = dict(os.environ, PYTHONPATH=f"{tree / 'src'}{os.pathsep}{tree}")
    out = subprocess.run([sys.executable, "-c", _PROBE, game, str(seconds), json.dumps(options)],
                         cwd=tree, env=env, capture_output=True, text=True, check=True)
    found: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--before", required=True, type=Path, help="the tree to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds per measurement")
    parser.add_argument("--option", "-o", action="append", default=[],
                        help="game option key=value")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    trees = {"before": args.before.resolve(), "after": Path(__file__).resolve().parents[1]}
    rates: dict[str, list[float]] = {name: [] for name in trees}
    print("| round | tree | steps | steps/CPU-s | steps/s (wall) |")
    print("|---|---|---:|---:|---:|")
    for r in range(1, args.rounds + 1):
        for name, tree in trees.items():
            m = measure(tree, args.game, args.seconds, options)
            rates[name].append(m["steps"] / m["cpu"])
            print(f"| {r} | {name} | {m['steps']:.0f} | {m['steps'] / m['cpu']:,.0f} | "
                  f"{m['steps'] / m['wall']:,.0f} |", flush=True)
    before, after = (statistics.median(rates[n]) for n in ("before", "after"))
    print(f"\nmedian steps/CPU-s: before {before:,.0f}, after {after:,.0f}: "
          f"{after / before:.2f}x")


if __name__ == "__main__":
    main()
