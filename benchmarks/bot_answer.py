"""How long `mcts:hard` takes to answer on this machine, wall clock, in every game.

    python -m benchmarks.bot_answer [--moves 3] [--seed 1]

`hard` is a simulation budget per game (`gamehall.ai.levels`); this measures the wall time of
`choose` from positions a few random moves into each game, against the 2 s it must keep to on
one core (the hall's ceiling). `python -m benchmarks.levels` measures whole games in CPU time.
"""

from __future__ import annotations

import argparse
import random
import time

from gamehall.ai import make_bot
from gamehall.core import CHANCE, State, list_games, load_game

BUDGET = 2.0


def position(name: str, seed: int, plies: int = 6) -> State | None:
    """A position a little way into a random game (past any set-up), with a seat to move."""
    state = load_game(name).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            return None
        state.apply_action(state.sample_chance(rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    return None if state.is_terminal() else state


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=3, help="answers measured per game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{'game':<12} {'answers':>7} {'mean s':>7} {'max s':>7}  (budget {BUDGET} s)")
    for name in list_games():
        times = []
        for i in range(args.moves):
            state = position(name, args.seed + i)
            if state is None:
                continue
            bot = make_bot("mcts:hard", args.seed + i)
            start = time.perf_counter()
            bot.choose(state)
            times.append(time.perf_counter() - start)
        if times:
            print(f"{name:<12} {len(times):>7} {sum(times) / len(times):>7.2f} {max(times):>7.2f}")


if __name__ == "__main__":
    main()
