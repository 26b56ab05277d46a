"""MCTS simulations per second from a game's initial position, beside OpenSpiel's MCTS.

    python -m benchmarks.mcts GAME [--seconds 10] [--seed 1] [--option key=value ...]
                                   [--peer OPENSPIEL_GAME_STRING]

Measures, in one run and from the empty board, in interleaved rounds of about a second each (so
that a change in the load of a shared machine hits every engine alike), CPU time and wall time:
- gamehall's `MCTSBot` (one random rollout per leaf, through ``random_playout`` where the engine
  has it; no tree reuse);
- OpenSpiel's Python ``MCTSBot`` with ``RandomRolloutEvaluator(n_rollouts=1)`` on the peer game;
- OpenSpiel's C++ ``pyspiel.MCTSBot`` with ``pyspiel.RandomRolloutEvaluator(1, seed)``, the ceiling,
and prints the ratios. The peer for Hula is Havannah with ``board_size=6`` (the closest game
OpenSpiel has: hex cells, loops; Hula size 6 has 90 playable cells, Havannah 6 has 91). OpenSpiel is
a benchmark-only dependency (``pip install open-spiel``); without it only gamehall is measured.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

from gamehall.ai import MCTSBot
from gamehall.core import load_game

PEERS: dict[str, str] = {"hula": "havannah(board_size=6)"}
"""gamehall game -> the OpenSpiel game string it is compared with."""

ROUND_SECONDS = 1.0
UCT_C_OPENSPIEL = 2.0
"""OpenSpiel's default; its values are in [-1, 1], so this matches gamehall's 1.0 on [0, 1]."""


@dataclass
class Meter:
    """One engine's searches: a function running N simulations, and the totals measured."""

    label: str
    search: Callable[[int], None]
    sims: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    per_round: int = 0

    def run(self, sims: int) -> tuple[float, float]:
        wall0, cpu0 = time.perf_counter(), time.process_time()
        self.search(sims)
        return time.perf_counter() - wall0, time.process_time() - cpu0

    def calibrate(self, seconds: float) -> None:
        """Find a simulation count whose search takes about `seconds` of CPU."""
        sims = 50
        while True:
            _, cpu = self.run(sims)
            if cpu >= seconds * 0.5 or sims >= 10**7:
                self.per_round = max(1, int(sims * seconds / max(cpu, 1e-6)))
                return
            sims *= 4

    def measure(self) -> None:
        wall, cpu = self.run(self.per_round)
        self.sims += self.per_round
        self.wall += wall
        self.cpu += cpu

    def line(self) -> str:
        return (f"{self.label:<52} {self.sims / self.cpu:>9,.0f} sims/s CPU "
                f"{self.sims / self.wall:>9,.0f} sims/s wall  ({self.sims} sims)")


def gamehall_meter(name: str, options: dict[str, str], seed: int) -> Meter:
    game = load_game(name, **options)
    state = game.new_initial_state(seed)

    def search(sims: int) -> None:
        MCTSBot(seed, simulations=sims, reuse=False).choose(state)

    return Meter(f"gamehall MCTSBot, {name} {options or ''}".strip(), search)


def openspiel_meters(peer: str, seed: int) -> list[Meter]:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        print("OpenSpiel is not installed (pip install open-spiel): no peer figures")
        return []
    game = pyspiel.load_game(peer)
    state = game.new_initial_state()

    def python_search(sims: int) -> None:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                                random_state=np.random.RandomState(seed))
        mcts.MCTSBot(game, UCT_C_OPENSPIEL, sims, evaluator,
                     random_state=np.random.RandomState(seed)).step(state)

    def cpp_search(sims: int) -> None:
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        pyspiel.MCTSBot(game, evaluator, UCT_C_OPENSPIEL, sims, 1000, True, seed,
                        False).step(state)

    return [Meter(f"OpenSpiel Python MCTSBot, {peer}", python_search),
            Meter(f"OpenSpiel C++ MCTSBot, {peer}", cpp_search)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="CPU seconds per engine, in rounds of about one second")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", "-o", action="append", default=[],
                        help="game option key=value")
    parser.add_argument("--peer", help="OpenSpiel game string (default: the game's usual peer)")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    ours = gamehall_meter(args.game, options, args.seed)
    peer = args.peer or PEERS.get(args.game)
    meters = [ours] + (openspiel_meters(peer, args.seed) if peer else [])
    if peer is None:
        print(f"no OpenSpiel peer for {args.game} (give one with --peer)")
    rounds = max(1, round(args.seconds / ROUND_SECONDS))
    for meter in meters:
        meter.calibrate(ROUND_SECONDS)
    for _ in range(rounds):  # interleaved, so a change in machine load hits every engine alike
        for meter in meters:
            meter.measure()
    print(f"{rounds} interleaved rounds of ~{ROUND_SECONDS:.0f} s CPU per engine, from the "
          "initial position, one random rollout per leaf")
    for meter in meters:
        print(meter.line())
    for meter in meters[1:]:
        target = "5x" if "Python" in meter.label else "0.3x"
        cpu = (ours.sims / ours.cpu) / (meter.sims / meter.cpu)
        wall = (ours.sims / ours.wall) / (meter.sims / meter.wall)
        print(f"ratio gamehall / {meter.label.split(',')[0]}: {cpu:.2f}x CPU, {wall:.2f}x wall "
              f"(target >= {target})")


if __name__ == "__main__":
    main()
