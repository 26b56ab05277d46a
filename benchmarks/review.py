"""How long a review of a typical game takes, per game, at a level's budget.

    python -m benchmarks.review [GAME ...] [--level medium] [--seed 1] [--players mcts:100]

For each game: two (or the game's number of) MCTS bots at ``--players``' budget play one game
from the seed (a typical game: bots that play sensibly, so its length is a real game's), then
`review_record` reviews it at ``--level`` (default `medium`, the review's default budget: the
bots' `medium` simulations in that game, `gamehall.ai.levels.LEVEL_SIMULATIONS`; or a number).
Prints a Markdown table: the game's actions, the simulations a position, how many positions
were searched (a seat with a choice; chance and forced steps are not), wall and CPU seconds, CPU
milliseconds per searched position, and the marks found.
"""

from __future__ import annotations

import argparse
import random
import time

from gamehall.ai import make_bot
from gamehall.ai.review import MOVE, review_budget, review_record
from gamehall.core import CHANCE, GameRecord, State, list_games, load_game


def typical_game(name: str, players: str, seed: int) -> State:
    """One seeded game between bots of spec `players`."""
    rng = random.Random(seed)
    game = load_game(name)
    bots = [make_bot(players, rng.randrange(2**31)) for _ in range(game.num_players)]
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(state.sample_chance(rng) if player == CHANCE
                           else bots[player].choose(state))
    return state


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="*", help="default: every installed game")
    parser.add_argument("--level", default="medium", help="the review's budget per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="mcts:100", help="the bots that play the game")
    args = parser.parse_args(argv)
    make_bot(args.players)  # a bad spec fails before any game
    print(f"review at {args.level}, games by {args.players}, seed {args.seed}\n")
    print("| game | actions | simulations | searched | wall s | CPU s | CPU ms / searched "
          "| marks |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.games or list_games():
        search = review_budget(args.level, name)
        simulations = search.simulations
        state = typical_game(name, args.players, args.seed)
        record = GameRecord.from_state(state, seed=args.seed)
        wall, cpu = time.perf_counter(), time.process_time()
        review = review_record(record, simulations=simulations, seed=args.seed,
                               chance_widening=search.widening, rave=search.rave)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        searched = sum(1 for s in review.steps if s.kind == MOVE)
        marks = sum(1 for s in review.steps if s.mark is not None)
        print(f"| {name} | {len(record.actions)} | {simulations} | {searched} | {wall:.1f} | "
              f"{cpu:.1f} | {1000 * cpu / max(1, searched):.0f} | {marks} |", flush=True)


if __name__ == "__main__":
    main()
