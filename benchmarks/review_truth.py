"""Does the review tell the truth? Per game: planted blunders marked, false marks in clean
games, and the accuracy of `random` against a strong bot (issue 42).

    python -m benchmarks.review_truth [GAME ...] [--level medium] [--seed 1]
        [--parts planted clean random] [--fresh]

- **planted**: the records of ``tests/ai/data/blunder_GAME.json``, each blunder verified without
  the review (``python -m benchmarks.verify_blunders``: exhaustive one-ply checks and games
  played out from both positions, ``benchmarks/review_truth/verified.json``); the review of the
  blunder's position and the next few must mark it ``?`` or ``??`` (goal: all).
- **clean**: ``benchmarks/review_truth/clean_GAME.json``, a game between two strong bots (its
  ``players``); mistakes and blunders the whole review marks (goal: none). Its CPU seconds,
  scaled to 60 actions, is the review's cost (goal: at most 30 s of one core).
- **random**: ``benchmarks/review_truth/random_GAME.json``, `random` against the strong bot;
  each one's accuracy (goal: random below 75, the strong bot above 90).

Each part of each game is measured on its own and kept in ``/tmp/review_truth/`` (by level and
seed), so a run can be split (``python -m benchmarks.review_truth haugaz --parts clean``) or
resumed after an interruption: a part found there is printed, not measured again; ``--fresh``
measures everything asked for again (after a change to the review). Records are made by
``python -m benchmarks.review_truth_records``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamehall.ai.review import Review, choice_positions, review_budget, review_record
from gamehall.core import GameRecord, list_games

HERE = Path(__file__).parent / "review_truth"
PLANTED = Path(__file__).parent.parent / "tests" / "ai" / "data"
CACHE = Path("/tmp/review_truth")
MARKED = ("mistake", "blunder")
SYMBOLS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
PARTS = ("planted", "clean", "random")


def review(record: GameRecord, level: str, seed: int,
           positions: list[int] | None = None) -> tuple[Review, float]:
    """The review at `level` and its CPU seconds."""
    budget = review_budget(level, record.game)
    began = time.process_time()
    found = review_record(record, simulations=budget.simulations, seed=seed,
                          chance_widening=budget.widening, rave=budget.rave,
                          positions=positions)
    return found, time.process_time() - began


def load(path: Path) -> GameRecord:
    return GameRecord.from_dict(json.loads(path.read_text()))


def planted(name: str, level: str, seed: int) -> dict[str, Any]:
    """The game's planted blunder as the review of its position and the next few judge it."""
    path = PLANTED / f"blunder_{name}.json"
    if not path.exists():
        return {"found": False}
    data = json.loads(path.read_text())
    record, k = GameRecord.from_dict(data), int(data["blunder"])
    wanted = [i for i in choice_positions(record) if k <= i < k + 4]
    found, cpu = review(record, level, seed, wanted)
    step = found.steps[k]
    p = step.seat if step.seat is not None else 0
    return {"found": True, "mark": step.mark, "before": step.before[p], "after": step.after[p],
            "sure_drop": step.sure_drop, "cpu": cpu}


def clean(name: str, level: str, seed: int) -> dict[str, Any]:
    """Mistakes and blunders marked in the clean game, and the review's CPU seconds."""
    record = load(HERE / f"clean_{name}.json")
    found, cpu = review(record, level, seed)
    counts = [found.marks(s) for s in range(len(found.seats))]
    marked = [f"{s.index}:{s.move}:{SYMBOLS[s.mark]}" for s in found.steps
              if s.mark in MARKED]
    return {"mistakes": sum(c["mistake"] for c in counts),
            "blunders": sum(c["blunder"] for c in counts),
            "actions": len(record.actions), "cpu": cpu, "marked": marked,
            "accuracy": dict(zip(record.players, found.accuracy, strict=False))}


def random_game(name: str, level: str, seed: int) -> dict[str, Any]:
    """Each player's accuracy in the game of `random` against the strong bot."""
    record = load(HERE / f"random_{name}.json")
    found, cpu = review(record, level, seed)
    strong = next(p for p in record.players if p != "random")
    accuracy = {who: found.accuracy[i] for i, who in enumerate(record.players)}
    return {"random": accuracy["random"], "strong": accuracy[strong], "bot": strong,
            "actions": len(record.actions), "cpu": cpu}


MEASURES: dict[str, Callable[[str, str, int], dict[str, Any]]] = {
    "planted": planted, "clean": clean, "random": random_game}


def measured(name: str, part: str, level: str, seed: int, fresh: bool) -> dict[str, Any]:
    """A part's figures: from the cache unless `fresh`, else measured now and kept."""
    path = CACHE / f"{level}_{seed}_{name}_{part}.json"
    if path.exists() and not fresh:
        return dict(json.loads(path.read_text()))
    figures = MEASURES[part](name, level, seed)
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(figures) + "\n")
    return figures


def _acc(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def row(name: str, level: str, verified: dict[str, Any],
        parts: dict[str, dict[str, Any] | None]) -> str:
    """The game's line of the table; `…` where a part was not measured."""
    sims = review_budget(level, name).simulations
    plant = clean_marks = cost = rand = strong = "…"
    ok = "verified" if verified.get(name, {}).get("verified") else "NOT verified"
    p = parts.get("planted")
    if p is not None:
        if not p["found"]:
            plant = f"no record, {ok}"
        else:
            symbol = SYMBOLS.get(p["mark"] or "", "")
            verdict = f"marked {symbol}" if p["mark"] in MARKED else f"missed {symbol}".strip()
            plant = f"{verdict} ({p['before']:.2f} → {p['after']:.2f}), {ok}"
    c = parts.get("clean")
    if c is not None:
        clean_marks = f"{c['mistakes']} / {c['blunders']}"
        n = c["actions"]
        cost = f"{n}, {c['cpu']:.1f}, {60 * c['cpu'] / max(1, n):.1f}"
    r = parts.get("random")
    if r is not None:
        rand, strong = _acc(r["random"]), f"{_acc(r['strong'])} ({r['bot']})"
    return (f"| {name} | {sims} | {plant} | {clean_marks} | {cost} | {rand} | {strong} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="*", help="default: every installed game")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument("--fresh", action="store_true",
                        help="measure again what is kept from an earlier run")
    args = parser.parse_args(argv)
    verified = json.loads((HERE / "verified.json").read_text())
    print(f"review at {args.level}, seed {args.seed}\n")
    print("| game | simulations | planted (verified) | clean: ? / ?? | clean: actions, CPU s, "
          "s per 60 | random acc. | strong acc. (bot) |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games or list_games():
        parts = {part: measured(name, part, args.level, args.seed, args.fresh)
                 for part in args.parts}
        print(row(name, args.level, verified, parts), flush=True)


if __name__ == "__main__":
    main()
