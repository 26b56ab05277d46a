"""Make the records `benchmarks.review_truth` reviews: clean games of strong play and games of
`random` against a strong bot, one of each per game, written to ``benchmarks/review_truth/``.

    python -m benchmarks.review_truth_records [GAME ...] [--strong mcts:hard] [--seed 1]
        [--kinds clean random]

Each record is a seeded game (`benchmarks.review.typical_game`'s way) with the bots' specs in
``players``; the planted blunders are in ``tests/ai/data`` and verified by
``benchmarks.verify_blunders``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from gamehall.ai import make_bot
from gamehall.core import CHANCE, GameRecord, list_games, load_game

DATA = Path(__file__).parent / "review_truth"
KINDS = ("clean", "random")


def play(name: str, specs: list[str], seed: int) -> GameRecord:
    """One seeded game of `name` between bots of `specs` (one a seat)."""
    rng = random.Random(seed)
    state = load_game(name).new_initial_state(seed)
    bots = [make_bot(spec, rng.randrange(2**31)) for spec in specs]
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(state.sample_chance(rng) if player == CHANCE
                           else bots[player].choose(state))
    return GameRecord.from_state(state, specs, seed=seed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--strong", default="mcts:hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS),
                        help="which records to make (default: both)")
    args = parser.parse_args(argv)
    DATA.mkdir(exist_ok=True)
    for name in args.games or list_games():
        pairs = {"clean": [args.strong, args.strong], "random": ["random", args.strong]}
        for kind in args.kinds:
            specs = pairs[kind]
            record = play(name, specs, args.seed)
            path = DATA / f"{kind}_{name}.json"
            path.write_text(json.dumps(record.to_dict(), indent=None) + "\n")
            print(f"{path}: {len(record.actions)} actions", flush=True)


if __name__ == "__main__":
    main()
