"""Random playouts per second, through the public contract and the engine's own fast path.

    python -m benchmarks.playouts GAME [--seconds 5] [--seed 1] [--option key=value ...]
                                       [--rounds 1] [--cpu]

Prints games/s and moves/s (moves = actions, chance outcomes included) for:
- the public contract: a Python loop over ``legal_actions()`` / ``apply_action()``;
- the engine's own ``random_playout(rng)`` where the state has one (what bot rollouts use);
- a peer from another project, where one exists (see PEERS), measured in the same run.

On a shared machine, ``--rounds N`` interleaves the contenders (each runs N slices of
``seconds / N`` in turn, so load from other jobs hits all of them alike) and ``--cpu`` counts
this process's CPU time instead of wall-clock time. Both are off by default.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from gamehall.core import FastPlayout, State, load_game


@dataclass
class Figure:
    label: str
    games: int
    moves: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds

    def line(self) -> str:
        return (f"{self.label:<48} {self.games_per_s:>10.1f} games/s "
                f"{self.moves_per_s:>12.0f} moves/s  ({self.games} games)")


def timed(label: str, one_game: Callable[[random.Random], int], seconds: float,
          seed: int, clock: Callable[[], float] = time.perf_counter,
          rng: random.Random | None = None) -> Figure:
    """Run `one_game` (returns its move count) repeatedly for about `seconds` of `clock`."""
    rng = rng or random.Random(seed)
    games = moves = 0
    start = clock()
    while True:
        moves += one_game(rng)
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return Figure(label, games, moves, elapsed)


def interleaved(runners: list[tuple[str, Callable[[random.Random], int]]], seconds: float,
                seed: int, rounds: int, clock: Callable[[], float]) -> list[Figure]:
    """Time every runner for `seconds` in all, in `rounds` alternating slices."""
    totals = [Figure(label, 0, 0, 0.0) for label, _ in runners]
    rngs = [random.Random(seed) for _ in runners]
    for _ in range(rounds):
        for total, (label, run), rng in zip(totals, runners, rngs, strict=True):
            part = timed(label, run, seconds / rounds, seed, clock, rng)
            total.games += part.games
            total.moves += part.moves
            total.seconds += part.seconds
    return totals


def contract_playout(make: Callable[[], State]) -> Callable[[random.Random], int]:
    def run(rng: random.Random) -> int:
        state = make()
        n = 0
        choice = rng.choice
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(choice(state.legal_actions()))
            n += 1
        return n

    return run


def engine_playout(make: Callable[[], State]) -> Callable[[random.Random], int] | None:
    if not isinstance(make(), FastPlayout):
        return None

    def run(rng: random.Random) -> int:
        return cast(FastPlayout, make()).random_playout(rng)

    return run


PeerFactory = Callable[[], tuple[str, Callable[[random.Random], int]] | None]


def openspiel_havannah() -> tuple[str, Callable[[random.Random], int]] | None:
    """Hula's peer: OpenSpiel's havannah on the same 91-cell board, from a Python loop.

    The loop is `contract_playout`'s, call for call (havannah has no chance nodes, so the chance
    branch is never taken, as in Hula).
    """
    try:
        import pyspiel  # type: ignore[import-not-found]  # optional: pip install ".[bench]"
    except ImportError:
        print("peer unavailable: OpenSpiel is not installed (pip install -e \".[bench]\")")
        return None
    game = pyspiel.load_game("havannah", {"board_size": 6})

    def run(rng: random.Random) -> int:
        state = game.new_initial_state()
        n = 0
        choice = rng.choice
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
            n += 1
        return n

    return "OpenSpiel havannah(board_size=6) Python loop", run


PEERS: dict[str, PeerFactory] = {"hula": openspiel_havannah}
"""Per game: a function giving (label, one-game runner) for a peer engine, or None if missing."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", "-o", action="append", default=[],
                        help="game option key=value")
    parser.add_argument("--rounds", type=int, default=1,
                        help="interleave the contenders in this many slices each")
    parser.add_argument("--cpu", action="store_true",
                        help="count this process's CPU time, not wall-clock time")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    game = load_game(args.game, **options)
    make = game.new_initial_state
    runners = [(f"gamehall {game.name} contract loop", contract_playout(make))]
    fast = engine_playout(make)
    if fast is not None:
        runners.append((f"gamehall {game.name} random_playout()", fast))
    peer = PEERS.get(game.name, lambda: None)()
    if peer is not None:
        runners.append(peer)
    clock = time.process_time if args.cpu else time.perf_counter
    figures = interleaved(runners, args.seconds, args.seed, max(1, args.rounds), clock)
    print(f"{game!r}" + ("  (CPU time)" if args.cpu else ""))
    for f in figures:
        print(f.line())
    if peer is not None:
        p = figures[-1]
        for f in figures[:-1]:
            print(f"ratio {f.label} / peer (moves/s): {f.moves_per_s / p.moves_per_s:.2f}x")


if __name__ == "__main__":
    main()
