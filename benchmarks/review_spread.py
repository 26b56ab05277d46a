"""How fast and how noisy a review's search is, per game: the figures behind
`gamehall.ai.review_levels` (`REVIEW_SIMULATIONS`, `REVIEW_SPREAD`).

    python -m benchmarks.review_spread [GAME ...] [--level medium] [--seeds 4] [--positions 8]

For each game: a game between ``mcts:200`` bots (seeded), and from it `--positions` choice
positions spread over the game; each is searched as a review searches it (`search_position`,
the review level's simulations) with `--seeds` seeds. Prints CPU ms per simulation, the
standard deviation of the mover's value across seeds (pooled over positions, not counting
proven ones), and the spread it implies: that deviation times sqrt(the visits behind a value).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from benchmarks.review import typical_game
from gamehall.ai.review import choice_positions, review_budget, search_position
from gamehall.core import GameRecord, list_games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="*", help="default: every installed game")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("| game | simulations | positions | CPU ms / simulation | sd of a value | spread |")
    print("|---|---|---|---|---|---|")
    for name in args.games or list_games():
        budget = review_budget(args.level, name)
        final = typical_game(name, "mcts:200", args.seed)
        record = GameRecord.from_state(final, seed=args.seed)
        choices = choice_positions(record)
        step = max(1, len(choices) // args.positions)
        picked = choices[::step][:args.positions]
        history = final.history()
        variances, spreads, sims, cpu = [], [], 0, 0.0
        for index in picked:
            state = final.game.new_initial_state(args.seed)
            for action in history[:index]:
                state.apply_action(action)
            seat = state.current_player()
            values, visits = [], []
            for k in range(args.seeds):
                began = time.process_time()
                found = search_position(state, simulations=budget.simulations, seed=k,
                                        chance_widening=budget.widening, rave=budget.rave)
                cpu += time.process_time() - began
                sims += sum(c.visits for c in found.children.values())
                if not found.root.exact:
                    values.append(found.root.chances[seat])
                    visits.append(found.root.visits)
            if len(values) >= 2:
                var = statistics.variance(values)
                variances.append(var)
                spreads.append(var * statistics.mean(visits))
        sd = math.sqrt(statistics.mean(variances)) if variances else 0.0
        spread = math.sqrt(statistics.mean(spreads)) if spreads else 0.0
        print(f"| {name} | {budget.simulations} | {len(picked)} | "
              f"{1000 * cpu / max(1, sims):.3f} | {sd:.3f} | {spread:.2f} |", flush=True)


if __name__ == "__main__":
    main()
