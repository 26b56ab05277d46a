"""Does random play early in a game lose? The side that plays at random for the first actions
against a bot, then as that bot to the end, and its score.

    nice -n 19 python -m benchmarks.random_opening haugaz --random-actions 60 --bot eval:400
        [--games 30] [--seed 11]

Seat A chooses uniformly at random among its legal actions other than ``pass`` while fewer than
`--random-actions` actions have been played, then plays as `--bot`; seat B plays `--bot`
throughout; seats alternate game by game. ``eval:N`` and ``rollout:N`` are
`benchmarks.evaluator_ab`'s kinds (MCTS with the game's candidate evaluator, or with random
playouts). A's score near 0.5 says the random moves lost nothing a strong continuation can
tell, so an honest review can find no drop in them either: a random player's accuracy then
rests on its later moves alone (issue 42).
"""

from __future__ import annotations

import argparse
import math
import random

from benchmarks.evaluator_ab import CANDIDATES, register
from gamehall.ai import make_bot
from gamehall.core import CHANCE, State, load_game


def random_choice(state: State, rng: random.Random) -> int:
    """A uniformly random legal action, a pass only where nothing else is legal."""
    legal = state.legal_actions()
    moves = [a for a in legal if state.action_to_string(a) != "pass"] or legal
    return rng.choice(moves)


def play(name: str, random_actions: int, bot: str, games: int, seed: int) -> list[float]:
    """Seat A's normalised result (1 a win, 0.5 a draw, 0 a loss) in each game."""
    game = load_game(name)
    if name in CANDIDATES:
        register(game)
    rng = random.Random(seed)
    span = game.max_utility - game.min_utility
    scores = []
    for index in range(games):
        first = index % 2
        state = game.new_initial_state(seed * 1000 + index)
        bots = [make_bot(bot, rng.randrange(2**31)) for _ in range(game.num_players)]
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = state.sample_chance(rng)
            elif player == first and len(state.history()) < random_actions:
                action = random_choice(state, rng)
            else:
                action = bots[player].choose(state)
            state.apply_action(action)
        scores.append((state.returns()[first] - game.min_utility) / span)
        print(f"  game {index + 1}: A in seat {first}, {scores[-1]:.1f}", flush=True)
    return scores


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--random-actions", type=int, default=60)
    parser.add_argument("--bot", default="mcts:medium")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    scores = play(args.game, args.random_actions, args.bot, args.games, args.seed)
    mean = sum(scores) / len(scores)
    sd = math.sqrt(mean * (1 - mean) / len(scores))
    print(
        f"{args.game}: random for its choices in the first {args.random_actions} actions, then "
        f"{args.bot}, against {args.bot}: {sum(scores):.1f} / {len(scores)} = {mean:.2f} "
        f"(standard error {sd:.2f})"
    )


if __name__ == "__main__":
    main()
