"""Marks and accuracy from winning chances, as lichess's analysis computes them.

A winning chance is a seat's expected normalised return on 0..1: in a 2-player game the chance
of winning plus half the chance of a draw (lichess's win percent over 100); in a 3–4 player game
the seat's expected score, which for a game that pays only the winner (Hau La) is its chance of
winning. lichess derives its win percent from the engine's centipawns; the MCTS root value is
already one, so only the steps after that are taken over:

- a move's **drop** is the mover's chance before it less the chance after it; drops of 0.1, 0.2
  and 0.3 mark an inaccuracy, a mistake and a blunder;
- a move's **accuracy** is 103.1668·exp(−0.04354·Δ) − 3.1669 + 1 (Δ the drop in percentage
  points), clamped to 0..100; no drop is 100;
- a move counts in the accuracy only where its mover had at least the least marked drop (0.1) to
  lose (`at_stake`): below it every move is 100 or nearly, like a forced move's, and would
  drown the moves that decided the game (lichess counts them);
- a player's **game accuracy** is the mean of two means of their moves' accuracies (a move
  being a turn: a turn of several steps counts once, `review.turn_moves`): one weighted
  by the volatility of the game around each move (the standard deviation of the chances over a
  window of positions), one harmonic (each accuracy at least 1), so a calm game's steady moves
  and one bad move both count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MARKS: tuple[tuple[str, float], ...] = (("blunder", 0.3), ("mistake", 0.2), ("inaccuracy", 0.1))
"""The least drop of each mark, worst first (lichess's thresholds on the 0..1 scale)."""

_A, _K, _B = 103.1668100711649, 0.04354415386753951, -3.166924740191411
"""lichess's fit of accuracy against the win-percent drop."""
UNCERTAINTY_BONUS = 1.0
"""Added to every move's accuracy by lichess, for the imperfect analysis."""
WINDOW_MIN, WINDOW_MAX = 2, 8
WEIGHT_MIN, WEIGHT_MAX = 0.5, 12.0


AT_STAKE = MARKS[-1][1]
"""The least winning chance a mover must have for its move to count in its accuracy: below it
no move can lose even an inaccuracy's worth (`MARKS`' least drop), so, like a forced move, the
move tells nothing of its mover (see `at_stake`)."""


def at_stake(chance: float) -> bool:
    """Whether a move whose mover had `chance` (its best move's value, 0..1) counts in its
    accuracy. lichess counts every move, each at least as accurate as its drop allows, so a
    player lost early scores near 100 on every move after (a random Hau La player lost by its
    third turn read 77%, issue 42) and the volatility weights only thin them out; a move with
    nothing left to lose is a move without a choice that matters, as a forced one is, and is
    left out the same way. A move from a won position still counts: it can throw the win."""
    return chance >= AT_STAKE


def mark(drop: float) -> str | None:
    """The mark of a move whose mover's chance dropped by `drop` (0..1), or None."""
    for name, least in MARKS:
        if drop >= least:
            return name
    return None


def move_accuracy(drop: float) -> float:
    """A move's accuracy in percent from its drop in winning chance (0..1)."""
    if drop <= 0.0:
        return 100.0
    raw = _A * math.exp(-_K * drop * 100.0) + _B + UNCERTAINTY_BONUS
    return min(100.0, max(0.0, raw))


def _pstdev(values: Sequence[float]) -> float:
    """The population standard deviation (lichess's), 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def volatility_weights(chances: Sequence[float]) -> list[float]:
    """One weight per move of a series of positions' chances (one seat's, 0..1; n + 1 positions
    for n moves): the standard deviation in percentage points of a window of positions ending
    just after the move, the window n/10 positions long (2..8), the first moves all taking the
    first window; each weight clamped to 0.5..12 — lichess's way."""
    values = [100.0 * c for c in chances]
    moves = len(values) - 1
    if moves < 1:
        return []
    size = min(WINDOW_MAX, max(WINDOW_MIN, moves // 10))
    first = values[:size]
    windows = [first] * (min(size, len(values)) - 2)
    if len(values) <= size:
        windows.append(values)
    else:
        windows.extend(values[i:i + size] for i in range(len(values) - size + 1))
    weights = [min(WEIGHT_MAX, max(WEIGHT_MIN, _pstdev(w))) for w in windows]
    return weights[:moves]


def weighted_mean(pairs: Sequence[tuple[float, float]]) -> float | None:
    """Σ value·weight / Σ weight over (value, weight) pairs; None without weight."""
    total = sum(w for _, w in pairs)
    if not pairs or total == 0:
        return None
    return sum(v * w for v, w in pairs) / total


def harmonic_mean(values: Sequence[float]) -> float | None:
    """The harmonic mean with every value taken as at least 1 (so a 0 does not swallow it all)."""
    if not values:
        return None
    return len(values) / sum(1.0 / max(1.0, v) for v in values)


def game_accuracy(moves: Sequence[tuple[float, float]]) -> float | None:
    """One player's accuracy from their moves' (accuracy, volatility weight) pairs: the mean of
    the weighted and the harmonic mean; None for a player who made no move that counts."""
    weighted = weighted_mean(moves)
    harmonic = harmonic_mean([a for a, _ in moves])
    if weighted is None or harmonic is None:
        return None
    return (weighted + harmonic) / 2.0
