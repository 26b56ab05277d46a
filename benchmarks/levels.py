"""The longest move of each level in every game, in CPU seconds of one core.

    python -m benchmarks.levels [--levels easy,medium,hard] [--games 1] [--seed 1]
                                [--only hula,halali] [--max-moves N] [-o players=4]

The levels are simulation budgets (`gamehall.ai.levels`); `hard` must answer within 2 s on one
core of the development machine in every game. This plays whole games with the level in every
seat (chance and seats seeded) and times every searched move with `time.process_time` (the
CPU of this process: on a shared machine, what one idle core would take in wall time); it
prints per game and level the searched moves, their mean and longest CPU seconds, the ply of
the longest, and the longest wall time (which the machine's load inflates). `--max-moves`
stops a game after that many searched moves (Hotu Matua's default game runs ~800).
"""

from __future__ import annotations

import argparse
import time

from gamehall.ai import make_bot
from gamehall.ai.levels import LEVEL_NAMES, level_simulations
from gamehall.core import CHANCE, list_games, load_game
from gamehall.play.selfplay import derived_seed


def measure(name: str, level: str, seed: int, max_moves: int,
            options: dict[str, str] | None = None) -> tuple[list[float], int, float]:
    """CPU seconds of every searched move of one game, the ply of the longest, the longest wall."""
    game = load_game(name, **(options or {}))
    bots = [make_bot(f"mcts:{level}", derived_seed(seed, name, level, s))
            for s in range(game.num_players)]
    state = game.new_initial_state(derived_seed(seed, name, "game"))
    cpu: list[float] = []
    worst_ply, worst_wall, ply = 0, 0.0, 0
    while not state.is_terminal() and (not max_moves or len(cpu) < max_moves):
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        searched = len(state.legal_actions()) > 1
        c0, w0 = time.process_time(), time.perf_counter()
        action = bots[player].choose(state)
        spent, wall = time.process_time() - c0, time.perf_counter() - w0
        if searched:
            if not cpu or spent > max(cpu):
                worst_ply = ply
            cpu.append(spent)
            worst_wall = max(worst_wall, wall)
        state.apply_action(action)
        ply += 1
    return cpu, worst_ply, worst_wall


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=",".join(LEVEL_NAMES))
    parser.add_argument("--games", type=int, default=1, help="games per game and level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="games to measure (default: all)")
    parser.add_argument("--max-moves", type=int, default=0,
                        help="searched moves per game at most (0: to the end)")
    parser.add_argument("--option", "-o", action="append", default=[],
                        help="game option key=value (players=4)")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    names = [n for n in args.only.split(",") if n] or list_games()
    print(f"{'game':<11} {'level':<7} {'sims':>6} {'moves':>6} {'mean cpu s':>10} "
          f"{'max cpu s':>9} {'at ply':>6} {'max wall s':>10}", flush=True)
    for name in names:
        for level in args.levels.split(","):
            cpu: list[float] = []
            worst, at, wall = 0.0, 0, 0.0
            for g in range(args.games):
                times, ply, longest = measure(name, level, args.seed + g, args.max_moves,
                                             options)
                if times and max(times) > worst:
                    worst, at = max(times), ply
                cpu += times
                wall = max(wall, longest)
            mean = sum(cpu) / len(cpu) if cpu else 0.0
            print(f"{name:<11} {level:<7} {level_simulations(level, name):>6} {len(cpu):>6} "
                  f"{mean:>10.3f} {worst:>9.3f} {at:>6} {wall:>10.2f}", flush=True)


if __name__ == "__main__":
    main()
