"""Does the review tell the truth? Per game: planted blunders marked, false marks in clean
games, and the accuracy of `random` against a strong bot (issue 42).

    python -m benchmarks.review_truth [GAME ...] [--level medium] [--seed 1]

- **planted**: the records of ``tests/ai/data/blunder_GAME.json``, each blunder verified without
  the review (``python -m benchmarks.verify_blunders``: exhaustive one-ply checks and games
  played out from both positions, ``benchmarks/review_truth/verified.json``); the review of the
  blunder's position and the next few must mark it ``?`` or ``??`` (goal: all).
- **clean**: ``benchmarks/review_truth/clean_GAME.json``, a game between two strong bots (its
  ``players``); mistakes and blunders the whole review marks (goal: none). Its CPU seconds,
  scaled to 60 actions, is the review's cost (goal: at most 30 s of one core).
- **random**: ``benchmarks/review_truth/random_GAME.json``, `random` against the strong bot;
  each one's accuracy (goal: random below 75, the strong bot above 90).

Records are made by ``python -m benchmarks.review_truth_records``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from gamehall.ai.review import Review, choice_positions, review_budget, review_record
from gamehall.core import GameRecord, list_games

HERE = Path(__file__).parent / "review_truth"
PLANTED = Path(__file__).parent.parent / "tests" / "ai" / "data"
MARKED = ("mistake", "blunder")


def review(record: GameRecord, level: str, seed: int,
           positions: list[int] | None = None) -> tuple[Review, float]:
    """The review at `level` and its CPU seconds."""
    budget = review_budget(level, record.game)
    began = time.process_time()
    found = review_record(record, simulations=budget.simulations, seed=seed,
                          chance_widening=budget.widening, rave=budget.rave,
                          positions=positions)
    return found, time.process_time() - began


def planted(name: str, level: str, seed: int) -> str:
    """'marked ??' / 'missed' for the game's planted blunder, with the mover's chances."""
    path = PLANTED / f"blunder_{name}.json"
    if not path.exists():
        return "no record"
    data = json.loads(path.read_text())
    record, k = GameRecord.from_dict(data), int(data["blunder"])
    wanted = [i for i in choice_positions(record) if k <= i < k + 4]
    found, _ = review(record, level, seed, wanted)
    step = found.steps[k]
    p = step.seat if step.seat is not None else 0
    symbol = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}.get(step.mark or "", "")
    verdict = f"marked {symbol}" if step.mark in MARKED else f"missed {symbol}".strip()
    return f"{verdict} ({step.before[p]:.2f} → {step.after[p]:.2f})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="*", help="default: every installed game")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    verified = json.loads((HERE / "verified.json").read_text())
    print(f"review at {args.level}, seed {args.seed}\n")
    print("| game | simulations | planted (verified) | clean: ? / ?? | clean: actions, CPU s, "
          "s per 60 | random acc. | strong acc. (bot) |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games or list_games():
        sims = review_budget(args.level, name).simulations
        check = verified.get(name, {})
        ok = "verified" if check.get("verified") else "NOT verified"
        plant = f"{planted(name, args.level, args.seed)}, {ok}"
        clean = GameRecord.from_dict(json.loads((HERE / f"clean_{name}.json").read_text()))
        found, cpu = review(clean, args.level, args.seed)
        counts = [found.marks(s) for s in range(len(found.seats))]
        mistakes = sum(c["mistake"] for c in counts)
        blunders = sum(c["blunder"] for c in counts)
        n = len(clean.actions)
        rand = GameRecord.from_dict(json.loads((HERE / f"random_{name}.json").read_text()))
        against, _ = review(rand, args.level, args.seed)
        seats = {who: against.accuracy[i] for i, who in enumerate(rand.players)}
        strong = next(p for p in rand.players if p != "random")
        acc = [f"{seats[w]:.1f}" if seats[w] is not None else "-" for w in ("random", strong)]
        print(f"| {name} | {sims} | {plant} | {mistakes} / {blunders} | {n}, {cpu:.1f}, "
              f"{60 * cpu / max(1, n):.1f} | {acc[0]} | {acc[1]} ({strong}) |", flush=True)


if __name__ == "__main__":
    main()
