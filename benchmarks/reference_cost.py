"""What one move of the reference search costs: ``uct:N`` timed in CPU seconds at positions
reached by random plies, and the cost of a ``uct:hard`` move extrapolated from it (rollouts cost
the same whatever N, so the time grows linearly with N).

    python -m benchmarks.reference_cost hotu_matua --simulations 200 --plies 5,40 [--seed 3]

Used to size the ladder's "`hard` vs the reference" steps before running them.
"""

from __future__ import annotations

import argparse
import random
import time

from gamehall.ai.levels import level_simulations
from gamehall.ai.reference import UCTBot
from gamehall.core import State, load_game


def position(game_name: str, plies: int, seed: int) -> State:
    """The position after `plies` uniformly random actions (chance by its odds), then any chance
    still pending resolved, so that a player is to move."""
    rng = random.Random(seed)
    state = load_game(game_name).new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return state


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--simulations", type=int, default=200, help="N of the timed uct:N")
    parser.add_argument("--plies", default="0,30", help="random plies before each timed move")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    hard = level_simulations("hard", args.game)
    for plies in (int(p) for p in args.plies.split(",")):
        state = position(args.game, plies, args.seed)
        if state.is_terminal():
            print(f"{args.game} after {plies} plies: the game is over")
            continue
        start = time.process_time()
        UCTBot(1, simulations=args.simulations).choose(state)
        spent = time.process_time() - start
        print(f"{args.game} after {plies} plies: uct:{args.simulations} {spent:.2f} CPU s, "
              f"so uct:hard (uct:{hard}) ~{spent * hard / args.simulations:.0f} CPU s a move")


if __name__ == "__main__":
    main()
