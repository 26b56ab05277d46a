"""Does a leaf evaluator's value say who wins, and from how far before the end?

    nice -n 19 python -m benchmarks.evaluator_fit haugaz --games 150 [--simulations 160]
        [--seed 7] [--bands 30 60]

Plays `--games` games between two searches with the game's candidate evaluator
(`benchmarks.evaluator_ab.CANDIDATES`, `--simulations` a move, the first 4 choices of a game at
random so that the games differ), reads the evaluator at every position where a seat chooses,
and pairs seat 0's value with seat 0's result (1 a win, 0.5 a draw, 0 a loss). Per band of
actions left to the end, the fit P(win) = σ(a · atanh(value)) by maximum likelihood, and its
log-loss (0.693 is a coin's: the value says nothing of the result there). A review can only
grade a move by values that tell the result (issue 42); a stronger bot (``evaluator_ab``) is
not yet such a value.
"""

from __future__ import annotations

import argparse
import math
import random

from benchmarks.evaluator_ab import CANDIDATES
from gamehall.ai import MCTSBot
from gamehall.core import load_game

OPENING = 4
"""Choices at random at the start of each game."""


def fit_slope(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """The slope `a` of P(y) = σ(a·x) by Newton's method, and its mean log-loss."""
    a = 0.0
    for _ in range(60):
        grad = hess = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = 1.0 / (1.0 + math.exp(-a * x))
            grad += (y - p) * x
            hess += p * (1.0 - p) * x * x
        if hess <= 0.0:
            break
        a += grad / hess
    loss = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = min(1 - 1e-12, max(1e-12, 1.0 / (1.0 + math.exp(-a * x))))
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return a, loss / max(1, len(xs))


def pairs(name: str, games: int, simulations: int, seed: int) -> list[tuple[float, float, int]]:
    """(atanh of seat 0's value, seat 0's result, actions left) at every choice of every game."""
    game = load_game(name)
    evaluator = CANDIDATES[name](game)
    rng = random.Random(seed)
    found: list[tuple[float, float, int]] = []
    for index in range(games):
        state = game.new_initial_state(seed * 1000 + index)
        bots = [
            MCTSBot(
                rng.randrange(2**31), simulations=simulations, seconds=None, evaluator=evaluator
            )
            for _ in range(2)
        ]
        seen: list[tuple[float, int]] = []
        chosen = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1:
                value = evaluator.evaluate(state, rng)
                if value is not None:
                    seen.append(
                        (math.atanh(max(-0.999999, min(0.999999, value[0]))), len(state.history()))
                    )
            if chosen < OPENING and len(legal) > 1:
                action = rng.choice(legal)
            else:
                action = bots[state.current_player()].choose(state)
            chosen += len(legal) > 1
            state.apply_action(action)
        result = 0.5 + 0.5 * state.returns()[0] / max(1e-9, game.max_utility)
        end = len(state.history())
        found.extend((x, result, end - at) for x, at in seen)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", choices=sorted(CANDIDATES))
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--simulations", type=int, default=160)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--bands",
        type=int,
        nargs="+",
        default=[30, 60],
        help="band edges in actions left to the end",
    )
    args = parser.parse_args(argv)
    found = pairs(args.game, args.games, args.simulations, args.seed)
    edges = [0, *sorted(args.bands), 10**9]
    print(f"{args.game}: {args.games} games, {len(found)} positions\n")
    print("| actions left | positions | slope a | log-loss |")
    print("|---|---|---|---|")
    for lo, hi in zip(edges, edges[1:], strict=False):
        band = [(x, y) for x, y, left in found if lo <= left < hi]
        if not band:
            continue
        a, loss = fit_slope([x for x, _ in band], [y for _, y in band])
        top = "…" if hi >= 10**9 else str(hi - 1)
        print(f"| {lo}–{top} | {len(band)} | {a:.2f} | {loss:.4f} |", flush=True)
    a, loss = fit_slope([x for x, _, _ in found], [y for _, y, _ in found])
    print(f"| all | {len(found)} | {a:.2f} | {loss:.4f} |")


if __name__ == "__main__":
    main()
