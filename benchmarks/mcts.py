"""MCTS simulations per second from a game's initial position, beside OpenSpiel's MCTS.

    python -m benchmarks.mcts GAME [--seconds 10] [--seed 1] [--option key=value ...]
                                   [--peer OPENSPIEL_GAME_STRING]

Measures, in one run and from the empty board:
- gamehall's `MCTSBot` (one random rollout per leaf, through ``random_playout`` where the engine
  has it; time budget, no tree reuse);
- OpenSpiel's Python ``MCTSBot`` with ``RandomRolloutEvaluator(n_rollouts=1)`` on the peer game;
- OpenSpiel's C++ ``pyspiel.MCTSBot`` with ``pyspiel.RandomRolloutEvaluator(1, seed)``, the ceiling,
and prints the ratios. The peer for Hula is Havannah with ``board_size=6`` (the closest game
OpenSpiel has: hex cells, loops; Hula size 6 has 90 playable cells, Havannah 6 has 91). OpenSpiel is
a benchmark-only dependency (``pip install open-spiel``); without it only gamehall is measured.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from gamehall.ai import MCTSBot
from gamehall.core import load_game

PEERS: dict[str, str] = {"hula": "havannah(board_size=6)"}
"""gamehall game -> the OpenSpiel game string it is compared with."""

UCT_C_OPENSPIEL = 2.0
"""OpenSpiel's default; its values are in [-1, 1], so this matches gamehall's 1.0 on [0, 1]."""


def gamehall_rate(name: str, options: dict[str, str], seconds: float, seed: int) -> float:
    game = load_game(name, **options)
    state = game.new_initial_state(seed)
    bot = MCTSBot(seed, simulations=None, seconds=seconds, reuse=False)
    bot.choose(state)
    print(f"gamehall {game!r}: {bot.stats.simulations} simulations in {bot.stats.seconds:.2f} s")
    return bot.stats.simulations / bot.stats.seconds


def _timed_steps(make_bot: Any, state: Any, seconds: float) -> tuple[int, float]:
    """Calibrate a simulation count that takes about `seconds`, then time one search."""
    sims = 50
    elapsed = 0.0
    while True:
        bot = make_bot(sims)
        start = time.perf_counter()
        bot.step(state)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds * 0.8:
            return sims, elapsed
        sims = int(sims * min(10.0, max(1.5, seconds / max(elapsed, 1e-3))))


def openspiel_rates(peer: str, seconds: float, seed: int) -> tuple[float, float] | None:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        print("OpenSpiel is not installed (pip install open-spiel): no peer figures")
        return None
    game = pyspiel.load_game(peer)
    state = game.new_initial_state()

    def python_bot(sims: int) -> Any:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                                random_state=np.random.RandomState(seed))
        return mcts.MCTSBot(game, UCT_C_OPENSPIEL, sims, evaluator,
                            random_state=np.random.RandomState(seed))

    def cpp_bot(sims: int) -> Any:
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        return pyspiel.MCTSBot(game, evaluator, UCT_C_OPENSPIEL, sims, 1000, True, seed, False)

    py_sims, py_time = _timed_steps(python_bot, state, seconds)
    print(f"OpenSpiel Python MCTSBot on {peer}: {py_sims} simulations in {py_time:.2f} s")
    cpp_sims, cpp_time = _timed_steps(cpp_bot, state, seconds)
    print(f"OpenSpiel C++ MCTSBot on {peer}: {cpp_sims} simulations in {cpp_time:.2f} s")
    return py_sims / py_time, cpp_sims / cpp_time


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seconds", type=float, default=10.0, help="per measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", "-o", action="append", default=[],
                        help="game option key=value")
    parser.add_argument("--peer", help="OpenSpiel game string (default: the game's usual peer)")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    ours = gamehall_rate(args.game, options, args.seconds, args.seed)
    print(f"gamehall MCTS: {ours:,.0f} simulations/s")
    peer = args.peer or PEERS.get(args.game)
    if peer is None:
        print(f"no OpenSpiel peer for {args.game} (give one with --peer)")
        return
    rates = openspiel_rates(peer, args.seconds, args.seed)
    if rates is None:
        return
    py_rate, cpp_rate = rates
    print(f"OpenSpiel Python MCTS: {py_rate:,.0f} simulations/s")
    print(f"OpenSpiel C++ MCTS:    {cpp_rate:,.0f} simulations/s")
    print(f"ratio gamehall / OpenSpiel Python: {ours / py_rate:.2f}x (target >= 5x)")
    print(f"ratio gamehall / OpenSpiel C++:    {ours / cpp_rate:.2f}x (target >= 0.3x)")


if __name__ == "__main__":
    main()
