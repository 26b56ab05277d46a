"""What a review searches per position at each level, per game, and how noisy that search is.

A review's level is not a bot's: a bot must answer in a second or two a move, a review must
read each position's value well enough to mark a real blunder and leave a good move alone, and
may take up to half a minute for a 60-move game on one core (issue 42). So a review level has
its own simulations per game (`REVIEW_SIMULATIONS`, measured: benchmarks/README.md, "Review
budgets"), and the search's spread (`REVIEW_SPREAD`) is measured too, so the allowance taken
off every drop is the search's real noise, not a bound four times as large.
"""

from __future__ import annotations

import math

from gamehall.ai.levels import LEVEL_NAMES

REVIEW_SIMULATIONS: dict[str, dict[str, int]] = {
    "hula": {"easy": 300, "medium": 1500, "hard": 6000},
    "haugaz": {"easy": 120, "medium": 500, "hard": 2500},
    "halali": {"easy": 600, "medium": 3000, "hard": 12000},
    "hau_la": {"easy": 24, "medium": 100, "hard": 400},
    "hotu_matua": {"easy": 600, "medium": 3000, "hard": 12000},
}
"""Simulations a searched position per game (registry name) and review level. `medium`, the
default, marks every planted blunder and no false mistake in the records of
``python -m benchmarks.review_truth`` within 30 s of one core a 60-action game
(benchmarks/README.md, "Review truth"): Haugaz 500 (800 took 41 s), Hula 1500, Hotu Matua
3000, Halali! 3000, Hau La 100. Larger budgets were tried and not needed: Hula 3000 and Hotu
Matua 10000 (26 s and 12 s) marked the same and did not lower random's accuracy. `easy` is
about a fifth of `medium`, `hard` four times."""
DEFAULT_REVIEW_SIMULATIONS = {"easy": 200, "medium": 1000, "hard": 5000}
"""The budgets of a game that `REVIEW_SIMULATIONS` does not list (a plug-in)."""
REVIEW_SPREAD: dict[str, float] = {
    "halali": 0.02, "hau_la": 0.02, "hotu_matua": 0.02, "haugaz": 0.25, "hula": 0.45}
"""Per game, the standard deviation of a position's value times sqrt(the visits behind it):
the value's standard deviation is spread/sqrt(visits). Measured over positions of strong play
searched with several seeds (``python -m benchmarks.review_spread``, at medium: Halali! 0.006,
Hau La 0.01 and Hotu Matua 0.01, whose evaluators are deterministic, so the only noise is the
sampling of chance and of ties; Haugaz 0.24 and Hula 0.43, whose searches play random
playouts); rounded up. 0.5, the bound of any 0..1 return's, for a game not measured (a
plug-in)."""
UNMEASURED_SPREAD = 0.5


def review_simulations(level: str, game: str) -> int:
    """The simulations a position of a review at `level` in the game registered as `game`."""
    return REVIEW_SIMULATIONS.get(game, DEFAULT_REVIEW_SIMULATIONS)[level]


def review_spread(game: str) -> float:
    """A simulation's spread in `game` (`REVIEW_SPREAD`; the 0.5 bound where not measured)."""
    return REVIEW_SPREAD.get(game, UNMEASURED_SPREAD)


REVIEW_CALIBRATION: dict[str, float] = {"hula": 2.4, "halali": 1.5, "hotu_matua": 1.3}
"""Per game, the slope `a` that maps a review's value at `medium` to a winning chance,
chance = σ(a · logit(value)) (`calibrated_chance`), fitted to games played out by two
`mcts:medium` bots (``python -m benchmarks.review_calibration GAME``; benchmarks/README.md,
"Review calibration"): Hula 2.36 (818 values of 40 games), Halali! 1.51 (1351 of 30), Hotu
Matua 1.33 (517 of 40): the values are too timid, a Hula position read 0.35 is lost 92 times
in 100. Haugaz's fit is 0.14 (617 of 16): its values at the review's budget carry next to
nothing of the result, and a slope below 1 would only shrink the drops the review can see, so
it is left at 1, as is Hau La (not measured; its review meets the goals as it is). A game not
listed is read as calibrated (a = 1)."""


def calibrated_chance(value: float, slope: float) -> float:
    """A value (0..1) as a winning chance: σ(slope · logit(value)). Symmetric (1 − value gives
    1 − chance, so a two-seat pair stays a pair), 0 and 1 unmoved, slope 1 the identity."""
    if slope == 1.0 or value <= 0.0 or value >= 1.0:
        return value
    return 1.0 / (1.0 + math.exp(-slope * math.log(value / (1.0 - value))))


def review_calibration(game: str) -> float:
    """The slope of `game`'s values (`REVIEW_CALIBRATION`; 1 where not measured)."""
    return REVIEW_CALIBRATION.get(game, 1.0)


def levels_help() -> str:
    """The review levels' simulations per game, in words, from the table (command help)."""
    games = ", ".join(
        f"{game} {'/'.join(f'{REVIEW_SIMULATIONS[game][lv]:,}' for lv in LEVEL_NAMES)}"
        for game in sorted(REVIEW_SIMULATIONS))
    return f"simulations a position at {'/'.join(LEVEL_NAMES)}: {games}"
