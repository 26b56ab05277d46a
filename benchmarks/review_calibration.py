"""How a review's values map to winning chances, per game: the slope that `review_levels`'s
`REVIEW_CALIBRATION` holds (issue 42).

    python -m benchmarks.review_calibration GAME [--games 30] [--bot mcts:medium]
        [--level medium] [--every 3] [--opening 4] [--seed 1]

lichess's accuracy formula and its marks are fitted on winning chances: a drop of 0.1 is a
tenth of the games. A review's value is the best move's mean return in a search of the review's
budget (`review.search_position`), which need not be one: an evaluator's ``tanh(lead / scale)``
reads a decided Halali! position 0.3, where the side behind loses nearly every game. So games
are played out by two equal bots (`--bot`, from `--opening` random moves, for positions of every
kind), every `--every`-th position where a seat chooses is searched at the review's level, and
the mover's value is paired with the mover's result at the end. The fit is one number per game,
the slope `a` of chance = σ(a · logit(value)): symmetric (1 − value maps to 1 − chance), exact
values (0, 1) unmoved, a = 1 the identity. It is the maximum-likelihood slope over every pair
(proven values left out: the solver's are already certain), found by bisection on the
likelihood's derivative.

Pairs are kept in ``/tmp/review_calibration/GAME_LEVEL_BOT.jsonl`` one game a line, so a run
resumes; the fit reads them all. Prints the pairs per value bin (mean value, mean result) before
and after the fit, and the log-loss at a = 1 and at the fitted slope.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Sequence
from pathlib import Path

from gamehall.ai import make_bot
from gamehall.ai.review import review_budget, search_position
from gamehall.ai.review_levels import calibrated_chance
from gamehall.core import CHANCE, load_game

CACHE = Path("/tmp/review_calibration")
EDGE = 1e-4
"""Values are clamped to [EDGE, 1 − EDGE] before their logit (a searched 0 or 1 that is not
proven is a value, not a certainty)."""

Pair = tuple[float, float]
"""(the mover's value at the review's budget, the mover's result 0..1)."""


def logit(v: float) -> float:
    v = min(1.0 - EDGE, max(EDGE, v))
    return math.log(v / (1.0 - v))


def play_one(name: str, bot: str, level: str, seed: int, every: int,
             opening: int) -> list[Pair]:
    """One game by two `bot`s from `opening` random choices; the mover's value at every
    `every`-th choice, paired with the mover's result."""
    rng = random.Random(seed)
    game = load_game(name)
    budget = review_budget(level, name)
    state = game.new_initial_state(seed)
    bots = [make_bot(bot, rng.randrange(2**31)) for _ in range(game.num_players)]
    taken: list[tuple[int, float]] = []
    choices = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            choices += 1
            if choices > opening and choices % every == 0:
                found = search_position(state, simulations=budget.simulations,
                                        seed=rng.randrange(2**31),
                                        chance_widening=budget.widening, rave=budget.rave)
                if not found.root.exact:
                    taken.append((player, found.root.chances[player]))
        action = rng.choice(legal) if choices <= opening else bots[player].choose(state)
        state.apply_action(action)
    span = game.max_utility - game.min_utility
    result = [(r - game.min_utility) / span for r in state.returns()]
    return [(value, result[player]) for player, value in taken]


def log_loss(pairs: Sequence[Pair], a: float) -> float:
    """Mean negative log-likelihood of the results under chance = σ(a · logit(value))."""
    total = 0.0
    for v, y in pairs:
        p = min(1.0 - 1e-12, max(1e-12, 1.0 / (1.0 + math.exp(-a * logit(v)))))
        total -= y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
    return total / max(1, len(pairs))


def fit_slope(pairs: Sequence[Pair], low: float = 0.05, high: float = 30.0) -> float:
    """The maximum-likelihood slope: the root of Σ (y − σ(a·L)) · L, which falls as `a` grows
    (the likelihood is concave in `a`), by bisection between `low` and `high`."""
    def slope(a: float) -> float:
        return sum((y - 1.0 / (1.0 + math.exp(-a * logit(v)))) * logit(v) for v, y in pairs)

    if not pairs or slope(low) <= 0:
        return low
    if slope(high) >= 0:
        return high
    for _ in range(60):
        mid = (low + high) / 2
        if slope(mid) > 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def bins(pairs: Sequence[Pair], a: float, n: int = 10) -> list[str]:
    """Per tenth of the value: pairs, mean value, mean calibrated chance, mean result."""
    lines = []
    for k in range(n):
        inside = [(v, y) for v, y in pairs if k / n <= v < (k + 1) / n or (k == n - 1 and v == 1)]
        if not inside:
            continue
        mean_v = sum(v for v, _ in inside) / len(inside)
        mean_c = sum(calibrated_chance(v, a) for v, _ in inside) / len(inside)
        mean_y = sum(y for _, y in inside) / len(inside)
        lines.append(f"| {k / n:.1f}-{(k + 1) / n:.1f} | {len(inside)} | {mean_v:.3f} | "
                     f"{mean_c:.3f} | {mean_y:.3f} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--bot", default="mcts:medium")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--opening", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{args.game}_{args.level}_{args.bot.replace(':', '-')}.jsonl"
    done = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    seen = {d["seed"] for d in done}
    for i in range(args.games):
        seed = args.seed + i
        if seed in seen:
            continue
        pairs = play_one(args.game, args.bot, args.level, seed, args.every, args.opening)
        done.append({"seed": seed, "pairs": pairs})
        with path.open("a") as out:
            out.write(json.dumps({"seed": seed, "pairs": pairs}) + "\n")
        print(f"game {i + 1}/{args.games}: {len(pairs)} pairs", flush=True)
    pairs = [(float(v), float(y)) for d in done for v, y in d["pairs"]]
    a = fit_slope(pairs)
    print(f"\n{args.game}, review level {args.level}, games by {args.bot}: "
          f"{len(done)} games, {len(pairs)} pairs")
    print(f"slope a = {a:.2f}; log-loss {log_loss(pairs, 1.0):.4f} at a = 1, "
          f"{log_loss(pairs, a):.4f} fitted\n")
    print("| value | pairs | mean value | mean chance (fitted) | mean result |")
    print("|---|---|---|---|---|")
    print("\n".join(bins(pairs, a)))


if __name__ == "__main__":
    main()
