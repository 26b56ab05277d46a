"""Play OpenSpiel's MCTS on a gamehall hall through the bot API.

    python examples/openspiel_bot.py --url http://127.0.0.1:8000 --token API_TOKEN

The bot account (upgraded with POST /api/bot/account/upgrade) accepts its challenges; each
position is rebuilt as an OpenSpiel state of the game (`gamehall.adapters.openspiel`) from the
public move list the hall sends, and OpenSpiel's own MCTSBot chooses the move.
"""

from __future__ import annotations

import argparse

import numpy as np
from open_spiel.python.algorithms import mcts

from gamehall.adapters.openspiel import load
from gamehall.play.botclient import BotClient, Position, serve_forever


def openspiel_state(pos: Position):  # type: ignore[no-untyped-def]
    """The OpenSpiel state after the game's moves (a chance outcome is the index of its engine
    action among the node's outcomes, as the adapter numbers them)."""
    game = load(pos.game, **pos.options)
    state = game.new_initial_state()
    for move in pos.moves:
        engine = state.engine_state
        action = engine.string_to_action(move["move"])
        if state.is_chance_node():
            action = [a for a, _ in engine.chance_outcomes()].index(action)
        state.apply_action(action)
    return game, state


def mcts_chooser(simulations: int, seed: int) -> object:
    rng = np.random.RandomState(seed)

    def choose(pos: Position) -> str:
        game, state = openspiel_state(pos)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator,
                           random_state=rng, solve=False)
        action = bot.step(state)
        return str(state.engine_state.action_to_string(action))

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="an API token with bot:play")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    serve_forever(BotClient(args.url, args.token, mcts_chooser(args.simulations, args.seed)))


if __name__ == "__main__":
    main()
